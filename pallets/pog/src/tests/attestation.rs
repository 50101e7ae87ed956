//! Passes in bulk ([`crate::attestation`]): a member's one attestation passes every served GPU
//! assigned to it up to a position in the round's verification order, one write whatever the
//! GPUs; exceptions ride with it; nothing beyond it or left open is passed; a pass is never
//! taken back.

use super::{
	served::{alice_fetches, alice_fetches_gpu, past_the_reveal_deadline, serve, served_verdict_by, unserved_by},
	*,
};
use crate::{
	attestation::{OpenOf, Position},
	evidence::EvidenceRoot,
};

/// The miners' GPUs in a round's verification order, with their positions.
type Order = Vec<(Position, AccountId, GpuIndex)>;

/// Miner1 and Miner2 register `gpus` CPU GPUs each and serve their openings; a round is played to
/// its reveal phase with each answering as told. Returns the round, the miners' GPUs in the
/// round's verification order (with their positions) and each miner's results.
fn served_round(gpus: u8, how: [Compute; 2]) -> (RoundIndex, Order, Vec<Vec<CommittedMatrix>>) {
	let miners = [account("Miner1"), account("Miner2")];
	for (i, m) in miners.into_iter().enumerate() {
		let uuids: Vec<GpuUuid> = (0..gpus).map(|g| uuid(10 * i as u8 + g + 1)).collect();
		register_cpu_miner(m, &uuids);
		serve(m);
	}
	let r = next_round();
	let results = vec![answer(miners[0], how[0]), answer(miners[1], how[1])];
	run_until(RoundPhase::Reveal);
	let selection = Pog::round().selection.unwrap();
	let mut order: Order = miners
		.iter()
		.flat_map(|m| (0..gpus as GpuIndex).map(move |g| (*m, g)))
		.inspect(|(m, g)| assert!(Pog::is_selected(&selection, r, m, *g), "every GPU is drawn"))
		.map(|(m, g)| (Pog::verification_position(r, &selection.seed, &m, g), m, g))
		.collect();
	order.sort_by_key(|a| a.0);
	(r, order, results)
}

fn attest(
	who: AccountId,
	upto: Position,
	open: Vec<(AccountId, GpuIndex)>,
	verdicts: Vec<(AccountId, GpuIndex, Verdict)>,
) -> DispatchResultOf {
	attest_with(who, upto, open, verdicts, Default::default())
}

/// [`attest`] with an evidence root ([`crate::evidence`]).
pub(super) fn attest_with(
	who: AccountId,
	upto: Position,
	open: Vec<(AccountId, GpuIndex)>,
	verdicts: Vec<(AccountId, GpuIndex, Verdict)>,
	evidence: EvidenceRoot,
) -> DispatchResultOf {
	let (round, open, verdicts): (RoundIndex, OpenOf<Test>, VerdictsOf<Test>) =
		(Pog::round().index, open.try_into().unwrap(), verdicts.try_into().unwrap());
	let call = crate::Call::attest { round, upto, open: open.clone(), verdicts: verdicts.clone(), evidence };
	let pool = check_duty(who, call);
	let dispatched =
		Pog::attest(RuntimeOrigin::signed(who), round, upto, open, verdicts, evidence).map(|_| ()).map_err(|e| e.error);
	match dispatched {
		Ok(()) => assert!(pool.is_ok(), "the pool takes what lands: {pool:?}"),
		Err(DispatchError::Module(ref m)) => assert_eq!(
			pool,
			Err(sp_runtime::transaction_validity::InvalidTransaction::Custom(m.error[0]).into()),
			"the pool refuses what would fail, by the same error"
		),
		Err(_) => {},
	}
	dispatched
}

