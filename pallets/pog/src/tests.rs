//! pallet-pog tests against the mock runtime: the honest path through the off-chain worker,
//! every cheat, bad input, and randomised call sequences checked against the invariants.

use crate::{mock::*, offchain, pallet::*, types::*, Error, Event};
use codec::{Decode, Encode};
use frame_support::{
	assert_noop, assert_ok,
	traits::{Get, Hooks},
	BoundedVec,
};
use pog_primitives::{commitment::CommittedMatrix, cpu, verify::ChallengeSpec, LEAF_VALUES};
use rand::{rngs::StdRng, Rng, SeedableRng};
use sp_runtime::{DispatchError, Perbill};

// ---------------------------------------------------------------------------------------------
// helpers

fn uuid(n: u8) -> GpuUuid {
	[n; 16]
}

fn claim(profile: ProfileId, uuids: &[GpuUuid]) -> ClaimOf<Test> {
	GpuClaim { profile, count: uuids.len() as u32, uuids: uuids.to_vec().try_into().unwrap() }
}

fn claims(list: Vec<ClaimOf<Test>>) -> ClaimsOf<Test> {
	list.try_into().unwrap()
}

fn hardware() -> Hardware {
	Hardware {
		cpu_cores: 32,
		cpu_model: b"AMD EPYC 9654".to_vec().try_into().unwrap(),
		ram_mib: 256 * 1024,
		disk_gib: 4096,
	}
}

fn register_cpu_miner(who: AccountId, uuids: &[GpuUuid]) {
	assert_ok!(Pog::register_miner(RuntimeOrigin::signed(who), claims(vec![claim(CPU_PROFILE, uuids)]), hardware()));
}

fn events() -> Vec<Event<Test>> {
	System::events()
		.into_iter()
		.filter_map(|r| if let RuntimeEvent::Pog(e) = r.event { Some(e) } else { None })
		.collect()
}

fn challenges_of(miner: &AccountId) -> Vec<ChallengeId> {
	Miners::<Test>::get(miner).map(|m| m.current_round.to_vec()).unwrap_or_default()
}

fn spec_of(ch: &ChallengeOf<Test>) -> ChallengeSpec {
	ch.spec()
}

/// How a (possibly cheating) miner computes C.
#[derive(Clone, Copy, Debug)]
enum Compute {
	Honest,
	/// Operands rounded to a cheaper format's mantissa (`Precision::substitute_mantissa_bits`).
	LowerPrecision,
	/// A fraction (in percent) of the entries replaced by garbage.
	Corrupt(u32),
}

/// The opening of `leaf` of a miner's committed C, as `reveal_openings` carries it.
fn opening(result: &CommittedMatrix, leaf: u32) -> Opening {
	let (values, proof) = result.open(leaf).expect("leaf inside C");
	Opening { leaf, values: values.to_vec().try_into().unwrap(), proof: proof.try_into().unwrap() }
}

fn compute(id: ChallengeId, how: Compute) -> CommittedMatrix {
	let ch = Challenges::<Test>::get(id).unwrap();
	let spec = spec_of(&ch);
	let mut c = match how {
		Compute::LowerPrecision => {
			cpu::gemm_rows_rounded(&spec, 0, spec.dims.m, Some(ch.precision.substitute_mantissa_bits()))
		},
		_ => cpu::gemm(&spec),
	};
	if let Compute::Corrupt(percent) = how {
		let mut rng = StdRng::seed_from_u64(id);
		for v in c.iter_mut() {
			if rng.random_range(0..100) < percent {
				*v = (f32::from_bits(*v) + rng.random_range(1.0..100.0f32)).to_bits();
			}
		}
	}
	CommittedMatrix::new(c)
}

fn commit(miner: AccountId, id: ChallengeId, result: &CommittedMatrix) {
	let report = AgentReport { elapsed_ms: 1_000, interval_ms: 100, trace_gflops: vec![2; 10].try_into().unwrap() };
	assert_ok!(Pog::commit_root(RuntimeOrigin::signed(miner), id, result.root(), report));
}

fn openings_for(
	id: ChallengeId,
	result: &CommittedMatrix,
) -> BoundedVec<Opening, <Test as crate::Config>::MaxOpenings> {
	let ch = Challenges::<Test>::get(id).unwrap();
	let leaves = Pog::leaves_to_open(&ch).expect("sample seed known after the commit block");
	leaves.into_iter().map(|l| opening(result, l)).collect::<Vec<_>>().try_into().unwrap()
}

fn reveal(miner: AccountId, id: ChallengeId, result: &CommittedMatrix) {
	assert_ok!(Pog::reveal_openings(RuntimeOrigin::signed(miner), id, openings_for(id, result)));
}

/// A validator's verdict as its off-chain worker computes it (entries from `entropy`).
fn verdict_by(validator: &str, id: ChallengeId, entropy: u8) -> DispatchResultOf {
	let (verdict, _) = offchain::verify_challenge::<Test>(id, &[entropy; 32]).expect("revealed");
	Pog::submit_verdict(RuntimeOrigin::signed(account(validator)), id, verdict)
}
type DispatchResultOf = sp_runtime::DispatchResult;

/// Issue a round to `miner` directly (as validator Alice).
fn issue(miner: AccountId) -> Vec<ChallengeId> {
	assert_ok!(Pog::issue_challenges(RuntimeOrigin::signed(account("Alice")), miner));
	challenges_of(&miner)
}

/// Miner1 with one cpu-reference GPU, registered and issued its first challenge.
fn one_gpu_challenge() -> (AccountId, ChallengeId) {
	let m = account("Miner1");
	register_cpu_miner(m, &[uuid(1)]);
	next_block();
	let id = issue(m)[0];
	(m, id)
}

fn status(id: ChallengeId) -> ChallengeStatus {
	Challenges::<Test>::get(id).unwrap().status
}

fn try_state() {
	Pog::do_try_state().expect("invariants hold");
}

/// Run a challenge to its verdicts with `how`; returns the final status.
fn play(miner: AccountId, id: ChallengeId, how: Compute) -> ChallengeStatus {
	let result = compute(id, how);
	commit(miner, id, &result);
	next_block();
	reveal(miner, id, &result);
	let _ = verdict_by("Alice", id, 1);
	if status(id) == ChallengeStatus::Revealed {
		let _ = verdict_by("Bob", id, 2);
	}
	status(id)
}

