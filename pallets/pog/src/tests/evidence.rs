//! Evidence of a fetch ([`crate::evidence`]): a member that votes on served GPUs without fetching
//! them is caught by the audits and earns less; a member that fetched opens its evidence, and its
//! worker does so by itself.

use super::{
	attestation::attest_with,
	served::{alice_fetches, four_members_and_two_serving_miners, serve, served_verdict_by},
	*,
};
use crate::{
	attestation::Position,
	evidence::{EvidenceOpening, EvidenceRoot, LeafPath},
};
use pog_primitives::{
	commitment::leaf_hash,
	evidence::{evidence_leaf, evidence_path},
};
use sp_runtime::traits::Dispatchable;

/// Every decided served GPU is audited.
fn audit_everything() {
	EvidenceAudits::set(&64);
}

/// `who`'s evidence tree over `gpus` (each a miner's GPU 0 and its result) in round `round`, in
/// that order.
fn evidence_of(who: AccountId, round: RoundIndex, gpus: &[(AccountId, &CommittedMatrix)]) -> Vec<Hash32> {
	let selection = Pog::round().selection.unwrap();
	gpus.iter()
		.map(|(miner, result)| {
			let c = Commitments::<Test>::get(round, miner).unwrap()[0].clone().unwrap();
			let leaf = Pog::leaves_for(&selection, &c)[0];
			let (values, _) = result.open(leaf).unwrap();
			evidence_leaf(round, &who, miner, 0, &leaf_hash(values))
		})
		.collect()
}

/// `who` opens its evidence on `miner`'s audited GPU 0 of `round`, the `at`-th leaf of its tree
/// `leaves`, from the miner's `result`; checked by the pool first, which must agree.
fn open_evidence(
	who: AccountId,
	round: RoundIndex,
	miner: AccountId,
	result: &CommittedMatrix,
	leaves: &[Hash32],
	at: u32,
) -> DispatchResultOf {
	let leaf = Audits::<Test>::get((round, miner, 0)).map_or(0, |a| a.leaf);
	let (values, proof) = result.open(leaf).unwrap();
	let opening = EvidenceOpening {
		leaf_hash: leaf_hash(values),
		leaf_path: LeafPath::truncate_from(proof),
		at,
		path: evidence_path(leaves, at).try_into().unwrap(),
	};
	let call = crate::Call::open_evidence { round, miner, gpu: 0, opening };
	let pool = check_duty(who, call.clone());
	let dispatched = RuntimeCall::Pog(call).dispatch(RuntimeOrigin::signed(who)).map(|_| ()).map_err(|e| e.error);
	match dispatched {
		Ok(()) => assert!(pool.is_ok(), "the pool refused what dispatch took: {pool:?}"),
		Err(DispatchError::Module(ref m)) => assert_eq!(
			pool,
			Err(sp_runtime::transaction_validity::InvalidTransaction::Custom(m.error[0]).into()),
			"the pool refuses what dispatch refuses"
		),
		Err(e) => panic!("{e:?}"),
	}
	dispatched
}

/// The last position of `gpus` (each a miner's GPU 0) in round `round`'s verification order.
fn last_position(round: RoundIndex, miners: &[AccountId]) -> Position {
	let seed = Pog::round().selection.unwrap().seed;
	miners.iter().map(|m| Pog::verification_position(round, &seed, m, 0)).max().unwrap()
}

