//! The node's service: BABE authoring, GRANDPA finality, the transaction pool, RPC and the
//! off-chain workers that run pallet-pog's validator duties.

use futures::FutureExt;
use pog_runtime::{apis::RuntimeApi, opaque::Block};
use sc_client_api::{Backend, BlockBackend};
use sc_consensus_babe::{BabeBlockImport, BabeLink, BabeWorkerHandle, SlotProportion};
use sc_consensus_grandpa::SharedVoterState;
use sc_service::{error::Error as ServiceError, Configuration, TaskManager, WarpSyncConfig};
use sc_telemetry::{Telemetry, TelemetryWorker};
use sc_transaction_pool_api::OffchainTransactionPoolFactory;
use std::{sync::Arc, time::Duration};

/// The host functions the runtime may call: `sp_io`'s and the PoG verifier's, which the
/// validators' off-chain workers run natively (`pallet_pog::host`).
pub(crate) type HostFunctions = (sp_io::SubstrateHostFunctions, pallet_pog::host::pog_verifier::HostFunctions);

/// The full client.
pub(crate) type FullClient = sc_service::TFullClient<Block, RuntimeApi, sc_executor::WasmExecutor<HostFunctions>>;
type FullBackend = sc_service::TFullBackend<Block>;
type FullSelectChain = sc_consensus::LongestChain<FullBackend, Block>;

/// Blocks between GRANDPA justifications that are imported and generated.
const GRANDPA_JUSTIFICATION_PERIOD: u32 = 512;

type GrandpaBlockImport = sc_consensus_grandpa::GrandpaBlockImport<FullBackend, Block, FullClient, FullSelectChain>;

/// The inherent data providers of a block: its BABE slot and timestamp (from the wall clock).
type InherentDataProviders = (sp_consensus_babe::inherents::InherentDataProvider, sp_timestamp::InherentDataProvider);

/// The inherent data providers' factory (the same for authoring and import).
type CreateInherentDataProviders =
	fn(
		<Block as sp_runtime::traits::Block>::Hash,
		(),
	) -> futures::future::Ready<Result<InherentDataProviders, Box<dyn std::error::Error + Send + Sync>>>;

/// Block import: BABE's checks (slot claims, VRF, epochs) wrapping GRANDPA's, with BABE's
/// equivocations reported with sealed headers (`crate::equivocation`).
type FullBlockImport = crate::equivocation::SealedReports<
	Block,
	BabeBlockImport<Block, FullClient, GrandpaBlockImport, CreateInherentDataProviders, FullSelectChain>,
	FullClient,
	FullSelectChain,
>;

/// The parts shared by the node and its subcommands.
pub type Service = sc_service::PartialComponents<
	FullClient,
	FullBackend,
	FullSelectChain,
	sc_consensus::DefaultImportQueue<Block>,
	sc_transaction_pool::TransactionPoolHandle<Block, FullClient>,
	(
		FullBlockImport,
		BabeLink<Block>,
		BabeWorkerHandle<Block>,
		sc_consensus_grandpa::LinkHalf<Block, FullClient, FullSelectChain>,
		Option<Telemetry>,
	),
>;

/// The slot and timestamp of a block built or imported now. The slot duration is the chain's
/// (`pog_runtime::SLOT_DURATION`; BABE checks it against the runtime's at start).
fn inherent_data_providers(
	_parent: <Block as sp_runtime::traits::Block>::Hash,
	(): (),
) -> futures::future::Ready<Result<InherentDataProviders, Box<dyn std::error::Error + Send + Sync>>> {
	let timestamp = sp_timestamp::InherentDataProvider::from_system_time();
	let slot = sp_consensus_babe::inherents::InherentDataProvider::from_timestamp_and_slot_duration(
		*timestamp,
		sp_consensus_babe::SlotDuration::from_millis(pog_runtime::SLOT_DURATION),
	);
	futures::future::ready(Ok((slot, timestamp)))
}