// ---------------------------------------------------------------------------------------------
// genesis and configuration

#[test]
fn genesis_has_profiles_validators_and_config() {
	new_test_ext().execute_with(|| {
		assert_eq!(ProfileCount::<Test>::get(), 10);
		let h100 = Profiles::<Test>::get(H100_PROFILE).unwrap();
		assert_eq!(h100.name.to_vec(), b"NVIDIA H100 80GB HBM3".to_vec());
		assert_eq!(Profiles::<Test>::get(CPU_PROFILE).unwrap().name.to_vec(), b"cpu-reference".to_vec());
		assert_eq!(Validators::<Test>::get().to_vec(), validators());
		assert_eq!(Configuration::<Test>::get(), test_config());
		assert_eq!(ProtocolConfig::mainnet().weights.gpu, Perbill::from_percent(55));
		try_state();
	});
}

#[test]
fn root_manages_profiles_validators_and_config() {
	new_test_ext().execute_with(|| {
		let mut p = Profiles::<Test>::get(H100_PROFILE).unwrap();
		assert_noop!(Pog::add_profile(RuntimeOrigin::signed(account("Alice")), p.clone()), DispatchError::BadOrigin);
		p.name = b"Test GPU".to_vec().try_into().unwrap();
		assert_ok!(Pog::add_profile(RuntimeOrigin::root(), p.clone()));
		assert_eq!(Profiles::<Test>::get(10), Some(p.clone()));
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), 10, GpuProfile { base_score: 1, ..p.clone() }));
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), 99, p.clone()), Error::<Test>::UnknownProfile);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), GpuProfile { gflops: [0; 5], ..p.clone() }),
			Error::<Test>::InvalidProfile
		);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), GpuProfile { vram_mib: 0, ..p.clone() }),
			Error::<Test>::InvalidProfile
		);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), GpuProfile { tolerance_percent: 100, ..p.clone() }),
			Error::<Test>::InvalidProfile
		);
		assert_ok!(Pog::remove_profile(RuntimeOrigin::root(), 10));
		assert_noop!(Pog::remove_profile(RuntimeOrigin::root(), 10), Error::<Test>::UnknownProfile);
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		assert_noop!(Pog::remove_profile(RuntimeOrigin::root(), CPU_PROFILE), Error::<Test>::ProfileInUse);

		assert_ok!(Pog::add_validator(RuntimeOrigin::root(), account("Dave")));
		assert_noop!(Pog::add_validator(RuntimeOrigin::root(), account("Dave")), Error::<Test>::AlreadyValidator);
		assert_ok!(Pog::remove_validator(RuntimeOrigin::root(), account("Dave")));
		assert_noop!(Pog::remove_validator(RuntimeOrigin::root(), account("Dave")), Error::<Test>::NotValidator);
		assert_noop!(
			Pog::add_validator(RuntimeOrigin::signed(account("Dave")), account("Dave")),
			DispatchError::BadOrigin
		);

		let mut c = test_config();
		c.weights.gpu = Perbill::from_percent(60);
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), c), Error::<Test>::InvalidConfig);
		assert_noop!(
			Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { period: 0, ..test_config() }),
			Error::<Test>::InvalidConfig
		);
		assert_noop!(
			Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { openings: 65, ..test_config() }),
			Error::<Test>::InvalidConfig
		);
		assert_noop!(
			Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { chunk_k: 100, ..test_config() }),
			Error::<Test>::InvalidConfig
		);
		assert_noop!(Pog::set_config(RuntimeOrigin::signed(account("Alice")), test_config()), DispatchError::BadOrigin);
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { quorum: 3, ..test_config() }));
		assert_eq!(Configuration::<Test>::get().quorum, 3);
		try_state();
	});
}

// ---------------------------------------------------------------------------------------------
// miners

#[test]
fn register_holds_deposit_and_claims_uuids() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(H100_PROFILE, &[uuid(1), uuid(2)]), claim(CPU_PROFILE, &[uuid(3)])]),
			hardware()
		));
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.deposit, 100 + 3 * 10);
		assert_eq!(Balances::free_balance(m), FUNDS - 130);
		assert_eq!(UuidOwner::<Test>::get(uuid(2)), Some(m));
		assert_eq!(ProfileClaims::<Test>::get(H100_PROFILE), 2);
		assert_eq!(MinerCount::<Test>::get(), 1);
		assert!(events().contains(&Event::MinerRegistered { miner: m, gpus: 3, deposit: 130 }));
		try_state();
	});
}

#[test]
fn bad_registrations_are_named_errors_and_change_nothing() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let reg = |c: Vec<ClaimOf<Test>>| Pog::register_miner(RuntimeOrigin::signed(m), claims(c), hardware());
		assert_noop!(reg(vec![]), Error::<Test>::NoClaims);
		assert_noop!(reg(vec![claim(99, &[uuid(1)])]), Error::<Test>::UnknownProfile);
		assert_noop!(
			reg(vec![GpuClaim { profile: CPU_PROFILE, count: 0, uuids: Default::default() }]),
			Error::<Test>::ZeroCount
		);
		assert_noop!(
			reg(vec![GpuClaim { profile: CPU_PROFILE, count: 2, uuids: vec![uuid(1)].try_into().unwrap() }]),
			Error::<Test>::CountMismatch
		);
		assert_noop!(reg(vec![claim(CPU_PROFILE, &[uuid(1), uuid(1)])]), Error::<Test>::DuplicateUuid);
		assert_noop!(
			reg(vec![
				claim(CPU_PROFILE, &[uuid(1), uuid(2), uuid(3), uuid(4), uuid(5)]),
				claim(H100_PROFILE, &[uuid(6), uuid(7), uuid(8), uuid(9)])
			]),
			Error::<Test>::TooManyGpus
		);
		register_cpu_miner(account("Miner2"), &[uuid(7)]);
		assert_noop!(reg(vec![claim(CPU_PROFILE, &[uuid(7)])]), Error::<Test>::UuidAlreadyClaimed);
		let poor = account("Nobody");
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(poor), claims(vec![claim(CPU_PROFILE, &[uuid(9)])]), hardware()),
			Error::<Test>::InsufficientDeposit
		);
		register_cpu_miner(m, &[uuid(1)]);
		assert_noop!(reg(vec![claim(CPU_PROFILE, &[uuid(2)])]), Error::<Test>::AlreadyRegistered);
		try_state();
	});
}

