//! Verification: committees, verdicts, cheats caught, credits kept or lost.

use super::*;
use crate::scoring::{CreditRules, DRAW};

#[test]
fn colluding_verdicts_cannot_fail_an_honest_miner() {
	new_test_ext().execute_with(|| {
		// Eight validators: above the sets that vote as a whole, so committees of 4 are drawn.
		let vals: Vec<AccountId> = ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie", "Miner3", "Miner4"]
			.iter()
			.map(|n| account(n))
			.collect();
		for v in &vals[3..] {
			assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), *v));
		}
		change_session();
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
		assert_eq!(silent, 6, "three silent members (the whole set of three) in each of two rounds");
	});
}

#[test]
fn unselected_rounds_keep_a_credit_inconclusive_ones_age_it() {
	new_test_ext().execute_with(|| {
		let mut s = GpuStanding::new(uuid(1), CPU_PROFILE);
		// drawn with p = 1% (due after 200 rounds undrawn)
		let rules = CreditRules { max_unverified: 2, probability: Perbill::from_percent(1) };
		Pallet::<Test>::record_outcome(&mut s, 1, RoundOutcome::Passed, rules, 0);
		for round in 2..30 {
			Pallet::<Test>::record_outcome(
				&mut s,
				round,
				RoundOutcome::Unverified(UnverifiedReason::NotSelected),
				rules,
				0,
			);
		}
		assert!(s.credited(), "a GPU committing on time keeps its credit while it is not sampled");
		let inconclusive = RoundOutcome::Unverified(UnverifiedReason::Inconclusive);
		Pallet::<Test>::record_outcome(&mut s, 30, inconclusive, rules, 0);
		assert!(s.credited());
		Pallet::<Test>::record_outcome(&mut s, 31, inconclusive, rules, 0);
		assert_eq!(s.zero_reason, Some(ZeroReason::CreditExpired));
		Pallet::<Test>::record_outcome(&mut s, 32, RoundOutcome::Failed(FailReason::MissedCommit), rules, 0);
		assert_eq!((s.points, s.zero_reason), (0, Some(ZeroReason::Failed(FailReason::MissedCommit))));
	});
}

/// Issue 49's item 4: a credit falls due once the draws it could expect since its last pass reach
/// two (2/p rounds at a steady p): it keeps its credit and is selected whatever the draw until it
/// is verified. The count follows p round by round, so a rise of p does not make older credits
/// due at once (200 rounds at 0.5% and one at 2% are 1.02 draws, not 201 · 2% = 4), and p = 0
/// (nothing verifiable) adds nothing.
#[test]
fn a_credit_not_drawn_for_two_expected_draws_is_due_until_verified() {
	new_test_ext().execute_with(|| {
		let at = |p: Perbill| CreditRules { max_unverified: 1, probability: p };
		let not_selected = RoundOutcome::Unverified(UnverifiedReason::NotSelected);
		let mut s = GpuStanding::new(uuid(1), CPU_PROFILE);
		Pallet::<Test>::record_outcome(&mut s, 1, RoundOutcome::Passed, at(Perbill::one()), 0);
		let points = s.points;
		for round in 2..=201 {
			Pallet::<Test>::record_outcome(&mut s, round, not_selected, at(Perbill::from_rational(1u32, 200)), 0);
		}
		Pallet::<Test>::record_outcome(&mut s, 202, not_selected, at(Perbill::from_percent(2)), 0);
		assert_eq!(s.expected_draws, DRAW + DRAW / 50);
		assert!(s.credited() && !s.due() && !s.on_probation_in(203), "1.02 expected draws");
		for round in 203..=250 {
			Pallet::<Test>::record_outcome(&mut s, round, not_selected, at(Perbill::from_percent(2)), 0);
			assert!(!s.due(), "round {round}: {} draws", s.expected_draws);
		}
		Pallet::<Test>::record_outcome(&mut s, 251, not_selected, at(Perbill::zero()), 0);
		assert!(!s.due(), "p = 0 adds nothing");
		Pallet::<Test>::record_outcome(&mut s, 252, not_selected, at(Perbill::from_percent(2)), 0);
		assert_eq!(s.expected_draws, 2 * DRAW);
		assert!(s.due() && s.credited() && s.points == points, "due, and still credited and paid");
		assert!(s.on_probation_in(253) && s.on_probation_in(259), "selected in every round until verified");
		assert!(!s.is_newcomer_in(253));
		Pallet::<Test>::record_outcome(&mut s, 253, RoundOutcome::Passed, at(Perbill::from_percent(2)), 0);
		assert_eq!((s.expected_draws, s.verified_round, s.due()), (0, Some(253), false));
		// A due credit that fails is gone; one left undecided expires (max_unverified_rounds 1).
		let mut t = s.clone();
		t.expected_draws = 2 * DRAW;
		Pallet::<Test>::record_outcome(
			&mut t,
			255,
			RoundOutcome::Failed(FailReason::MissedReveal),
			at(Perbill::one()),
			0,
		);
		assert!(!t.credited() && !t.due() && t.expected_draws == 0);
		s.expected_draws = 2 * DRAW;
		let inconclusive = RoundOutcome::Unverified(UnverifiedReason::Inconclusive);
		Pallet::<Test>::record_outcome(&mut s, 255, inconclusive, at(Perbill::one()), 0);
		assert_eq!(s.zero_reason, Some(ZeroReason::CreditExpired));
		assert!(!s.due() && s.on_probation_in(256), "on probation for the undecided round instead");
	});
}