/// Three validators, committees of all three (quorum 3), two miners of four served GPUs: each
/// member's one attestation passes all eight, no verdict record is written before settlement,
/// and at settlement every GPU passes, its record keeps the three passes, and each member is
/// counted as agreeing on all eight.
#[test]
fn one_attestation_passes_every_served_gpu_up_to_its_position() {
	new_test_ext().execute_with(|| {
		let (r, order, _) = served_round(4, [Compute::Honest, Compute::Honest]);
		let last = order.last().unwrap().0;
		let (m0, g0) = (order[0].1, order[0].2);
		assert_eq!(
			Pog::challenge_view(r, m0, g0).unwrap().sample_seed,
			None,
			"no verification before a vote: the miner's agent reads one as its openings being on chain"
		);
		for v in validators() {
			assert_ok!(attest(v, last, vec![], vec![]));
			System::assert_has_event(
				Event::Attested { round: r, validator: v, upto: last, open: 0, verdicts: 0 }.into(),
			);
		}
		assert_eq!(Verifications::<Test>::iter_prefix((r,)).count(), 0, "no record per GPU before settlement");
		assert_eq!(Attestations::<Test>::iter_prefix(r).count(), 3, "one per member");
		let view = Pog::challenge_view(r, order[0].1, order[0].2).unwrap();
		assert_eq!(view.verification, Some(VerificationStatus::Passed), "auditors see the passes before settlement");
		run_until(RoundPhase::Idle);
		for m in ["Miner1", "Miner2"].map(account) {
			assert_eq!(settled(m), vec![RoundOutcome::Passed; 4]);
		}
		for (_, m, g) in &order {
			let kept = Verifications::<Test>::get((r, m, *g)).expect("the tally is kept");
			assert_eq!(kept.status, VerificationStatus::Passed);
			assert!(kept.votes.iter().all(|(_, x)| *x == Verdict::attested()) && kept.votes.len() == 3, "{kept:?}");
		}
		for v in validators() {
			let stats = ValidatorStats::<Test>::get(v);
			assert_eq!((stats.assigned, stats.agreed, stats.silent), (8, 8, 0), "{v:?}: {stats:?}");
		}
		try_state();
	});
}

/// Charlie attests only up to the fifth GPU of the order and leaves the third open: Alice and Bob
/// pass all eight, so the third and the last three have two passes of the three needed, and end
/// undecided with Charlie silent on them; a pass once given is not taken back.
#[test]
fn an_attestation_passes_nothing_beyond_its_position_nor_what_it_left_open() {
	new_test_ext().execute_with(|| {
		let (r, order, results) = served_round(4, [Compute::Honest, Compute::Honest]);
		let [alice, bob, charlie] = ["Alice", "Bob", "Charlie"].map(account);
		let last = order.last().unwrap().0;
		for v in [alice, bob] {
			assert_ok!(attest(v, last, vec![], vec![]));
		}
		let (_, open_m, open_g) = order[2];
		assert_ok!(attest(charlie, order[4].0, vec![(open_m, open_g)], vec![]));

		// forward only: not behind, not the same with nothing new; and no pass taken back
		assert_eq!(attest(charlie, order[3].0, vec![], vec![]), Err(Error::<Test>::AttestationBehind.into()));
		assert_eq!(
			attest(charlie, order[4].0, vec![(open_m, open_g)], vec![]),
			Err(Error::<Test>::AttestationBehind.into())
		);
		let (_, passed_m, passed_g) = order[1];
		assert_eq!(
			attest(charlie, order[5].0, vec![(passed_m, passed_g)], vec![]),
			Err(Error::<Test>::InvalidOpen.into()),
			"a GPU passed before cannot be reopened"
		);
		assert_eq!(
			attest(charlie, order[5].0, vec![(order[6].1, order[6].2)], vec![]),
			Err(Error::<Test>::InvalidOpen.into()),
			"nor one left open beyond the attestation"
		);
		assert_eq!(
			attest(charlie, order[5].0, vec![(open_m, open_g), (open_m, open_g)], vec![]),
			Err(Error::<Test>::InvalidOpen.into()),
			"nor one named twice"
		);
		let openings =
			openings_for(passed_m, passed_g, &results[usize::from(passed_m == account("Miner2"))][passed_g as usize]);
		assert_eq!(
			served_verdict_by(charlie, passed_m, passed_g, &openings),
			Err(Error::<Test>::AlreadyAttested.into()),
			"its pass is its vote"
		);
		assert_eq!(attest(account("Miner1"), last, vec![], vec![]), Err(Error::<Test>::NotValidator.into()));

		run_until(RoundPhase::Idle);
		let outcome = |m: AccountId, g: GpuIndex| standing(m)[g as usize].last.unwrap().1;
		for (i, (_, m, g)) in order.iter().enumerate() {
			let expected = if i <= 4 && i != 2 {
				RoundOutcome::Passed
			} else {
				RoundOutcome::Unverified(UnverifiedReason::Inconclusive)
			};
			assert_eq!(outcome(*m, *g), expected, "GPU {i} of the order");
		}
		let stats = ValidatorStats::<Test>::get(charlie);
		assert_eq!((stats.assigned, stats.agreed, stats.silent), (8, 4, 4), "{stats:?}");
		assert_eq!(r, Pog::round().index);
		try_state();
	});
}

