//! Command line.

use sc_cli::RunCmd;

/// Subcommands besides running the node.
#[derive(Debug, clap::Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Subcommand {
	/// Key management (e.g. `key insert --key-type pog! --scheme sr25519` for a validator).
	#[command(subcommand)]
	Key(sc_cli::KeySubcommand),
	/// Build a chain specification.
	BuildSpec(sc_cli::BuildSpecCmd),
	/// Validate blocks.
	CheckBlock(sc_cli::CheckBlockCmd),
	/// Export blocks.
	ExportBlocks(sc_cli::ExportBlocksCmd),
	/// Export the state of a given block into a chain spec.
	ExportState(sc_cli::ExportStateCmd),
	/// Import blocks.
	ImportBlocks(sc_cli::ImportBlocksCmd),
	/// Remove the whole chain.
	PurgeChain(sc_cli::PurgeChainCmd),
	/// Revert the chain to a previous state.
	Revert(sc_cli::RevertCmd),
	/// Database metadata.
	ChainInfo(sc_cli::ChainInfoCmd),
	/// Benchmark the runtime's pallets (only in a node built with `--features runtime-benchmarks`;
	/// `scripts/bench-weights.sh` runs it and writes `pallets/pog/src/weights.rs`).
	#[cfg(feature = "runtime-benchmarks")]
	#[command(subcommand)]
	Benchmark(frame_benchmarking_cli::BenchmarkCmd),
}

/// The node's command line.
#[derive(Debug, clap::Parser)]
pub struct Cli {
	/// A subcommand; none runs the node.
	#[command(subcommand)]
	pub subcommand: Option<Subcommand>,

	/// Running the node.
	#[clap(flatten)]
	pub run: RunCmd,

	/// Start a live chain even though its genesis names a well-known dev key (Alice … Ferdie):
	/// only for trying the `production` preset's placeholders on a private machine.
	#[arg(long)]
	pub allow_dev_keys: bool,
}