/// Four members, one honest miner and one cheater serving; every decided GPU is audited. Alice,
/// Bob and Charlie fetch, fail the cheater and pass the honest GPU in their attestations, each
/// with its evidence root, and open their evidence in the next round. Dave fetches nothing: he
/// copies the failing verdict on chain and passes the rest, with a made-up root. He agrees with
/// every outcome, as before, but cannot open a single piece of evidence: each round's audits cost
/// him a strike at the next settlement, and he ends with less than a diligent member. Nobody
/// diligent is struck.
#[test]
fn a_member_copying_votes_without_fetching_is_caught_by_the_audits_and_earns_less() {
	new_test_ext().execute_with(|| {
		audit_everything();
		let [honest, cheater] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		let free = |who: AccountId| Balances::free_balance(who);
		let (alice_before, dave_before, bond) = (free(alice), free(dave), PogValidators::bond_of(&dave));
		const ROUNDS: u32 = 5;
		// the last round's results and each diligent member's evidence tree
		let mut last: Option<(RoundIndex, Vec<CommittedMatrix>, Vec<Vec<Hash32>>)> = None;
		for _ in 0..ROUNDS {
			let r = next_round();
			if let Some((before, results, trees)) = last.take() {
				for ((v, leaves), at) in [alice, bob, charlie].into_iter().zip(&trees).flat_map(|x| [(x, 0), (x, 1)]) {
					let miner = [honest, cheater][at as usize];
					assert_ok!(open_evidence(v, before, miner, &results[at as usize], leaves, at));
				}
				let made_up = vec![[9; 32], [8; 32]];
				assert_eq!(
					open_evidence(dave, before, honest, &results[0], &made_up, 0),
					Err(Error::<Test>::WrongEvidence.into()),
					"Dave fetched nothing: no opening leads to his root"
				);
				assert_eq!(
					open_evidence(alice, before, honest, &results[0], &trees[0], 0),
					Err(Error::<Test>::NotAudited.into()),
					"an opening is owed once"
				);
			}
			let results =
				vec![answer(honest, Compute::Honest).remove(0), answer(cheater, Compute::LowerPrecision).remove(0)];
			run_until(RoundPhase::Reveal);
			let upto = last_position(r, &[honest, cheater]);
			let served = openings_for(cheater, 0, &results[1]);
			let (failing, ..) = offchain::verify_openings::<Test>(r, &cheater, 0, &served, &[], &[7; 32]).unwrap();
			assert!(!failing.passed && failing.failed_leaf.is_some());
			let mut trees = Vec::new();
			for v in [alice, bob, charlie] {
				let leaves = evidence_of(v, r, &[(honest, &results[0]), (cheater, &results[1])]);
				assert_ok!(attest_with(v, upto, vec![], vec![(cheater, 0, failing)], EvidenceRoot::of(&leaves)));
				trees.push(leaves);
			}
			// Dave copies the failing vote already on chain and passes the rest, unfetched
			let copied = Verifications::<Test>::get((r, cheater, 0)).unwrap().votes[0].1;
			let made_up = EvidenceRoot { root: [9; 32], leaves: 2 };
			assert_ok!(attest_with(dave, upto, vec![], vec![(cheater, 0, copied)], made_up));
			run_until(RoundPhase::Idle);
			assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
			assert_eq!(settled(cheater), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
			for miner in [honest, cheater] {
				let audit = Audits::<Test>::get((r, miner, 0)).expect("every decided served GPU is audited here");
				assert_eq!(audit.owing.len(), 4, "every member voted on the result");
			}
			last = Some((r, results, trees));
		}
		let (lazy, diligent) = (ValidatorStats::<Test>::get(dave), ValidatorStats::<Test>::get(alice));
		assert_eq!((lazy.agreed, lazy.contradicted), (2 * ROUNDS, 0), "copying agrees with every outcome: {lazy:?}");
		assert_eq!((diligent.agreed, diligent.contradicted), (2 * ROUNDS, 0), "{diligent:?}");
		assert_eq!(ValidatorBonds::<Test>::get(dave).unwrap().strikes, ROUNDS - 1, "a strike for each closed audit");
		assert!(PogValidators::bond_of(&dave) < bond, "his bond burned");
		for v in [alice, bob, charlie] {
			assert_eq!(PogValidators::bond_of(&v), bond, "a diligent member is never struck");
			assert_eq!(ValidatorBonds::<Test>::get(v).unwrap().strikes, 0);
		}
		let burned = bond - PogValidators::bond_of(&dave);
		let (lazy_pay, diligent_pay) = (free(dave) - dave_before, free(alice) - alice_before);
		assert!(
			lazy_pay.saturating_sub(burned) < diligent_pay,
			"the copier ends with less: paid {lazy_pay}, burned {burned}; diligent paid {diligent_pay}"
		);
		try_state();
	});
}

/// An opening is taken only from a member that owes it, with a leaf hash that leads to the
/// miner's root at the audited leaf and a leaf that leads to the member's own root at its place;
/// the pool refuses exactly what dispatch refuses. An audit still owed when the next round is
/// settled is a strike for whoever owes it, and only for them.
#[test]
fn an_opening_must_lead_to_both_roots_and_a_missing_one_is_a_strike() {
	new_test_ext().execute_with(|| {
		audit_everything();
		let [honest, other] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		let r = next_round();
		let results = [answer(honest, Compute::Honest).remove(0), answer(other, Compute::Honest).remove(0)];
		run_until(RoundPhase::Reveal);
		let upto = last_position(r, &[honest, other]);
		let mut trees = Vec::new();
		for v in [alice, bob, charlie, dave] {
			let leaves = evidence_of(v, r, &[(honest, &results[0]), (other, &results[1])]);
			assert_ok!(attest_with(v, upto, vec![], vec![], EvidenceRoot::of(&leaves)));
			trees.push(leaves);
		}
		run_until(RoundPhase::Idle);
		next_round();
		let wrong = |e: DispatchResultOf| assert_eq!(e, Err(Error::<Test>::WrongEvidence.into()));
		wrong(open_evidence(alice, r, honest, &results[1], &trees[0], 0)); // another GPU's leaf
		wrong(open_evidence(alice, r, honest, &results[0], &trees[0], 1)); // at the wrong place
		wrong(open_evidence(alice, r, honest, &results[0], &trees[1], 0)); // Bob's tree, not hers
		assert_eq!(
			open_evidence(account("Miner1"), r, honest, &results[0], &trees[0], 0),
			Err(Error::<Test>::NotAudited.into()),
			"a stranger owes nothing"
		);
		assert_eq!(
			open_evidence(alice, r - 1, honest, &results[0], &trees[0], 0),
			Err(Error::<Test>::NotAudited.into()),
			"no audit"
		);
		// everyone opens both but Charlie, who opens one
		for (v, leaves) in [alice, bob, dave].into_iter().zip([&trees[0], &trees[1], &trees[3]]) {
			for at in 0..2 {
				assert_ok!(open_evidence(v, r, [honest, other][at as usize], &results[at as usize], leaves, at));
			}
		}
		assert_ok!(open_evidence(charlie, r, honest, &results[0], &trees[2], 0));
		assert!(!Audits::<Test>::contains_key((r, honest, 0)), "an audit everyone answered is closed");
		assert_eq!(Audits::<Test>::get((r, other, 0)).unwrap().owing.to_vec(), vec![(charlie, charlie)]);
		run_until(RoundPhase::Idle);
		assert!(!Audits::<Test>::contains_key((r, other, 0)) && AuditCount::<Test>::get(r) == 0, "closed");
		assert_eq!(ValidatorBonds::<Test>::get(charlie).unwrap().strikes, 1, "Charlie owed one opening");
		for v in [alice, bob, dave] {
			assert_eq!(ValidatorBonds::<Test>::get(v).unwrap().strikes, 0, "{v:?}");
		}
		try_state();
	});
}

/// Every decided served GPU audited; Miner1 serves one honest GPU in a new round, and Alice's
/// worker fetches it and attests. Returns the miner, the round, its result, its openings and what
/// her worker sent.
fn alice_attests_one_served_gpu(
	offchain: &std::sync::Arc<parking_lot::RwLock<sp_core::offchain::testing::OffchainState>>,
	pool: &std::sync::Arc<parking_lot::RwLock<sp_core::offchain::testing::PoolState>>,
) -> (AccountId, RoundIndex, CommittedMatrix, OpeningsOf<Test>, Vec<Included>) {
	audit_everything();
	let m = account("Miner1");
	register_cpu_miner(m, &[uuid(1)]);
	serve(m);
	let r = next_round();
	let result = answer(m, Compute::Honest).remove(0);
	run_until(RoundPhase::Reveal);
	let served = openings_for(m, 0, &result);
	alice_fetches(offchain, r, (served.clone(), WalkOpeningsOf::default()).encode());
	let sent = run_ocw_and_include(pool);
	(m, r, result, served, sent)
}

/// The worker keeps what it fetched: Alice's worker fetches a served GPU, passes it in an
/// attestation that carries her evidence root, and when the GPU is audited opens her evidence by
/// itself in the next round; the members that voted one by one without an evidence root cannot,
/// and are struck at the next settlement.
#[test]
fn a_members_worker_keeps_its_evidence_and_opens_it_when_audited() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		let (m, r, result, served, sent) = alice_attests_one_served_gpu(&offchain, &pool);
		let expected = EvidenceRoot::of(&evidence_of(account("Alice"), r, &[(m, &result)]));
		assert!(
			matches!(&sent[..], [(_, RuntimeCall::Pog(crate::Call::attest { evidence, .. }), Ok(_))] if *evidence == expected),
			"her attestation carries the root over what she fetched: {sent:?}"
		);
		for member in ["Bob", "Charlie"] {
			assert_ok!(served_verdict_by(account(member), m, 0, &served));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		assert_eq!(Audits::<Test>::get((r, m, 0)).unwrap().owing.len(), 3);
		next_round();
		let sent = run_ocw_and_include(&pool);
		assert!(
			matches!(&sent[..], [(who, RuntimeCall::Pog(crate::Call::open_evidence { .. }), Ok(_))] if *who == account("Alice")),
			"her worker opens her evidence: {sent:?}"
		);
		assert!(run_ocw_and_include(&pool).is_empty(), "once");
		run_until(RoundPhase::Idle);
		assert_eq!(ValidatorBonds::<Test>::get(account("Alice")).unwrap().strikes, 0);
		for member in ["Bob", "Charlie"] {
			assert_eq!(ValidatorBonds::<Test>::get(account(member)).unwrap().strikes, 1, "{member} kept nothing");
		}
		try_state();
	});
}