/// Client, backend, import queue and pool.
pub fn new_partial(config: &Configuration) -> Result<Service, ServiceError> {
	let telemetry = config
		.telemetry_endpoints
		.clone()
		.filter(|x| !x.is_empty())
		.map(|endpoints| -> Result<_, sc_telemetry::Error> {
			let worker = TelemetryWorker::new(16)?;
			let telemetry = worker.handle().new_telemetry(endpoints);
			Ok((worker, telemetry))
		})
		.transpose()?;

	let executor = sc_service::new_wasm_executor::<HostFunctions>(&config.executor);
	let (client, backend, keystore_container, task_manager) = sc_service::new_full_parts::<Block, RuntimeApi, _>(
		config,
		telemetry.as_ref().map(|(_, telemetry)| telemetry.handle()),
		executor,
		vec![],
	)?;
	let client = Arc::new(client);

	let telemetry = telemetry.map(|(worker, telemetry)| {
		task_manager.spawn_handle().spawn("telemetry", None, worker.run());
		telemetry
	});

	let select_chain = sc_consensus::LongestChain::new(backend.clone());

	let transaction_pool = Arc::from(
		sc_transaction_pool::Builder::new(
			task_manager.spawn_essential_handle(),
			client.clone(),
			config.role.is_authority().into(),
		)
		.with_options(config.transaction_pool.clone())
		.with_prometheus(config.prometheus_registry())
		.build(),
	);

	let (grandpa_block_import, grandpa_link) = sc_consensus_grandpa::block_import(
		client.clone(),
		GRANDPA_JUSTIFICATION_PERIOD,
		&client,
		select_chain.clone(),
		telemetry.as_ref().map(|x| x.handle()),
	)?;

	let babe_config = sc_consensus_babe::configuration(&*client)?;
	let (block_import, babe_link) = sc_consensus_babe::block_import(
		babe_config,
		grandpa_block_import.clone(),
		client.clone(),
		inherent_data_providers as CreateInherentDataProviders,
		select_chain.clone(),
		OffchainTransactionPoolFactory::new(transaction_pool.clone()),
	)?;
	let block_import = crate::equivocation::SealedReports::new(
		block_import,
		client.clone(),
		select_chain.clone(),
		OffchainTransactionPoolFactory::new(transaction_pool.clone()),
	);
	let slot_duration = babe_link.config().slot_duration();
	let (import_queue, babe_worker_handle) = sc_consensus_babe::import_queue(sc_consensus_babe::ImportQueueParams {
		link: babe_link.clone(),
		block_import: block_import.clone(),
		justification_import: Some(Box::new(grandpa_block_import)),
		client: client.clone(),
		slot_duration,
		spawner: &task_manager.spawn_essential_handle(),
		registry: config.prometheus_registry(),
		telemetry: telemetry.as_ref().map(|x| x.handle()),
	})?;

	Ok(sc_service::PartialComponents {
		client,
		backend,
		task_manager,
		import_queue,
		keystore_container,
		select_chain,
		transaction_pool,
		other: (block_import, babe_link, babe_worker_handle, grandpa_link, telemetry),
	})
}