/// A served GPU that returns wrong results: each member's attestation carries its failing verdict,
/// recorded before the passes land, and the GPU fails `WrongResult` while the other seven pass. A
/// failing verdict cannot be slipped in behind a pass already given.
#[test]
fn failing_verdicts_ride_with_the_attestation() {
	new_test_ext().execute_with(|| {
		let (r, order, results) = served_round(4, [Compute::Honest, Compute::Corrupt(100)]);
		let cheat = account("Miner2");
		let (_, _, wrong_g) = *order.iter().find(|(_, m, _)| *m == cheat).unwrap();
		let wrong = openings_for(cheat, wrong_g, &results[1][wrong_g as usize]);
		let (verdict, ..) = offchain::verify_openings::<Test>(r, &cheat, wrong_g, &wrong, &[], &[3; 32]).unwrap();
		assert!(!verdict.passed && verdict.failed_leaf.is_some(), "{verdict:?}");
		let last = order.last().unwrap().0;
		let mut others: Vec<(AccountId, GpuIndex, Verdict)> = Vec::new();
		for (_, m, g) in order.iter().filter(|(_, m, g)| *m == cheat && *g != wrong_g) {
			let served = openings_for(*m, *g, &results[1][*g as usize]);
			others.push((*m, *g, offchain::verify_openings::<Test>(r, m, *g, &served, &[], &[3; 32]).unwrap().0));
		}
		assert!(others.iter().all(|(.., v)| !v.passed), "every GPU of the cheat is wrong");
		for v in validators() {
			let mut exceptions = others.clone();
			exceptions.push((cheat, wrong_g, verdict));
			assert_ok!(attest(v, last, vec![], exceptions));
		}
		let (_, honest_m, honest_g) = *order.iter().find(|(_, m, _)| *m != cheat).unwrap();
		assert_eq!(
			attest(account("Alice"), last, vec![], vec![(honest_m, honest_g, false_verdict(false, None))]),
			Err(Error::<Test>::AlreadyAttested.into()),
			"no failing verdict behind a pass already given"
		);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(account("Miner1")), vec![RoundOutcome::Passed; 4]);
		assert_eq!(settled(cheat), vec![RoundOutcome::Failed(FailReason::WrongResult); 4]);
		try_state();
	});
}

/// Alice's off-chain worker, Miner1 serving and Miner2's endpoint answering garbage: before the
/// reveal deadline her attestation passes Miner1's GPU and leaves Miner2's open; after it, her next
/// attestation votes it unserved. With Bob's and Charlie's verdicts, Miner1 passes and Miner2
/// fails `MissedReveal`.
#[test]
fn the_worker_leaves_an_unserved_gpu_open_and_votes_it_unserved_after_the_deadline() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		let (r, order, results) = served_round(1, [Compute::Honest, Compute::Honest]);
		let [miner1, miner2] = ["Miner1", "Miner2"].map(account);
		let served = openings_for(miner1, 0, &results[0][0]);
		let body = |m: AccountId| -> Vec<u8> {
			if m == miner1 {
				(served.clone(), WalkOpeningsOf::default()).encode()
			} else {
				b"not the openings".to_vec()
			}
		};
		// the worker asks in the verification order
		for (_, m, _) in &order {
			alice_fetches(&offchain, r, body(*m));
		}
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let before = Attestations::<Test>::get(r, account("Alice")).expect("Alice attested");
		assert_eq!(before.upto, order[1].0);
		assert_eq!(before.open.to_vec(), vec![(miner2, 0)], "Miner2's GPU left open");

		for v in ["Bob", "Charlie"].map(account) {
			assert_ok!(served_verdict_by(v, miner1, 0, &served));
		}
		past_the_reveal_deadline();
		for v in ["Bob", "Charlie"].map(account) {
			assert_ok!(unserved_by(v, miner2, 0));
		}
		alice_fetches(&offchain, r, body(miner2));
		let sent = run_ocw_and_include(&pool);
		assert!(
			matches!(&sent[..], [(_, RuntimeCall::Pog(crate::Call::attest { open, verdicts, .. }), Ok(_))]
				if open.is_empty() && verdicts.len() == 1 && verdicts[0].2.is_unserved()),
			"{sent:?}"
		);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(miner1), vec![RoundOutcome::Passed]);
		assert_eq!(settled(miner2), vec![RoundOutcome::Failed(FailReason::MissedReveal)]);
		assert_eq!(ValidatorStats::<Test>::get(account("Alice")).agreed, 2);
		try_state();
	});
}