#[test]
fn implausible_hardware_is_refused_and_changes_nothing() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let reg = |h: Hardware| {
			Pog::register_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), h)
		};
		assert_noop!(reg(Hardware { cpu_cores: u32::MAX, ..hardware() }), Error::<Test>::ImplausibleCpuCores);
		assert_noop!(reg(Hardware { ram_mib: u64::MAX, ..hardware() }), Error::<Test>::ImplausibleRam);
		assert_noop!(reg(Hardware { disk_gib: u64::MAX, ..hardware() }), Error::<Test>::ImplausibleDisk);
		assert_noop!(reg(Hardware { cpu_cores: MAX_CPU_CORES + 1, ..hardware() }), Error::<Test>::ImplausibleCpuCores);
		// The largest plausible machine is accepted, and an update cannot smuggle in more.
		let biggest = Hardware { cpu_cores: MAX_CPU_CORES, ram_mib: MAX_RAM_MIB, disk_gib: MAX_DISK_GIB, ..hardware() };
		assert_ok!(reg(biggest.clone()));
		let update =
			|h: Hardware| Pog::update_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), h);
		assert_noop!(update(Hardware { ram_mib: MAX_RAM_MIB + 1, ..biggest }), Error::<Test>::ImplausibleRam);
		try_state();
	});
}

#[test]
fn claims_are_counted_before_any_uuid_is_read() {
	new_test_ext().execute_with(|| {
		// One UUID of the claims belongs to another miner; the claims also exceed the GPU limit.
		// The count is refused first, from the call alone, before any owner is read (the weight
		// covers MaxGpusPerMiner reads, not MaxClaims × MaxGpusPerMiner).
		register_cpu_miner(account("Miner2"), &[uuid(7)]);
		let max: u32 = <Test as crate::Config>::MaxGpusPerMiner::get();
		let max = max as u8;
		let too_many: Vec<GpuUuid> = (7..7 + max + 1).map(uuid).collect();
		let (first, rest) = too_many.split_at(1);
		assert_noop!(
			Pog::register_miner(
				RuntimeOrigin::signed(account("Miner1")),
				claims(vec![claim(CPU_PROFILE, first), claim(CPU_PROFILE, rest)]),
				hardware()
			),
			Error::<Test>::TooManyGpus
		);
	});
}

#[test]
fn a_verdict_after_the_verdict_window_is_refused_and_not_counted() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		// A fake C: a validator that votes it passed after the window must not pass it.
		let r = compute(id, Compute::Corrupt(100));
		commit(m, id, &r);
		next_block();
		reveal(m, id, &r);
		let deadline = Challenges::<Test>::get(id).unwrap().verdict_deadline.expect("set at the reveal");
		while System::block_number() <= deadline {
			next_block();
		}
		let late = Verdict { passed: true, entries_checked: 64, worst_permille: 0, failed_leaf: None };
		for validator in ["Alice", "Bob", "Charlie"] {
			assert_noop!(
				Pog::submit_verdict(RuntimeOrigin::signed(account(validator)), id, late),
				Error::<Test>::VerdictWindowClosed
			);
		}
		assert_eq!(status(id), ChallengeStatus::Revealed);
		assert_ok!(Pog::expire_challenges(RuntimeOrigin::signed(account("Eve")), vec![id].try_into().unwrap()));
		assert_eq!(status(id), ChallengeStatus::Inconclusive);
		assert!(Credits::<Test>::get(m).is_empty(), "no credit from a verdict outside the window");
		try_state();
	});
}

#[test]
fn oversized_vectors_do_not_decode() {
	// A call with more openings than MaxOpenings, or a leaf with more than 256 values, is
	// rejected when the extrinsic is decoded, before any dispatch.
	let opening = Opening { leaf: 0, values: vec![0u32; 256].try_into().unwrap(), proof: Default::default() };
	let too_many: Vec<Opening> = vec![opening.clone(); 65];
	let mut encoded = crate::Call::<Test>::reveal_openings { id: 0, openings: Default::default() }.encode();
	encoded.truncate(encoded.len() - 1);
	encoded.extend(too_many.encode());
	assert!(crate::Call::<Test>::decode(&mut &encoded[..]).is_err());
	let long_leaf = (0u32, vec![0u32; 257], Vec::<[u8; 32]>::new()).encode();
	assert!(Opening::decode(&mut &long_leaf[..]).is_err());
	let many_uuids = (CPU_PROFILE, 9u32, vec![[0u8; 16]; 9]).encode();
	assert!(GpuClaim::<<Test as crate::Config>::MaxGpusPerMiner>::decode(&mut &many_uuids[..]).is_err());
}

#[test]
fn update_and_deregister_follow_the_rules() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		assert_noop!(Pog::deregister_miner(RuntimeOrigin::signed(m)), Error::<Test>::NotRegistered);
		assert_noop!(
			Pog::update_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::NotRegistered
		);
		register_cpu_miner(m, &[uuid(1)]);
		next_block();
		let ids = issue(m);
		assert_noop!(Pog::deregister_miner(RuntimeOrigin::signed(m)), Error::<Test>::RoundInFlight);
		assert_noop!(
			Pog::update_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(2)])]), hardware()),
			Error::<Test>::RoundInFlight
		);
		assert_eq!(play(m, ids[0], Compute::Honest), ChallengeStatus::Passed);
		// Add a second GPU: the deposit grows, the verified GPU keeps its credit.
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(CPU_PROFILE, &[uuid(1), uuid(2)])]),
			hardware()
		));
		assert_eq!(Miners::<Test>::get(m).unwrap().deposit, 120);
		assert_eq!(Credits::<Test>::get(m).len(), 1);
		try_state();
		// Drop the verified GPU: its credit goes, the deposit shrinks.
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(CPU_PROFILE, &[uuid(2)])]),
			hardware()
		));
		assert_eq!(Credits::<Test>::get(m).len(), 0);
		assert_eq!(Scores::<Test>::get(m).unwrap().total, Perbill::zero());
		assert_eq!(UuidOwner::<Test>::get(uuid(1)), None);
		try_state();
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(m)));
		assert_eq!(Balances::free_balance(m), FUNDS);
		assert!(Challenges::<Test>::iter().next().is_none());
		assert_eq!(MinerCount::<Test>::get(), 0);
		try_state();
	});
}