/// Round `r`: the four members attest Miner1's and Miner2's GPUs (honest results), Alice, Bob
/// and Charlie with their evidence, Dave with a made-up root; the round is settled and both GPUs
/// audited. Returns the results and the diligent members' trees.
fn dave_attests_unfetched(r: RoundIndex, miners: [AccountId; 2]) -> (Vec<CommittedMatrix>, Vec<Vec<Hash32>>) {
	let (results, trees) = dave_attests_unfetched_as(r, miners, account("Dave"));
	for m in miners {
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		assert_eq!(Audits::<Test>::get((r, m, 0)).unwrap().owing.len(), 4);
	}
	(results, trees)
}

/// The diligent three open their evidence of round `r`.
fn diligent_open(r: RoundIndex, miners: [AccountId; 2], results: &[CommittedMatrix], trees: &[Vec<Hash32>]) {
	for (v, leaves) in ["Alice", "Bob", "Charlie"].map(account).into_iter().zip(trees) {
		for at in 0..2u32 {
			assert_ok!(open_evidence(v, r, miners[at as usize], &results[at as usize], leaves, at));
		}
	}
}

/// Leaving the set does not escape an audit: Dave, who passed two served GPUs unfetched, is
/// removed right after the round is settled (with its audits open). His bond is not released at
/// once, as a leaving validator's is between rounds: it waits for his audits, which cost him a
/// strike, 10% of it, when the next round is settled. Rotating the `pog!` key does not escape
/// either, whether the key that voted is rotated away before its audits close or the votes are
/// the new key's: the audit names the validator, not only the key that voted.
#[test]
fn leaving_the_set_or_rotating_the_key_does_not_escape_an_audit() {
	new_test_ext().execute_with(|| {
		audit_everything();
		let miners = four_members_and_two_serving_miners();
		let dave = account("Dave");
		let bond = PogValidators::bond_of(&dave);
		// rotating: Dave's votes of the next round are signed by another key
		let r = next_round();
		let (results, trees) = dave_attests_unfetched(r, miners);
		let seated: Vec<AccountId> = Seated::<Test>::get().iter().map(|(v, _)| *v).collect();
		let keys: Vec<(AccountId, crate::crypto::Public)> = seated
			.iter()
			.map(|v| (*v, crate::crypto::Public::from(if *v == dave { account("Dave2") } else { *v })))
			.collect();
		let iter = || keys.iter().map(|(v, k)| (v, k.clone()));
		<PogValidators as frame_support::traits::OneSessionHandler<AccountId>>::on_new_session(true, iter(), iter());
		assert!(Validators::<Test>::get().contains(&account("Dave2")), "Dave now votes as Dave2");
		// his next votes are Dave2's, unfetched too
		let r = next_round();
		diligent_open(r - 1, miners, &results, &trees);
		let (results, trees) = dave_attests_unfetched_as(r, miners, account("Dave2"));
		assert_eq!(ValidatorBonds::<Test>::get(dave).unwrap().strikes, 1, "struck for his old key's audits");
		let once = PogValidators::bond_of(&dave);
		assert_eq!(once, bond - bond / 10);
		// Dave2's audits close after the key is gone again: still Dave's strike
		change_session();
		assert!(!Validators::<Test>::get().contains(&account("Dave2")), "Dave votes as Dave again");
		let r = next_round();
		diligent_open(r - 1, miners, &results, &trees);
		let (results, trees) = dave_attests_unfetched(r, miners);
		assert_eq!(ValidatorBonds::<Test>::get(dave).unwrap().strikes, 2, "struck for the rotated key's audits");
		let after_rotation = PogValidators::bond_of(&dave);
		assert_eq!(after_rotation, once - once / 10);
		// leaving: removed between rounds, his audits of the round open
		let free = Balances::free_balance(dave);
		assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), dave));
		change_session();
		change_session();
		assert!(!Seated::<Test>::get().iter().any(|(v, _)| *v == dave), "Dave sits no more");
		assert!(ValidatorBonds::<Test>::contains_key(dave), "his bond waits for his audits");
		let r = next_round();
		diligent_open(r - 1, miners, &results, &trees);
		run_until(RoundPhase::Idle);
		assert!(!ValidatorBonds::<Test>::contains_key(dave), "released once his audits are closed");
		assert_eq!(Balances::free_balance(dave), free + after_rotation - after_rotation / 10, "less a strike");
		try_state();
	});
}