/// A full node.
pub fn new_full<N: sc_network::NetworkBackend<Block, <Block as sp_runtime::traits::Block>::Hash>>(
	config: Configuration,
) -> Result<TaskManager, ServiceError> {
	let sc_service::PartialComponents {
		client,
		backend,
		mut task_manager,
		import_queue,
		keystore_container,
		select_chain,
		transaction_pool,
		other: (block_import, babe_link, babe_worker_handle, grandpa_link, mut telemetry),
	} = new_partial(&config)?;

	// BABE's worker answers epoch queries through this handle and stops when it is dropped; the
	// node serves no BABE RPC, so a task holds it for the node's lifetime.
	task_manager.spawn_handle().spawn("babe-worker-handle", None, async move {
		let _handle = babe_worker_handle;
		futures::future::pending::<()>().await
	});

	let mut net_config = sc_network::config::FullNetworkConfiguration::<
		Block,
		<Block as sp_runtime::traits::Block>::Hash,
		N,
	>::new(&config.network, config.prometheus_registry().cloned());
	let metrics = N::register_notification_metrics(config.prometheus_registry());

	let peer_store_handle = net_config.peer_store_handle();
	let genesis = client.block_hash(0).ok().flatten().ok_or_else(|| ServiceError::Other("no genesis block".into()))?;
	let grandpa_protocol_name = sc_consensus_grandpa::protocol_standard_name(&genesis, &config.chain_spec);
	let (grandpa_protocol_config, grandpa_notification_service) = sc_consensus_grandpa::grandpa_peers_set_config::<_, N>(
		grandpa_protocol_name.clone(),
		metrics.clone(),
		peer_store_handle,
	);
	net_config.add_notification_protocol(grandpa_protocol_config);

	let warp_sync = Arc::new(sc_consensus_grandpa::warp_proof::NetworkProvider::new(
		backend.clone(),
		grandpa_link.shared_authority_set().clone(),
		Vec::default(),
	));

	let (network, system_rpc_tx, tx_handler_controller, sync_service, _bitswap) =
		sc_service::build_network(sc_service::BuildNetworkParams {
			config: &config,
			net_config,
			client: client.clone(),
			transaction_pool: transaction_pool.clone(),
			spawn_handle: task_manager.spawn_handle(),
			spawn_essential_handle: task_manager.spawn_essential_handle(),
			import_queue,
			block_announce_validator_builder: None,
			warp_sync_config: Some(WarpSyncConfig::WithProvider(warp_sync)),
			block_relay: None,
			metrics,
			gap_sync_body_policy: None,
		})?;

	if config.offchain_worker.enabled {
		let offchain_workers = sc_offchain::OffchainWorkers::new(sc_offchain::OffchainWorkerOptions {
			runtime_api_provider: client.clone(),
			is_validator: config.role.is_authority(),
			keystore: Some(keystore_container.keystore()),
			offchain_db: backend.offchain_storage(),
			transaction_pool: Some(OffchainTransactionPoolFactory::new(transaction_pool.clone())),
			network_provider: Arc::new(network.clone()),
			// committees fetch the openings that miners serve off chain (pallet-pog's `served`)
			enable_http_requests: true,
			custom_extensions: |_| vec![],
		})?;
		task_manager.spawn_handle().spawn(
			"offchain-workers-runner",
			"offchain-worker",
			offchain_workers.run(client.clone(), task_manager.spawn_handle()).boxed(),
		);
	}

	let role = config.role;
	let force_authoring = config.force_authoring;
	let backoff_authoring_blocks: Option<()> = None;
	let name = config.network.node_name.clone();
	let enable_grandpa = !config.disable_grandpa;
	let prometheus_registry = config.prometheus_registry().cloned();

	let rpc_extensions_builder = {
		let client = client.clone();
		let pool = transaction_pool.clone();
		Box::new(move |_| {
			let deps = crate::rpc::FullDeps { client: client.clone(), pool: pool.clone() };
			crate::rpc::create_full(deps).map_err(Into::into)
		})
	};

	let _rpc_handlers = sc_service::spawn_tasks(sc_service::SpawnTasksParams {
		network: network.clone(),
		client: client.clone(),
		keystore: keystore_container.keystore(),
		task_manager: &mut task_manager,
		transaction_pool: transaction_pool.clone(),
		rpc_builder: rpc_extensions_builder,
		backend,
		system_rpc_tx,
		tx_handler_controller,
		sync_service: sync_service.clone(),
		config,
		telemetry: telemetry.as_mut(),
		tracing_execute_block: None,
	})?;

	if role.is_authority() {
		let proposer_factory = sc_basic_authorship::ProposerFactory::new(
			task_manager.spawn_handle(),
			client.clone(),
			transaction_pool.clone(),
			prometheus_registry.as_ref(),
			telemetry.as_ref().map(|x| x.handle()),
		);

		let babe = sc_consensus_babe::start_babe(sc_consensus_babe::BabeParams {
			keystore: keystore_container.keystore(),
			client,
			select_chain,
			env: proposer_factory,
			block_import,
			sync_oracle: sync_service.clone(),
			justification_sync_link: sync_service.clone(),
			create_inherent_data_providers: inherent_data_providers as CreateInherentDataProviders,
			force_authoring,
			backoff_authoring_blocks,
			babe_link,
			block_proposal_slot_portion: SlotProportion::new(2f32 / 3f32),
			max_block_proposal_slot_portion: None,
			telemetry: telemetry.as_ref().map(|x| x.handle()),
		})?;
		task_manager.spawn_essential_handle().spawn_blocking("babe-proposer", Some("block-authoring"), babe);
	}

	if enable_grandpa {
		let keystore = if role.is_authority() { Some(keystore_container.keystore()) } else { None };
		let grandpa_config = sc_consensus_grandpa::Config {
			gossip_duration: Duration::from_millis(333),
			justification_generation_period: GRANDPA_JUSTIFICATION_PERIOD,
			name: Some(name),
			observer_enabled: false,
			keystore,
			local_role: role,
			telemetry: telemetry.as_ref().map(|x| x.handle()),
			protocol_name: grandpa_protocol_name,
		};
		let grandpa_params = sc_consensus_grandpa::GrandpaParams {
			config: grandpa_config,
			link: grandpa_link,
			network,
			sync: Arc::new(sync_service),
			notification_service: grandpa_notification_service,
			voting_rule: sc_consensus_grandpa::VotingRulesBuilder::default().build(),
			prometheus_registry,
			shared_voter_state: SharedVoterState::empty(),
			telemetry: telemetry.as_ref().map(|x| x.handle()),
			offchain_tx_pool_factory: OffchainTransactionPoolFactory::new(transaction_pool),
		};
		task_manager.spawn_essential_handle().spawn_blocking(
			"grandpa-voter",
			None,
			sc_consensus_grandpa::run_grandpa_voter(grandpa_params)?,
		);
	}

	Ok(task_manager)
}