// ---------------------------------------------------------------------------------------------
// the honest path through the off-chain worker

#[test]
fn honest_miner_is_challenged_verified_scored_and_weighted() {
	let mut env = env(&["Alice"]);
	let pool = env.pool.clone();
	env.ext.execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		next_block();

		// Alice's off-chain worker issues the due round (after the grace if not assigned to her).
		let mut issued = Vec::new();
		for _ in 0..4 {
			let included = run_ocw_and_include(&pool);
			issued.extend(
				included
					.into_iter()
					.filter(|(_, c, _)| matches!(c, RuntimeCall::Pog(crate::Call::issue_challenges { .. }))),
			);
			if !challenges_of(&m).is_empty() {
				break;
			}
		}
		assert_eq!(issued.len(), 1, "one issue transaction");
		assert!(issued[0].2.is_ok());
		assert_eq!(issued[0].0, account("Alice"));
		let ids = challenges_of(&m);
		assert_eq!(ids.len(), 2, "one challenge per claimed GPU");
		let deadlines: Vec<u64> = ids.iter().map(|id| Challenges::<Test>::get(id).unwrap().deadline_ms).collect();
		assert_eq!(deadlines[0], deadlines[1], "one deadline for the round");
		assert_eq!(events().iter().filter(|e| matches!(e, Event::ChallengeIssued { .. })).count(), 2);

		// The miner computes, commits, and reveals after the commitment's block.
		let results: Vec<CommittedMatrix> = ids.iter().map(|id| compute(*id, Compute::Honest)).collect();
		for (id, r) in ids.iter().zip(&results) {
			commit(m, *id, r);
			assert_noop!(
				Pog::reveal_openings(RuntimeOrigin::signed(m), *id, Default::default()),
				Error::<Test>::SampleNotReady
			);
		}
		next_block();
		for (id, r) in ids.iter().zip(&results) {
			reveal(m, *id, r);
			assert_eq!(status(*id), ChallengeStatus::Revealed);
		}
		try_state();

		// Alice's worker verifies both; Bob's verdicts (direct) complete the quorum of 2.
		let included = run_ocw_and_include(&pool);
		let verdicts: Vec<_> = included
			.iter()
			.filter_map(|(_, c, r)| match c {
				RuntimeCall::Pog(crate::Call::submit_verdict { verdict, .. }) => Some((verdict, r)),
				_ => None,
			})
			.collect();
		assert_eq!(verdicts.len(), 2);
		for (v, r) in verdicts {
			assert!(r.is_ok());
			assert!(v.passed, "{v:?}");
			assert_eq!(v.entries_checked, 16, "8 openings × 2 entries");
			assert!(v.worst_permille < 1000);
		}
		for id in &ids {
			assert_ok!(verdict_by("Bob", *id, 2));
			assert_eq!(status(*id), ChallengeStatus::Passed);
			assert!(events().iter().any(|e| matches!(e, Event::ChallengePassed { id: i, .. } if i == id)));
		}
		assert!(Openings::<Test>::iter().next().is_none(), "openings dropped once final");
		assert_eq!(InFlight::<Test>::count(), 0);

		let score = Scores::<Test>::get(m).unwrap();
		assert_eq!(score.verified_gpus, 2);
		assert_eq!(score.gpu_points, 20);
		assert_eq!(score.gpu, Perbill::from_rational(20u64, 32_000u64));
		assert_eq!(score.cpu, Perbill::from_rational(32u32, 128u32));
		assert_eq!(score.ram, Perbill::from_rational(256u32, 1024u32));
		assert_eq!(score.disk, Perbill::from_rational(4096u32, 8192u32));
		let expected = Perbill::from_percent(55) * score.gpu
			+ Perbill::from_percent(20) * score.cpu
			+ Perbill::from_percent(10) * score.ram
			+ Perbill::from_percent(15) * score.disk;
		assert_eq!(score.total, expected);
		assert!(events().contains(&Event::ScoreUpdated { miner: m, score }));

		// At the epoch boundary the miner holds all the weight.
		while !System::block_number().is_multiple_of(20) {
			next_block();
		}
		assert_eq!(WeightShares::<Test>::get().to_vec(), vec![(m, Perbill::one())]);
		assert_eq!(Epoch::<Test>::get(), 1);
		try_state();
	});
}

#[test]
fn report_is_stored_capped_at_what_the_chain_saw() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		let r = compute(id, Compute::Honest);
		next_block(); // 6 s later on chain
		let report =
			AgentReport { elapsed_ms: 60_000, interval_ms: 1000, trace_gflops: vec![3; 60].try_into().unwrap() };
		assert_ok!(Pog::commit_root(RuntimeOrigin::signed(m), id, r.root(), report));
		let stored = Challenges::<Test>::get(id).unwrap().report.unwrap();
		assert_eq!(stored.elapsed_ms, BLOCK_MS, "the agent cannot claim more time than the chain saw");
		assert_eq!(stored.trace_gflops.len(), 60);
	});
}

