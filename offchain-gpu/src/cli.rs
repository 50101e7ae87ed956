//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// offchain-gpu: the PoG chain miner agent. It proves your GPUs to the chain by answering
/// pallet-pog's seeded GEMM challenges: compute C = A·B, commit its Merkle root before the
/// deadline, reveal the sampled leaves, and earn a score.
///
/// A miner's first steps: `offchain-gpu hardware` (what is found), `offchain-gpu bench` (how fast
/// it is, no chain needed), `offchain-gpu register --suri ...` (claim the GPUs, holds a deposit),
/// then `offchain-gpu run --suri ...` (answer challenges; leave it running) and
/// `offchain-gpu status --suri ...` (the record, challenges and score).
#[derive(Debug, Parser)]
#[command(name = "offchain-gpu", version, propagate_version = true)]
pub struct Cli {
	/// What to do.
	#[command(subcommand)]
	pub command: Command,
	/// More log output (-v debug, -vv trace); RUST_LOG overrides.
	#[arg(short, long, action = clap::ArgAction::Count, global = true)]
	pub verbose: u8,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
	/// Show the GPUs (NVML), CPU, memory and disk this machine would claim.
	Hardware {
		/// Print JSON.
		#[arg(long)]
		json: bool,
	},
	/// Benchmark the GPU locally, no chain needed: TFLOPS per precision (burst and sustained),
	/// throughput over time, memory bandwidth and proof overhead.
	Bench(pog_cuda::bench::BenchArgs),
	/// Check this GPU against the protocol: known answers, honest results pass verification,
	/// lower-precision results fail, GEMM rate against the library's.
	Selftest(pog_cuda::selftest::SelftestArgs),
	/// Register as a miner, claiming the detected GPUs (or, without a GPU, the CPU reference).
	Register(RegisterArgs),
	/// Answer challenges until stopped (Ctrl-C).
	Run(RunArgs),
	/// Show the miner's record, challenges and score from the chain.
	Status(StatusArgs),
	/// Deregister and release the deposit.
	Deregister(ChainArgs),
}

/// Where the chain is and who the miner is.
#[derive(Debug, Args, Clone)]
pub struct ChainArgs {
	/// The node's RPC address.
	#[arg(long, env = "POG_URL", default_value = "ws://127.0.0.1:9944")]
	pub url: String,
	/// The miner's secret URI: a dev account (`//Alice`), a mnemonic, or a 0x seed.
	#[arg(long, env = "POG_SURI", conflicts_with = "key_file")]
	pub suri: Option<String>,
	/// A file whose first line is the miner's secret URI.
	#[arg(long, env = "POG_KEY_FILE")]
	pub key_file: Option<PathBuf>,
}

/// Which device answers challenges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
	/// The GPUs if any are found, else the CPU (with a warning).
	Auto,
	/// The GPUs; fail if none is found.
	Gpu,
	/// The CPU reference backend (slow; the dev chain's `cpu-reference` profile).
	Cpu,
}

/// `register` options.
#[derive(Debug, Args)]
pub struct RegisterArgs {
	#[command(flatten)]
	pub chain: ChainArgs,
	/// Which device to claim.
	#[arg(long, value_enum, default_value = "auto")]
	pub backend: BackendChoice,
	/// The profile to claim (name or id); default: the profile named like each GPU, or
	/// `cpu-reference` on the CPU backend.
	#[arg(long)]
	pub profile: Option<String>,
	/// How many units to claim on the CPU backend (each is challenged as one GPU).
	#[arg(long, default_value_t = 1)]
	pub cpu_units: u32,
	/// Update the claims of an already registered miner instead of failing.
	#[arg(long)]
	pub update: bool,
	/// Tests only: claim this many GPUs more than are present (a cheating miner).
	#[arg(long, hide = true, default_value_t = 0)]
	pub adversary_extra_gpus: u32,
}

/// `run` options.
#[derive(Debug, Args)]
pub struct RunArgs {
	#[command(flatten)]
	pub chain: ChainArgs,
	/// Which device answers.
	#[arg(long, value_enum, default_value = "auto")]
	pub backend: BackendChoice,
	/// CPU threads for the CPU backend (0 = all cores).
	#[arg(long, default_value_t = 0)]
	pub cpu_threads: usize,
	/// Where in-flight challenges are recorded (default: the user's data directory).
	#[arg(long, env = "POG_STATE_DIR")]
	pub state_dir: Option<PathBuf>,
	/// Exit after this many challenges reached a final status (0 = run until stopped).
	#[arg(long, default_value_t = 0)]
	pub exit_after: u32,
	/// Tests only: behave like a cheating miner.
	#[arg(long, hide = true, value_enum)]
	pub adversary: Option<Adversary>,
}

/// The ways the adversarial mode cheats (tests only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Adversary {
	/// Add large errors to 5% of C before committing.
	Corrupt,
	/// Compute in the next-lower precision.
	LowerPrecision,
	/// Reveal openings with a forged Merkle path.
	ForgedPath,
	/// Commit after the deadline.
	LateCommit,
	/// Commit a constant C at once, computing nothing (also measures the validators' cost of a
	/// full-size challenge without a GPU).
	Constant,
}

/// `status` options.
#[derive(Debug, Args)]
pub struct StatusArgs {
	#[command(flatten)]
	pub chain: ChainArgs,
	/// Print JSON.
	#[arg(long)]
	pub json: bool,
}
