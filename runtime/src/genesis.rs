//! Genesis presets: `development` (Alice validates; a challenge finishes in about a minute),
//! `local_testnet` (Alice, Bob, Charlie and Dave validate; GRANDPA needs three of four; each
//! revealed challenge goes to all four as its committee, and three matching verdicts decide it),
//! and `production` (mainnet settings and the GPU table without the dev chains' `cpu-reference`;
//! its validator and root keys are placeholders a chain runner replaces).

use alloc::{vec, vec::Vec};
use frame_support::build_struct_json_patch;
use serde_json::Value;
use sp_consensus_babe::AuthorityId as BabeId;
use sp_consensus_grandpa::AuthorityId as GrandpaId;
use sp_genesis_builder::{self, PresetId};
use sp_keyring::{Ed25519Keyring, Sr25519Keyring};

use crate::{
	AccountId, BabeConfig, BalancesConfig, PogConfig, PogRewardsConfig, RuntimeGenesisConfig, SessionConfig,
	SessionKeys, SudoConfig, UNIT,
};
use pallet_pog::{
	profiles::{default_profiles, production_profiles, GenesisProfile},
	ProtocolConfig,
};
use pallet_pog_rewards::rules::RewardRules;

/// Name of the preset with mainnet settings (`pog-node build-spec --chain production`).
pub const PRODUCTION_RUNTIME_PRESET: &str = "production";

/// Balance of every endowed dev account: one million POG.
const ENDOWMENT: u128 = 1_000_000 * UNIT;
/// Balance of each validator and of root in the production preset: enough for the fees of
/// failed duties and root's calls, nothing to hand out.
const PRODUCTION_ENDOWMENT: u128 = 1_000 * UNIT;

fn testnet_genesis(
	validators: Vec<(Sr25519Keyring, Ed25519Keyring)>,
	endowed: Vec<AccountId>,
	root: AccountId,
	config: ProtocolConfig,
) -> Value {
	let endowed = endowed.into_iter().map(|a| (a, ENDOWMENT)).collect();
	// dev and local chains run their miners' endpoints on this machine
	genesis(validators, endowed, root, config, RewardRules::dev(), default_profiles(), true)
}

fn genesis(
	validators: Vec<(Sr25519Keyring, Ed25519Keyring)>,
	endowed: Vec<(AccountId, u128)>,
	root: AccountId,
	config: ProtocolConfig,
	rewards: RewardRules,
	profiles: Vec<GenesisProfile>,
	local_endpoints: bool,
) -> Value {
	// One set for everything: pallet-pog's genesis plans the validators in pallet-pog-validators
	// (before pallet-session's genesis, which asks for them), the session's genesis keys are
	// theirs, and the session seats them for BABE, GRANDPA and PoG (pallet-pog-validators bonds
	// them), so BABE's and GRANDPA's own lists stay empty.
	let keys: Vec<(AccountId, AccountId, SessionKeys)> =
		validators.iter().map(|(sr, ed)| (sr.to_account_id(), sr.to_account_id(), session_keys(*sr, *ed))).collect();
	build_struct_json_patch!(RuntimeGenesisConfig {
		balances: BalancesConfig { balances: endowed },
		babe: BabeConfig { epoch_config: crate::BABE_GENESIS_EPOCH_CONFIG },
		session: SessionConfig { keys },
		sudo: SudoConfig { key: Some(root) },
		pog: PogConfig {
			profiles,
			validators: validators.iter().map(|(sr, _)| sr.to_account_id()).collect::<Vec<_>>(),
			config: Some(config),
			local_endpoints,
		},
		pog_rewards: PogRewardsConfig { rules: Some(rewards) },
	})
}

/// A dev validator's session keys: BABE and PoG from its sr25519 key, GRANDPA from its ed25519 key.
fn session_keys(sr: Sr25519Keyring, ed: Ed25519Keyring) -> SessionKeys {
	SessionKeys {
		babe: BabeId::from(sr.public()),
		grandpa: GrandpaId::from(ed.public()),
		pog: pallet_pog::crypto::Public::from(sr.public()),
	}
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

/// The `production` preset: mainnet protocol settings (`ProtocolConfig::mainnet`), the GPU table
/// without `cpu-reference` (`production_profiles`), and no dev endowments. Its four validators
/// and root are the well-known dev keys of Alice, Bob, Charlie and Dave **as placeholders**: a
/// chain runner writes the spec (`pog-node build-spec --chain production > spec.json`) and
/// replaces `pog.validators`, `session.keys`, `sudo.key` and the balances with its own keys before launch
/// (README, "Launching a network").
pub fn production_config_genesis() -> Value {
	let validators = vec![
		(Sr25519Keyring::Alice, Ed25519Keyring::Alice),
		(Sr25519Keyring::Bob, Ed25519Keyring::Bob),
		(Sr25519Keyring::Charlie, Ed25519Keyring::Charlie),
		(Sr25519Keyring::Dave, Ed25519Keyring::Dave),
	];
	let endowed = validators.iter().map(|(k, _)| (k.to_account_id(), PRODUCTION_ENDOWMENT)).collect();
	genesis(
		validators,
		endowed,
		Sr25519Keyring::Alice.to_account_id(),
		ProtocolConfig::mainnet(),
		RewardRules::mainnet(),
		production_profiles(),
		false,
	)
}

/// The preset named `id`, as JSON.
pub fn get_preset(id: &PresetId) -> Option<Vec<u8>> {
	let patch = match id.as_ref() {
		sp_genesis_builder::DEV_RUNTIME_PRESET => development_config_genesis(),
		sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET => local_config_genesis(),
		PRODUCTION_RUNTIME_PRESET => production_config_genesis(),
		_ => return None,
	};
	Some(serde_json::to_string(&patch).expect("serialization to json is expected to work").into_bytes())
}

/// The presets this runtime provides.
pub fn preset_names() -> Vec<PresetId> {
	vec![
		PresetId::from(sp_genesis_builder::DEV_RUNTIME_PRESET),
		PresetId::from(sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET),
		PresetId::from(PRODUCTION_RUNTIME_PRESET),
	]
}