/// [`dave_attests_unfetched`] with Dave's votes signed by `dave_key`.
fn dave_attests_unfetched_as(
	r: RoundIndex,
	miners: [AccountId; 2],
	dave_key: AccountId,
) -> (Vec<CommittedMatrix>, Vec<Vec<Hash32>>) {
	let results: Vec<CommittedMatrix> = miners.iter().map(|m| answer(*m, Compute::Honest).remove(0)).collect();
	run_until(RoundPhase::Reveal);
	let upto = last_position(r, &miners);
	let mut trees = Vec::new();
	for v in ["Alice", "Bob", "Charlie"].map(account) {
		let leaves = evidence_of(v, r, &[(miners[0], &results[0]), (miners[1], &results[1])]);
		assert_ok!(attest_with(v, upto, vec![], vec![], EvidenceRoot::of(&leaves)));
		trees.push(leaves);
	}
	assert_ok!(attest_with(dave_key, upto, vec![], vec![], EvidenceRoot { root: [9; 32], leaves: 2 }));
	run_until(RoundPhase::Idle);
	(results, trees)
}

/// An upgrade to the runtime that audits, landing in the middle of a round: the votes of that
/// round were cast without evidence (old workers keep none), so its GPUs are not audited and no
/// honest member is struck for them (`migrations::StartEvidence` starts the audits at the next
/// round); the round after is audited.
#[test]
fn an_upgrade_mid_round_audits_only_the_rounds_after_it() {
	use frame_support::traits::OnRuntimeUpgrade;
	new_test_ext().execute_with(|| {
		audit_everything();
		let miners = four_members_and_two_serving_miners();
		let r = next_round();
		// the chain before the upgrade: no start set
		EvidenceSince::<Test>::kill();
		crate::migrations::StartEvidence::<Test>::on_runtime_upgrade();
		assert_eq!(EvidenceSince::<Test>::get(), Some(r + 1));
		for m in miners {
			answer(m, Compute::Honest);
		}
		run_until(RoundPhase::Reveal);
		let upto = last_position(r, &miners);
		for v in ["Alice", "Bob", "Charlie", "Dave"].map(account) {
			// as an old worker would: no evidence of its fetch
			assert_ok!(attest_with(v, upto, vec![], vec![], EvidenceRoot::default()));
		}
		run_until(RoundPhase::Idle);
		assert!(miners.iter().all(|m| settled(*m) == vec![RoundOutcome::Passed]));
		assert_eq!(AuditCount::<Test>::get(r), 0, "the round of the upgrade is not audited");
		let r = next_round();
		dave_attests_unfetched(r, miners);
		next_round();
		run_until(RoundPhase::Idle);
		for v in ["Alice", "Bob", "Charlie"].map(account) {
			assert_eq!(ValidatorBonds::<Test>::get(v).unwrap().strikes, 1, "the next round is audited: nobody opened");
		}
		crate::migrations::StartEvidence::<Test>::on_runtime_upgrade();
		assert_eq!(EvidenceSince::<Test>::get(), Some(r), "a second upgrade changes nothing");
		try_state();
	});
}

