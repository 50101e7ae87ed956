//! pallet-pog tests against the mock runtime: the network-wide round through the off-chain
//! worker, every cheat, bad input, and randomised call sequences checked against the invariants.

use crate::{mock::*, offchain, pallet::*, types::*, Error, Event};
use codec::{Decode, Encode};
use frame_support::{
	assert_noop, assert_ok,
	traits::{fungible::InspectHold, Hooks},
};
use pog_primitives::{commitment::CommittedMatrix, cpu, sizing};
use rand::{rngs::StdRng, Rng, SeedableRng};
use sp_runtime::{DispatchError, Perbill};

type DispatchResultOf = sp_runtime::DispatchResult;

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

fn try_state() {
	Pog::do_try_state().expect("invariants hold");
}

fn phase() -> RoundPhase {
	Pog::round().phase
}

/// Runs blocks until the round is in `want` (at most 200 blocks); returns the round index.
fn run_until(want: RoundPhase) -> RoundIndex {
	for _ in 0..200 {
		if phase() == want {
			return Pog::round().index;
		}
		next_block();
		try_state();
	}
	panic!("the round never reached {want:?}");
}

/// Runs blocks to the start of the next round; returns its index.
fn next_round() -> RoundIndex {
	if phase() != RoundPhase::Idle {
		run_until(RoundPhase::Idle);
	}
	run_until(RoundPhase::Commit)
}

fn params(who: AccountId, gpu: GpuIndex) -> ChallengeParams {
	let info = Miners::<Test>::get(who).unwrap();
	Pog::challenge_params(&Pog::round(), &who, &info, gpu).unwrap()
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

fn compute(p: &ChallengeParams, how: Compute) -> CommittedMatrix {
	let spec = p.spec(None);
	let mut c = match how {
		Compute::LowerPrecision => {
			cpu::gemm_rows_rounded(&spec, 0, spec.dims.m, Some(p.precision.substitute_mantissa_bits()))
		},
		_ => cpu::gemm(&spec),
	};
	if let Compute::Corrupt(percent) = how {
		let mut rng = StdRng::seed_from_u64(u64::from(p.seed[0]));
		for v in c.iter_mut() {
			if rng.random_range(0..100) < percent {
				*v = (f32::from_bits(*v) + rng.random_range(1.0..100.0f32)).to_bits();
			}
		}
	}
	CommittedMatrix::new(c)
}

fn report() -> AgentReport {
	AgentReport { elapsed_ms: 1_000, interval_ms: 100, trace_gflops: vec![2; 10].try_into().unwrap() }
}

fn commit(who: AccountId, roots: &[(GpuIndex, Hash32)]) -> DispatchResultOf {
	let roots: Vec<RootCommit> =
		roots.iter().map(|(gpu, root)| RootCommit { gpu: *gpu, root: *root, report: report() }).collect();
	Pog::commit_roots(RuntimeOrigin::signed(who), Pog::round().index, roots.try_into().unwrap())
		.map(|_| ())
		.map_err(|e| e.error)
}

/// Computes and commits every GPU of `who` as `how`; returns the results by GPU.
fn answer(who: AccountId, how: Compute) -> Vec<CommittedMatrix> {
	let gpus = Miners::<Test>::get(who).unwrap().gpu_count();
	let results: Vec<CommittedMatrix> = (0..gpus).map(|g| compute(&params(who, g), how)).collect();
	let roots: Vec<(GpuIndex, Hash32)> = results.iter().enumerate().map(|(g, r)| (g as u32, r.root())).collect();
	assert_ok!(commit(who, &roots));
	results
}

fn opening(result: &CommittedMatrix, leaf: u32) -> Opening {
	let (values, proof) = result.open(leaf).expect("leaf inside C");
	Opening { leaf, values: values.to_vec().try_into().unwrap(), proof: proof.try_into().unwrap() }
}

fn openings_for(who: AccountId, gpu: GpuIndex, result: &CommittedMatrix) -> OpeningsOf<Test> {
	let round = Pog::round();
	let c = Commitments::<Test>::get(round.index, who).unwrap()[gpu as usize].clone().unwrap();
	let leaves = Pog::leaves_for(round.selection.as_ref().unwrap(), &c);
	leaves.into_iter().map(|l| opening(result, l)).collect::<Vec<_>>().try_into().unwrap()
}

fn reveal(who: AccountId, gpu: GpuIndex, result: &CommittedMatrix) -> DispatchResultOf {
	Pog::reveal_openings(
		RuntimeOrigin::signed(who),
		Pog::round().index,
		gpu,
		openings_for(who, gpu, result),
		Default::default(),
	)
	.map(|_| ())
	.map_err(|e| e.error)
}

fn verdict_by(validator: AccountId, who: AccountId, gpu: GpuIndex, entropy: u8) -> DispatchResultOf {
	let index = Pog::round().index;
	let (v, ..) = offchain::verify_challenge::<Test>(index, &who, gpu, &[entropy; 32]).expect("revealed");
	Pog::submit_verdict(RuntimeOrigin::signed(validator), index, who, gpu, v).map(|_| ()).map_err(|e| e.error)
}

fn false_verdict(passed: bool, leaf: Option<u32>) -> Verdict {
	Verdict {
		passed,
		failed_leaf: leaf,
		failed_walk: None,
		reported: SelfReported { entries_checked: 16, worst_permille: 0, walks_checked: 0 },
	}
}

fn committee(who: AccountId, gpu: GpuIndex) -> Vec<AccountId> {
	Verifications::<Test>::get((Pog::round().index, who, gpu)).unwrap().committee.to_vec()
}

/// The outcomes of `who` in the last `MinerSettled` event for it.
fn settled(who: AccountId) -> Vec<RoundOutcome> {
	events()
		.into_iter()
		.rev()
		.find_map(|e| match e {
			Event::MinerSettled { miner, outcomes, .. } if miner == who => {
				Some(outcomes.iter().map(|(_, o)| *o).collect())
			},
			_ => None,
		})
		.expect("the miner was settled")
}

fn standing(who: AccountId) -> Vec<GpuStanding> {
	Standing::<Test>::get(who).to_vec()
}

/// Plays one whole round: every listed miner answers as told, every committee votes by
/// recomputation; returns when the round is settled.
fn play_round(miners: &[(AccountId, Compute)]) -> RoundIndex {
	let index = next_round();
	let results: Vec<(AccountId, Vec<CommittedMatrix>)> =
		miners.iter().map(|(m, how)| (*m, answer(*m, *how))).collect();
	run_until(RoundPhase::Reveal);
	for (m, rs) in &results {
		for (g, r) in rs.iter().enumerate() {
			assert_ok!(reveal(*m, g as u32, r));
		}
	}
	for (m, rs) in &results {
		for g in 0..rs.len() as u32 {
			for v in committee(*m, g) {
				assert_ok!(verdict_by(v, *m, g, 7));
			}
		}
	}
	run_until(RoundPhase::Idle);
	index
}

// ---------------------------------------------------------------------------------------------
// genesis and root

#[test]
fn genesis_has_profiles_validators_config_and_the_first_start_window() {
	new_test_ext().execute_with(|| {
		assert_eq!(ProfileCount::<Test>::get(), 12);
		assert_eq!(Profiles::<Test>::get(CPU_PROFILE).unwrap().name.to_vec(), b"cpu-reference".to_vec());
		assert_eq!(Profiles::<Test>::get(CPU_CORE_PROFILE).unwrap().name.to_vec(), b"cpu-core".to_vec());
		assert_eq!(Validators::<Test>::get().to_vec(), validators());
		assert_eq!(Configuration::<Test>::get(), test_config());
		let round = Pog::round();
		assert_eq!((round.index, round.phase), (0, RoundPhase::Idle));
		assert_eq!(round.next_start, (27, 30), "round 1 starts in the last start_jitter blocks of the first period");
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
		assert_eq!(Profiles::<Test>::get(12), Some(p.clone()));
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), 12, GpuProfile { tolerance_percent: 20, ..p.clone() }));
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), 99, p.clone()), Error::<Test>::UnknownProfile);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), GpuProfile { gflops: [0; 5], int8_gops: 0, ..p.clone() }),
			Error::<Test>::InvalidProfile
		);
		assert_ok!(Pog::remove_profile(RuntimeOrigin::root(), 12));
		assert_noop!(Pog::remove_profile(RuntimeOrigin::root(), 12), Error::<Test>::UnknownProfile);
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		assert_noop!(Pog::remove_profile(RuntimeOrigin::root(), CPU_PROFILE), Error::<Test>::ProfileInUse);

		assert_ok!(Pog::add_validator(RuntimeOrigin::root(), account("Dave")));
		assert_noop!(Pog::add_validator(RuntimeOrigin::root(), account("Dave")), Error::<Test>::AlreadyValidator);
		assert_ok!(Pog::remove_validator(RuntimeOrigin::root(), account("Dave")));
		assert_noop!(Pog::remove_validator(RuntimeOrigin::root(), account("Dave")), Error::<Test>::NotValidator);

		let mut c = test_config();
		c.hardware_bound = Perbill::from_percent(60);
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), c), Error::<Test>::InvalidConfig);
		for bad in [
			ProtocolConfig { period: 0, ..test_config() },
			ProtocolConfig { start_jitter: 30, ..test_config() },
			ProtocolConfig { committee: 0, ..test_config() },
			ProtocolConfig { committee: 9, ..test_config() },
			ProtocolConfig { settle_per_block: 0, ..test_config() },
			ProtocolConfig { openings: 65, ..test_config() },
			ProtocolConfig { chunk_k: 100, ..test_config() },
		] {
			assert_noop!(Pog::set_config(RuntimeOrigin::root(), bad), Error::<Test>::InvalidConfig);
		}
		assert_noop!(Pog::set_config(RuntimeOrigin::signed(account("Alice")), test_config()), DispatchError::BadOrigin);
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 3, ..test_config() }));
		assert_eq!(Configuration::<Test>::get().committee, 3);
		try_state();
	});
}

// ---------------------------------------------------------------------------------------------
// miners

#[test]
fn register_holds_the_deposit_burns_the_fee_and_waits_for_the_next_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let issuance = Balances::total_issuance();
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let deposit = DepositBase::get() + 2 * DepositPerGpu::get();
		assert_eq!(Balances::balance_on_hold(&RuntimeHoldReason::Pog(crate::HoldReason::MinerDeposit), &m), deposit);
		assert_eq!(Balances::free_balance(m), FUNDS - deposit - RegistrationFee::get());
		assert_eq!(Balances::total_issuance(), issuance - RegistrationFee::get(), "the fee is burned");
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.first_round, 1);
		assert!(standing(m).iter().all(|s| s.zero_reason == Some(ZeroReason::WaitingForRound)));
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(3)])]), hardware()),
			Error::<Test>::AlreadyRegistered
		);
		// Registered during round 1: takes part from round 2.
		let r = next_round();
		let late = account("Miner2");
		register_cpu_miner(late, &[uuid(9)]);
		assert_eq!(Miners::<Test>::get(late).unwrap().first_round, r + 1);
		assert_noop!(commit(late, &[(0, [1; 32])]), Error::<Test>::NotTakingPart);
		assert!(Pog::challenges_of(&late).is_empty());
		assert_eq!(Pog::challenges_of(&m).len(), 2);
		// Deregistering gives the deposit back, never the fee.
		run_until(RoundPhase::Idle);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(late)));
		assert_eq!(Balances::free_balance(late), FUNDS - RegistrationFee::get());
		try_state();
	});
}