#[test]
fn revalidation_keeps_credit_until_the_next_round_ends_and_prunes_old_rounds() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		next_block();
		let first = issue(m)[0];
		assert_noop!(Pog::issue_challenges(RuntimeOrigin::signed(account("Alice")), m), Error::<Test>::RoundInFlight);
		assert_eq!(play(m, first, Compute::Honest), ChallengeStatus::Passed);
		assert_noop!(Pog::issue_challenges(RuntimeOrigin::signed(account("Alice")), m), Error::<Test>::NotDue);
		run_blocks(20);
		let second = issue(m)[0];
		assert_eq!(Credits::<Test>::get(m).len(), 1, "credit kept while the new round runs");
		assert!(Challenges::<Test>::get(first).is_some(), "previous round kept for auditors");
		assert_eq!(play(m, second, Compute::Honest), ChallengeStatus::Passed);
		run_blocks(20);
		let third = issue(m)[0];
		assert!(Challenges::<Test>::get(first).is_none(), "round before the previous is pruned");
		assert!(Challenges::<Test>::get(second).is_some());
		// The third round fails: the credit goes at once.
		assert_eq!(play(m, third, Compute::LowerPrecision), ChallengeStatus::Failed(FailReason::WrongResult));
		assert!(Credits::<Test>::get(m).is_empty());
		assert_eq!(Scores::<Test>::get(m).unwrap(), Score::default());
		try_state();
	});
}

#[test]
fn several_validators_workers_issue_each_round_once() {
	// One node holding Alice's, Bob's and Charlie's keys runs all three workers on every block.
	let mut env = env(&["Alice", "Bob", "Charlie"]);
	let pool = env.pool.clone();
	env.ext.execute_with(|| {
		let miners: Vec<AccountId> = ["Miner1", "Miner2", "Miner3", "Miner4"].iter().map(|n| account(n)).collect();
		for (i, m) in miners.iter().enumerate() {
			register_cpu_miner(*m, &[uuid(i as u8 + 1)]);
		}
		next_block();
		let mut issuers = Vec::new();
		for _ in 0..4 {
			for (who, call, result) in run_ocw_and_include(&pool) {
				if let RuntimeCall::Pog(crate::Call::issue_challenges { miner }) = call {
					assert!(result.is_ok(), "a duplicate issue was sent for {miner:?}: {result:?}");
					issuers.push((who, miner));
				}
			}
		}
		assert_eq!(issuers.len(), 4, "one issue per miner");
		for (who, miner) in &issuers {
			let due = Miners::<Test>::get(miner).unwrap().registered_at + 1;
			assert_eq!(Some(*who), offchain::assigned_validator::<Test>(miner, due), "the assigned validator issued");
		}
		for m in &miners {
			assert_eq!(challenges_of(m).len(), 1);
		}
		assert_eq!(Challenges::<Test>::iter().count(), 4);
		try_state();
	});
}

#[test]
fn off_chain_worker_without_a_validator_key_does_nothing() {
	let mut env = env(&["Eve"]);
	let pool = env.pool.clone();
	env.ext.execute_with(|| {
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		run_blocks(5);
		Pog::offchain_worker(System::block_number());
		assert!(pool.read().transactions.is_empty());
	});
}

// ---------------------------------------------------------------------------------------------
// every cheat is caught

#[test]
fn corrupted_results_fail_by_quorum_and_earn_nothing() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		assert_eq!(play(m, id, Compute::Corrupt(50)), ChallengeStatus::Failed(FailReason::WrongResult));
		assert!(events().iter().any(|e| matches!(e, Event::ChallengeFailed { reason: FailReason::WrongResult, .. })));
		assert!(Credits::<Test>::get(m).is_empty());
		assert!(Scores::<Test>::get(m).is_none_or(|s| s.total.is_zero()));
		try_state();
	});
}

#[test]
fn a_corrupted_entry_in_an_opened_leaf_is_caught_by_the_verifier() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		let honest = compute(id, Compute::Honest);
		commit(m, id, &honest);
		next_block();
		let ch = Challenges::<Test>::get(id).unwrap();
		let leaves = Pog::leaves_to_open(&ch).unwrap();
		// The miner commits a C in which every entry the verifier with entropy [1; 32] will
		// check in the first opened leaf is off by one.
		let entropy = [1u8; 32];
		let offsets = pog_primitives::sampling::checked_offsets(&entropy, leaves[0], 2);
		let mut c = honest.entries().to_vec();
		for o in offsets {
			let i = leaves[0] as usize * LEAF_VALUES + o as usize;
			c[i] = (f32::from_bits(c[i]) + 1.0).to_bits();
		}
		let spec = spec_of(&ch);
		let opened = &c[leaves[0] as usize * LEAF_VALUES..][..LEAF_VALUES];
		let report = pog_primitives::verify::check_openings(&spec, [(leaves[0], opened)], 2, &entropy);
		assert!(!report.passed());
		assert_eq!(report.failure.unwrap().leaf, leaves[0]);
		// ...and the honest leaf passes the same check.
		let honest_leaf = &honest.entries()[leaves[0] as usize * LEAF_VALUES..][..LEAF_VALUES];
		assert!(pog_primitives::verify::check_openings(&spec, [(leaves[0], honest_leaf)], 2, &entropy).passed());
	});
}

#[test]
fn forged_or_mismatched_proofs_and_wrong_indices_are_refused() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		let r = compute(id, Compute::Honest);
		commit(m, id, &r);
		next_block();
		let good = openings_for(id, &r);
		let reveal = |o: Vec<Opening>| Pog::reveal_openings(RuntimeOrigin::signed(m), id, o.try_into().unwrap());

		let mut forged = good.to_vec();
		forged[0].proof[2][5] ^= 0x40;
		assert_noop!(reveal(forged), Error::<Test>::InvalidProof);

		let mut altered_value = good.to_vec();
		altered_value[1].values[3] ^= 1;
		assert_noop!(reveal(altered_value), Error::<Test>::InvalidProof);

		let mut mismatched = good.to_vec();
		mismatched[0].proof = good[1].proof.clone();
		assert_noop!(reveal(mismatched), Error::<Test>::InvalidProof);

		let mut wrong_index = good.to_vec();
		let other = (0..ch_leaves(id)).find(|l| !good.iter().any(|o| o.leaf == *l)).unwrap();
		wrong_index[0] = opening(&r, other);
		assert_noop!(reveal(wrong_index), Error::<Test>::WrongOpeningIndex);

		let mut swapped = good.to_vec();
		swapped.swap(0, 1);
		assert_noop!(reveal(swapped), Error::<Test>::WrongOpeningIndex);

		assert_noop!(reveal(good[..7].to_vec()), Error::<Test>::WrongOpeningCount);
		assert_noop!(reveal(vec![]), Error::<Test>::WrongOpeningCount);
		assert_noop!(
			Pog::reveal_openings(RuntimeOrigin::signed(account("Miner2")), id, good.clone()),
			Error::<Test>::NotChallengedMiner
		);
		assert_ok!(Pog::reveal_openings(RuntimeOrigin::signed(m), id, good.clone()));
		assert_noop!(Pog::reveal_openings(RuntimeOrigin::signed(m), id, good), Error::<Test>::WrongStatus);
		try_state();
	});
}

