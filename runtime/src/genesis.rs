//! Genesis presets: `development` (Alice validates; a challenge finishes in about a minute) and
//! `local_testnet` (Alice, Bob, Charlie and Dave validate; GRANDPA needs three of four; each
//! revealed challenge goes to all four as its committee, and three matching verdicts decide it).

use alloc::{vec, vec::Vec};
use frame_support::build_struct_json_patch;
use serde_json::Value;
use sp_consensus_babe::AuthorityId as BabeId;
use sp_consensus_grandpa::AuthorityId as GrandpaId;
use sp_genesis_builder::{self, PresetId};
use sp_keyring::{Ed25519Keyring, Sr25519Keyring};

use crate::{AccountId, BabeConfig, BalancesConfig, GrandpaConfig, PogConfig, RuntimeGenesisConfig, SudoConfig, UNIT};
use pallet_pog::{profiles::default_profiles, ProtocolConfig};

/// Balance of every endowed dev account: one million POG.
const ENDOWMENT: u128 = 1_000_000 * UNIT;

fn testnet_genesis(
	validators: Vec<(Sr25519Keyring, Ed25519Keyring)>,
	endowed: Vec<AccountId>,
	root: AccountId,
	config: ProtocolConfig,
) -> Value {
	let babe: Vec<(BabeId, u64)> = validators.iter().map(|(k, _)| (k.public().into(), 1)).collect();
	let grandpa: Vec<(GrandpaId, u64)> = validators.iter().map(|(_, k)| (k.public().into(), 1)).collect();
	build_struct_json_patch!(RuntimeGenesisConfig {
		balances: BalancesConfig { balances: endowed.iter().cloned().map(|a| (a, ENDOWMENT)).collect::<Vec<_>>() },
		babe: BabeConfig { authorities: babe, epoch_config: crate::BABE_GENESIS_EPOCH_CONFIG },
		grandpa: GrandpaConfig { authorities: grandpa },
		sudo: SudoConfig { key: Some(root) },
		pog: PogConfig {
			profiles: default_profiles(),
			validators: validators.iter().map(|(k, _)| k.to_account_id()).collect::<Vec<_>>(),
			config: Some(config),
		},
	})
}

fn dev_accounts() -> Vec<AccountId> {
	Sr25519Keyring::well_known().map(|k| k.to_account_id()).collect()
}

/// The `development` preset: Alice authors, finalises and validates PoG alone.
pub fn development_config_genesis() -> Value {
	testnet_genesis(
		vec![(Sr25519Keyring::Alice, Ed25519Keyring::Alice)],
		dev_accounts(),
		Sr25519Keyring::Alice.to_account_id(),
		ProtocolConfig::dev(),
	)
}

/// The `local_testnet` preset: Alice, Bob, Charlie and Dave; each challenge's committee is all four, three decide.
pub fn local_config_genesis() -> Value {
	testnet_genesis(
		vec![
			(Sr25519Keyring::Alice, Ed25519Keyring::Alice),
			(Sr25519Keyring::Bob, Ed25519Keyring::Bob),
			(Sr25519Keyring::Charlie, Ed25519Keyring::Charlie),
			(Sr25519Keyring::Dave, Ed25519Keyring::Dave),
		],
		dev_accounts(),
		Sr25519Keyring::Alice.to_account_id(),
		ProtocolConfig { committee: 4, ..ProtocolConfig::dev() },
	)
}

/// The preset named `id`, as JSON.
pub fn get_preset(id: &PresetId) -> Option<Vec<u8>> {
	let patch = match id.as_ref() {
		sp_genesis_builder::DEV_RUNTIME_PRESET => development_config_genesis(),
		sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET => local_config_genesis(),
		_ => return None,
	};
	Some(serde_json::to_string(&patch).expect("serialization to json is expected to work").into_bytes())
}

/// The presets this runtime provides.
pub fn preset_names() -> Vec<PresetId> {
	vec![
		PresetId::from(sp_genesis_builder::DEV_RUNTIME_PRESET),
		PresetId::from(sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET),
	]
}
