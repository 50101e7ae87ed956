//! Benchmarks of every pallet-pog call (frame-benchmarking v2), each in its worst case.

use super::*;
use crate::pallet::Pallet as Pog;
use alloc::{vec, vec::Vec};
use frame_benchmarking::v2::*;
use frame_support::{
	traits::{fungible::Mutate, Get},
	BoundedVec,
};
use frame_system::RawOrigin;
use pog_primitives::{commitment, LEAF_VALUES};
use sp_runtime::{traits::Hash, Perbill, Saturating};

const SEED: u32 = 0;

fn funded<T: Config>(name: &'static str, index: u32) -> T::AccountId
where
	T::Currency: Mutate<T::AccountId>,
{
	let who: T::AccountId = account(name, index, SEED);
	let deposit = Pog::<T>::deposit_for(T::MaxGpusPerMiner::get());
	let ed = <T::Currency as frame_support::traits::fungible::Inspect<T::AccountId>>::minimum_balance();
	let _ = T::Currency::set_balance(&who, deposit.saturating_add(ed).saturating_mul(100u32.into()));
	who
}

/// The largest card of the default table (the largest challenges), under its own name.
fn profile() -> GpuProfile {
	let figures = pog_primitives::profiles::H200;
	GpuProfile {
		name: b"bench GPU".to_vec().try_into().expect("short name"),
		vram_mib: figures.vram_mib,
		gflops: figures.gflops,
		base_score: figures.base_score,
		tolerance_percent: figures.tolerance_percent,
	}
}

fn ensure_profile<T: Config>() -> ProfileId {
	Pog::<T>::insert_profile(profile()).expect("a valid profile within MaxProfiles")
}

fn gpu_uuid(miner: u32, gpu: u32) -> GpuUuid {
	let mut u = [0u8; 16];
	u[..4].copy_from_slice(&miner.to_le_bytes());
	u[4..8].copy_from_slice(&gpu.to_le_bytes());
	u[15] = 0xb0;
	u
}

fn claims_for<T: Config>(profile: ProfileId, miner: u32, gpus: u32, salt: u32) -> ClaimsOf<T> {
	let uuids: Vec<GpuUuid> = (0..gpus).map(|g| gpu_uuid(miner, g + salt)).collect();
	let claim = GpuClaim { profile, count: gpus, uuids: uuids.try_into().expect("gpus ≤ MaxGpusPerMiner") };
	vec![claim].try_into().expect("one claim")
}

fn hardware() -> Hardware {
	Hardware {
		cpu_cores: 64,
		cpu_model: vec![b'x'; 96].try_into().expect("96 bytes fit"),
		ram_mib: 512 * 1024,
		disk_gib: 8_192,
	}
}

fn validator<T: Config>() -> T::AccountId
where
	T::Currency: Mutate<T::AccountId>,
{
	let v = funded::<T>("validator", 0);
	Validators::<T>::mutate(|vs| {
		if !vs.contains(&v) {
			let _ = vs.try_push(v.clone());
		}
	});
	v
}

fn miner_with<T: Config>(index: u32, gpus: u32) -> T::AccountId
where
	T::Currency: Mutate<T::AccountId>,
{
	let profile = ensure_profile::<T>();
	let who = funded::<T>("miner", index);
	Pog::<T>::do_register(who.clone(), claims_for::<T>(profile, index, gpus, 0), hardware()).expect("registers");
	who
}

/// Move `blocks` ahead, recording a hash for the block left behind (the sample seed needs it).
fn advance<T: Config>(blocks: u32) {
	let now = frame_system::Pallet::<T>::block_number();
	frame_system::BlockHash::<T>::insert(now, T::Hashing::hash_of(&now));
	frame_system::Pallet::<T>::set_block_number(now.saturating_add(blocks.into()));
}

/// Issue a round to `miner` and finish it as passed, so that a later call has a previous round
/// to prune.
fn finished_round<T: Config>(miner: &T::AccountId) {
	advance::<T>(1);
	Pog::<T>::do_issue(miner.clone()).expect("due");
	for id in Miners::<T>::get(miner).expect("registered").current_round {
		InFlight::<T>::remove(id);
		Challenges::<T>::mutate(id, |c| {
			if let Some(c) = c {
				c.status = ChallengeStatus::Passed;
			}
		});
	}
	Miners::<T>::mutate(miner, |m| {
		if let Some(m) = m {
			m.next_due = frame_system::Pallet::<T>::block_number();
		}
	});
}

/// A committed challenge whose C is all zeros and whose tree is as deep as the protocol allows;
/// returns its id and the openings the sample asks for.
fn committed_challenge<T: Config>(openings: u32) -> (T::AccountId, ChallengeId, Vec<Opening>)
where
	T::Currency: Mutate<T::AccountId>,
{
	let mut config = Configuration::<T>::get();
	config.openings = openings;
	Configuration::<T>::put(config);
	let miner = miner_with::<T>(1, 1);
	advance::<T>(1);
	Pog::<T>::do_issue(miner.clone()).expect("due");
	let id = Miners::<T>::get(&miner).expect("registered").current_round[0];
	let dims = Dims { m: pog_primitives::sizing::MAX_DIM, n: pog_primitives::sizing::MAX_DIM, k: 256 };
	let zero_c = commitment::ConstantCommitment::new(0, &dims);
	let (root, path) = (zero_c.root(), zero_c.proof());
	let zeros = vec![0u32; LEAF_VALUES];
	Challenges::<T>::mutate(id, |c| {
		if let Some(c) = c {
			c.dims = dims;
		}
	});
	Pog::<T>::do_commit(miner.clone(), id, root, AgentReport::default()).expect("in time");
	advance::<T>(1);
	let ch = Challenges::<T>::get(id).expect("exists");
	let leaves = Pog::<T>::leaves_to_open(&ch).expect("sample known");
	let openings = leaves
		.into_iter()
		.map(|leaf| Opening {
			leaf,
			values: zeros.clone().try_into().expect("one leaf"),
			proof: path.clone().try_into().expect("depth ≤ 32"),
		})
		.collect();
	(miner, id, openings)
}

#[benchmarks(where T::Currency: Mutate<T::AccountId>)]
mod benchmarks {
	use super::*;

	#[benchmark]
	fn register_miner(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let profile = ensure_profile::<T>();
		let who = funded::<T>("miner", 0);
		let claims = claims_for::<T>(profile, 0, g, 0);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), claims, hardware());
		assert!(Miners::<T>::contains_key(&who));
	}

	#[benchmark]
	fn update_miner(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let who = miner_with::<T>(0, g);
		finished_round::<T>(&who);
		let profile = ensure_profile::<T>();
		let claims = claims_for::<T>(profile, 0, g, 1000);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), claims, hardware());
		assert_eq!(Miners::<T>::get(&who).expect("registered").claims[0].profile, profile);
	}

	#[benchmark]
	fn deregister_miner(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let who = miner_with::<T>(0, g);
		finished_round::<T>(&who);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()));
		assert!(!Miners::<T>::contains_key(&who));
	}

	#[benchmark]
	fn issue_challenges(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let v = validator::<T>();
		let miner = miner_with::<T>(0, g);
		finished_round::<T>(&miner);
		advance::<T>(1);
		#[extrinsic_call]
		_(RawOrigin::Signed(v), miner.clone());
		assert_eq!(Miners::<T>::get(&miner).expect("registered").current_round.len() as u32, g);
	}

	#[benchmark]
	fn commit_root() {
		let miner = miner_with::<T>(0, 1);
		advance::<T>(1);
		Pog::<T>::do_issue(miner.clone()).expect("due");
		let id = Miners::<T>::get(&miner).expect("registered").current_round[0];
		let report = AgentReport {
			elapsed_ms: 1,
			interval_ms: 1_000,
			trace_gflops: vec![1; 256].try_into().expect("max trace"),
		};
		#[extrinsic_call]
		_(RawOrigin::Signed(miner), id, [7u8; 32], report);
		assert_eq!(Challenges::<T>::get(id).expect("exists").status, ChallengeStatus::Committed);
	}

	#[benchmark]
	fn reveal_openings(o: Linear<1, { T::MaxOpenings::get() }>) {
		let (miner, id, openings) = committed_challenge::<T>(o);
		let openings: BoundedVec<_, _> = openings.try_into().expect("o ≤ MaxOpenings");
		#[extrinsic_call]
		_(RawOrigin::Signed(miner), id, openings);
		assert_eq!(Challenges::<T>::get(id).expect("exists").status, ChallengeStatus::Revealed);
	}

	#[benchmark]
	fn submit_verdict() {
		// Worst case: this verdict completes the quorum and finalises the challenge.
		let (miner, id, openings) = committed_challenge::<T>(T::MaxOpenings::get());
		Pog::<T>::do_reveal(miner, id, openings.try_into().expect("bounded")).expect("valid openings");
		let first = funded::<T>("validator", 1);
		let v = validator::<T>();
		Validators::<T>::mutate(|vs| {
			let _ = vs.try_push(first.clone());
		});
		let mut config = Configuration::<T>::get();
		config.quorum = 2;
		Configuration::<T>::put(config);
		let verdict = Verdict { passed: true, entries_checked: 64, worst_permille: 300, failed_leaf: None };
		Pog::<T>::do_verdict(first, id, verdict).expect("first vote");
		#[extrinsic_call]
		_(RawOrigin::Signed(v), id, verdict);
		assert_eq!(Challenges::<T>::get(id).expect("exists").status, ChallengeStatus::Passed);
	}

	#[benchmark]
	fn expire_challenges(n: Linear<1, 64>) {
		let per_miner = T::MaxGpusPerMiner::get().max(1);
		let mut ids = Vec::new();
		let mut index = 0;
		while (ids.len() as u32) < n {
			let gpus = per_miner.min(n - ids.len() as u32);
			let miner = miner_with::<T>(index, gpus);
			advance::<T>(1);
			index += 1;
			let mut config = Configuration::<T>::get();
			config.max_challenges_per_block = u32::MAX;
			Configuration::<T>::put(config);
			Pog::<T>::do_issue(miner.clone()).expect("due");
			ids.extend(Miners::<T>::get(&miner).expect("registered").current_round);
		}
		// Committed, with the reveal window closed (block-based: a genesis timestamp may be 0).
		for id in &ids {
			let root = commitment::keccak256(&id.to_le_bytes());
			Challenges::<T>::mutate(id, |c| {
				if let Some(c) = c {
					c.status = ChallengeStatus::Committed;
					c.root = Some(root);
					c.reveal_deadline = Some(0u32.into());
				}
			});
			KnownRoots::<T>::insert(root, id);
		}
		let caller = funded::<T>("caller", 0);
		let bounded: BoundedVec<_, _> = ids.clone().try_into().expect("n ≤ 64");
		#[extrinsic_call]
		_(RawOrigin::Signed(caller), bounded);
		assert!(ids.iter().all(|id| !InFlight::<T>::contains_key(id)));
	}

	#[benchmark]
	fn add_profile() {
		let before = ProfileCount::<T>::get();
		#[extrinsic_call]
		_(RawOrigin::Root, profile());
		assert_eq!(ProfileCount::<T>::get(), before + 1);
	}

	#[benchmark]
	fn update_profile() {
		let id = ensure_profile::<T>();
		#[extrinsic_call]
		_(RawOrigin::Root, id, GpuProfile { base_score: 1, ..profile() });
		assert_eq!(Profiles::<T>::get(id).expect("exists").base_score, 1);
	}

	#[benchmark]
	fn remove_profile() {
		let id = ensure_profile::<T>();
		#[extrinsic_call]
		_(RawOrigin::Root, id);
		assert!(!Profiles::<T>::contains_key(id));
	}

	#[benchmark]
	fn add_validator() {
		let mut vs: Vec<T::AccountId> = (0..T::MaxValidators::get() - 1).map(|i| account("v", i, SEED)).collect();
		vs.sort();
		Validators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(vs));
		let new: T::AccountId = account("new", 0, SEED);
		#[extrinsic_call]
		_(RawOrigin::Root, new.clone());
		assert!(Validators::<T>::get().contains(&new));
	}

	#[benchmark]
	fn remove_validator() {
		let vs: Vec<T::AccountId> = (0..T::MaxValidators::get()).map(|i| account("v", i, SEED)).collect();
		let last = vs.last().cloned().expect("MaxValidators > 0");
		Validators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(vs));
		#[extrinsic_call]
		_(RawOrigin::Root, last.clone());
		assert!(!Validators::<T>::get().contains(&last));
	}

	#[benchmark]
	fn set_config() {
		let config = ProtocolConfig::mainnet();
		#[extrinsic_call]
		_(RawOrigin::Root, config);
		assert_eq!(Configuration::<T>::get(), config);
	}

	#[benchmark]
	fn update_shares(m: Linear<0, { T::MaxMiners::get() }>) {
		for i in 0..m {
			let who: T::AccountId = account("scored", i, SEED);
			Scores::<T>::insert(&who, Score { total: Perbill::from_parts(i + 1), ..Default::default() });
		}
		MinerCount::<T>::put(m);
		#[block]
		{
			Pog::<T>::update_shares(1);
		}
		assert_eq!(WeightShares::<T>::get().len() as u32, m);
	}

	impl_benchmark_test_suite!(Pog, crate::mock::new_test_ext(), crate::mock::Test);
}
