//! Chain specifications built from the runtime's genesis presets.

use pog_runtime::WASM_BINARY;
use sc_service::ChainType;

/// The chain spec type of this node.
pub type ChainSpec = sc_service::GenericChainSpec;

fn properties() -> sc_service::Properties {
	let mut p = sc_service::Properties::new();
	p.insert("tokenSymbol".into(), "POG".into());
	p.insert("tokenDecimals".into(), 12.into());
	p.insert("ss58Format".into(), 42.into());
	p
}

fn wasm() -> Result<&'static [u8], String> {
	WASM_BINARY.ok_or_else(|| "the runtime's WASM binary is not available; build without SKIP_WASM_BUILD".to_string())
}

/// `--dev`: Alice authors, finalises and validates PoG; short periods.
pub fn development_chain_spec() -> Result<ChainSpec, String> {
	Ok(ChainSpec::builder(wasm()?, None)
		.with_name("PoG Development")
		.with_id("pog_dev")
		.with_chain_type(ChainType::Development)
		.with_genesis_config_preset_name(sp_genesis_builder::DEV_RUNTIME_PRESET)
		.with_properties(properties())
		.build())
}

/// `--chain local`: Alice, Bob, Charlie and Dave on 127.0.0.1.
pub fn local_chain_spec() -> Result<ChainSpec, String> {
	Ok(ChainSpec::builder(wasm()?, None)
		.with_name("PoG Local Testnet")
		.with_id("pog_local")
		.with_chain_type(ChainType::Local)
		.with_genesis_config_preset_name(sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET)
		.with_properties(properties())
		.build())
}

/// `--chain production`: mainnet settings, the GPU table without `cpu-reference`, and
/// placeholder keys (the dev keys of Alice, Bob, Charlie and Dave) to replace before launch
/// (docs/chain-runner.md, "Launching a network").
pub fn production_chain_spec() -> Result<ChainSpec, String> {
	Ok(ChainSpec::builder(wasm()?, None)
		.with_name("PoG")
		.with_id("pog")
		.with_chain_type(ChainType::Live)
		.with_genesis_config_preset_name(pog_runtime::genesis::PRODUCTION_RUNTIME_PRESET)
		.with_properties(properties())
		.build())
}