/// Ten miners of eight served GPUs whose endpoints serve nothing: Alice's worker leaves 64 open
/// (all an attestation may) and skips the rest until the reveal deadline; after it, its next
/// attestation votes those 64 unserved (all the verdicts one may carry) and the other 16 get
/// single verdicts in the same run, so a full attestation holds no vote back. All 80 fail
/// `MissedReveal`.
#[test]
fn a_full_attestation_leaves_the_rest_to_single_verdicts() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		let miners: Vec<AccountId> = (0..10).map(|i| account(&format!("Miner{i}"))).collect();
		for (i, m) in miners.iter().enumerate() {
			if Balances::free_balance(*m) == 0 {
				fund(m, crate::mock::FUNDS);
			}
			register_cpu_miner(*m, &(0..8).map(|g| uuid(8 * i as u8 + g + 1)).collect::<Vec<_>>());
			serve(*m);
		}
		let r = next_round();
		// nothing is ever served, so made-up roots do (no GEMM computed)
		for m in &miners {
			assert_ok!(commit(*m, &(0..8).map(|g| (g, [1; 32])).collect::<Vec<_>>()));
		}
		run_until(RoundPhase::Reveal);
		// every unserved vote counts (`served::unserved_quota`): this test is about where they go
		UnservedQuota::<Test>::insert(r, u32::MAX);
		let selection = Pog::round().selection.unwrap();
		let mut order: Order = miners
			.iter()
			.flat_map(|m| (0..8).map(move |g| (*m, g)))
			.map(|(m, g)| (Pog::verification_position(r, &selection.seed, &m, g), m, g))
			.collect();
		order.sort_by_key(|a| a.0);
		assert_eq!(order.len(), 80);
		// every served GPU is asked once a run, all in one batch, in the order
		let ask_all = || {
			for (_, _, g) in &order {
				alice_fetches_gpu(&offchain, r, *g, b"nothing".to_vec());
			}
		};
		ask_all();
		let sent = run_ocw_and_include(&pool);
		assert!(matches!(&sent[..], [(_, RuntimeCall::Pog(crate::Call::attest { .. }), Ok(_))]), "{sent:?}");
		let a = Attestations::<Test>::get(r, account("Alice")).unwrap();
		assert_eq!((a.upto, a.open.len()), (order[63].0, 64), "the first 64 in the order left open");

		past_the_reveal_deadline();
		ask_all();
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let in_attestation: usize = sent
			.iter()
			.map(|(_, call, _)| match call {
				RuntimeCall::Pog(crate::Call::attest { open, verdicts, .. }) => {
					assert!(open.is_empty() && verdicts.iter().all(|(.., v)| v.is_unserved()));
					verdicts.len()
				},
				_ => 0,
			})
			.sum();
		assert_eq!((in_attestation, verdicts_in(&sent)), (64, 16), "{sent:?}");
		run_until(RoundPhase::Idle);
		for m in &miners {
			assert_eq!(settled(*m), vec![RoundOutcome::Failed(FailReason::MissedReveal); 8]);
		}
		try_state();
	});
}