#[test]
fn a_gpu_both_undecided_and_due_is_selected_next_round_once() {
	new_test_ext().execute_with(|| {
		// A credit left undecided survives up to three rounds here, so one can be both.
		Configuration::<Test>::mutate(|c| c.max_unverified_rounds = 3);
		let who = account("Miner1");
		let mut due = GpuStanding::new(uuid(1), CPU_PROFILE);
		let rules = CreditRules { max_unverified: 3, probability: Perbill::one() };
		Pallet::<Test>::record_outcome(&mut due, 1, RoundOutcome::Passed, rules, 0);
		due.expected_draws = 2 * DRAW;
		let (mut idle, fresh) = (due.clone(), GpuStanding::new(uuid(3), CPU_PROFILE));
		idle.uuid = uuid(2);
		idle.expected_draws = 0;
		Standing::<Test>::insert(who, frame_support::BoundedVec::truncate_from(vec![due, idle, fresh]));
		let inconclusive = RoundOutcome::Unverified(UnverifiedReason::Inconclusive);
		let not_selected = RoundOutcome::Unverified(UnverifiedReason::NotSelected);
		let outcomes = [(uuid(1), inconclusive), (uuid(2), not_selected), (uuid(3), inconclusive)];
		let forced = Pallet::<Test>::record_outcomes(&who, 2, &outcomes, Perbill::from_percent(1), 0);
		let after = standing(who);
		assert!(after[0].due() && after[0].credited(), "undecided, still credited, and due");
		assert_eq!(
			after.iter().map(|s| s.on_probation_in(3)).collect::<Vec<_>>(),
			[true, false, true],
			"the due credit left undecided and the fresh claim left undecided"
		);
		assert_eq!(forced, 2, "each GPU selected whatever the draw is counted once in ProbationNext");
	});
}

#[test]
fn committees_split_the_work_between_validators() {
	// Eight validators: above the sets that vote as a whole, so committees of one are drawn.
	let names = ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie", "Miner4", "Validator8"];
	let mut e = env(&names);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		fund(&account("Validator8"), FUNDS);
		for v in &names[3..] {
			assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), account(v)));
		}
		change_session();
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
		// One off-chain worker run of each of the eight validators.
		let sent = run_ocw_and_include(&pool);
		let distinct: std::collections::BTreeSet<(AccountId, GpuIndex)> = sent
			.iter()
			.filter(|(_, _, res)| res.is_ok())
			.flat_map(|(_, call, _)| match call {
				RuntimeCall::Pog(crate::Call::submit_verdicts { verdicts, .. }) => {
					verdicts.iter().map(|(miner, gpu, _)| (*miner, *gpu)).collect::<Vec<_>>()
				},
				_ => Vec::new(),
			})
			.collect();
		assert_eq!(distinct.len(), 12, "all 12 revealed challenges verified in one run: {sent:?}");
		// Each validator sent its verdicts in one transaction (issue 24, item 3).
		let senders: Vec<AccountId> = sent.iter().map(|(who, _, _)| *who).collect();
		let unique: std::collections::BTreeSet<AccountId> = senders.iter().copied().collect();
		assert_eq!(senders.len(), unique.len(), "one transaction a validator: {senders:?}");
	});
}

#[test]
fn beyond_capacity_a_uniform_sample_is_verified() {
	new_test_ext().execute_with(|| {
		// 3 validators × 2 verifications / committee of all 3 = capacity 2 of 16 committed GPUs.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 2, ..test_config() }
		));
		let miners = register_eight_each(&["Miner1", "Miner2"]);
		next_round();
		commit_eight_each(&miners);
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, 2);
		// All 16 are new: their first draw takes the whole capacity, each drawn with 2/16.
		let first = FirstDrawOf::<Test>::get(Pog::round().index);
		assert_eq!((first.newcomers, first.probability), (16, Perbill::from_rational(2u32, 16u32)));
		assert_eq!(s.probability, Perbill::zero(), "nothing is left for GPUs verified before");
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