fn ch_leaves(id: ChallengeId) -> u32 {
	Challenges::<Test>::get(id).unwrap().dims.num_leaves()
}

#[test]
fn a_root_after_the_deadline_fails() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		let ch = Challenges::<Test>::get(id).unwrap();
		let r = compute(id, Compute::Honest);
		assert_noop!(
			Pog::expire_challenges(RuntimeOrigin::signed(account("Eve")), vec![id].try_into().unwrap()),
			Error::<Test>::NothingToExpire
		);
		while pallet_timestamp::Now::<Test>::get() <= ch.deadline_ms {
			next_block();
		}
		let report = AgentReport::default();
		assert_noop!(Pog::commit_root(RuntimeOrigin::signed(m), id, r.root(), report), Error::<Test>::DeadlinePassed);
		assert_ok!(Pog::expire_challenges(RuntimeOrigin::signed(account("Eve")), vec![id].try_into().unwrap()));
		assert_eq!(status(id), ChallengeStatus::Failed(FailReason::MissedDeadline));
		assert!(events()
			.iter()
			.any(|e| matches!(e, Event::ChallengeFailed { reason: FailReason::MissedDeadline, .. })));
		try_state();
	});
}

#[test]
fn a_slower_gpu_than_claimed_misses_the_deadline() {
	new_test_ext().execute_with(|| {
		// An H100 claim on mainnet settings: the round's deadline is the expected time at the
		// profile's throughput stretched by its tolerance plus the slack. An A100 (203 vs 640
		// bf16 TFLOPS) needs 3.2× the expected time and misses it.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { max_challenges_per_block: 64, ..ProtocolConfig::mainnet() }
		));
		let m = account("Miner1");
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(H100_PROFILE, &[uuid(1)])]),
			hardware()
		));
		next_block();
		let id = issue(m)[0];
		let ch = Challenges::<Test>::get(id).unwrap();
		let h100 = Profiles::<Test>::get(H100_PROFILE).unwrap();
		let a100 = Profiles::<Test>::get(2).unwrap();
		let a100_gflops = a100.gflops_for(ch.precision).max(h100.gflops_for(ch.precision) / 4);
		let a100_ms = pog_primitives::sizing::expected_ms(&ch.dims, a100_gflops);
		assert!((119_000..=121_000).contains(&ch.expected_ms), "two-minute challenge, got {}", ch.expected_ms);
		assert!(
			ch.issued_ms + a100_ms > ch.deadline_ms,
			"A100 needs {a100_ms} ms > {} ms allowed",
			ch.deadline_ms - ch.issued_ms
		);
		assert!(ch.issued_ms + ch.expected_ms * 100 / 85 <= ch.deadline_ms, "an H100 at 85% of expected makes it");
	});
}

#[test]
fn a_late_reveal_fails() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		let r = compute(id, Compute::Honest);
		commit(m, id, &r);
		next_block();
		let openings = openings_for(id, &r);
		run_blocks(5); // past the reveal window of 5 blocks after the commitment's block
		assert_noop!(Pog::reveal_openings(RuntimeOrigin::signed(m), id, openings), Error::<Test>::RevealWindowClosed);
		assert_ok!(Pog::expire_challenges(RuntimeOrigin::signed(account("Eve")), vec![id].try_into().unwrap()));
		assert_eq!(status(id), ChallengeStatus::Failed(FailReason::RevealMissed));
		try_state();
	});
}

#[test]
fn a_root_replayed_from_another_challenge_is_refused() {
	new_test_ext().execute_with(|| {
		let (m1, m2) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m1, &[uuid(1), uuid(2)]);
		register_cpu_miner(m2, &[uuid(3)]);
		next_block();
		let ids = issue(m1);
		let other = issue(m2)[0];
		let r = compute(ids[0], Compute::Honest);
		commit(m1, ids[0], &r);
		let replay = |who, id| Pog::commit_root(RuntimeOrigin::signed(who), id, r.root(), AgentReport::default());
		assert_noop!(replay(m1, ids[1]), Error::<Test>::RootReplayed);
		assert_noop!(replay(m2, other), Error::<Test>::RootReplayed);
		assert_noop!(replay(m1, ids[0]), Error::<Test>::WrongStatus);
		// Replaying another challenge's C under a fresh root does not help either: it is another
		// seed's C, and its entries fail verification.
		let mut c = r.entries().to_vec();
		c[0] ^= 1; // a different C gets a fresh root
		let replayed = CommittedMatrix::new(c);
		commit(m1, ids[1], &replayed);
		next_block();
		reveal(m1, ids[1], &replayed);
		let _ = verdict_by("Alice", ids[1], 4);
		let _ = verdict_by("Bob", ids[1], 5);
		assert_eq!(status(ids[1]), ChallengeStatus::Failed(FailReason::WrongResult));
		try_state();
	});
}

#[test]
fn a_result_in_a_lower_precision_fails() {
	new_test_ext().execute_with(|| {
		// Every precision the cpu-reference profile supports, over several seeds.
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2), uuid(3), uuid(4), uuid(5), uuid(6)]);
		next_block();
		let mut seen = std::collections::BTreeSet::new();
		for round in 0..3 {
			let ids = issue(m);
			let results: Vec<CommittedMatrix> = ids.iter().map(|id| compute(*id, Compute::LowerPrecision)).collect();
			for (id, r) in ids.iter().zip(&results) {
				seen.insert(Challenges::<Test>::get(id).unwrap().precision);
				commit(m, *id, r);
			}
			next_block();
			for (id, r) in ids.iter().zip(&results) {
				reveal(m, *id, r);
				let _ = verdict_by("Alice", *id, round);
				let _ = verdict_by("Charlie", *id, round + 10);
				assert_eq!(
					status(*id),
					ChallengeStatus::Failed(FailReason::WrongResult),
					"{:?}",
					Challenges::<Test>::get(id).unwrap().precision
				);
			}
			run_blocks(20);
		}
		assert!(seen.len() >= 4, "precisions exercised: {seen:?}");
		try_state();
	});
}