/// The review's F7, its lazy half: Dave attests every served GPU without fetching anything, while
/// Alice, Bob and Charlie verify what they are served, over 20 rounds with a cheater (operands
/// rounded to a cheaper format) among the served miners. Every member checks the same entries, so
/// the diligent three fail the cheater every round and Dave's blind pass contradicts a decided
/// result: he is struck every round (his bond burns) and paid for the honest GPU only, half of
/// what a diligent member is paid. Nobody diligent is struck.
#[test]
fn a_member_attesting_without_fetching_earns_less_and_is_struck() {
	new_test_ext().execute_with(|| {
		let [honest, cheater] = super::served::four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		let free = |who: AccountId| Balances::free_balance(who);
		let (alice_before, dave_before, dave_bond) = (free(alice), free(dave), PogValidators::bond_of(&dave));
		const ROUNDS: u32 = 20;
		for _ in 0..ROUNDS {
			next_round();
			let results = [answer(honest, Compute::Honest), answer(cheater, Compute::LowerPrecision)];
			run_until(RoundPhase::Reveal);
			for (miner, result) in [honest, cheater].into_iter().zip(&results) {
				let served = openings_for(miner, 0, &result[0]);
				for v in [alice, bob, charlie] {
					assert_ok!(served_verdict_by(v, miner, 0, &served));
				}
			}
			assert_ok!(attest(dave, (u8::MAX, [0xff; 32]), vec![], vec![]));
			run_until(RoundPhase::Idle);
			assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
			assert_eq!(settled(cheater), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		}
		let (lazy, diligent) = (ValidatorStats::<Test>::get(dave), ValidatorStats::<Test>::get(alice));
		assert_eq!((lazy.agreed, lazy.contradicted), (ROUNDS, ROUNDS), "{lazy:?}");
		assert_eq!((diligent.agreed, diligent.contradicted), (2 * ROUNDS, 0), "{diligent:?}");
		let (lazy_pay, diligent_pay) = (free(dave) - dave_before, free(alice) - alice_before);
		assert!(lazy_pay > 0 && 2 * lazy_pay <= diligent_pay, "lazy {lazy_pay}, diligent {diligent_pay}");
		assert!(PogValidators::bond_of(&dave) < dave_bond / 2, "his bond burned round after round");
		assert_eq!(ValidatorBonds::<Test>::get(dave).unwrap().strikes, ROUNDS);
		for v in [alice, bob, charlie] {
			assert_eq!(PogValidators::bond_of(&v), dave_bond, "a diligent member is never struck");
		}
		try_state();
	});
}

/// A rebuttal that lands before an attestation signed earlier leaves out only what it answered:
/// the unserved vote on the rebutted GPU (its member votes on the revealed openings), and an
/// open GPU rebutted since is inert; the rest of the attestation lands, and so does the rest of
/// a `submit_verdicts`. Before, the whole list was refused, and a miner timing its rebuttals held
/// a member's votes past the unserved deadline (the third review of the quota). A list that moves
/// nothing once the stale vote is left out is still refused (nothing lands for free), and so is a
/// stale vote once its member voted on the revealed openings.
#[test]
fn a_rebuttal_landing_first_leaves_out_of_an_attestation_only_the_vote_it_answered() {
	new_test_ext().execute_with(|| {
		let (_, order, results) = served_round(1, [Compute::Honest, Compute::Honest]);
		let (rebutting, other) = (account("Miner1"), account("Miner2"));
		let [alice, bob, charlie] = ["Alice", "Bob", "Charlie"].map(account);
		let last = order.last().unwrap().0;
		past_the_reveal_deadline();
		assert_ok!(unserved_by(alice, rebutting, 0));
		let stale = Verdict::unserved(SelfReported { entries_checked: 0, worst_permille: 0, walks_checked: 0 });
		let index = Pog::round().index;
		let pass =
			offchain::verify_openings::<Test>(index, &other, 0, &openings_for(other, 0, &results[1][0]), &[], &[3; 32])
				.unwrap()
				.0;
		// Bob and Charlie sign their attestations and verdicts now; the miner's rebuttal lands first
		assert_ok!(reveal(rebutting, 0, &results[0][0]));
		assert_ok!(attest(bob, last, vec![], vec![(rebutting, 0, stale)]));
		let single = |list: Vec<(AccountId, GpuIndex, Verdict)>| {
			let verdicts: VerdictsOf<Test> = list.try_into().unwrap();
			let call = crate::Call::submit_verdicts { round: index, verdicts: verdicts.clone() };
			let pool = check_duty(charlie, call);
			let landed =
				Pog::submit_verdicts(RuntimeOrigin::signed(charlie), index, verdicts).map(|_| ()).map_err(|e| e.error);
			assert_eq!(pool.is_ok(), landed.is_ok(), "the pool takes what lands: {pool:?} {landed:?}");
			landed
		};
		assert_eq!(
			single(vec![(rebutting, 0, stale)]),
			Err(Error::<Test>::NoVerdicts.into()),
			"nothing left: nothing lands"
		);
		assert_ok!(single(vec![(rebutting, 0, stale), (other, 0, pass)]));
		assert_ok!(attest(charlie, last, vec![(rebutting, 0)], vec![]));
		assert_eq!(
			attest(bob, last, vec![], vec![(rebutting, 0, stale)]),
			Err(Error::<Test>::AttestationBehind.into()),
			"nothing but the stale vote: nothing moves"
		);
		let v = Verifications::<Test>::get((index, rebutting, 0)).unwrap();
		assert!(v.votes.is_empty(), "the stale votes left out, Alice's voided: {v:?}");
		assert_ok!(attest(alice, last, vec![], vec![]));
		for (i, v) in [alice, bob, charlie].into_iter().enumerate() {
			assert_ok!(verdict_by(v, rebutting, 0, i as u8));
		}
		// once its member voted, a stale vote is not left out: it is refused
		assert_eq!(attest(bob, last, vec![], vec![(rebutting, 0, stale)]), Err(Error::<Test>::AlreadyVoted.into()));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(rebutting), vec![RoundOutcome::Passed]);
		assert_eq!(settled(other), vec![RoundOutcome::Passed]);
		try_state();
	});
}
