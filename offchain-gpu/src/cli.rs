//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use pog_cuda::{
	bench::{BenchConfig, LanesBenchConfig, MemoryBenchConfig},
	kernels::WalkShape,
	selftest::SelftestConfig,
};
use pog_primitives::Precision;

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
	Bench(BenchArgs),
	/// Check this GPU against the protocol: known answers, honest results pass verification,
	/// lower-precision results fail, GEMM rate against the library's.
	Selftest(SelftestArgs),
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
	/// Where the chain is and who the miner is.
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
	/// Also claim this machine's CPU, as one unit of the per-core profile (`cpu-core`): every
	/// round challenges it with the work of all its declared cores, and a pass scores them.
	#[arg(long)]
	pub cpu: bool,
	/// Update the claims of an already registered miner instead of failing.
	#[arg(long)]
	pub update: bool,
	/// Tests only: claim this many GPUs more than are present (a cheating miner).
	#[cfg(feature = "adversary")]
	#[arg(long, default_value_t = 0)]
	pub adversary_extra_gpus: u32,
}

/// `run` options.
#[derive(Debug, Args)]
pub struct RunArgs {
	/// Where the chain is and who the miner is.
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
	/// Serve the openings of selected GPUs to their committees from this address (for example
	/// 0.0.0.0:9955) instead of revealing them on chain; needs `--openings-url`. Registers the
	/// endpoint on chain; it applies from the next round on.
	#[arg(long, requires = "openings_url")]
	pub serve_openings: Option<std::net::SocketAddr>,
	/// The URL at which validators reach `--serve-openings` (http:// or https://, at most 256
	/// bytes), for example http://203.0.113.7:9955/pog.
	#[arg(long, requires = "serve_openings")]
	pub openings_url: Option<String>,
	/// Tests only: behave like a cheating miner.
	#[cfg(feature = "adversary")]
	#[arg(long, value_enum)]
	pub adversary: Option<crate::adversary::Adversary>,
}

impl From<BackendChoice> for crate::miner::Backend {
	fn from(choice: BackendChoice) -> Self {
		match choice {
			BackendChoice::Auto => Self::Auto,
			BackendChoice::Gpu => Self::Gpu,
			BackendChoice::Cpu => Self::Cpu,
		}
	}
}

impl RunArgs {
	/// The miner loop's configuration from these flags: the key read, the state directory
	/// defaulted, the behaviour chosen.
	pub fn miner_config(&self) -> anyhow::Result<crate::miner::MinerConfig> {
		Ok(crate::miner::MinerConfig {
			url: self.chain.url.clone(),
			key: crate::chain::load_key(self.chain.suri.as_deref(), self.chain.key_file.as_deref())?,
			backend: self.backend.into(),
			cpu_threads: self.cpu_threads,
			state_dir: self.state_dir.clone().unwrap_or_else(crate::miner::default_state_dir),
			exit_after: self.exit_after,
			behaviour: self.behaviour(),
			serve: self.serve_config()?,
		})
	}

	/// Where the openings are served, if they are: the listen address and the URL, checked as
	/// the chain checks an endpoint.
	fn serve_config(&self) -> anyhow::Result<Option<crate::serve::ServeConfig>> {
		let (Some(listen), Some(url)) = (self.serve_openings, self.openings_url.clone()) else { return Ok(None) };
		if !pog_primitives::endpoint::valid_endpoint(url.as_bytes()) {
			anyhow::bail!(
				"--openings-url {url:?}: an http:// or https:// URL with a host, printable ASCII without spaces, at most \
				 256 bytes (the chain refuses any other)"
			);
		}
		Ok(Some(crate::serve::ServeConfig { listen, url }))
	}

	/// How the miner behaves: as the protocol asks, unless a test built it to cheat.
	pub fn behaviour(&self) -> crate::adversary::Behaviour {
		#[cfg(feature = "adversary")]
		return crate::adversary::Behaviour::new(self.adversary);
		#[cfg(not(feature = "adversary"))]
		crate::adversary::Behaviour::default()
	}
}

/// `status` options.
#[derive(Debug, Args)]
pub struct StatusArgs {
	/// Where the chain is and who the miner is.
	#[command(flatten)]
	pub chain: ChainArgs,
	/// Print JSON.
	#[arg(long)]
	pub json: bool,
}

fn parse_precision(s: &str) -> Result<Precision, String> {
	s.parse().map_err(|e| format!("{s}: {e}"))
}

fn parse_fraction(s: &str) -> Result<f64, String> {
	let f: f64 = s.parse().map_err(|e| format!("{s}: {e}"))?;
	if f > 0.0 && f <= 1.0 {
		Ok(f)
	} else {
		Err(format!("{s}: a share of the dataset, more than 0 and at most 1 (e.g. 0.95)"))
	}
}