#[test]
fn calls_need_the_right_role_and_validators_vote_once() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		next_block();
		assert_noop!(Pog::issue_challenges(RuntimeOrigin::signed(m), m), Error::<Test>::NotValidator);
		assert_noop!(
			Pog::issue_challenges(RuntimeOrigin::signed(account("Alice")), account("Miner2")),
			Error::<Test>::NotRegistered
		);
		let id = issue(m)[0];
		let r = compute(id, Compute::Honest);
		assert_noop!(
			Pog::commit_root(RuntimeOrigin::signed(account("Miner2")), id, r.root(), AgentReport::default()),
			Error::<Test>::NotChallengedMiner
		);
		let v = Verdict { passed: true, entries_checked: 16, worst_permille: 1, failed_leaf: None };
		assert_noop!(Pog::submit_verdict(RuntimeOrigin::signed(account("Alice")), id, v), Error::<Test>::WrongStatus);
		commit(m, id, &r);
		next_block();
		reveal(m, id, &r);
		assert_noop!(Pog::submit_verdict(RuntimeOrigin::signed(m), id, v), Error::<Test>::NotValidator);
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(account("Alice")), id, v));
		assert_noop!(Pog::submit_verdict(RuntimeOrigin::signed(account("Alice")), id, v), Error::<Test>::AlreadyVoted);
		// One lying validator cannot fail an honest miner: a quorum of 2 is needed either way.
		let lie = Verdict { passed: false, ..v };
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(account("Bob")), id, lie));
		assert_eq!(status(id), ChallengeStatus::Revealed);
		assert_ok!(verdict_by("Charlie", id, 3));
		assert_eq!(status(id), ChallengeStatus::Passed);
		assert_noop!(Pog::submit_verdict(RuntimeOrigin::signed(account("Charlie")), id, v), Error::<Test>::WrongStatus);
		try_state();
	});
}

#[test]
fn no_quorum_in_the_verdict_window_is_inconclusive() {
	new_test_ext().execute_with(|| {
		let (m, id) = one_gpu_challenge();
		let r = compute(id, Compute::Honest);
		commit(m, id, &r);
		next_block();
		reveal(m, id, &r);
		assert_ok!(verdict_by("Alice", id, 1));
		run_blocks(11);
		assert_ok!(Pog::expire_challenges(RuntimeOrigin::signed(account("Eve")), vec![id].try_into().unwrap()));
		assert_eq!(status(id), ChallengeStatus::Inconclusive);
		assert!(Credits::<Test>::get(m).is_empty());
		try_state();
	});
}

#[test]
fn unknown_challenges_are_named_errors() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let v = Verdict { passed: true, entries_checked: 0, worst_permille: 0, failed_leaf: None };
		assert_noop!(
			Pog::commit_root(RuntimeOrigin::signed(m), 7, [0; 32], AgentReport::default()),
			Error::<Test>::UnknownChallenge
		);
		assert_noop!(
			Pog::reveal_openings(RuntimeOrigin::signed(m), 7, Default::default()),
			Error::<Test>::UnknownChallenge
		);
		assert_noop!(
			Pog::submit_verdict(RuntimeOrigin::signed(account("Alice")), 7, v),
			Error::<Test>::UnknownChallenge
		);
		assert_noop!(
			Pog::expire_challenges(RuntimeOrigin::signed(m), vec![7].try_into().unwrap()),
			Error::<Test>::UnknownChallenge
		);
		assert_noop!(
			Pog::expire_challenges(RuntimeOrigin::signed(m), Default::default()),
			Error::<Test>::NothingToExpire
		);
	});
}

#[test]
fn challenges_per_block_are_bounded() {
	new_test_ext().execute_with(|| {
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { max_challenges_per_block: 8, ..test_config() }
		));
		let (m1, m2) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m1, &[uuid(1), uuid(2), uuid(3), uuid(4), uuid(5)]);
		register_cpu_miner(m2, &[uuid(6), uuid(7), uuid(8), uuid(9)]);
		next_block();
		issue(m1);
		assert_noop!(
			Pog::issue_challenges(RuntimeOrigin::signed(account("Alice")), m2),
			Error::<Test>::TooManyChallengesThisBlock
		);
		next_block();
		assert_eq!(issue(m2).len(), 4);
	});
}

// ---------------------------------------------------------------------------------------------
// arithmetic

#[test]
fn weight_shares_always_sum_to_one_hundred_percent() {
	let mut rng = StdRng::seed_from_u64(7);
	for _ in 0..2_000 {
		let n = rng.random_range(1..200);
		let totals: Vec<u32> =
			(0..n).map(|_| if rng.random_bool(0.2) { 0 } else { rng.random_range(0..1_000_000_000) }).collect();
		let shares = Pallet::<Test>::shares_of(&totals);
		if totals.iter().all(|t| *t == 0) {
			assert!(shares.is_empty());
			continue;
		}
		let sum: u64 = shares.iter().map(|s| u64::from(s.deconstruct())).sum();
		assert_eq!(sum, 1_000_000_000);
		// Proportional to within one part per billion.
		let total: u128 = totals.iter().map(|t| u128::from(*t)).sum();
		for (t, s) in totals.iter().zip(&shares) {
			let exact = u128::from(*t) * 1_000_000_000 / total;
			assert!(u128::from(s.deconstruct()).abs_diff(exact) <= 1);
		}
	}
}