#[test]
fn bad_registrations_are_named_errors_and_change_nothing() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let o = RuntimeOrigin::signed(m);
		assert_noop!(Pog::register_miner(o.clone(), claims(vec![]), hardware()), Error::<Test>::NoClaims);
		let zero = GpuClaim { profile: CPU_PROFILE, count: 0, uuids: Default::default() };
		assert_noop!(Pog::register_miner(o.clone(), claims(vec![zero]), hardware()), Error::<Test>::ZeroCount);
		let mismatch = GpuClaim { profile: CPU_PROFILE, count: 2, uuids: vec![uuid(1)].try_into().unwrap() };
		assert_noop!(Pog::register_miner(o.clone(), claims(vec![mismatch]), hardware()), Error::<Test>::CountMismatch);
		assert_noop!(
			Pog::register_miner(o.clone(), claims(vec![claim(77, &[uuid(1)])]), hardware()),
			Error::<Test>::UnknownProfile
		);
		assert_noop!(
			Pog::register_miner(o.clone(), claims(vec![claim(CPU_PROFILE, &[uuid(1), uuid(1)])]), hardware()),
			Error::<Test>::DuplicateUuid
		);
		let eight: Vec<GpuUuid> = (1..=8).map(uuid).collect();
		assert_noop!(
			Pog::register_miner(
				o.clone(),
				claims(vec![claim(CPU_PROFILE, &eight), claim(CPU_PROFILE, &[uuid(9)])]),
				hardware()
			),
			Error::<Test>::TooManyGpus
		);
		// Counted before any profile is read: an unknown profile in an oversized call is TooManyGpus.
		assert_noop!(
			Pog::register_miner(o.clone(), claims(vec![claim(77, &eight), claim(78, &[uuid(9)])]), hardware()),
			Error::<Test>::TooManyGpus
		);
		for (bad, err) in [
			(Hardware { cpu_cores: MAX_CPU_CORES + 1, ..hardware() }, Error::<Test>::ImplausibleCpuCores),
			(Hardware { ram_mib: MAX_RAM_MIB + 1, ..hardware() }, Error::<Test>::ImplausibleRam),
			(Hardware { disk_gib: MAX_DISK_GIB + 1, ..hardware() }, Error::<Test>::ImplausibleDisk),
		] {
			assert_noop!(Pog::register_miner(o.clone(), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), bad), err);
		}
		let poor = account("Nobody");
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(poor), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::InsufficientDeposit
		);
		assert_noop!(Pog::deregister_miner(o.clone()), Error::<Test>::NotRegistered);
		assert_noop!(
			Pog::update_miner(o, claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::NotRegistered
		);
	});
}

#[test]
fn a_uuid_claimed_by_several_miners_is_counted_not_refused() {
	new_test_ext().execute_with(|| {
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		// A squatter copying Miner1's UUID from the pool cannot lock Miner2 (or Miner1) out.
		register_cpu_miner(account("Miner2"), &[uuid(1)]);
		assert_eq!(UuidClaimants::<Test>::get(uuid(1)), 2);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(account("Miner2"))));
		assert_eq!(UuidClaimants::<Test>::get(uuid(1)), 1);
		// Both accounts are challenged separately: the same UUID gets a different seed per miner.
		register_cpu_miner(account("Miner3"), &[uuid(1)]);
		next_round();
		assert_ne!(params(account("Miner1"), 0).seed, params(account("Miner3"), 0).seed);
		try_state();
	});
}

// ---------------------------------------------------------------------------------------------
// rounds

#[test]
fn every_round_challenges_all_miners_at_once_whenever_they_registered() {
	new_test_ext().execute_with(|| {
		let miners = [account("Miner1"), account("Miner2"), account("Miner3")];
		for (m, at) in miners.iter().zip([2u64, 9, 16]) {
			while System::block_number() < at {
				next_block();
			}
			register_cpu_miner(*m, &[uuid(at as u8)]);
		}
		let mut starts = Vec::new();
		for _ in 0..2 {
			next_round();
			let round = Pog::round();
			starts.push(round.started_at);
			let windows: Vec<(u64, u64, u64)> = miners
				.iter()
				.map(|m| {
					let p = params(*m, 0);
					(round.start_ms, p.deadline_ms, p.expected_ms)
				})
				.collect();
			let largest_expected = windows.iter().map(|w| w.2).max().unwrap();
			for a in &windows {
				for b in &windows {
					let overlap = a.1.min(b.1).saturating_sub(a.0.max(b.0));
					assert!(overlap >= largest_expected, "windows {a:?} and {b:?} overlap for {overlap} ms only");
				}
			}
			run_until(RoundPhase::Idle);
		}
		// Started by the chain inside each period's start window.
		assert!((27..=30).contains(&starts[0]), "round 1 at {}", starts[0]);
		assert!(starts[1] >= starts[0] + 27 && starts[1] <= starts[0] + 30, "round 2 at {}", starts[1]);
	});
}

#[test]
fn profiles_and_configuration_change_only_between_open_rounds() {
	new_test_ext().execute_with(|| {
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		next_round();
		let before = params(account("Miner1"), 0);
		let p = Profiles::<Test>::get(CPU_PROFILE).unwrap();
		let faster = GpuProfile { gflops: [4; 5], ..p.clone() };
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster.clone()), Error::<Test>::RoundOpen);
		let shorter = ProtocolConfig { target_ms: 100, ..test_config() };
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), shorter), Error::<Test>::RoundOpen);
		run_until(RoundPhase::Reveal);
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), shorter), Error::<Test>::RoundOpen);
		assert_eq!(params(account("Miner1"), 0), before, "the round's challenges did not move");
		run_until(RoundPhase::Idle);
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster));
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), shorter));
	});
}

#[test]
fn a_failure_gives_no_new_draw_before_the_next_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let r = next_round();
		let before = params(m, 0);
		// Fail fast (a corrupted root), then try every way of getting a new draw.
		let bad = compute(&before, Compute::Corrupt(100));
		assert_ok!(commit(m, &[(0, bad.root())]));
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(CPU_PROFILE, &[uuid(1)])]),
			hardware()
		));
		assert_eq!(Pog::round().index, r, "an update does not start or re-draw a round");
		assert_eq!(params(m, 0), before, "the same challenge");
		assert_noop!(commit(m, &[(0, [9; 32])]), Error::<Test>::AlreadyCommitted);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(m)));
		assert!(Miners::<Test>::get(m).unwrap().leaving, "leaving waits for the round to be settled");
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::AlreadyRegistered
		);
		run_until(RoundPhase::Idle);
		assert!(!Miners::<Test>::contains_key(m));
		register_cpu_miner(m, &[uuid(1)]);
		assert_eq!(Miners::<Test>::get(m).unwrap().first_round, r + 1, "re-registering waits for the next round");
		try_state();
	});
}

#[test]
fn each_gpu_has_its_own_deadline() {
	new_test_ext().execute_with(|| {
		let mainnet = ProtocolConfig::mainnet();
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 2, ..mainnet }));
		let m = account("Miner1");
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(H100_PROFILE, &[uuid(1)]), claim(CPU_PROFILE, &[uuid(2)])]),
			hardware()
		));
		run_until(RoundPhase::Commit);
		let start = Pog::round().start_ms;
		let h100 = params(m, 0);
		let memory = h100.memory.expect("the H100 has measured memory rates");
		let memory_own = sizing::allowed_ms(memory.expected_ms, 10, 30_000);
		assert_eq!(memory.deadline_ms - start, memory_own);
		assert!((140_000..160_000).contains(&memory_own), "≈ 148 s of memory phase on mainnet: {memory_own}");
		let own = sizing::allowed_ms(h100.expected_ms, 15, 30_000);
		assert_eq!(h100.deadline_ms - memory.deadline_ms, own, "the GEMM's time counts from the memory root");
		assert!((160_000..180_000).contains(&own), "≈ 171 s on mainnet, not 270 s: {own}");
		let cpu = params(m, 1);
		assert!(cpu.deadline_ms - start > 250_000, "the cpu-reference claim keeps its own, longer window");
		assert!(
			Pog::round().commit_close_ms >= cpu.deadline_ms,
			"the commit window is the longest deadline of any profile"
		);
	});
}

#[test]
fn a_root_copied_from_another_miner_cannot_fail_that_miner() {
	let mut env = env(&[]);
	env.ext.execute_with(|| {
		let (thief, victim) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(thief, &[uuid(1)]);
		register_cpu_miner(victim, &[uuid(2)]);
		next_round();
		let honest = compute(&params(victim, 0), Compute::Honest);
		// The thief lands the victim's root first.
		assert_ok!(commit(thief, &[(0, honest.root())]));
		assert_ok!(commit(victim, &[(0, honest.root())]));
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(victim, 0, &honest));
		// The thief can open the copied tree, but its entries are not its own A·B.
		assert_ok!(reveal(thief, 0, &honest));
		for who in [victim, thief] {
			for v in committee(who, 0) {
				assert_ok!(verdict_by(v, who, 0, 3));
			}
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(victim), vec![RoundOutcome::Passed]);
		assert_eq!(settled(thief), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		try_state();
	});
}

#[test]
fn an_honest_miner_is_verified_credited_scored_and_weighted() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let r = next_round();
		assert!(events().iter().any(|e| matches!(e, Event::RoundStarted { round, .. } if *round == r)));
		let results = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		for (g, res) in results.iter().enumerate() {
			assert_ok!(reveal(m, g as u32, res));
		}
		// The validators' off-chain workers verify and vote.
		let sent = run_ocw_and_include(&pool);
		assert!(sent.len() >= 4, "each GPU's committee of two voted: {sent:?}");
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		assert!(offchain::sent_marks() > 0);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed, RoundOutcome::Passed]);
		let s = standing(m);
		let points = Profiles::<Test>::get(CPU_PROFILE).unwrap().points();
		assert_eq!(points, 2, "cpu-reference: 2 GFLOPS in every precision");
		assert!(s.iter().all(|g| g.credited() && g.points == points && g.verified_round == Some(r)));
		let score = Scores::<Test>::get(m).unwrap();
		assert_eq!(score.verified_gpus, 2);
		assert!(score.total > Perbill::zero());
		assert_eq!(WeightShares::<Test>::get().to_vec(), vec![(m, Perbill::one())]);
		assert_eq!(Epoch::<Test>::get(), r);
		let stats = ValidatorStats::<Test>::iter().map(|(_, s)| s).fold(0, |a, s| a + s.agreed);
		assert_eq!(stats, 4, "two members agreed on each of two GPUs");
		// The sent-marks entry is pruned: after the resend window it holds nothing old.
		run_blocks(u64::from(offchain::RESEND_AFTER) + 1);
		Pog::offchain_worker(System::block_number());
		assert_eq!(offchain::sent_marks(), 0, "sent-marks do not grow");
		try_state();
	});
}

#[test]
fn every_cheat_fails_is_slashed_and_earns_nothing() {
	new_test_ext().execute_with(|| {
		let [corrupt, lower, forged, late, silent] = ["Miner1", "Miner2", "Miner3", "Miner4", "Dave"].map(account);
		for (i, m) in [corrupt, lower, forged, late, silent].iter().enumerate() {
			register_cpu_miner(*m, &[uuid(i as u8 + 1)]);
		}
		next_round();
		let c = answer(corrupt, Compute::Corrupt(60));
		let l = answer(lower, Compute::LowerPrecision);
		let f = answer(forged, Compute::Honest);
		let _ = answer(silent, Compute::Honest);
		// The late miner's root lands after its deadline.
		let p = params(late, 0);
		while pallet_timestamp::Now::<Test>::get() <= p.deadline_ms {
			next_block();
		}
		assert_noop!(commit(late, &[(0, [1; 32])]), Error::<Test>::DeadlinePassed);
		run_until(RoundPhase::Reveal);
		assert_noop!(commit(corrupt, &[(0, [1; 32])]), Error::<Test>::DeadlinePassed);
		assert_ok!(reveal(corrupt, 0, &c[0]));
		assert_ok!(reveal(lower, 0, &l[0]));
		// Forged Merkle paths and wrong indices are refused on chain.
		let mut o = openings_for(forged, 0, &f[0]);
		o[0].proof[0][0] ^= 1;
		assert_noop!(
			Pog::reveal_openings(RuntimeOrigin::signed(forged), Pog::round().index, 0, o.clone(), Default::default()),
			Error::<Test>::InvalidProof
		);
		o = openings_for(forged, 0, &f[0]);
		o[0].leaf += 1;
		assert_noop!(
			Pog::reveal_openings(RuntimeOrigin::signed(forged), Pog::round().index, 0, o, Default::default()),
			Error::<Test>::WrongOpeningIndex
		);
		for who in [corrupt, lower] {
			for v in committee(who, 0) {
				assert_ok!(verdict_by(v, who, 0, 1));
			}
		}
		run_until(RoundPhase::Idle);
		let slash = Perbill::from_percent(50) * DepositPerGpu::get();
		for (who, why) in [
			(corrupt, FailReason::WrongResult),
			(lower, FailReason::WrongResult),
			(forged, FailReason::MissedReveal),
			(late, FailReason::MissedCommit),
			(silent, FailReason::MissedReveal),
		] {
			assert_eq!(settled(who), vec![RoundOutcome::Failed(why)], "{why:?}");
			assert_eq!(standing(who)[0].zero_reason, Some(ZeroReason::Failed(why)));
			assert_eq!(Miners::<Test>::get(who).unwrap().slashed, slash);
			assert_eq!(Scores::<Test>::get(who).unwrap_or_default().total, Perbill::zero());
		}
		try_state();
	});
}