/// `bench` options.
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
	/// CUDA device ordinal.
	#[arg(long, default_value_t = 0)]
	pub device: usize,
	/// Precisions (comma-separated; default: all).
	#[arg(long, value_delimiter = ',', value_parser = parse_precision)]
	pub precision: Vec<Precision>,
	/// Seconds of the sustained run per precision.
	#[arg(long, default_value_t = BenchConfig::default().seconds)]
	pub seconds: f64,
	/// m = n of the benchmark GEMM (k = --chunk-k per GEMM).
	#[arg(long, default_value_t = BenchConfig::default().dim)]
	pub dim: u32,
	/// Chunk length along k.
	#[arg(long, default_value_t = BenchConfig::default().chunk_k)]
	pub chunk_k: u32,
	/// GEMM time in ms of the proof-overhead challenge (output size from the GPU's memory;
	/// 0 skips it).
	#[arg(long, default_value_t = BenchConfig::default().overhead_ms)]
	pub overhead_ms: u32,
	/// Run fp8 on the int8 path (int8 tensor cores, as `run` does where the profile's int8 rate is
	/// above its native fp8), even where the GPU has fp8.
	#[arg(long)]
	pub fp8_int8_path: bool,
	/// Measure the memory-hard phase instead of the GEMMs: fill time and data-dependent read
	/// rate of a dataset of this many GiB (0: 0.9 × the GPU's memory). Not in rounds yet.
	#[arg(long, value_name = "GIB")]
	pub memory: Option<f64>,
	/// With --memory: the parent counts to run.
	#[arg(long, value_delimiter = ',', default_values_t = MemoryBenchConfig::default().parents, requires = "memory")]
	pub parents: Vec<u32>,
	/// With --memory: keep only this share of the dataset in memory and make the rest again from
	/// the cache when it is read (what a card that cannot hold the dataset must do; an
	/// instrument for the soundness measurements).
	#[arg(long, value_name = "FRACTION", requires = "memory", value_parser = parse_fraction)]
	pub resident: Option<f64>,
	/// With --memory: log₂ of the walks per phase (10 to 40).
	#[arg(long, default_value_t = MemoryBenchConfig::default().walks_log2, requires = "memory",
		value_parser = clap::value_parser!(u32).range(10..=40))]
	pub walks_log2: u32,
	/// With --memory: phases per parent count.
	#[arg(long, default_value_t = MemoryBenchConfig::default().runs, requires = "memory")]
	pub runs: u32,
	/// With --memory: walk a whole dataset in this shape (narrow: four walks a quad at four
	/// blocks a multiprocessor; wide: sixteen at eight) instead of the one the agent picks for
	/// the dataset's size; to compare the two on one card.
	#[arg(long, value_enum, requires = "memory", conflicts_with = "resident")]
	pub walk_shape: Option<WalkShapeArg>,
	/// Measure a per-core CPU unit of this many cores answered by this GPU instead of the GEMMs:
	/// its lanes a thread each, against the deadline the chain would set (mainnet rules).
	#[arg(long, value_name = "CORES", conflicts_with = "memory", value_parser = clap::value_parser!(u32).range(1..=65_536))]
	pub lanes: Option<u32>,
	/// With --lanes: links run of each lane (the rest of the phase is projected from their time).
	#[arg(long, default_value_t = 64, requires = "lanes")]
	pub lane_links: u64,
	/// With --lanes: the chain's slack_ms (mainnet's).
	#[arg(long, default_value_t = 30_000, requires = "lanes")]
	pub slack_ms: u32,
	/// Print JSON instead of a table.
	#[arg(long)]
	pub json: bool,
	/// Write the throughput-over-time trace as SVG.
	#[arg(long)]
	pub plot: Option<PathBuf>,
}

/// `bench --walk-shape`: [`WalkShape`] on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WalkShapeArg {
	/// Four walks a quad, four blocks a multiprocessor.
	Narrow,
	/// Sixteen walks a quad, eight blocks a multiprocessor.
	Wide,
}

impl BenchArgs {
	/// What the benchmark measures.
	pub fn config(&self) -> BenchConfig {
		BenchConfig {
			device: self.device,
			precisions: self.precision.clone(),
			seconds: self.seconds,
			dim: self.dim,
			chunk_k: self.chunk_k,
			overhead_ms: self.overhead_ms,
			fp8_int8_path: self.fp8_int8_path,
			memory: self.memory.map(|gib| MemoryBenchConfig {
				gib,
				parents: self.parents.clone(),
				resident: self.resident,
				walks_log2: self.walks_log2,
				runs: self.runs,
				shape: self.walk_shape.map(|s| match s {
					WalkShapeArg::Narrow => WalkShape::Narrow,
					WalkShapeArg::Wide => WalkShape::Wide,
				}),
			}),
			lanes: self.lanes.map(|cores| LanesBenchConfig { cores, links: self.lane_links, slack_ms: self.slack_ms }),
		}
	}
}

