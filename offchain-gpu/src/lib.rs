//! The PoG chain miner agent as a library: the binary `offchain-gpu` is a thin `main` over it.
//!
//! - the devices that compute and commit are `pog-prover`'s (the `Prover` trait and the CPU
//!   prover) and `pog-cuda`'s (CUDA GPUs); [`adversary`] is how a test-only cheating miner
//!   departs from the protocol (cargo feature `adversary`);
//! - [`chain`]: the subxt client, generated from the runtime's metadata;
//! - [`miner`]: the loop that answers challenges;
//! - [`serve`]: the openings served to the committees off chain;
//! - [`load`]: the load benchmark's many miners in one process (`pog-load`);
//! - [`state`]: in-flight challenges persisted across restarts;
//! - [`hardware`]: what the machine has;
//! - [`cli`] and [`commands`]: the command line.

#![warn(missing_docs)]

pub mod adversary;
pub mod chain;
pub mod cli;
pub mod commands;
pub mod hardware;
pub mod load;
pub mod miner;
pub mod serve;
pub mod state;

/// Logs to stderr with `tracing`; `RUST_LOG` overrides the level set by `-v`.
pub fn init_logging(verbose: u8) {
	let default = match verbose {
		0 => "info",
		1 => "debug",
		_ => "trace",
	};
	let filter = tracing_subscriber::EnvFilter::try_from_default_env()
		.unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
	tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
}