#[test]
fn slashes_are_topped_up_or_suspend_and_leaving_waits_for_the_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let deposit = DepositBase::get() + 2 * DepositPerGpu::get();
		let issuance = Balances::total_issuance();
		// Round 1: both GPUs miss their commit.
		next_round();
		run_until(RoundPhase::Idle);
		let slash = 2 * (Perbill::from_percent(50) * DepositPerGpu::get());
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.slashed, slash);
		assert_eq!(info.deposit, deposit, "topped up from the free balance");
		assert_eq!(Balances::total_issuance(), issuance - slash, "slashes are burned");
		assert!(events().iter().any(|e| matches!(e, Event::MinerSettled { slashed, .. } if *slashed == slash)));
		// Round 2: leaving during the round waits for its settlement, and its failures still cost.
		next_round();
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(m)));
		assert_noop!(Pog::deregister_miner(RuntimeOrigin::signed(m)), Error::<Test>::AlreadyLeaving);
		let hold = |who| Balances::balance_on_hold(&RuntimeHoldReason::Pog(crate::HoldReason::MinerDeposit), &who);
		assert_eq!(hold(m), deposit, "nothing released before the round is final");
		run_until(RoundPhase::Idle);
		assert!(!Miners::<Test>::contains_key(m));
		assert_eq!(hold(m), 0);
		assert!(events().iter().any(
			|e| matches!(e, Event::MinerDeregistered { miner, released } if *miner == m && *released == deposit - slash)
		));
		assert_eq!(Balances::free_balance(m), FUNDS - RegistrationFee::get() - 2 * slash);

		// A miner that cannot top up is suspended until it holds the deposit again.
		let poor = account("Miner2");
		let need = DepositBase::get() + DepositPerGpu::get() + RegistrationFee::get();
		assert_ok!(Balances::force_set_balance(RuntimeOrigin::root(), poor, need + 1));
		register_cpu_miner(poor, &[uuid(3)]);
		next_round();
		run_until(RoundPhase::Idle);
		let info = Miners::<Test>::get(poor).unwrap();
		assert_eq!(info.first_round, NEVER);
		assert_eq!(standing(poor)[0].zero_reason, Some(ZeroReason::DepositShort));
		let r = next_round();
		assert!(Pog::challenges_of(&poor).is_empty(), "a suspended miner is not challenged");
		assert_noop!(
			Pog::update_miner(RuntimeOrigin::signed(poor), claims(vec![claim(CPU_PROFILE, &[uuid(3)])]), hardware()),
			Error::<Test>::InsufficientDeposit
		);
		assert_ok!(Balances::force_set_balance(RuntimeOrigin::root(), poor, 1_000));
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(poor),
			claims(vec![claim(CPU_PROFILE, &[uuid(3)])]),
			hardware()
		));
		assert_eq!(Miners::<Test>::get(poor).unwrap().first_round, r + 1);
		try_state();
	});
}

#[test]
fn an_update_during_a_round_applies_once_it_is_settled() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		play_round(&[(m, Compute::Honest)]);
		assert!(standing(m)[0].credited());
		next_round();
		let results = answer(m, Compute::Honest);
		// Add a GPU mid-round: the increase is held now, the claims change after settlement.
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(CPU_PROFILE, &[uuid(1), uuid(2)])]),
			hardware()
		));
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.gpu_count(), 1);
		assert_eq!(info.deposit, DepositBase::get() + 2 * DepositPerGpu::get());
		assert!(info.pending.is_some());
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &results[0]));
		for v in committee(m, 0) {
			assert_ok!(verdict_by(v, m, 0, 2));
		}
		run_until(RoundPhase::Idle);
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.gpu_count(), 2);
		let s = standing(m);
		assert!(s[0].credited(), "the unchanged GPU keeps its credit");
		assert_eq!(s[1].zero_reason, Some(ZeroReason::WaitingForRound));
		try_state();
	});
}

// ---------------------------------------------------------------------------------------------
// verification

#[test]
fn colluding_verdicts_cannot_fail_an_honest_miner() {
	new_test_ext().execute_with(|| {
		let vals: Vec<AccountId> =
			["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie", "Miner4"].iter().map(|n| account(n)).collect();
		for v in &vals[3..] {
			assert_ok!(Pog::add_validator(RuntimeOrigin::root(), *v));
		}
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 4, ..test_config() }));
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		next_round();
		let r = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &r[0]));
		let members = committee(m, 0);
		assert_eq!(members.len(), 4);
		assert_eq!(Pog::quorum_of(4), 3);
		// Three colluders vote "failed" first: one member and two validators outside the committee.
		let outsiders: Vec<AccountId> = vals.iter().filter(|v| !members.contains(v)).copied().take(2).collect();
		let index = Pog::round().index;
		let lie = false_verdict(false, Some(openings_for(m, 0, &r[0])[0].leaf));
		for o in &outsiders {
			assert_noop!(
				Pog::submit_verdict(RuntimeOrigin::signed(*o), index, m, 0, lie),
				Error::<Test>::NotInCommittee
			);
		}
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(members[0]), index, m, 0, lie));
		assert_eq!(Verifications::<Test>::get((index, m, 0)).unwrap().status, VerificationStatus::Pending);
		// A failing verdict must name an opened leaf; a passing one none.
		assert_noop!(
			Pog::submit_verdict(RuntimeOrigin::signed(members[1]), index, m, 0, false_verdict(false, None)),
			Error::<Test>::InconsistentVerdict
		);
		assert_noop!(
			Pog::submit_verdict(RuntimeOrigin::signed(members[1]), index, m, 0, false_verdict(true, Some(0))),
			Error::<Test>::InconsistentVerdict
		);
		assert_noop!(
			Pog::submit_verdict(RuntimeOrigin::signed(members[0]), index, m, 0, lie),
			Error::<Test>::AlreadyVoted
		);
		for v in &members[1..] {
			assert_ok!(verdict_by(*v, m, 0, 5));
		}
		assert_eq!(Verifications::<Test>::get((index, m, 0)).unwrap().status, VerificationStatus::Passed);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		let liar = ValidatorStats::<Test>::get(members[0]);
		assert_eq!((liar.assigned, liar.contradicted), (1, 1), "the contradiction is on chain");
		assert_eq!(ValidatorStats::<Test>::get(members[1]).agreed, 1);
	});
}

#[test]
fn inconclusive_rounds_never_extend_a_credit() {
	new_test_ext().execute_with(|| {
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { max_unverified_rounds: 2, ..test_config() }
		));
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		play_round(&[(m, Compute::Honest)]);
		assert!(standing(m)[0].credited());
		for n in 1..=2 {
			// Revealed, but no committee member votes: Inconclusive.
			next_round();
			let r = answer(m, Compute::Honest);
			run_until(RoundPhase::Reveal);
			assert_ok!(reveal(m, 0, &r[0]));
			run_until(RoundPhase::Idle);
			assert_eq!(settled(m), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
			assert_eq!(standing(m)[0].unverified_rounds, n);
		}
		assert_eq!(standing(m)[0].zero_reason, Some(ZeroReason::CreditExpired));
		assert_eq!(Scores::<Test>::get(m).unwrap().total, Perbill::zero());
		let silent = ValidatorStats::<Test>::iter().map(|(_, s)| s.silent).sum::<u32>();
		assert_eq!(silent, 4, "two silent members in each of two rounds");
	});
}

#[test]
fn unselected_rounds_keep_a_credit_inconclusive_ones_age_it() {
	new_test_ext().execute_with(|| {
		let mut s = GpuStanding::new(uuid(1), CPU_PROFILE);
		Pallet::<Test>::record_outcome(&mut s, 1, RoundOutcome::Passed, 2, 0);
		for round in 2..30 {
			Pallet::<Test>::record_outcome(
				&mut s,
				round,
				RoundOutcome::Unverified(UnverifiedReason::NotSelected),
				2,
				0,
			);
		}
		assert!(s.credited(), "a GPU committing on time keeps its credit while it is not sampled");
		let inconclusive = RoundOutcome::Unverified(UnverifiedReason::Inconclusive);
		Pallet::<Test>::record_outcome(&mut s, 30, inconclusive, 2, 0);
		assert!(s.credited());
		Pallet::<Test>::record_outcome(&mut s, 31, inconclusive, 2, 0);
		assert_eq!(s.zero_reason, Some(ZeroReason::CreditExpired));
		Pallet::<Test>::record_outcome(&mut s, 32, RoundOutcome::Failed(FailReason::MissedCommit), 2, 0);
		assert_eq!((s.points, s.zero_reason), (0, Some(ZeroReason::Failed(FailReason::MissedCommit))));
	});
}

#[test]
fn committees_split_the_work_between_validators() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 1, ..test_config() }));
		let miners = [account("Miner1"), account("Miner2"), account("Miner3")];
		for (i, m) in miners.iter().enumerate() {
			let uuids: Vec<GpuUuid> = (0..4).map(|g| uuid(10 * i as u8 + g)).collect();
			register_cpu_miner(*m, &uuids);
		}
		next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		for (m, rs) in miners.iter().zip(&results) {
			for (g, r) in rs.iter().enumerate() {
				assert_ok!(reveal(*m, g as u32, r));
			}
		}
		// One off-chain worker run of each of the three validators.
		let sent = run_ocw_and_include(&pool);
		let distinct: std::collections::BTreeSet<(AccountId, GpuIndex)> = sent
			.iter()
			.filter(|(_, _, res)| res.is_ok())
			.filter_map(|(_, call, _)| match call {
				RuntimeCall::Pog(crate::Call::submit_verdict { miner, gpu, .. }) => Some((*miner, *gpu)),
				_ => None,
			})
			.collect();
		assert_eq!(distinct.len(), 12, "all 12 revealed challenges verified in one run: {sent:?}");
	});
}

#[test]
fn beyond_capacity_a_uniform_sample_is_verified() {
	new_test_ext().execute_with(|| {
		// 3 validators × 2 verifications / committee 2 = capacity 3 of 16 committed GPUs.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 2, ..test_config() }
		));
		let miners = [account("Miner1"), account("Miner2")];
		for (i, m) in miners.iter().enumerate() {
			let uuids: Vec<GpuUuid> = (0..8).map(|g| uuid(10 * i as u8 + g)).collect();
			register_cpu_miner(*m, &uuids);
		}
		next_round();
		for m in &miners {
			let roots: Vec<(GpuIndex, Hash32)> = (0..8).map(|g| (g, [g as u8; 32])).collect();
			assert_ok!(commit(*m, &roots));
		}
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, 3);
		assert_eq!(s.probability, Perbill::from_rational(3u32, 16u32));
		let selected = miners
			.iter()
			.flat_map(|m| (0..8).map(move |g| (*m, g)))
			.filter(|(m, g)| Pog::is_selected(&s, Pog::round().index, m, *g))
			.count();
		assert!(selected < 16, "a sample, not everything: {selected}");
		assert_noop!(
			Pog::reveal_openings(
				RuntimeOrigin::signed(miners[0]),
				Pog::round().index,
				(0..8).find(|g| !Pog::is_selected(&s, Pog::round().index, &miners[0], *g)).unwrap(),
				Default::default(),
				Default::default()
			),
			Error::<Test>::NotSelected
		);
		run_until(RoundPhase::Idle);
		let unverified = miners
			.iter()
			.flat_map(|m| settled(*m))
			.filter(|o| *o == RoundOutcome::Unverified(UnverifiedReason::NotSelected))
			.count();
		assert_eq!(unverified, 16 - selected, "unselected GPUs are neither slashed nor credited");
		assert!(
			miners.iter().flat_map(|m| standing(*m)).all(|s| s.unverified_rounds == 0),
			"not being selected does not age anything"
		);
	});
}

#[test]
fn round_records_are_pruned_after_kept_rounds() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let first = play_round(&[(m, Compute::Honest)]);
		assert!(Commitments::<Test>::contains_key(first, m));
		for _ in 0..crate::rounds::KEPT_ROUNDS {
			play_round(&[(m, Compute::Honest)]);
		}
		Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
		assert!(!Commitments::<Test>::contains_key(first, m), "round {first} pruned");
		assert!(Verifications::<Test>::get((first, m, 0)).is_none());
		assert!(Commitments::<Test>::contains_key(first + 1, m), "newer rounds kept");
	});
}

