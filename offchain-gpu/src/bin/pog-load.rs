//! `pog-load`: the load benchmark's miners (`benchmarking/load/README.md`). Answers every round
//! of `--accounts` registered miners (`{--suri-prefix}0`, `{--suri-prefix}1`, …) from one
//! process on the CPU prover, serving their openings at `{--openings-url}/{i}`. Built only for
//! the benchmark: `cargo build --release -p offchain-gpu --features load --bin pog-load`.

use std::net::SocketAddr;

use clap::Parser;
use offchain_gpu::{chain::load_key, load, serve::ServeConfig};

/// The load benchmark's miners.
#[derive(Debug, Parser)]
#[command(name = "pog-load", version)]
struct Args {
	/// The node's RPC address.
	#[arg(long, default_value = "ws://127.0.0.1:9944")]
	url: String,
	/// How many miners: the accounts `{suri-prefix}0` … `{suri-prefix}{accounts − 1}`.
	#[arg(long)]
	accounts: u32,
	/// The secret URI the miners' accounts are derived from.
	#[arg(long, default_value = "//load//")]
	suri_prefix: String,
	/// The socket the openings server listens on.
	#[arg(long, default_value = "127.0.0.1:9955")]
	serve_openings: SocketAddr,
	/// The URL committee members reach it at; miner i names `{url}/{i}` as its endpoint.
	#[arg(long, default_value = "http://127.0.0.1:9955")]
	openings_url: String,
	/// CPU threads of the prover (0: all cores).
	#[arg(long, default_value_t = 0)]
	threads: usize,
	/// Exit after this many rounds the miners took part in are settled (0: run until stopped).
	#[arg(long, default_value_t = 1)]
	rounds: u32,
}

impl Args {
	/// The library's configuration: the flags end here.
	fn config(self) -> anyhow::Result<load::LoadConfig> {
		let keys = (0..self.accounts)
			.map(|i| load_key(Some(&format!("{}{i}", self.suri_prefix)), None))
			.collect::<Result<Vec<_>, _>>()?;
		Ok(load::LoadConfig {
			url: self.url,
			keys,
			threads: self.threads,
			serve: ServeConfig { listen: self.serve_openings, url: self.openings_url },
			rounds: self.rounds,
		})
	}
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
	offchain_gpu::init_logging(0);
	let run = async { load::run(Args::parse().config()?).await };
	match run.await {
		Ok(()) => std::process::ExitCode::SUCCESS,
		Err(e) => {
			eprintln!("error: {e:#}");
			std::process::ExitCode::FAILURE
		},
	}
}
