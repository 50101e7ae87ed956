//! Runtime tests: the genesis presets build and satisfy pallet-pog's invariants, and the
//! off-chain worker's signed transactions are real, correctly signed extrinsics of this runtime.

use crate::*;
use codec::Decode;
use frame_support::traits::Hooks;
use sp_core::offchain::{testing, OffchainDbExt, OffchainWorkerExt, TransactionPoolExt};
use sp_keystore::{testing::MemoryKeystore, Keystore, KeystoreExt};
use sp_runtime::{traits::Checkable, BuildStorage};
use std::sync::Arc;

fn preset_storage(name: &str) -> sp_runtime::Storage {
	let json = genesis::get_preset(&name.into()).expect("preset exists");
	let patch: serde_json::Value = serde_json::from_slice(&json).unwrap();
	let mut config = serde_json::to_value(RuntimeGenesisConfig::default()).unwrap();
	json_merge(&mut config, patch);
	let config: RuntimeGenesisConfig = serde_json::from_value(config).expect("preset is a valid genesis config");
	config.build_storage().expect("preset builds")
}

fn json_merge(a: &mut serde_json::Value, b: serde_json::Value) {
	match (a, b) {
		(serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
			for (k, v) in b {
				json_merge(a.entry(k).or_insert(serde_json::Value::Null), v);
			}
		},
		(a, b) => *a = b,
	}
}

#[test]
fn presets_build_and_satisfy_the_pog_invariants() {
	for (name, validators, committee) in [("development", 1usize, 1u32), ("local_testnet", 4, 4)] {
		sp_io::TestExternalities::new(preset_storage(name)).execute_with(|| {
			assert_eq!(pallet_pog::Validators::<Runtime>::get().len(), validators, "{name}");
			assert_eq!(pallet_pog::Configuration::<Runtime>::get().committee, committee);
			assert_eq!(pallet_pog::ProfileCount::<Runtime>::get(), 10);
			assert_eq!(pallet_aura::Authorities::<Runtime>::get().len(), validators);
			Pog::do_try_state().expect("pallet-pog invariants hold at genesis");
		});
	}
	assert_eq!(genesis::preset_names().len(), 2);
}

#[test]
fn off_chain_worker_submits_signed_extrinsics_of_this_runtime() {
	let mut ext = sp_io::TestExternalities::new(preset_storage("development"));
	let (offchain, _) = testing::TestOffchainExt::new();
	let (pool, pool_state) = testing::TestTransactionPoolExt::new();
	let keystore = MemoryKeystore::new();
	keystore.sr25519_generate_new(pallet_pog::KEY_TYPE, Some("//Alice")).unwrap();
	ext.register_extension(OffchainDbExt::new(offchain.clone()));
	ext.register_extension(OffchainWorkerExt::new(offchain));
	ext.register_extension(TransactionPoolExt::new(pool));
	ext.register_extension(KeystoreExt(Arc::new(keystore)));
	ext.execute_with(|| {
		System::set_block_number(1);
		pallet_timestamp::Now::<Runtime>::put(6_000);
		let bob = sp_keyring::Sr25519Keyring::Bob.to_account_id();
		let alice = sp_keyring::Sr25519Keyring::Alice.to_account_id();
		let claims = vec![pallet_pog::GpuClaim { profile: 9, count: 1, uuids: vec![[7u8; 16]].try_into().unwrap() }];
		Pog::register_miner(RuntimeOrigin::signed(bob.clone()), claims.try_into().unwrap(), Default::default())
			.expect("Bob registers");
		// Round 1 with Bob's GPU committed and revealed, Alice on its committee.
		let mut round = Pog::round();
		round.index = 1;
		round.phase = pallet_pog::RoundPhase::Reveal;
		round.selection = Some(pallet_pog::Selection {
			seed: [1; 32],
			at: 1,
			probability: sp_runtime::Perbill::one(),
			capacity: 1,
			reveal_deadline: 10,
			verdict_deadline: 20,
		});
		pallet_pog::Round::<Runtime>::put(&round);
		let info = pallet_pog::Miners::<Runtime>::get(&bob).unwrap();
		let params = Pog::challenge_params(&round, &bob, &info, 0).unwrap();
		let commitment =
			pallet_pog::Commitment { params, root: [2; 32], committed_ms: 6_000, report: Default::default() };
		pallet_pog::Commitments::<Runtime>::insert(
			1,
			&bob,
			sp_runtime::BoundedVec::truncate_from(vec![Some(commitment)]),
		);
		let leaf = pallet_pog::Opening { leaf: 0, values: vec![0; 256].try_into().unwrap(), proof: Default::default() };
		pallet_pog::Openings::<Runtime>::insert((1, &bob, 0), sp_runtime::BoundedVec::truncate_from(vec![leaf]));
		pallet_pog::Verifications::<Runtime>::insert(
			(1, &bob, 0),
			pallet_pog::Verification {
				sample_seed: [3; 32],
				committee: sp_runtime::BoundedVec::truncate_from(vec![alice.clone()]),
				votes: Default::default(),
				status: pallet_pog::VerificationStatus::Pending,
			},
		);
		System::set_block_number(2);
		// The mortal era is born at the previous block, whose hash the node always has.
		frame_system::BlockHash::<Runtime>::insert(1, Hash::repeat_byte(1));
		Pog::offchain_worker(2);
		let txs = std::mem::take(&mut pool_state.write().transactions);
		assert_eq!(txs.len(), 1, "one verdict transaction");
		let xt = UncheckedExtrinsic::decode(&mut &txs[0][..]).expect("an extrinsic of this runtime");
		assert!(matches!(
			&xt.function,
			RuntimeCall::Pog(pallet_pog::Call::submit_verdict { round: 1, miner, gpu: 0, .. }) if *miner == bob
		));
		let checked = xt.check(&frame_system::ChainContext::<Runtime>::default()).expect("signature verifies");
		assert!(matches!(checked.format, sp_runtime::generic::ExtrinsicFormat::Signed(ref who, _) if *who == alice));
	});
}

/// The miner agent's chain client (`offchain-gpu`, subxt) is generated at compile time from this
/// runtime's metadata, kept in `offchain-gpu/metadata/pog.scale`; it must be this runtime's.
/// `POG_BLESS_METADATA=1 cargo test -p pog-runtime agent_metadata` rewrites it after a change.
#[test]
fn agent_metadata_is_current() {
	let metadata = Runtime::metadata_at_version(15).expect("the runtime serves metadata v15");
	let current: &[u8] = &metadata;
	let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../offchain-gpu/metadata/pog.scale");
	if std::env::var_os("POG_BLESS_METADATA").is_some() {
		std::fs::write(&path, current).expect("write the agent's metadata");
	}
	let committed = std::fs::read(&path).expect("offchain-gpu/metadata/pog.scale exists");
	assert!(
		committed == current,
		"offchain-gpu/metadata/pog.scale is stale: run `POG_BLESS_METADATA=1 cargo test -p pog-runtime agent_metadata` \
		 and rebuild the agent"
	);
}