#[test]
fn oversized_vectors_do_not_decode() {
	let opening = Opening { leaf: 0, values: vec![0u32; 256].try_into().unwrap(), proof: Default::default() };
	let too_many: Vec<Opening> = vec![opening.clone(); 65];
	let call = |openings: Vec<Opening>, walks: Vec<WalkOpening>| {
		// the call with empty vectors, its two empty vectors replaced by these
		let mut encoded = crate::Call::<Test>::reveal_openings {
			round: 1,
			gpu: 0,
			openings: Default::default(),
			walks: Default::default(),
		}
		.encode();
		encoded.truncate(encoded.len() - 2);
		encoded.extend(openings.encode());
		encoded.extend(walks.encode());
		encoded
	};
	assert!(crate::Call::<Test>::decode(&mut &call(vec![], vec![])[..]).is_ok(), "the layout is right");
	assert!(crate::Call::<Test>::decode(&mut &call(too_many, vec![])[..]).is_err());
	let walk = WalkOpening { walk: 0, result: [0; 32], proof: Default::default() };
	assert!(crate::Call::<Test>::decode(&mut &call(vec![], vec![walk; 129])[..]).is_err(), "at most 128 walks");
	let deep_walk = (0u64, [0u8; 32], vec![[0u8; 32]; 65]).encode();
	assert!(WalkOpening::decode(&mut &deep_walk[..]).is_err(), "a walk path has at most 64 siblings");
	let long_leaf = (0u32, vec![0u32; 257], Vec::<[u8; 32]>::new()).encode();
	assert!(Opening::decode(&mut &long_leaf[..]).is_err());
	let many_uuids = (CPU_PROFILE, 9u32, vec![[0u8; 16]; 9]).encode();
	assert!(GpuClaim::<<Test as crate::Config>::MaxGpusPerMiner>::decode(&mut &many_uuids[..]).is_err());
	let many_roots = vec![RootCommit { gpu: 0, root: [0; 32], report: AgentReport::default() }; 9];
	let mut encoded = crate::Call::<Test>::commit_roots { round: 1, roots: Default::default() }.encode();
	encoded.truncate(encoded.len() - 1);
	encoded.extend(many_roots.encode());
	assert!(crate::Call::<Test>::decode(&mut &encoded[..]).is_err());
}

// ---------------------------------------------------------------------------------------------
// scores

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
		let credit = |n: u8, points| GpuStanding { points, zero_reason: None, ..GpuStanding::new(uuid(n), 0) };
		let mut config = test_config();
		config.caps.gpus = 2;
		config.caps.gpu_points = 8_000;
		let s = Pallet::<Test>::compute_score(&info, &[credit(1, 1_000), credit(2, 4_000), credit(3, 3_000)], &config);
		assert_eq!(s.gpu_points, 7_000);
		assert_eq!(s.gpu, Perbill::from_rational(7u32, 8u32));
		let none = Pallet::<Test>::compute_score(&info, &[GpuStanding::new(uuid(1), 0)], &config);
		assert_eq!(none, Score::default(), "hardware is not scored without a verified GPU");
	});
}

/// Declared hardware scales a proven score by at most `hardware_bound` and adds nothing on its
/// own: the largest declaration the chain accepts, with one verified `cpu-reference` GPU, scores
/// no more than that GPU's component, and at most 1 / (1 − bound) of the same GPU with nothing
/// declared. (Before, declared CPU, memory and disk were 45% of the score: 0.450 with one
/// `cpu-reference` GPU, 2.7× an honest single-H100 miner.)
#[test]
fn declared_hardware_only_scales_a_proven_score() {
	new_test_ext().execute_with(|| {
		let config = ProtocolConfig::mainnet();
		let cpu_points = Profiles::<Test>::get(CPU_PROFILE).unwrap().points();
		let h100_points = Profiles::<Test>::get(H100_PROFILE).unwrap().points();
		let mut info = {
			register_cpu_miner(account("Miner1"), &[uuid(1)]);
			Miners::<Test>::get(account("Miner1")).unwrap()
		};
		let standing = |n: u8, points| [GpuStanding { points, zero_reason: None, ..GpuStanding::new(uuid(n), 0) }];

		info.hardware = Hardware { cpu_cores: MAX_CPU_CORES, ram_mib: MAX_RAM_MIB, disk_gib: MAX_DISK_GIB, ..hardware() };
		let inflated = Pallet::<Test>::compute_score(&info, &standing(1, cpu_points), &config);
		info.hardware = Hardware { cpu_cores: 0, ram_mib: 0, disk_gib: 0, ..hardware() };
		let bare = Pallet::<Test>::compute_score(&info, &standing(1, cpu_points), &config);
		let honest_h100 = Pallet::<Test>::compute_score(&info, &standing(2, h100_points), &config);

		assert_eq!(inflated.gpu, bare.gpu);
		assert!(inflated.total <= inflated.gpu, "{inflated:?}");
		assert_eq!(bare.total, (Perbill::one() - config.hardware_bound) * bare.gpu);
		assert!(
			u128::from(inflated.total.deconstruct()) * 90 <= (u128::from(bare.total.deconstruct()) + 1) * 100,
			"a 10% bound scales by at most 1 / 0.9 (and the part per billion bare's rounding down loses): {inflated:?} vs {bare:?}"
		);
		assert!(inflated.total < Perbill::from_parts(1_000), "2 points of 5,120,000: {inflated:?}");
		assert!(inflated.total.deconstruct() * 100_000 < honest_h100.total.deconstruct(), "{inflated:?} vs {honest_h100:?}");
		let shares = Pallet::<Test>::shares_of(&[inflated.total.deconstruct(), honest_h100.total.deconstruct()]);
		// Its share against one honest H100 declaring nothing: its points over the H100's, times
		// 1 / 0.9 at most (3.4 parts per million), plus one part of rounding.
		let most = Perbill::from_rational(u64::from(cpu_points) * 10, u64::from(h100_points) * 9);
		assert!(shares[0].deconstruct() <= most.deconstruct() + 1, "{shares:?} vs {most:?}");
	});
}

/// tf32 is never drawn (a tf32 challenge is the fp16 challenge of its seed, computed at the fp16
/// rate), every other precision a profile lists is, and a profile that has only tf32 is refused.
/// (Before, a tf32 challenge was sized at the tf32 rate and ran at twice its price on fp16 tensor
/// cores.)
#[test]
fn tf32_is_never_challenged() {
	new_test_ext().execute_with(|| {
		let h100 = Profiles::<Test>::get(H100_PROFILE).unwrap();
		let v100 = GpuProfile::from_figures(&pog_primitives::profiles::DEFAULT_PROFILES[7]);
		let a100 = GpuProfile::from_figures(&pog_primitives::profiles::DEFAULT_PROFILES[2]);
		for (profile, listed) in [
			(&h100, vec![Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3]),
			(&v100, vec![Precision::Fp32, Precision::Fp16]),
			(&a100, vec![Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3]),
		] {
			let mut drawn = std::collections::BTreeSet::new();
			for i in 0..2_000u32 {
				let seed = sp_io::hashing::blake2_256(&i.encode());
				drawn.insert(Pallet::<Test>::precision_for(profile, &seed).unwrap());
			}
			assert_eq!(drawn.into_iter().collect::<Vec<_>>(), listed);
		}
		let only_tf32 = GpuProfile {
			name: b"tf32 only".to_vec().try_into().unwrap(),
			gflops: [0, 100, 0, 0, 0],
			int8_gops: 0,
			..h100
		};
		assert_noop!(Pog::add_profile(RuntimeOrigin::root(), only_tf32), Error::<Test>::InvalidProfile);
	});
}

/// A precision is priced at the fastest exact method the card has: an H100 profile listing fp32
/// at its native 50 TFLOPS is refused (six int8 GEMMs give fp32 at 213), and so is an RTX 4090
/// listing native fp8 at its fp32-accumulate 214 (one int8 GEMM: 428); an A100, without fp8, is
/// challenged in fp8 at its int8 rate; a card whose int8 alias is within the tolerance of a
/// native rate has that challenge sized at the alias. (Before, profiles had no int8 rate: an RTX 4090 passed H100 and
/// H200 fp32 challenges natively.)
#[test]
fn a_precision_an_int8_alias_outruns_is_refused_and_a_close_one_priced() {
	new_test_ext().execute_with(|| {
		let table = &pog_primitives::profiles::DEFAULT_PROFILES;
		let h100 = GpuProfile::from_figures(&table[1]);
		let mut gflops = h100.gflops;
		gflops[Precision::Fp32.index()] = 50_000;
		let h100_fp32 = GpuProfile { name: b"H100 with fp32".to_vec().try_into().unwrap(), gflops, ..h100.clone() };
		assert_noop!(Pog::add_profile(RuntimeOrigin::root(), h100_fp32.clone()), Error::<Test>::AliasOutrunsNative);
		assert_noop!(
			Pog::update_profile(RuntimeOrigin::root(), H100_PROFILE, h100_fp32),
			Error::<Test>::AliasOutrunsNative
		);
		let rtx4090 = GpuProfile::from_figures(&table[5]);
		let mut gflops = rtx4090.gflops;
		gflops[Precision::Fp8E4M3.index()] = 214_000;
		let with_fp8 = GpuProfile { name: b"4090 with fp8".to_vec().try_into().unwrap(), gflops, ..rtx4090.clone() };
		assert_noop!(Pog::add_profile(RuntimeOrigin::root(), with_fp8), Error::<Test>::AliasOutrunsNative);
		// Within the tolerance: accepted, and the challenge is sized and timed at the alias.
		let close = GpuProfile {
			name: b"close".to_vec().try_into().unwrap(),
			gflops: [0, 0, 100_000, 0, 0],
			int8_gops: 440_000,
			..rtx4090.clone()
		};
		assert_ok!(Pog::add_profile(RuntimeOrigin::root(), close.clone()));
		assert_eq!(close.priced_gflops(Precision::Fp16), 110_000);
		assert_eq!(close.points(), (110_000 + 440_000) / 4, "fp16 at the alias, fp8 on the int8 path");
		// No native fp8, int8 tensor cores: challenged in fp8 on the int8 path at the int8 rate.
		let a100 = GpuProfile::from_figures(&table[2]);
		assert_eq!(a100.gflops[Precision::Fp8E4M3.index()], 0);
		assert_eq!(a100.priced_gflops(Precision::Fp8E4M3), 406_000);
		assert_eq!(a100.points(), (203_000 + 203_000 + 406_000) / 4);
		// The V100 has no int8 tensor cores: fp32 stays, and no fp8.
		let v100 = GpuProfile::from_figures(&table[7]);
		assert_eq!(v100.priced_gflops(Precision::Fp32), 11_800);
		assert_eq!(v100.priced_gflops(Precision::Fp8E4M3), 0);
	});
}

/// Points are the profile's mean priced rate: over the genesis table, a profile whose rates (int8
/// included) are all at least another's never has fewer points, equal rates give equal points,
/// and the claims of another profile that one card answers in a window (its fastest method in
/// each precision, native or int8 alias, slowed by the tolerance, at least N times the claim's
/// priced rate in every precision the claim can be challenged in) earn no more than the card's
/// own points, up to the same tolerance. (An A100 answers one L40S claim, fp16 at 86% and fp8
/// through int8 at 85% of the L40S's: the tolerance band, 236,500 against its own 203,000.)
/// (Before, a hand table gave 3.6 to 9.4 points per expected fp16 TFLOP, and one H100 answering
/// A100 80GB claims earned 2.3× its own score.)
/// Declared CPU cores are earned by a CPU challenge of all of them: a miner claims its CPU as
/// one unit of the per-core profile, which is sized at the per-core memory and rate times the
/// declared cores, and scores the points of that many cores once it passes. Two CPU units, or
/// one without declared cores, are refused. (Before, cores were either scored as declared or,
/// since the scoring rewrite, not at all.)
#[test]
fn declared_cpu_cores_are_earned_by_a_cpu_challenge_of_all_of_them() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let cores = 2;
		let cpu = Hardware { cpu_cores: cores, ..hardware() };
		let both = claims(vec![claim(CPU_PROFILE, &[uuid(1)]), claim(CPU_CORE_PROFILE, &[uuid(2)])]);
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(m), both.clone(), Hardware { cpu_cores: 0, ..hardware() }),
			Error::<Test>::InvalidCpuClaim
		);
		assert_noop!(
			Pog::register_miner(
				RuntimeOrigin::signed(m),
				claims(vec![claim(CPU_CORE_PROFILE, &[uuid(2), uuid(3)])]),
				cpu.clone()
			),
			Error::<Test>::InvalidCpuClaim
		);
		assert_ok!(Pog::register_miner(RuntimeOrigin::signed(m), both, cpu));
		next_round();
		let per_core = Profiles::<Test>::get(CPU_CORE_PROFILE).unwrap();
		assert!(per_core.per_core);
		let p = params(m, 1);
		let target = test_config().target_ms;
		let rate = per_core.gflops[p.precision.index()] * cores;
		assert_eq!(p.dims, pog_primitives::sizing::challenge_dims(per_core.vram_mib * cores, rate, target));
		assert_eq!(p.expected_ms, pog_primitives::sizing::expected_ms(&p.dims, rate));
		assert!(p.dims.flops() >= u128::from(rate) * u128::from(target) * 1_000_000, "all declared cores' work");
		let one_core =
			pog_primitives::sizing::challenge_dims(per_core.vram_mib, per_core.gflops[p.precision.index()], target);
		assert!(p.dims.flops() >= u128::from(cores) * one_core.flops() / 2, "{:?} vs one core's {one_core:?}", p.dims);
		run_until(RoundPhase::Idle);
		let r = play_round(&[(m, Compute::Honest)]);
		assert_eq!(settled(m), vec![RoundOutcome::Passed, RoundOutcome::Passed]);
		let s = standing(m);
		assert_eq!(s[1].points, per_core.for_cores(cores).points());
		assert_eq!(
			s[1].points,
			pog_primitives::profiles::CPU_CORE_GFLOPS * cores,
			"one GFLOPS per core in every precision"
		);
		assert_eq!(s[1].verified_round, Some(r));
		assert_eq!(Scores::<Test>::get(m).unwrap().verified_gpus, 2);
		try_state();
	});
}