/// `selftest` options.
#[derive(Debug, Args, Clone)]
pub struct SelftestArgs {
	/// CUDA device ordinal.
	#[arg(long, default_value_t = 0)]
	pub device: usize,
	/// Prove one challenge on every GPU concurrently and report how many succeeded.
	#[arg(long)]
	pub all_gpus: bool,
	/// Only the multi-GPU check (with --all-gpus).
	#[arg(long)]
	pub only_all_gpus: bool,
	/// Precisions to test (comma-separated; default: all).
	#[arg(long, value_delimiter = ',', value_parser = parse_precision)]
	pub precision: Vec<Precision>,
	/// m = n of the tolerance checks.
	#[arg(long, default_value_t = SelftestConfig::default().dim)]
	pub dim: u32,
	/// k of the tolerance checks.
	#[arg(long, default_value_t = SelftestConfig::default().k)]
	pub k: u32,
	/// Chunk length along k.
	#[arg(long, default_value_t = SelftestConfig::default().chunk_k)]
	pub chunk_k: u32,
	/// Entries checked per precision (whole leaves of 256).
	#[arg(long, default_value_t = SelftestConfig::default().entries)]
	pub entries: u32,
	/// m = n of the GEMM-rate measurement (k = chunk_k per GEMM).
	#[arg(long, default_value_t = SelftestConfig::default().rate_dim)]
	pub rate_dim: u32,
	/// GEMMs timed per precision for the rate.
	#[arg(long, default_value_t = SelftestConfig::default().rate_gemms)]
	pub rate_gemms: usize,
	/// PyTorch reference (JSON written by benchmarking/gpu/torch_ref.py) to compare rates with.
	#[arg(long)]
	pub torch: Option<PathBuf>,
	/// Target GEMM time in ms of the full-size proof-overhead run (0: skip).
	#[arg(long, default_value_t = 0)]
	pub full_ms: u32,
	/// Precisions of the full-size run (default: bf16).
	#[arg(long, value_delimiter = ',', value_parser = parse_precision)]
	pub full_precision: Vec<Precision>,
	/// Also prove fp8 with cuBLASLt's FAST_ACCUM on (a ~14-bit accumulator the tolerance must
	/// catch).
	#[arg(long)]
	pub fp8_fast_accum_check: bool,
	/// Run fp8 on the int8 path (int8 tensor cores, as `run` does where the profile's int8 rate is
	/// above its native fp8), even where the GPU has fp8.
	#[arg(long)]
	pub fp8_int8_path: bool,
	/// Save the results as JSON.
	#[arg(long)]
	pub json: Option<PathBuf>,
}

impl SelftestArgs {
	/// What the self-test checks.
	pub fn config(&self) -> SelftestConfig {
		SelftestConfig {
			device: self.device,
			all_gpus: self.all_gpus,
			only_all_gpus: self.only_all_gpus,
			precisions: self.precision.clone(),
			dim: self.dim,
			k: self.k,
			chunk_k: self.chunk_k,
			entries: self.entries,
			rate_dim: self.rate_dim,
			rate_gemms: self.rate_gemms,
			torch: self.torch.clone(),
			full_ms: self.full_ms,
			full_precisions: self.full_precision.clone(),
			fp8_fast_accum_check: self.fp8_fast_accum_check,
			fp8_int8_path: self.fp8_int8_path,
		}
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn cheating_flags_exist_only_in_an_adversary_build() {
		let run = Cli::try_parse_from(["offchain-gpu", "run", "--suri", "//Bob", "--adversary", "corrupt"]);
		assert_eq!(run.is_ok(), cfg!(feature = "adversary"), "run --adversary");
		let register =
			Cli::try_parse_from(["offchain-gpu", "register", "--suri", "//Bob", "--adversary-extra-gpus", "2"]);
		assert_eq!(register.is_ok(), cfg!(feature = "adversary"), "register --adversary-extra-gpus");
		assert!(Cli::try_parse_from(["offchain-gpu", "run", "--suri", "//Bob"]).is_ok());
	}

	#[test]
	fn precisions_parse_by_name() {
		let cli = Cli::try_parse_from(["offchain-gpu", "bench", "--precision", "bf16,FP8"]).unwrap();
		let Command::Bench(args) = cli.command else { panic!("bench") };
		assert_eq!(args.config().precisions, vec![Precision::Bf16, Precision::Fp8E4M3]);
		assert!(Cli::try_parse_from(["offchain-gpu", "bench", "--precision", "int8"]).is_err());
	}

	#[test]
	fn memory_bench_options_are_checked() {
		let ok = |args: &[&str]| Cli::try_parse_from([&["offchain-gpu", "bench"], args].concat()).is_ok();
		assert!(ok(&["--memory", "0", "--parents", "1024", "--resident", "0.95", "--walks-log2", "30"]));
		assert!(!ok(&["--memory", "0", "--resident", "1.5"]), "more than the whole dataset");
		assert!(!ok(&["--memory", "0", "--resident", "0"]), "nothing resident");
		assert!(!ok(&["--memory", "0", "--walks-log2", "41"]), "too many walks");
		assert!(!ok(&["--resident", "0.9"]), "--resident without --memory");
		assert!(ok(&["--memory", "0", "--walk-shape", "wide"]));
		assert!(!ok(&["--walk-shape", "wide"]), "--walk-shape without --memory");
		assert!(
			!ok(&["--memory", "0", "--resident", "0.9", "--walk-shape", "narrow"]),
			"a shape for part of a dataset"
		);
		assert!(!ok(&["--memory", "0", "--walk-shape", "round"]), "no such shape");
	}
}
