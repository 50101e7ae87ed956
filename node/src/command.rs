//! Parsing the command line and running the node or a subcommand.

use crate::{
	chain_spec,
	cli::{Cli, Subcommand},
	service,
};
use sc_cli::SubstrateCli;
use sc_service::PartialComponents;

impl SubstrateCli for Cli {
	fn impl_name() -> String {
		"PoG chain node".into()
	}

	fn impl_version() -> String {
		env!("SUBSTRATE_CLI_IMPL_VERSION").into()
	}

	fn description() -> String {
		env!("CARGO_PKG_DESCRIPTION").into()
	}

	fn author() -> String {
		env!("CARGO_PKG_AUTHORS").into()
	}

	fn support_url() -> String {
		"the maintainers of the PoG chain sources this node was built from (README.md)".into()
	}

	fn copyright_start_year() -> i32 {
		2026
	}

	fn load_spec(&self, id: &str) -> Result<Box<dyn sc_service::ChainSpec>, String> {
		Ok(match id {
			"dev" => Box::new(chain_spec::development_chain_spec()?),
			"" | "local" => Box::new(chain_spec::local_chain_spec()?),
			"production" => Box::new(chain_spec::production_chain_spec()?),
			path => Box::new(chain_spec::ChainSpec::from_json_file(std::path::PathBuf::from(path)).map_err(|e| {
				format!(
					"cannot load chain spec '{path}': {e}. Use --dev, --chain local, --chain production, or the path of a JSON chain spec \
					 (make one with `pog-node build-spec --chain local > spec.json`)"
				)
			})?),
		})
	}
}

/// Parse the command line and run.
pub fn run() -> sc_cli::Result<()> {
	let cli = Cli::from_args();

	match &cli.subcommand {
		Some(Subcommand::Key(cmd)) => cmd.run(&cli),
		Some(Subcommand::BuildSpec(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.sync_run(|config| cmd.run(config.chain_spec, config.network))
		},
		Some(Subcommand::CheckBlock(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				let PartialComponents { client, task_manager, import_queue, .. } = service::new_partial(&config)?;
				Ok((cmd.run(client, import_queue), task_manager))
			})
		},
		Some(Subcommand::ExportBlocks(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				let PartialComponents { client, task_manager, .. } = service::new_partial(&config)?;
				Ok((cmd.run(client, config.database), task_manager))
			})
		},
		Some(Subcommand::ExportState(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				let PartialComponents { client, task_manager, .. } = service::new_partial(&config)?;
				Ok((cmd.run(client, config.chain_spec), task_manager))
			})
		},
		Some(Subcommand::ImportBlocks(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				let PartialComponents { client, task_manager, import_queue, .. } = service::new_partial(&config)?;
				Ok((cmd.run(client, import_queue), task_manager))
			})
		},
		Some(Subcommand::PurgeChain(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.sync_run(|config| cmd.run(config.database))
		},
		Some(Subcommand::Revert(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				let PartialComponents { client, task_manager, backend, .. } = service::new_partial(&config)?;
				let aux_revert = Box::new(|client, _, blocks| {
					sc_consensus_grandpa::revert(client, blocks)?;
					Ok(())
				});
				Ok((cmd.run(client, backend, Some(aux_revert)), task_manager))
			})
		},
		Some(Subcommand::ChainInfo(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.sync_run(|config| cmd.run::<pog_runtime::opaque::Block>(&config))
		},
		#[cfg(feature = "runtime-benchmarks")]
		Some(Subcommand::Benchmark(frame_benchmarking_cli::BenchmarkCmd::Pallet(cmd))) => {
			if cmd.runtime.is_none() {
				return Err(sc_cli::Error::Input(
					"pass --runtime <WASM built with --features runtime-benchmarks> and --genesis-builder=runtime \
					 (scripts/bench-weights.sh does both)"
						.into(),
				));
			}
			cmd.run_with_spec::<
				sp_runtime::traits::HashingFor<pog_runtime::opaque::Block>,
				pallet_pog::host::pog_verifier::HostFunctions,
			>(None)
		},
		#[cfg(feature = "runtime-benchmarks")]
		Some(Subcommand::Benchmark(_)) => {
			Err(sc_cli::Error::Input("pog-node supports `benchmark pallet` only (scripts/bench-weights.sh)".into()))
		},
		None => {
			ensure_rpc_port_free(cli.run.rpc_params.rpc_port.unwrap_or(9944))?;
			let runner = cli.create_runner(&cli.run)?;
			if !cli.allow_dev_keys {
				refuse_placeholder_keys(runner.config().chain_spec.as_ref())?;
			}
			runner.run_node_until_exit(|config| async move {
				match config.network.network_backend {
					sc_network::config::NetworkBackendType::Libp2p => service::new_full::<
						sc_network::NetworkWorker<
							pog_runtime::opaque::Block,
							<pog_runtime::opaque::Block as sp_runtime::traits::Block>::Hash,
						>,
					>(config)
					.map_err(sc_cli::Error::Service),
					sc_network::config::NetworkBackendType::Litep2p => {
						service::new_full::<sc_network::Litep2pNetworkBackend>(config).map_err(sc_cli::Error::Service)
					},
				}
			})
		},
	}
}

/// A live chain whose genesis names one of the well-known dev keys (`//Alice` … `//Ferdie`, whose
/// secrets everyone has) is the `production` preset's placeholders, not a network: refused,
/// naming the key and the way out. Development and local chains are meant to use them.
fn refuse_placeholder_keys(spec: &dyn sc_service::ChainSpec) -> sc_cli::Result<()> {
	use sp_keyring::{Ed25519Keyring, Sr25519Keyring};
	if spec.chain_type() != sc_service::ChainType::Live {
		return Ok(());
	}
	let storage = spec.as_storage_builder().build_storage().map_err(sc_cli::Error::Input)?;
	let dev_keys = Sr25519Keyring::iter()
		.map(|k| (format!("{k:?} (sr25519)"), k.public().0))
		.chain(Ed25519Keyring::iter().map(|k| (format!("{k:?} (ed25519)"), k.public().0)));
	// The runtime's code holds the dev keys' constants for its presets: only state is searched.
	let names = |key: &[u8; 32]| {
		storage
			.top
			.iter()
			.filter(|(k, _)| k.as_slice() != sp_core::storage::well_known_keys::CODE)
			.any(|(k, v)| k.windows(32).any(|w| w == key) || v.windows(32).any(|w| w == key))
	};
	for (name, key) in dev_keys {
		if names(&key) {
			return Err(sc_cli::Error::Input(format!(
				"the chain spec '{}' is a live chain whose genesis names the public dev key of {name}: its secret is \
				 known to everyone. Write a spec with your own keys (scripts/production-spec.sh; docs/chain-runner.md, \
				 \"Launching a network\"), or pass --allow-dev-keys to try the placeholders on a private machine",
				spec.id()
			)));
		}
	}
	Ok(())
}

/// Substrate's RPC server silently moves to a random port when the requested one is taken; a
/// person who asked for a port (or expects the default 9944) gets a clear error instead.
fn ensure_rpc_port_free(port: u16) -> sc_cli::Result<()> {
	match std::net::TcpListener::bind(("127.0.0.1", port)) {
		Ok(_) => Ok(()),
		Err(e) => Err(sc_cli::Error::Input(format!(
			"RPC port {port} on 127.0.0.1 is not available ({e}): another node is probably running; stop it or \
			 pass --rpc-port <free port>"
		))),
	}
}