#[test]
fn points_follow_the_profile_rates() {
	use pog_primitives::pricing::{alias_gflops, points};
	let table = pog_primitives::profiles::DEFAULT_PROFILES;
	for a in &table {
		for b in &table {
			let dominates = a.gflops.iter().zip(&b.gflops).all(|(x, y)| x >= y) && a.int8_gops >= b.int8_gops;
			if dominates {
				assert!(a.points() >= b.points(), "{} dominates {} but has fewer points", a.name, b.name);
			}
			if a.gflops == b.gflops && a.int8_gops == b.int8_gops {
				assert_eq!(a.points(), b.points(), "{} and {}", a.name, b.name);
			}
			// How many claims of `b` one `a` answers in a window: the claim allows
			// 1 / (1 − tolerance) of its expected time in each precision it is challenged in,
			// and the card runs its fastest method there.
			let keep = 100 - u64::from(b.tolerance_percent);
			let answers = Precision::CHALLENGED
				.iter()
				.filter(|q| b.priced_gflops(**q) > 0)
				.map(|q| {
					let card = a.gflops[q.index()].max(alias_gflops(a.int8_gops, *q));
					u64::from(card) * 100 / (u64::from(b.priced_gflops(*q)) * keep)
				})
				.min()
				.unwrap_or(0);
			assert!(
				answers * u64::from(b.points()) * keep <= u64::from(a.points()) * 100,
				"one {} answers {answers} claims of {}: {} points against its own {}",
				a.name,
				b.name,
				answers * u64::from(b.points()),
				a.points()
			);
		}
	}
	// The same over random rate vectors.
	let mut rng = StdRng::seed_from_u64(7);
	for _ in 0..10_000 {
		let b: [u32; 5] =
			core::array::from_fn(|_| if rng.random_bool(0.2) { 0 } else { rng.random_range(1..2_000_000) });
		let a: [u32; 5] = core::array::from_fn(|i| {
			if b[i] == 0 && rng.random_bool(0.5) {
				0
			} else {
				b[i].saturating_add(rng.random_range(0..1_000_000))
			}
		});
		let b8 = rng.random_range(0..4_000_000);
		let a8 = b8 + rng.random_range(0..1_000_000);
		assert!(points(&a, a8) >= points(&b, b8), "{a:?} {a8} ≥ {b:?} {b8}");
		if a == b {
			assert_eq!(points(&a, b8), points(&b, b8));
		}
	}
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
		let vals = validators();
		let mut results: std::collections::BTreeMap<(AccountId, GpuIndex), CommittedMatrix> = Default::default();
		let mut outcomes: Vec<RoundOutcome> = Vec::new();
		for step in 0..400 {
			let m = miners[rng.random_range(0..miners.len())];
			let gpu = rng.random_range(0..3u32);
			let before = sp_io::storage::root(sp_runtime::StateVersion::V1);
			let outcome: DispatchResultOf = match rng.random_range(0..10u8) {
				0 => {
					let list: Vec<GpuUuid> =
						(0..rng.random_range(0..4u8)).map(|_| uuid(rng.random_range(1..12))).collect();
					let c = if list.is_empty() { vec![] } else { vec![claim(CPU_PROFILE, &list)] };
					Pog::register_miner(RuntimeOrigin::signed(m), claims(c), hardware())
						.map(|_| ())
						.map_err(|e| e.error)
				},
				1 => {
					let list: Vec<GpuUuid> = (1..=rng.random_range(1..4u8)).map(uuid).collect();
					Pog::update_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &list)]), hardware())
				},
				2 if rng.random_bool(0.3) => Pog::deregister_miner(RuntimeOrigin::signed(m)),
				2 | 3 => {
					// A participating miner commits one of its GPUs (honest or corrupt), or anyone
					// commits anything.
					let index = Pog::round().index;
					let part: Vec<(AccountId, u32)> = Miners::<Test>::iter()
						.filter(|(_, i)| i.takes_part_in(index))
						.map(|(w, i)| (w, i.gpu_count()))
						.collect();
					match part.get(rng.random_range(0..part.len().max(1))) {
						Some((who, gpus)) if phase() == RoundPhase::Commit && rng.random_bool(0.9) => {
							let g = rng.random_range(0..*gpus);
							let how = if rng.random_bool(0.7) { Compute::Honest } else { Compute::Corrupt(60) };
							let r = compute(&params(*who, g), how);
							let res = commit(*who, &[(g, r.root())]);
							if res.is_ok() {
								results.insert((*who, g), r);
							}
							res
						},
						_ => commit(m, &[(gpu, [step as u8; 32])]),
					}
				},
				4 => {
					// A committed miner reveals (if selected), or anyone reveals nothing.
					let index = Pog::round().index;
					let committed: Vec<(AccountId, GpuIndex)> = results
						.keys()
						.filter(|(w, g)| {
							Commitments::<Test>::get(index, w).is_some_and(|s| {
								s.get(*g as usize)
									.is_some_and(|c| c.as_ref().is_some_and(|c| c.root == results[&(*w, *g)].root()))
							})
						})
						.copied()
						.collect();
					match committed.get(rng.random_range(0..committed.len().max(1))) {
						Some((w, g)) if phase() == RoundPhase::Reveal && rng.random_bool(0.9) => {
							reveal(*w, *g, &results[&(*w, *g)])
						},
						_ => Pog::reveal_openings(
							RuntimeOrigin::signed(m),
							index,
							gpu,
							Default::default(),
							Default::default(),
						)
						.map(|_| ())
						.map_err(|e| e.error),
					}
				},
				5 | 6 => {
					let index = Pog::round().index;
					let revealed: Vec<((AccountId, GpuIndex), Vec<AccountId>)> =
						Verifications::<Test>::iter_prefix((index,)).map(|(k, v)| (k, v.committee.to_vec())).collect();
					let v = vals[rng.random_range(0..vals.len())];
					match revealed.get(rng.random_range(0..revealed.len().max(1))) {
						Some(((w, g), members)) if rng.random_bool(0.9) => {
							let voter = members[rng.random_range(0..members.len())];
							let verdict = offchain::verify_challenge::<Test>(index, w, *g, &[step as u8; 32])
								.map_or(false_verdict(true, None), |(v, ..)| v);
							Pog::submit_verdict(RuntimeOrigin::signed(voter), index, *w, *g, verdict)
								.map(|_| ())
								.map_err(|e| e.error)
						},
						_ => Pog::submit_verdict(RuntimeOrigin::signed(v), index, m, gpu, false_verdict(true, None))
							.map(|_| ())
							.map_err(|e| e.error),
					}
				},
				_ => {
					run_blocks(rng.random_range(1..4));
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
			for e in events() {
				if let Event::MinerSettled { outcomes: o, .. } = e {
					outcomes.extend(o.iter().map(|(_, x)| *x));
				}
			}
			System::reset_events();
		}
		assert!(outcomes.contains(&RoundOutcome::Passed), "the sequence reached passes: {outcomes:?}");
		assert!(outcomes.iter().any(|o| matches!(o, RoundOutcome::Failed(_))), "and failures: {outcomes:?}");
	});
}

#[test]
fn the_validator_count_bounds_committees() {
	new_test_ext().execute_with(|| {
		let seed = [1u8; 32];
		// A validator never sits on its own GPUs' committee.
		let alice = account("Alice");
		assert!(!Pog::committee_for(&seed, &alice, 0).contains(&alice));
		assert_eq!(Pog::committee_for(&seed, &alice, 0).len(), 2);
		assert_eq!(Pog::committee_for(&seed, &account("Miner1"), 0).len(), 2);
	});
}

/// Issue 11: `CheckDuty` gives each duty the highest priority and a pool tag while it is owed, and
/// refuses it with the dispatch's own error index once it is not: commits outside the commit phase,
/// from an account not taking part, or for GPUs all committed; reveals of unselected or already
/// revealed GPUs; verdicts from validators off the committee or that already voted. Other calls
/// pass through untouched.
/// What the pool's duty check ([`crate::duty::CheckDuty`]) says of `call` signed by `who`.
fn check_duty(
	who: AccountId,
	call: Call<Test>,
) -> Result<
	sp_runtime::transaction_validity::ValidTransaction,
	sp_runtime::transaction_validity::TransactionValidityError,
> {
	use crate::duty::CheckDuty;
	use frame_support::dispatch::GetDispatchInfo;
	use sp_runtime::{traits::DispatchTransaction, transaction_validity::TransactionSource};
	let call = RuntimeCall::Pog(call);
	CheckDuty::<Test>::new()
		.validate_only(RuntimeOrigin::signed(who), &call, &call.get_dispatch_info(), 0, TransactionSource::External, 0)
		.map(|(valid, _, _)| valid)
}

/// The pool's refusal of a duty whose dispatch would fail with `e`: `Custom(e's index)`.
fn refused_in_pool(
	e: Error<Test>,
) -> Result<
	sp_runtime::transaction_validity::ValidTransaction,
	sp_runtime::transaction_validity::TransactionValidityError,
> {
	use sp_runtime::transaction_validity::{InvalidTransaction, TransactionValidityError};
	let DispatchError::Module(m) = DispatchError::from(e) else { unreachable!() };
	Err(TransactionValidityError::Invalid(InvalidTransaction::Custom(m.error[0])))
}

#[test]
fn duties_are_first_while_owed_and_refused_once_not() {
	use crate::duty::DUTY_PRIORITY;
	let check = check_duty;
	let refused = refused_in_pool;
	new_test_ext().execute_with(|| {
		let (m, stranger) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let roots = |gpus: &[GpuIndex]| -> RootsOf<Test> {
			gpus.iter()
				.map(|g| RootCommit { gpu: *g, root: [1; 32], report: Default::default() })
				.collect::<Vec<_>>()
				.try_into()
				.unwrap()
		};
		// Idle: nothing to commit yet.
		assert_eq!(check(m, Call::commit_roots { round: 1, roots: roots(&[0]) }), refused(Error::WrongRound));
		next_round();
		let index = Pog::round().index;
		let valid = check(m, Call::commit_roots { round: index, roots: roots(&[0, 1]) }).expect("a commit is due");
		assert_eq!(valid.priority, DUTY_PRIORITY);
		assert_eq!(valid.provides.len(), 2, "one pool tag per GPU");
		assert_eq!(
			check(stranger, Call::commit_roots { round: index, roots: roots(&[0]) }),
			refused(Error::NotRegistered)
		);
		let r = answer(m, Compute::Honest);
		assert_eq!(check(m, Call::commit_roots { round: index, roots: roots(&[1]) }), refused(Error::AlreadyCommitted));

		run_until(RoundPhase::Reveal);
		assert_eq!(check(m, Call::commit_roots { round: index, roots: roots(&[0]) }), refused(Error::DeadlinePassed));
		let openings = openings_for(m, 0, &r[0]);
		assert!(check(
			m,
			Call::reveal_openings { round: index, gpu: 0, openings: openings.clone(), walks: Default::default() }
		)
		.is_ok());
		assert_eq!(
			check(
				stranger,
				Call::reveal_openings { round: index, gpu: 0, openings: openings.clone(), walks: Default::default() }
			),
			refused(Error::NotCommitted)
		);
		assert_ok!(reveal(m, 0, &r[0]));
		assert_eq!(
			check(m, Call::reveal_openings { round: index, gpu: 0, openings, walks: Default::default() }),
			refused(Error::AlreadyRevealed)
		);

		let member = committee(m, 0)[0];
		let verdict = false_verdict(true, None);
		assert!(check(member, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }).is_ok());
		assert_eq!(
			check(stranger, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }),
			refused(Error::NotValidator)
		);
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(member), index, m, 0, verdict));
		assert_eq!(
			check(member, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }),
			refused(Error::AlreadyVoted)
		);

		// Not a duty: no priority, no refusal.
		let other = check(stranger, Call::deregister_miner {}).expect("not a duty");
		assert_eq!(other.priority, 0);
	});
}