/// A worker that lost its evidence mid-round (local storage wiped, or the key moved to another
/// node) fetches again what it voted on, and its next attestation's root covers it again: when
/// audited, it opens.
#[test]
fn a_worker_that_lost_its_evidence_fetches_it_again() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		let (m, r, result, openings, sent) = alice_attests_one_served_gpu(&offchain, &pool);
		assert_eq!(sent.len(), 1, "her attestation");
		let served = (openings.clone(), WalkOpeningsOf::default()).encode();
		let expected = EvidenceRoot::of(&evidence_of(account("Alice"), r, &[(m, &result)]));
		assert_eq!(EvidenceRoots::<Test>::get(r, account("Alice")), Some(expected));
		// her node loses its local storage
		let key = (offchain::EVIDENCE_KEY, account("Alice"), r).encode();
		sp_io::offchain::local_storage_clear(sp_core::offchain::StorageKind::PERSISTENT, &key);
		next_block();
		alice_fetches(&offchain, r, served);
		// fetched again, in the same order: the root on chain covers it as it did, nothing to send
		assert!(run_ocw_and_include(&pool).is_empty());
		for member in ["Bob", "Charlie"] {
			assert_ok!(served_verdict_by(account(member), m, 0, &openings));
		}
		run_until(RoundPhase::Idle);
		next_round();
		let sent = run_ocw_and_include(&pool);
		assert!(matches!(&sent[..], [(_, RuntimeCall::Pog(crate::Call::open_evidence { .. }), Ok(_))]), "{sent:?}");
		try_state();
	});
}
