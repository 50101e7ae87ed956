//! Stand-alone driver of the CUDA backend's `selftest` and `bench` (for device runs without the
//! whole agent): `selftest [selftest args]` or `selftest bench [bench args]`.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "PoG CUDA backend self-test and benchmark")]
struct Cli {
	#[command(subcommand)]
	command: Option<Command>,
	#[command(flatten)]
	selftest: pog_cuda::selftest::SelftestArgs,
}

#[derive(Subcommand)]
enum Command {
	/// The local benchmark.
	Bench(pog_cuda::bench::BenchArgs),
	/// List the GPUs.
	Detect,
}

fn main() -> anyhow::Result<()> {
	tracing_subscriber::fmt()
		.with_env_filter(
			tracing_subscriber::EnvFilter::try_from_default_env()
				.unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
		)
		.with_writer(std::io::stderr)
		.init();
	let cli = Cli::parse();
	match cli.command {
		Some(Command::Bench(args)) => pog_cuda::bench::run(&args),
		Some(Command::Detect) => {
			let gpus = pog_cuda::detect()?;
			println!("{}", serde_json::to_string_pretty(&gpus)?);
			Ok(())
		},
		None => pog_cuda::selftest::run(&cli.selftest),
	}
}