// ---------------------------------------------------------------------------------------------
// the memory phase

/// How a (possibly cheating) miner answers a memory phase.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Memory {
	/// Every walk through the dataset.
	Honest,
	/// Results made up without the dataset (a commitment with valid paths over wrong walks).
	MadeUp,
}

/// A CPU's answer to `p`'s memory phase: every level of its walk commitment.
fn memory_levels(p: &ChallengeParams, how: Memory) -> Vec<Vec<Hash32>> {
	use pog_primitives::memory;
	let ch = p.memory_challenge().expect("a memory phase");
	let results: Vec<Hash32> = match how {
		Memory::MadeUp => (0..ch.walks).map(|w| sp_io::hashing::keccak_256(&w.to_le_bytes())).collect(),
		Memory::Honest => {
			let cache = memory::cache(&ch.spec);
			let data = memory::dataset(&ch.spec, &cache);
			(0..ch.walks).map(|w| memory::walk(&ch.spec, w, |i| data[i as usize])).collect()
		},
	};
	memory::levels_from(results, 0)
}

fn root_of(levels: &[Vec<Hash32>]) -> Hash32 {
	levels.last().unwrap()[0]
}

fn commit_memory(who: AccountId, roots: &[(GpuIndex, Hash32)]) -> DispatchResultOf {
	let roots: Vec<MemoryRoot> = roots.iter().map(|(gpu, root)| MemoryRoot { gpu: *gpu, root: *root }).collect();
	Pog::commit_memory(RuntimeOrigin::signed(who), Pog::round().index, roots.try_into().unwrap())
		.map(|_| ())
		.map_err(|e| e.error)
}

/// The sampled walks of `who`'s GPU `gpu`, opened from `levels`.
fn walk_openings(who: AccountId, gpu: GpuIndex, levels: &[Vec<Hash32>]) -> Vec<WalkOpening> {
	let round = Pog::round();
	let c = Commitments::<Test>::get(round.index, who).unwrap()[gpu as usize].clone().unwrap();
	Pog::walks_for(round.selection.as_ref().unwrap(), &c)
		.into_iter()
		.map(|walk| WalkOpening {
			walk,
			result: levels[0][walk as usize],
			proof: pog_primitives::memory::proof_from(levels, 0, walk).try_into().unwrap(),
		})
		.collect()
}

fn reveal_with_walks(
	who: AccountId,
	gpu: GpuIndex,
	result: &CommittedMatrix,
	walks: Vec<WalkOpening>,
) -> DispatchResultOf {
	let openings = openings_for(who, gpu, result);
	Pog::reveal_openings(RuntimeOrigin::signed(who), Pog::round().index, gpu, openings, walks.try_into().unwrap())
		.map(|_| ())
		.map_err(|e| e.error)
}

/// Answers every GPU of `who` (all with a memory phase): the memory phase as `memory`, its root
/// committed, then the GEMM seeded from the root (or, with `gemm_from_root` false, from the GPU's
/// seed alone) committed. Returns each GPU's C and walk commitment.
fn answer_memory(who: AccountId, memory: Memory, gemm_from_root: bool) -> Vec<(CommittedMatrix, Vec<Vec<Hash32>>)> {
	let gpus = Miners::<Test>::get(who).unwrap().gpu_count();
	let levels: Vec<Vec<Vec<Hash32>>> = (0..gpus).map(|g| memory_levels(&params(who, g), memory)).collect();
	let roots: Vec<(GpuIndex, Hash32)> = levels.iter().enumerate().map(|(g, l)| (g as u32, root_of(l))).collect();
	assert_ok!(commit_memory(who, &roots));
	let answers: Vec<(CommittedMatrix, Vec<Vec<Hash32>>)> = levels
		.into_iter()
		.enumerate()
		.map(|(g, l)| {
			let p = params(who, g as u32);
			let root = root_of(&l);
			let spec = p.spec(gemm_from_root.then_some(&root));
			(CommittedMatrix::new(cpu::gemm(&spec)), l)
		})
		.collect();
	let gemm: Vec<(GpuIndex, Hash32)> = answers.iter().enumerate().map(|(g, a)| (g as u32, a.0.root())).collect();
	assert_ok!(commit(who, &gemm));
	answers
}

fn register_memory_miner(who: AccountId, uuids: &[GpuUuid]) {
	let c = claims(vec![claim(CPU_MEMORY_PROFILE, uuids)]);
	assert_ok!(Pog::register_miner(RuntimeOrigin::signed(who), c, hardware()));
}

#[test]
fn a_gpu_with_a_memory_phase_proves_its_memory_then_its_gemm_and_scores_both() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		let r = next_round();
		let p = params(m, 0);
		let memory = p.memory.expect("cpu-memory has measured memory rates");
		assert!(
			memory.walks >= 24_000 && memory.walks.is_multiple_of(1024),
			"8 M reads a second for 200 ms: {}",
			memory.walks
		);
		assert_eq!(memory.deadline_ms - Pog::round().start_ms, sizing::allowed_ms(memory.expected_ms, 50, 12_000));
		assert!(params(account("Miner1"), 0).memory.is_some());

		// The GEMM cannot be committed first: its seed follows the memory root.
		assert_eq!(commit(m, &[(0, [1; 32])]), Err(Error::<Test>::MemoryNotCommitted.into()));
		let levels = memory_levels(&p, Memory::Honest);
		let root = root_of(&levels);
		next_block();
		assert_ok!(commit_memory(m, &[(0, root)]));
		assert!(events().iter().any(
			|e| matches!(e, Event::MemoryCommitted { round, gpus, .. } if *round == r && gpus.to_vec() == vec![0])
		));
		assert_eq!(commit_memory(m, &[(0, root)]), Err(Error::<Test>::AlreadyCommitted.into()));
		let landed = Pog::memory_commitment(r, &m, 0).expect("committed").committed_ms;
		let p = params(m, 0);
		assert_eq!(
			p.deadline_ms,
			landed + sizing::allowed_ms(p.expected_ms, 50, 12_000),
			"from the memory root's block"
		);
		assert_ne!(p.spec(Some(&root)).seed, p.spec(None).seed, "A and B follow the memory root");
		let gemm = CommittedMatrix::new(cpu::gemm(&p.spec(Some(&root))));
		assert_ok!(commit(m, &[(0, gemm.root())]));
		assert_eq!(Commitments::<Test>::get(r, m).unwrap()[0].as_ref().unwrap().memory_root, Some(root));

		run_until(RoundPhase::Reveal);
		let view = Pog::challenge_view(r, m, 0).unwrap();
		assert_eq!(view.walks.len(), 16, "the dev rules open 16 walks");
		assert_eq!(view.memory_commitment.map(|c| c.root), Some(root));
		// Leaves alone are not a reveal: the sampled walks come with them.
		assert_eq!(reveal(m, 0, &gemm), Err(Error::<Test>::WrongWalkCount.into()));
		assert_ok!(reveal_with_walks(m, 0, &gemm, walk_openings(m, 0, &levels)));
		assert_eq!(WalkResults::<Test>::get((r, m, 0)).unwrap().len(), 16);

		let sent = run_ocw_and_include(&pool);
		assert!(sent.len() >= 2 && sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let walks_checked: Vec<u32> = events()
			.iter()
			.filter_map(|e| match e {
				Event::VerdictSubmitted { verdict, .. } => Some(verdict.reported.walks_checked),
				_ => None,
			})
			.collect();
		assert_eq!(walks_checked, vec![16, 16], "each member recomputed every opened walk");
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		let profile = Profiles::<Test>::get(CPU_MEMORY_PROFILE).unwrap();
		let compute = pog_primitives::pricing::points(&profile.gflops, profile.int8_gops);
		assert_eq!(standing(m)[0].points, compute + 3 * profile.vram_mib, "compute and memory points");
		assert!(WalkResults::<Test>::get((r, m, 0)).is_none(), "dropped once settled");
		try_state();
	});
}

#[test]
fn made_up_walks_and_a_gemm_that_skips_the_memory_root_are_caught() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let (honest, made_up, skipper) = (account("Miner1"), account("Miner2"), account("Miner3"));
		register_memory_miner(honest, &[uuid(1)]);
		register_memory_miner(made_up, &[uuid(2)]);
		register_memory_miner(skipper, &[uuid(3)]);
		let r = next_round();
		let answers = [
			(honest, answer_memory(honest, Memory::Honest, true)),
			(made_up, answer_memory(made_up, Memory::MadeUp, true)),
			(skipper, answer_memory(skipper, Memory::Honest, false)),
		];
		run_until(RoundPhase::Reveal);
		for (m, a) in &answers {
			// The made-up walks' paths lead to their root: only recomputing them shows the lie.
			assert_ok!(reveal_with_walks(*m, 0, &a[0].0, walk_openings(*m, 0, &a[0].1)));
		}
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let named_walk = events().iter().any(|e| {
			matches!(e, Event::VerdictSubmitted { miner, verdict, .. }
				if *miner == made_up && !verdict.passed && verdict.failed_walk.is_some())
		});
		assert!(named_walk, "the committee names a wrong walk");
		run_until(RoundPhase::Idle);
		assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
		assert_eq!(settled(made_up), vec![RoundOutcome::Failed(FailReason::WrongWalk)]);
		assert_eq!(settled(skipper), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		assert_eq!(standing(made_up)[0].zero_reason, Some(ZeroReason::Failed(FailReason::WrongWalk)));
		assert_eq!(Scores::<Test>::get(made_up).unwrap_or_default().total, Perbill::zero());
		assert!(Miners::<Test>::get(made_up).unwrap().slashed > 0, "slashed");
		let _ = r;
		try_state();
	});
}

#[test]
fn walk_openings_and_memory_commits_are_checked_on_chain() {
	new_test_ext().execute_with(|| {
		let (m, plain) = (account("Miner1"), account("Miner2"));
		register_memory_miner(m, &[uuid(1)]);
		register_cpu_miner(plain, &[uuid(2)]);
		let r = next_round();
		// A GPU whose profile has no measured memory rates has no memory phase.
		assert!(params(plain, 0).memory.is_none());
		assert_eq!(commit_memory(plain, &[(0, [1; 32])]), Err(Error::<Test>::NoMemoryPhase.into()));
		assert_eq!(commit_memory(m, &[(5, [1; 32])]), Err(Error::<Test>::UnknownGpu.into()));
		let plain_c = answer(plain, Compute::Honest);
		let a = answer_memory(m, Memory::Honest, true);
		let (gemm, levels) = &a[0];
		run_until(RoundPhase::Reveal);
		let honest = walk_openings(m, 0, levels);

		let mut fewer = honest.clone();
		fewer.pop();
		assert_eq!(reveal_with_walks(m, 0, gemm, fewer), Err(Error::<Test>::WrongWalkCount.into()));
		let mut swapped = honest.clone();
		swapped.swap(0, 1);
		assert_eq!(reveal_with_walks(m, 0, gemm, swapped), Err(Error::<Test>::WrongWalkIndex.into()));
		let mut wrong_result = honest.clone();
		wrong_result[3].result[0] ^= 1;
		assert_eq!(reveal_with_walks(m, 0, gemm, wrong_result), Err(Error::<Test>::InvalidWalkProof.into()));
		let mut short_path = honest.clone();
		short_path[2].proof.pop();
		assert_eq!(reveal_with_walks(m, 0, gemm, short_path), Err(Error::<Test>::InvalidWalkProof.into()));
		// A GPU without a memory phase reveals no walks.
		assert_eq!(reveal_with_walks(plain, 0, &plain_c[0], honest.clone()), Err(Error::<Test>::WrongWalkCount.into()));
		assert_ok!(reveal(plain, 0, &plain_c[0]));
		assert_ok!(reveal_with_walks(m, 0, gemm, honest));
		assert!(Verifications::<Test>::contains_key((r, m, 0)));
		try_state();
	});
}