/// Issue 24, item 3: one transaction carries a validator's verdicts, each checked as a single
/// verdict is, in the pool and in dispatch alike; a bad list is refused whole, with the reason,
/// and spends nothing; a good one records every verdict.
#[test]
fn verdicts_in_bulk_are_checked_like_one_and_land_all_or_none() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let index = next_round();
		let r = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		for (g, result) in r.iter().enumerate() {
			assert_ok!(reveal(m, g as u32, result));
		}
		let member = committee(m, 0)[0];
		let honest = |gpu: GpuIndex| offchain::verify_challenge::<Test>(index, &m, gpu, &[5; 32]).expect("revealed").0;
		let list = |v: Vec<(AccountId, GpuIndex, Verdict)>| -> VerdictsOf<Test> { v.try_into().unwrap() };
		let bulk = |who: AccountId, v: Vec<(AccountId, GpuIndex, Verdict)>| {
			let pool = check_duty(who, crate::Call::submit_verdicts { round: index, verdicts: list(v.clone()) });
			(pool, Pog::submit_verdicts(RuntimeOrigin::signed(who), index, list(v)))
		};
		let refused = |who: AccountId, v: Vec<(AccountId, GpuIndex, Verdict)>, error: Error<Test>| {
			let (pool, dispatch) = bulk(who, v);
			assert!(pool.is_err(), "the pool refuses it");
			assert_eq!(dispatch.map_err(|e| e.error), Err(error.into()));
		};
		refused(member, vec![], Error::<Test>::NoVerdicts);
		refused(member, vec![(m, 0, honest(0)), (m, 0, honest(0))], Error::<Test>::DuplicateVerdict);
		refused(account("Dave"), vec![(m, 0, honest(0))], Error::<Test>::NotValidator);
		// One bad verdict (a failing verdict naming no leaf) refuses the list whole.
		refused(
			member,
			vec![(m, 0, honest(0)), (m, 1, false_verdict(false, None))],
			Error::<Test>::InconsistentVerdict,
		);
		assert!(Verifications::<Test>::get((index, m, 0)).unwrap().votes.is_empty(), "nothing landed");
		let (pool, dispatch) = bulk(member, vec![(m, 0, honest(0)), (m, 1, honest(1))]);
		assert!(pool.is_ok());
		assert_ok!(dispatch);
		for g in 0..2 {
			assert!(Verifications::<Test>::get((index, m, g))
				.unwrap()
				.votes
				.iter()
				.any(|(v, x)| *v == member && x.passed));
		}
	});
}

/// The review's F9: pruning keeps up with a round larger than a block's budget and does not lose
/// a round it has not finished. Two old rounds hold 2,500 verification records each (more than
/// 113 a map a block, what a ninth of the budget gave each map before): a settlement while the
/// first is still being pruned leaves it first, each `on_idle` removes up to 1,024 records map
/// after map, and both rounds are gone within five blocks, `try_state` checking on the way that
/// nothing older than the pruning's position is kept.
#[test]
fn pruning_keeps_up_with_rounds_larger_than_a_block_and_loses_none() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		for _ in 0..=crate::rounds::KEPT_ROUNDS + 1 {
			play_round(&[(m, Compute::Honest)]);
		}
		// the mock runs no `on_idle` of its own: what the rounds left to prune goes first
		while PruneRound::<Test>::get().is_some() {
			Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
		}
		let current = Pog::round().index;
		let (a, b) = (current - crate::rounds::KEPT_ROUNDS - 1, current - crate::rounds::KEPT_ROUNDS);
		let record = Verifications::<Test>::get((current, m, 0)).expect("the last round's record");
		for round in [a, b] {
			for n in 0..2_500u32 {
				Verifications::<Test>::insert((round, account(&format!("Ghost{n}")), 0), &record);
			}
		}
		PruneRound::<Test>::put(a);
		try_state();
		let mut blocks = 0;
		while PruneRound::<Test>::get().is_some() {
			Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
			try_state();
			blocks += 1;
			assert!(blocks <= 5, "pruning lags: round {:?} left", PruneRound::<Test>::get());
		}
		assert_eq!(
			Verifications::<Test>::iter_prefix((a,)).count() + Verifications::<Test>::iter_prefix((b,)).count(),
			0
		);
		assert!(Verifications::<Test>::get((current, m, 0)).is_some(), "kept rounds are kept");
		// A round settled while an older one is still being pruned does not take its place.
		PruneRound::<Test>::put(a);
		play_round(&[(m, Compute::Honest)]);
		assert_eq!(PruneRound::<Test>::get(), Some(a));
	});
}