#[test]
fn gpu_points_are_capped_at_the_best_gpus() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let info = Miners::<Test>::get(m).unwrap();
		let credit = |n: u8, points| GpuCredit { uuid: uuid(n), profile: 0, points, challenge: 0, verified_at: 1u64 };
		let mut config = test_config();
		config.caps.gpus = 2;
		config.caps.gpu_points = 8_000;
		let s = Pallet::<Test>::compute_score(&info, &[credit(1, 1_000), credit(2, 4_000), credit(3, 3_000)], &config);
		assert_eq!(s.gpu_points, 7_000);
		assert_eq!(s.gpu, Perbill::from_rational(7u32, 8u32));
		let none = Pallet::<Test>::compute_score(&info, &[], &config);
		assert_eq!(none, Score::default(), "hardware is not scored without a verified GPU");
	});
}

// ---------------------------------------------------------------------------------------------
// randomised call sequences keep the invariants

#[test]
fn random_call_sequences_keep_the_invariants() {
	let seed = std::env::var("POG_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(11u64);
	let mut rng = StdRng::seed_from_u64(seed);
	new_test_ext().execute_with(|| {
		let miners: Vec<AccountId> =
			["Miner1", "Miner2", "Miner3", "Miner4", "Nobody"].iter().map(|n| account(n)).collect();
		let vals = ["Alice", "Bob", "Charlie", "Eve"];
		// Roomy windows, so that random interleavings reach verdicts as well as expiries.
		let roomy = ProtocolConfig { slack_ms: 90_000, reveal_window: 15, verdict_window: 25, ..test_config() };
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), roomy));
		let mut results: std::collections::BTreeMap<ChallengeId, CommittedMatrix> = Default::default();
		let mut outcomes: std::collections::BTreeMap<ChallengeId, ChallengeStatus> = Default::default();
		for step in 0..300 {
			let m = miners[rng.random_range(0..miners.len())];
			let in_flight: Vec<ChallengeId> = InFlight::<Test>::iter_keys().collect();
			let ids: Vec<ChallengeId> = if !in_flight.is_empty() && rng.random_bool(0.8) {
				in_flight
			} else {
				Challenges::<Test>::iter_keys().collect()
			};
			let id = if ids.is_empty() || rng.random_bool(0.05) {
				rng.random_range(0..50)
			} else {
				ids[rng.random_range(0..ids.len())]
			};
			let before = sp_io::storage::root(sp_runtime::StateVersion::V1);
			// Operation weights: registrations 0-1, deregistration 2, issue 3, commit 4,
			// reveal 5, verdict 6, expiry 7, blocks 8 and 10, configuration 9.
			const OPS: [u8; 40] = [
				0, 0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 8, 8, 8,
				8, 9, 10, 10, 10, 10,
			];
			let outcome: DispatchResultOf = match OPS[rng.random_range(0..OPS.len())] {
				0 => {
					let n = rng.random_range(0..4u8);
					let profile = if rng.random_bool(0.9) { CPU_PROFILE } else { rng.random_range(0..12) };
					let list: Vec<GpuUuid> = (0..n).map(|_| uuid(rng.random_range(1..12))).collect();
					let c = if n == 0 { vec![] } else { vec![claim(profile, &list)] };
					Pog::register_miner(RuntimeOrigin::signed(m), claims(c), hardware())
				},
				1 => {
					let list: Vec<GpuUuid> =
						(0..rng.random_range(1..3u8)).map(|_| uuid(rng.random_range(1..12))).collect();
					Pog::update_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &list)]), hardware())
				},
				2 => Pog::deregister_miner(RuntimeOrigin::signed(m)),
				3 => Pog::issue_challenges(RuntimeOrigin::signed(account(vals[rng.random_range(0..4)])), m),
				4 => {
					let how = if rng.random_bool(0.7) { Compute::Honest } else { Compute::Corrupt(60) };
					match Challenges::<Test>::get(id) {
						// Only the cpu-reference GEMM is small enough to compute here.
						Some(ch) if ch.status == ChallengeStatus::Issued && ch.profile == CPU_PROFILE => {
							let r = compute(id, how);
							let res =
								Pog::commit_root(RuntimeOrigin::signed(ch.miner), id, r.root(), AgentReport::default());
							results.insert(id, r);
							res
						},
						_ => Pog::commit_root(RuntimeOrigin::signed(m), id, [step as u8; 32], AgentReport::default()),
					}
				},
				5 => match (Challenges::<Test>::get(id), results.get(&id)) {
					(Some(ch), Some(r))
						if ch.status == ChallengeStatus::Committed && Pog::leaves_to_open(&ch).is_some() =>
					{
						Pog::reveal_openings(RuntimeOrigin::signed(ch.miner), id, openings_for(id, r))
					},
					_ => Pog::reveal_openings(RuntimeOrigin::signed(m), id, Default::default()),
				},
				6 => match offchain::verify_challenge::<Test>(id, &[step as u8; 32]) {
					Some((v, _)) => {
						Pog::submit_verdict(RuntimeOrigin::signed(account(vals[rng.random_range(0..3)])), id, v)
					},
					None => Pog::submit_verdict(
						RuntimeOrigin::signed(account(vals[rng.random_range(0..4)])),
						id,
						Verdict {
							passed: rng.random_bool(0.5),
							entries_checked: 0,
							worst_permille: 0,
							failed_leaf: None,
						},
					),
				},
				7 => Pog::expire_challenges(RuntimeOrigin::signed(m), vec![id].try_into().unwrap()),
				8 => {
					run_blocks(rng.random_range(1..4));
					Ok(())
				},
				9 => {
					let mut c = roomy;
					c.quorum = rng.random_range(0..4);
					Pog::set_config(RuntimeOrigin::root(), c)
				},
				_ => {
					next_block();
					Ok(())
				},
			};
			if outcome.is_err() {
				assert_eq!(
					before,
					sp_io::storage::root(sp_runtime::StateVersion::V1),
					"a failed call changed state at step {step}"
				);
			}
			try_state();
			for (id, ch) in Challenges::<Test>::iter() {
				outcomes.insert(id, ch.status);
			}
		}
		let reached = |f: fn(&ChallengeStatus) -> bool| outcomes.values().filter(|s| f(s)).count();
		assert!(reached(|s| *s == ChallengeStatus::Passed) > 0, "the sequence reached passing verdicts: {outcomes:?}");
		assert!(reached(|s| matches!(s, ChallengeStatus::Failed(_))) > 0, "and failures: {outcomes:?}");
	});
}