#[test]
fn a_late_memory_root_is_refused_and_misses_the_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		next_round();
		let memory = params(m, 0).memory.unwrap();
		while Pog::now_ms() <= memory.deadline_ms {
			next_block();
		}
		assert_eq!(Pog::round().phase, RoundPhase::Commit, "the commit window is still open for the GEMM");
		assert_eq!(commit_memory(m, &[(0, [1; 32])]), Err(Error::<Test>::DeadlinePassed.into()));
		assert_eq!(commit(m, &[(0, [1; 32])]), Err(Error::<Test>::MemoryNotCommitted.into()));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::MissedCommit)]);
		try_state();
	});
}

#[test]
fn an_old_rounds_memory_roots_and_walk_results_are_pruned() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let slot = MemoryCommitment { root: [1; 32], committed_ms: 6_000 };
		MemoryCommitments::<Test>::insert(1, m, frame_support::BoundedVec::truncate_from(vec![Some(slot)]));
		WalkResults::<Test>::insert((1, m, 0), frame_support::BoundedVec::truncate_from(vec![(7u64, [2u8; 32])]));
		MemoryCommitments::<Test>::insert(2, m, frame_support::BoundedVec::truncate_from(vec![Some(slot)]));
		PruneRound::<Test>::put(1);
		Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
		assert!(!MemoryCommitments::<Test>::contains_key(1, m), "round 1's memory roots pruned");
		assert!(WalkResults::<Test>::get((1, m, 0)).is_none(), "round 1's walk results pruned");
		assert!(MemoryCommitments::<Test>::contains_key(2, m), "a newer round kept");
		assert!(PruneRound::<Test>::get().is_none(), "done");
	});
}

// ---------------------------------------------------------------------------------------------
// duties that cannot fail

/// A `commit_roots` of `gpus` with made-up roots.
fn made_up_roots(gpus: &[GpuIndex]) -> RootsOf<Test> {
	gpus.iter().map(|g| RootCommit { gpu: *g, root: [1; 32], report: report() }).collect::<Vec<_>>().try_into().unwrap()
}

/// A `commit_memory` of `gpus` with made-up roots.
fn made_up_memory_roots(gpus: &[GpuIndex]) -> MemoryRootsOf<Test> {
	gpus.iter().map(|g| MemoryRoot { gpu: *g, root: [2; 32] }).collect::<Vec<_>>().try_into().unwrap()
}

#[test]
fn a_duty_its_dispatch_would_refuse_is_refused_in_the_pool() {
	let refused = refused_in_pool;
	new_test_ext().execute_with(|| {
		let (m, mm) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		register_memory_miner(mm, &[uuid(3)]);
		let index = next_round();
		let commit_roots = |gpus: &[GpuIndex]| Call::commit_roots { round: index, roots: made_up_roots(gpus) };
		let commit_memory = |gpus: &[GpuIndex]| Call::commit_memory { round: index, roots: made_up_memory_roots(gpus) };

		// GPUs the miner does not have: each was a fresh duty at top priority before.
		assert_eq!(check_duty(m, commit_roots(&[99])), refused(Error::UnknownGpu));
		assert_eq!(check_duty(m, commit_roots(&[0, 2])), refused(Error::UnknownGpu));
		// One GPU twice: two equal pool tags in one transaction (which crashed the node).
		assert_eq!(check_duty(m, commit_roots(&[1, 1])), refused(Error::DuplicateGpu));
		assert_eq!(check_duty(mm, commit_memory(&[0, 0])), refused(Error::DuplicateGpu));
		// A GEMM root before its memory root; a memory root for a GPU without a memory phase.
		assert_eq!(check_duty(mm, commit_roots(&[0])), refused(Error::MemoryNotCommitted));
		assert_eq!(check_duty(m, commit_memory(&[0])), refused(Error::NoMemoryPhase));
		// What is due passes, with one distinct tag per GPU.
		let valid = check_duty(m, commit_roots(&[1, 0])).expect("both GPUs are due");
		assert_eq!(valid.provides.len(), 2);
		assert_ne!(valid.provides[0], valid.provides[1]);
		assert!(check_duty(mm, commit_memory(&[0])).is_ok());

		let r = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		let openings = openings_for(m, 0, &r[0]);
		let reveal = |openings: Vec<Opening>, walks: Vec<WalkOpening>| Call::reveal_openings {
			round: index,
			gpu: 0,
			openings: openings.try_into().unwrap(),
			walks: walks.try_into().unwrap(),
		};
		// A reveal of another size than the sample: 64 openings where 32 (or so) are due.
		let mut doubled = openings.to_vec();
		doubled.extend(openings.iter().cloned());
		doubled.truncate(64);
		assert!(doubled.len() > openings.len());
		assert_eq!(check_duty(m, reveal(doubled, vec![])), refused(Error::WrongOpeningCount));
		let mut shuffled = openings.to_vec();
		shuffled.swap(0, 1);
		assert_eq!(check_duty(m, reveal(shuffled, vec![])), refused(Error::WrongOpeningIndex));
		let mut forged = openings.to_vec();
		forged[0].values[0] ^= 1;
		assert_eq!(check_duty(m, reveal(forged, vec![])), refused(Error::InvalidProof));
		let walk = WalkOpening { walk: 0, result: [0; 32], proof: Default::default() };
		assert_eq!(check_duty(m, reveal(openings.to_vec(), vec![walk])), refused(Error::WrongWalkCount));
		assert!(check_duty(m, reveal(openings.to_vec(), vec![])).is_ok());
		assert_ok!(reveal_with_walks(m, 0, &r[0], vec![]));

		// A failing verdict must name an opened leaf, in the pool as in dispatch.
		let member = committee(m, 0)[0];
		let unopened = (0..).find(|l| !openings.iter().any(|o| o.leaf == *l)).unwrap();
		let verdict = false_verdict(false, Some(unopened));
		assert_eq!(
			check_duty(member, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }),
			refused(Error::InconsistentVerdict)
		);
	});
}

#[test]
fn a_duty_that_fails_in_its_block_is_spent_and_its_gpu_missed() {
	use crate::duty::CheckDuty;
	use frame_support::dispatch::{GetDispatchInfo, PostDispatchInfo};
	use sp_runtime::traits::{DispatchTransaction, Dispatchable, TransactionExtension};
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		let index = next_round();
		let call = RuntimeCall::Pog(Call::commit_memory { round: index, roots: made_up_memory_roots(&[0]) });
		let info = call.get_dispatch_info();
		// Dispatch failing after the pool accepted it takes checks that diverge, which the shared
		// functions rule out; the test makes it happen by moving the state between the
		// extension's checks and the dispatch, as no block does (a block re-runs the checks).
		// The pool accepts it while the memory deadline is ahead ...
		let (pre, origin) = CheckDuty::<Test>::new()
			.validate_and_prepare(RuntimeOrigin::signed(m), &call, &info, 0, 0)
			.expect("due now");
		// ... and the state moves before its block: the deadline passes.
		let memory = params(m, 0).memory.unwrap();
		while Pog::now_ms() <= memory.deadline_ms {
			next_block();
		}
		let result = call.clone().dispatch(origin);
		assert_eq!(result.map(|_| ()).map_err(|e| e.error), Err(Error::<Test>::DeadlinePassed.into()));
		let mut post = PostDispatchInfo::default();
		assert_ok!(<CheckDuty<Test> as TransactionExtension<RuntimeCall>>::post_dispatch(
			pre,
			&info,
			&mut post,
			0,
			&Err(Error::<Test>::DeadlinePassed.into())
		));
		assert!(events().iter().any(|e| matches!(
			e,
			Event::DutyFailed { round, who, gpus, .. } if *round == index && *who == m && gpus.to_vec() == vec![0]
		)));
		// Spent: the same duty is refused by name from now on, and cannot be sent again.
		let RuntimeCall::Pog(pog_call) = call else { unreachable!() };
		assert_eq!(check_duty(m, pog_call), refused_in_pool(Error::DutySpent));
		assert_eq!(commit_memory(m, &[(0, [3; 32])]), Err(Error::<Test>::DutySpent.into()));
		// The GPU missed its commit and is slashed for it at settlement.
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::MissedCommit)]);
		try_state();
		// The spent marks go with the round's other records.
		assert_eq!(SpentDuties::<Test>::iter_prefix(index).count(), 1);
		PruneRound::<Test>::put(index);
		Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
		assert_eq!(SpentDuties::<Test>::iter_prefix(index).count(), 0);
	});
}

#[test]
fn a_profile_or_configuration_change_waits_until_every_miner_of_the_round_is_settled() {
	new_test_ext().execute_with(|| {
		// More miners than are settled in one block (the mock settles 4 a block).
		let miners: Vec<AccountId> =
			["Miner1", "Miner2", "Miner3", "Miner4", "Dave"].iter().map(|n| account(n)).collect();
		for (i, m) in miners.iter().enumerate() {
			register_cpu_miner(*m, &[uuid(i as u8 + 1)]);
		}
		let index = next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		for (m, r) in miners.iter().zip(&results) {
			assert_ok!(reveal(*m, 0, &r[0]));
			for v in committee(*m, 0) {
				assert_ok!(verdict_by(v, *m, 0, 7));
			}
		}
		run_until(RoundPhase::Settle);
		next_block();
		assert_eq!(phase(), RoundPhase::Settle);
		assert!(Pog::round().settled > 0 && Pog::round().settled < 5, "settlement is under way");
		// A root change landing now would score the rest of the round's miners by other figures.
		let p = Profiles::<Test>::get(CPU_PROFILE).unwrap();
		let faster = GpuProfile { gflops: [4; 5], ..p };
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster.clone()), Error::<Test>::RoundOpen);
		let wider = ProtocolConfig { max_unverified_rounds: test_config().max_unverified_rounds + 1, ..test_config() };
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), wider), Error::<Test>::RoundOpen);
		run_until(RoundPhase::Idle);
		let points: Vec<u32> = miners.iter().map(|m| standing(*m)[0].points).collect();
		assert!(points[0] > 0 && points.iter().all(|p| *p == points[0]), "one table for the whole round: {points:?}");
		assert!(miners.iter().all(|m| standing(*m)[0].last == Some((index, RoundOutcome::Passed))));
		// Once settled, root may change them.
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster));
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), wider));
	});
}

#[test]
fn a_stall_in_the_commit_window_slashes_nobody() {
	new_test_ext().execute_with(|| {
		let (m, mm) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m, &[uuid(1)]);
		register_memory_miner(mm, &[uuid(2)]);
		let index = next_round();
		let levels = memory_levels(&params(mm, 0), Memory::Honest);
		assert_ok!(commit_memory(mm, &[(0, root_of(&levels))]));
		let gemm = compute(&params(m, 0), Compute::Honest);

		// The chain produces no block for 60 s, longer than either GPU's margin.
		stall(60_000);
		next_block();
		let (p, pm) = (params(m, 0), params(mm, 0));
		assert!(
			Pog::now_ms() > p.deadline_ms && Pog::now_ms() > pm.deadline_ms,
			"the slot clock passed both deadlines"
		);
		assert_eq!(Pog::round().stalled_ms, 60_000 + BLOCK_MS - 2 * BLOCK_MS, "the stall beyond two block times");
		assert_eq!(phase(), RoundPhase::Commit, "the commit window is stretched by the stall too");
		assert_ok!(commit(m, &[(0, gemm.root())]));
		let memory_gemm = CommittedMatrix::new(cpu::gemm(&pm.spec(Some(&root_of(&levels)))));
		assert_ok!(commit(mm, &[(0, memory_gemm.root())]));

		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &gemm));
		assert_ok!(reveal_with_walks(mm, 0, &memory_gemm, walk_openings(mm, 0, &levels)));
		for who in [m, mm] {
			for v in committee(who, 0) {
				assert_ok!(verdict_by(v, who, 0, 7));
			}
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		assert_eq!(settled(mm), vec![RoundOutcome::Passed]);
		assert!(events().iter().all(|e| !matches!(e, Event::MinerSettled { slashed, .. } if *slashed > 0)));
		assert_eq!(Pog::round().index, index);

		// One missed slot is ordinary: the next round counts no stall for it.
		next_round();
		stall(BLOCK_MS);
		next_block();
		assert_eq!(Pog::round().stalled_ms, 0);
		try_state();
	});
}

