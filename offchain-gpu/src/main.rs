//! `offchain-gpu`, the PoG chain miner agent. See `offchain-gpu --help`.

use clap::Parser;

use offchain_gpu::{cli::Cli, commands};

#[tokio::main]
async fn main() -> std::process::ExitCode {
	let cli = Cli::parse();
	offchain_gpu::init_logging(cli.verbose);
	match commands::dispatch(cli.command).await {
		Ok(()) => std::process::ExitCode::SUCCESS,
		Err(e) => {
			eprintln!("error: {e:#}");
			std::process::ExitCode::FAILURE
		},
	}
}
