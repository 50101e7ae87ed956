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
/// Balance of each validator's `pog!` account: the fees of its duties are paid up front and
/// refunded when they land, so it needs the existential deposit and the largest duty's fee (a
/// full attestation's; the test `pog_accounts_are_their_own_and_pay_the_largest_duty_up_front`
/// checks ten of them).
const POG_KEY_ENDOWMENT: u128 = 10 * UNIT;

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
	// each validator's `pog!` account signs its duties and pays their fees up front (refunded when
	// they land), so it is endowed beside the validator's own account
	let mut endowed = endowed;
	endowed.extend(validators.iter().map(|(sr, _)| (AccountId::from(dev_pog_key(*sr)), POG_KEY_ENDOWMENT)));
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

/// A dev validator's session keys: BABE from its sr25519 key, GRANDPA from its ed25519 key, and
/// PoG from its sr25519 key's `//pog` derivation ([`dev_pog_key`]).
fn session_keys(sr: Sr25519Keyring, ed: Ed25519Keyring) -> SessionKeys {
	SessionKeys {
		babe: BabeId::from(sr.public()),
		grandpa: GrandpaId::from(ed.public()),
		pog: pallet_pog::crypto::Public::from(sp_core::sr25519::Public::from_raw(dev_pog_key(sr))),
	}
}

/// The public `pog!` key of a dev validator: `//<Name>//pog` (what `--alice` … `--dave` put in
/// the keystore, [`crate::apis`]' `generate_session_keys`). The `pog!` account signs the
/// off-chain worker's duties, so it is not the validator's own account: the validator's nonce
/// (on a dev chain, Alice's, root's) stays with the people who sign with it. Written out because
/// deriving sr25519 keys inside the runtime is slow; the test `dev_pog_keys_are_derived` checks
/// each.
pub fn dev_pog_key(sr: Sr25519Keyring) -> [u8; 32] {
	use sp_core::hex2array;
	match sr {
		Sr25519Keyring::Alice => hex2array!("546aaa290c8a1792129dc66416ad0587ff955c5bc24ef218fca335e99fda1439"),
		Sr25519Keyring::Bob => hex2array!("f02e6046e187ee7d419ef275ddac8394522e6ead5465cde2a12d2a92ab92d03c"),
		Sr25519Keyring::Charlie => hex2array!("d238500f3af4c9e09e656cb9ce2e9d88c851a4e04e3567bddbd3264875c4dc05"),
		Sr25519Keyring::Dave => hex2array!("2009ead7ec0c9cdc5d86cef2982368ae3ebf7cd0f5df9c8dec2c643ca56dfb5f"),
		Sr25519Keyring::Eve => hex2array!("cc6effc48e0deb7e7efc71cc3f3290ae6b841d8f5526498a0f0288fb01e1b36f"),
		Sr25519Keyring::Ferdie => hex2array!("dca4ea03fb16f7e14c50d45ac7b5def099f3a77e5caa6791284ac62133ce0118"),
		// no preset seats any other dev key (the runtime test
		// `pog_accounts_are_their_own_and_pay_the_largest_duty_up_front` fails if one does)
		other => other.to_raw_public(),
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

#[cfg(test)]
mod tests {
	use super::*;
	use sp_core::{sr25519, Pair};

	#[test]
	fn dev_pog_keys_are_derived() {
		use Sr25519Keyring::*;
		for k in [Alice, Bob, Charlie, Dave, Eve, Ferdie] {
			let derived = sr25519::Pair::from_string(&alloc::format!("//{k}//pog"), None).expect("a dev derivation");
			assert_eq!(derived.public().0, dev_pog_key(k), "{k}'s pog! key");
			assert_ne!(dev_pog_key(k), k.to_raw_public(), "{k}'s pog! account is not its own");
		}
	}
}