#[test]
fn lowering_declared_cores_reprices_at_once_and_a_departed_miner_leaves_the_shares() {
	new_test_ext().execute_with(|| {
		let (m, other) = (account("Miner1"), account("Miner2"));
		let cpu = |cores: u32| {
			let mut h = hardware();
			h.cpu_cores = cores;
			(claims(vec![claim(CPU_PROFILE, &[uuid(1)]), claim(CPU_CORE_PROFILE, &[uuid(2)])]), h)
		};
		let (c, h) = cpu(4);
		assert_ok!(Pog::register_miner(RuntimeOrigin::signed(m), c, h));
		register_cpu_miner(other, &[uuid(3)]);
		play_round(&[(m, Compute::Honest), (other, Compute::Honest)]);
		// Both miners hold a share; the one that leaves is out of the shares at once.
		let shares = WeightShares::<Test>::get();
		assert!(shares.iter().any(|(w, _)| *w == other) && shares.len() == 2, "{shares:?}");
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(other)));
		let shares = WeightShares::<Test>::get();
		assert_eq!(shares.iter().map(|(w, s)| (*w, *s)).collect::<Vec<_>>(), vec![(m, Perbill::one())]);
		let per_core = Profiles::<Test>::get(CPU_CORE_PROFILE).unwrap();
		assert_eq!(standing(m)[1].points, per_core.for_cores(4).points());
		// A per-core unit scores its cores' compute only, also where it runs a memory phase (as
		// the runtime's `cpu-core` does): 1 point per core and GFLOPS, no memory points.
		let measured = GpuProfile { mem_read_mps: 8, mem_parent_mps: 8, ..per_core.clone() }.for_cores(4);
		assert!(measured.memory_measured());
		assert_eq!(measured.points(), pog_primitives::pricing::points(&measured.gflops, measured.int8_gops));

		// Fewer cores, declared while a round is open: the update waits, the lower price does not.
		next_round();
		let (c, h) = cpu(1);
		assert_ok!(Pog::update_miner(RuntimeOrigin::signed(m), c, h));
		assert!(Miners::<Test>::get(m).unwrap().pending.is_some(), "the claims wait for the round");
		assert_eq!(standing(m)[1].points, per_core.for_cores(1).points(), "re-priced at once");
		// More cores than proven are not scored before a pass.
		let (c, h) = cpu(8);
		assert_ok!(Pog::update_miner(RuntimeOrigin::signed(m), c, h));
		assert_eq!(standing(m)[1].points, per_core.for_cores(1).points());
		run_until(RoundPhase::Idle);

		try_state();
	});
}

#[test]
fn an_undecided_verification_keeps_no_credit_and_is_decided_in_the_next_round() {
	new_test_ext().execute_with(|| {
		let miners = [account("Miner1"), account("Miner2")];
		for (i, m) in miners.iter().enumerate() {
			let uuids: Vec<GpuUuid> = (0..8).map(|g| uuid(10 * i as u8 + g)).collect();
			register_cpu_miner(*m, &uuids);
		}
		let all: Vec<(AccountId, GpuIndex)> = miners.iter().flat_map(|m| (0..8).map(move |g| (*m, g))).collect();
		// Round 1: every GPU verified and credited.
		play_round(&[(miners[0], Compute::Honest), (miners[1], Compute::Honest)]);
		assert!(all.iter().all(|(m, g)| standing(*m)[*g as usize].credited()));

		// Round 2: capacity 3 of 16; the selected GPUs reveal, and no member votes in time.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 2, ..test_config() }
		));
		let r2 = next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert!(s.probability < Perbill::one());
		let undecided: Vec<(AccountId, GpuIndex)> =
			all.iter().copied().filter(|(m, g)| Pog::is_selected(&s, r2, m, *g)).collect();
		assert!(!undecided.is_empty() && undecided.len() < 16, "{undecided:?}");
		for (m, g) in &undecided {
			let i = miners.iter().position(|x| x == m).unwrap();
			assert_ok!(reveal(*m, *g, &results[i][*g as usize]));
		}
		run_until(RoundPhase::Idle);
		for (m, g) in &all {
			let s = &standing(*m)[*g as usize];
			if undecided.contains(&(*m, *g)) {
				assert_eq!(s.last, Some((r2, RoundOutcome::Unverified(UnverifiedReason::Inconclusive))));
				assert_eq!(s.points, 0, "an undecided verification keeps no credit");
			} else {
				assert!(s.credited(), "not selected: the credit stands");
			}
		}

		// Round 3: each undecided GPU is verified again, whatever the sample draws.
		let r3 = next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		for (m, g) in &undecided {
			assert!(Pog::is_selected(&s, r3, m, *g), "{m:?} GPU {g} is on probation");
			let i = miners.iter().position(|x| x == m).unwrap();
			assert_ok!(reveal(*m, *g, &results[i][*g as usize]));
			for v in committee(*m, *g) {
				assert_ok!(verdict_by(v, *m, *g, 7));
			}
		}
		run_until(RoundPhase::Idle);
		for (m, g) in &undecided {
			assert_eq!(standing(*m)[*g as usize].last, Some((r3, RoundOutcome::Passed)));
			assert!(standing(*m)[*g as usize].credited(), "re-earned");
		}
		try_state();
	});
}

/// Off-chain workers out of time: three validators, each on every committee (quorum 3 of 3),
/// 30 revealed challenges and time for 20 each. Every member goes in the round's verification
/// order, so the same 20 are decided and the same 10 are left; those keep no credit and come
/// first in the next round, where they are decided.
#[test]
fn workers_with_time_for_20_of_30_leave_10_undecided_which_keep_no_credit_and_are_verified_next() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 3, ..test_config() }));
		let miners = ["Miner1", "Miner2", "Miner3", "Miner4"].map(account);
		for (i, (m, count)) in miners.iter().zip([8u8, 8, 8, 6]).enumerate() {
			let uuids: Vec<GpuUuid> = (0..count).map(|g| uuid(10 * i as u8 + g)).collect();
			register_cpu_miner(*m, &uuids);
		}
		let all: Vec<(AccountId, GpuIndex)> = miners
			.iter()
			.flat_map(|m| (0..Miners::<Test>::get(m).unwrap().gpu_count()).map(move |g| (*m, g)))
			.collect();
		assert_eq!(all.len(), 30);
		// Round 1: every GPU verified and credited.
		play_round(&miners.map(|m| (m, Compute::Honest)));
		assert!(all.iter().all(|(m, g)| standing(*m)[*g as usize].credited()));

		// Rounds 2 and 3: all 30 selected and revealed; each worker verifies 10 a block in two
		// blocks of the Reveal phase, and nothing else votes.
		let play = |undecided: &[(AccountId, GpuIndex)]| {
			let r = next_round();
			let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
			run_until(RoundPhase::Reveal);
			let s = Pog::round().selection.unwrap();
			assert_eq!(s.probability, Perbill::one(), "capacity 3 × 80 / 3 covers all 30");
			for (m, g) in &all {
				let i = miners.iter().position(|x| x == m).unwrap();
				assert_ok!(reveal(*m, *g, &results[i][*g as usize]));
			}
			for (m, g) in undecided {
				assert!(Pog::on_probation(r, m, *g), "{m:?} GPU {g} is on probation");
			}
			let mut sent = run_ocw_with_budget_and_include(&pool, 10);
			sent.extend(run_ocw_with_budget_and_include(&pool, 10));
			assert_eq!(sent.len(), 60, "20 verdicts from each of the three workers");
			assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
			run_until(RoundPhase::Idle);
			(r, s.seed)
		};
		let (r2, seed) = play(&[]);
		let mut by_rank = all.clone();
		by_rank.sort_by_key(|(m, g)| offchain::verification_rank(&seed, m, *g));
		let (decided, undecided) = by_rank.split_at(20);
		for (m, g) in decided {
			assert_eq!(standing(*m)[*g as usize].last, Some((r2, RoundOutcome::Passed)), "{m:?} GPU {g}");
		}
		for (m, g) in undecided {
			let s = &standing(*m)[*g as usize];
			assert_eq!(s.last, Some((r2, RoundOutcome::Unverified(UnverifiedReason::Inconclusive))), "{m:?} GPU {g}");
			assert_eq!(s.points, 0, "an undecided verification keeps no credit");
		}
		let score_of = |m: &AccountId| Scores::<Test>::get(m).map_or(0, |s| s.verified_gpus);
		assert_eq!(miners.iter().map(score_of).sum::<u32>(), 20, "only the 20 decided GPUs score");

		// Round 3: the 10 left undecided come first for every worker, and are decided.
		let (r3, _) = play(undecided);
		for (m, g) in undecided {
			assert_eq!(standing(*m)[*g as usize].last, Some((r3, RoundOutcome::Passed)), "{m:?} GPU {g} re-earned");
			assert!(standing(*m)[*g as usize].credited());
		}
		try_state();
	});
}

#[test]
fn a_full_registry_of_passing_one_core_units_evicts_the_lowest_for_a_newcomer() {
	use frame_support::traits::fungible::Mutate;
	new_test_ext().execute_with(|| {
		let max = <<Test as Config>::MaxMiners as frame_support::traits::Get<u32>>::get();
		let one_core = Hardware { cpu_cores: 1, ..hardware() };
		let unit = |n: u32| {
			claims(vec![claim(
				CPU_CORE_PROFILE,
				&[[n as u8, (n >> 8) as u8, 0xcc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
			)])
		};
		let fillers: Vec<AccountId> = (0..max).map(|i| account(&format!("Filler{i}"))).collect();
		for (i, f) in fillers.iter().enumerate() {
			assert_ok!(Balances::mint_into(f, FUNDS));
			assert_ok!(Pog::register_miner(RuntimeOrigin::signed(*f), unit(i as u32), one_core.clone()));
		}
		let newcomer = account("Miner1");
		assert_noop!(
			Pog::register_miner(
				RuntimeOrigin::signed(newcomer),
				claims(vec![claim(H100_PROFILE, &[uuid(1)])]),
				hardware()
			),
			Error::<Test>::TooManyMiners
		);
		// Every filler answers its unit honestly, round after round, through its immunity.
		let plays: Vec<(AccountId, Compute)> = fillers.iter().map(|f| (*f, Compute::Honest)).collect();
		for _ in 0..crate::eviction::IMMUNITY_ROUNDS {
			play_round(&plays);
		}
		let lowest = fillers.iter().map(|f| Scores::<Test>::get(f).unwrap().total).min().unwrap();
		assert!(lowest > Perbill::zero(), "every filler is proven and scored");
		// Between rounds, past their immunity: a newcomer takes the slot of the lowest-scored.
		assert_eq!(phase(), RoundPhase::Idle);
		let index = Pog::round().index;
		assert!(fillers
			.iter()
			.all(|f| index + 1 >= Miners::<Test>::get(f).unwrap().first_round + crate::eviction::IMMUNITY_ROUNDS));
		let free_before: Vec<Balance> = fillers.iter().map(Balances::free_balance).collect();
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(newcomer),
			claims(vec![claim(H100_PROFILE, &[uuid(1)])]),
			hardware()
		));
		let evicted = events()
			.into_iter()
			.find_map(|e| match e {
				Event::MinerEvicted { miner, by } if by == newcomer => Some(miner),
				_ => None,
			})
			.expect("a miner was evicted");
		assert!(Miners::<Test>::get(evicted).is_none());
		assert_eq!(MinerCount::<Test>::get(), max);
		let i = fillers.iter().position(|f| *f == evicted).unwrap();
		assert!(Balances::free_balance(evicted) > free_before[i], "its deposit was released");
		let remaining_lowest =
			fillers.iter().filter(|f| **f != evicted).map(|f| Scores::<Test>::get(f).unwrap().total).min().unwrap();
		assert!(lowest <= remaining_lowest, "the lowest score went");
		// The newcomer is immune in turn: the next registration finds nobody to evict among the
		// newcomer, and evicts another filler instead.
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(account("Miner2")),
			claims(vec![claim(CPU_PROFILE, &[uuid(2)])]),
			hardware()
		));
		assert!(Miners::<Test>::get(newcomer).is_some());
		try_state();
	});
}
