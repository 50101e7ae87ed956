//! Openings served off chain ([`crate::served`]): committees fetch them from the miner's
//! endpoint, non-delivery is a negative vote, and served GPUs take no reveal bytes.

use super::*;
use crate::{
	offchain,
	scoring::{DRAW, REVERIFY_DRAWS},
	served::{unserved_quota, unserved_to_fail},
};
use sp_core::offchain::testing::PendingRequest;

pub(super) const ENDPOINT: &[u8] = b"http://miner1.example:9955/pog";

pub(super) fn endpoint(url: &[u8]) -> crate::served::Endpoint {
	url.to_vec().try_into().unwrap()
}

pub(super) fn serve(who: AccountId) {
	assert_ok!(Pog::set_openings_endpoint(RuntimeOrigin::signed(who), Some(endpoint(ENDPOINT))));
}

/// `validator`'s verdict on `who`'s served GPU `gpu` from the openings it was served, recomputed
/// as the off-chain worker does.
pub(super) fn served_verdict_by(
	validator: AccountId,
	who: AccountId,
	gpu: GpuIndex,
	served: &OpeningsOf<Test>,
) -> DispatchResultOf {
	let index = Pog::round().index;
	let (v, ..) = offchain::verify_openings::<Test>(index, &who, gpu, served, &[], &[7; 32]).expect("committed");
	Pog::submit_verdict(RuntimeOrigin::signed(validator), index, who, gpu, v).map(|_| ()).map_err(|e| e.error)
}

pub(super) fn unserved_by(validator: AccountId, who: AccountId, gpu: GpuIndex) -> DispatchResultOf {
	let v = Verdict::unserved(SelfReported { entries_checked: 0, worst_permille: 0, walks_checked: 0 });
	Pog::submit_verdict(RuntimeOrigin::signed(validator), Pog::round().index, who, gpu, v)
		.map(|_| ())
		.map_err(|e| e.error)
}

/// Alice's off-chain worker's next request for GPU 0 of a miner serving at [`ENDPOINT`] in round
/// `r`, answered with `body`.
pub(super) fn alice_fetches(
	offchain: &std::sync::Arc<parking_lot::RwLock<sp_core::offchain::testing::OffchainState>>,
	r: RoundIndex,
	body: Vec<u8>,
) {
	alice_fetches_gpu(offchain, r, 0, body)
}

/// [`alice_fetches`] for GPU `gpu`.
pub(super) fn alice_fetches_gpu(
	offchain: &std::sync::Arc<parking_lot::RwLock<sp_core::offchain::testing::OffchainState>>,
	r: RoundIndex,
	gpu: GpuIndex,
	body: Vec<u8>,
) {
	offchain.write().expect_request(PendingRequest {
		method: "GET".into(),
		uri: format!("http://miner1.example:9955/pog/openings/{r}/{gpu}"),
		headers: vec![(
			offchain::VALIDATOR_HEADER.into(),
			account("Alice").encode().iter().map(|b| format!("{b:02x}")).collect(),
		)],
		response: Some(body),
		sent: true,
		..Default::default()
	});
}

/// Dave joins the validators and committees take all four (quorum 3); Miner1 and Miner2
/// register one CPU GPU each and serve their openings.
pub(super) fn four_members_and_two_serving_miners() -> [AccountId; 2] {
	assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), account("Dave")));
	change_session();
	assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 4, ..test_config() }));
	let miners = [account("Miner1"), account("Miner2")];
	for (i, m) in miners.into_iter().enumerate() {
		register_cpu_miner(m, &[uuid(i as u8 + 1)]);
		serve(m);
	}
	miners
}

pub(super) fn past_the_reveal_deadline() {
	let deadline = Pog::round().selection.unwrap().reveal_deadline;
	while System::block_number() <= deadline {
		next_block();
	}
}

#[test]
fn an_endpoint_is_an_http_url_that_a_registered_miner_sets() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let set = |url: &[u8]| Pog::set_openings_endpoint(RuntimeOrigin::signed(m), Some(endpoint(url)));
		assert_noop!(set(ENDPOINT), Error::<Test>::NotRegistered);
		register_cpu_miner(m, &[uuid(1)]);
		for bad in [
			&b"ftp://miner.example"[..],
			b"http://",
			b"https:///path",
			b"http://miner .example",
			b"miner.example",
			b"http://10.0.0.1/?",
		] {
			assert_noop!(set(bad), Error::<Test>::InvalidEndpoint);
		}
		// The review's F12: a public chain's members fetch from public hosts only.
		for private in
			[&b"http://127.0.0.1:9955"[..], b"http://169.254.169.254/latest", b"http://10.0.0.1", b"http://localhost"]
		{
			assert_noop!(set(private), Error::<Test>::PrivateEndpoint);
		}
		LocalEndpoints::<Test>::put(true);
		// a dev chain allows local endpoints
		assert_ok!(set(b"http://127.0.0.1:9955"));
		LocalEndpoints::<Test>::put(false);
		assert_ok!(set(ENDPOINT));
		assert_eq!(OpeningsEndpoints::<Test>::get(m).unwrap().to_vec(), ENDPOINT.to_vec());
		assert_ok!(Pog::set_openings_endpoint(RuntimeOrigin::signed(m), None));
		assert!(!OpeningsEndpoints::<Test>::contains_key(m));
	});
}

/// The endpoint a miner has at its first commit of a round holds for the round: one set between
/// its commits serves from the next round on, and this round's GPUs are all revealed on chain
/// (before, the later commits' GPUs were served while the first ones' counted as revealed).
#[test]
fn an_endpoint_set_between_commits_serves_from_the_next_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let r = next_round();
		assert_ok!(commit(m, &[(0, [1; 32])]));
		serve(m);
		assert_ok!(commit(m, &[(1, [2; 32])]));
		assert_eq!(ServedIn::<Test>::get(r, m), None, "the round is revealed on chain");
		assert_eq!(ServedGpus::<Test>::get(r), 0);
		assert!(OpeningsEndpoints::<Test>::contains_key(m), "the endpoint waits for the next round");
	});
}

/// An endpoint stored before a rule that refuses it (private hosts before spec 119; IPv6 literals
/// carrying a private IPv4 address before spec 127) is not fetched from: the round's first root
/// does not copy it into the round, so the miner reveals on chain as one without an endpoint.
#[test]
fn an_endpoint_the_rules_now_refuse_is_not_fetched_from() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		OpeningsEndpoints::<Test>::insert(m, endpoint(b"http://[64:ff9b::a00:1]:9955/pog"));
		let r = next_round();
		let results = answer(m, Compute::Honest);
		assert_eq!(ServedIn::<Test>::get(r, m), None, "not served from a NAT64 address of 10.0.0.1");
		assert_eq!(ServedGpus::<Test>::get(r), 0);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &results[0]));
	});
}

/// The whole path of a served GPU: the endpoint is copied into the round at the miner's first
/// commit, a reveal on chain is refused, the validator's off-chain worker fetches the openings
/// over HTTP (its account in the request), checks them against the root and votes, and the GPU
/// passes on its committee's verdicts.
#[test]
fn a_served_gpu_is_verified_from_its_endpoint_and_passes() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		serve(m);
		let r = next_round();
		let results = answer(m, Compute::Honest);
		assert_eq!(Pog::served_in(r, &m).unwrap().to_vec(), ENDPOINT.to_vec());
		assert_eq!(ServedGpus::<Test>::get(r), 1);
		run_until(RoundPhase::Reveal);
		assert_eq!(reveal(m, 0, &results[0]), Err(Error::<Test>::ServedOffChain.into()));
		let served = openings_for(m, 0, &results[0]);
		alice_fetches(&offchain, r, (served.clone(), WalkOpeningsOf::default()).encode());
		let sent = run_ocw_and_include(&pool);
		assert!(
			matches!(&sent[..], [(who, RuntimeCall::Pog(crate::Call::attest { open, verdicts, .. }), Ok(_))]
				if *who == account("Alice") && open.is_empty() && verdicts.is_empty()),
			"Alice fetched, checked and passed it in her attestation: {sent:?}"
		);
		assert!(!Verifications::<Test>::contains_key((r, m, 0)), "no verdict of its own on chain");
		let selection = Pog::round().selection.unwrap();
		let v = Pog::tally(r, &selection, &m, 0).expect("Alice's attestation is her vote");
		assert!(v.votes.iter().all(|(who, x)| *who == account("Alice") && x.passed), "{v:?}");
		// the other members vote one by one: passes in bulk and single verdicts count alike
		for member in ["Bob", "Charlie"] {
			assert_ok!(served_verdict_by(account(member), m, 0, &served));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		let kept = Verifications::<Test>::get((r, m, 0)).expect("the tally is kept at settlement");
		assert_eq!(kept.votes.len(), 3, "{kept:?}");
		assert_eq!(kept.votes.iter().find(|(x, _)| *x == account("Alice")).map(|(_, v)| *v), Some(Verdict::attested()));
		try_state();
	});
}

/// Four validators, committees of all four (quorum 3). Miner1 serves Alice and Bob only: the two
/// others vote unserved once the reveal window has closed, and the GPU fails (`MissedReveal`),
/// not undecided. Miner2 serves everyone and Dave lies that it did not: three passing verdicts
/// pass it, and Dave's claim is not counted against him as a contradiction either.
#[test]
fn serving_fewer_than_a_quorum_fails_and_one_member_alone_cannot_fail_a_served_gpu() {
	new_test_ext().execute_with(|| {
		let [partial, honest] = four_members_and_two_serving_miners();
		let dave = account("Dave");
		assert_eq!(unserved_to_fail(4), 2, "more than the one liar four members tolerate");
		next_round();
		let results = [answer(partial, Compute::Honest), answer(honest, Compute::Honest)];
		run_until(RoundPhase::Reveal);
		let served = [openings_for(partial, 0, &results[0][0]), openings_for(honest, 0, &results[1][0])];
		let [alice, bob, charlie] = ["Alice", "Bob", "Charlie"].map(account);
		// non-delivery is claimed only once the miner's time to serve is over
		assert_eq!(unserved_by(charlie, partial, 0), Err(Error::<Test>::UnservedTooEarly.into()));
		for v in [alice, bob] {
			assert_ok!(served_verdict_by(v, partial, 0, &served[0]));
		}
		for v in [alice, bob, charlie] {
			assert_ok!(served_verdict_by(v, honest, 0, &served[1]));
		}
		past_the_reveal_deadline();
		for v in [charlie, dave] {
			assert_ok!(unserved_by(v, partial, 0));
		}
		assert_ok!(unserved_by(dave, honest, 0));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(partial), vec![RoundOutcome::Failed(FailReason::MissedReveal)]);
		assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
		let dave_stats = ValidatorStats::<Test>::get(dave);
		assert_eq!(dave_stats.contradicted, 0, "a delivery claim is no vote on the result: {dave_stats:?}");
		assert_eq!(dave_stats.assigned, 2);
		assert_eq!(ValidatorStats::<Test>::get(charlie).agreed, 2, "Charlie agreed on both outcomes");
		try_state();
	});
}

/// Alice's worker is served nothing valid (the miner's endpoint answers her with garbage) and
/// votes unserved once the reveal window closed, which with a committee of three would fail the
/// GPU at settlement although Bob and Charlie passed it. The miner rebuts: it reveals the GPU on
/// chain, which voids Alice's vote, and her worker verifies the revealed openings at its next
/// run (no request to the endpoint) and passes it. Unserved votes are refused from then on.
#[test]
fn a_rebuttal_on_chain_voids_unserved_votes_and_the_member_verifies_it() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		serve(m);
		let r = next_round();
		let results = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		let served = openings_for(m, 0, &results[0]);
		for member in ["Bob", "Charlie"] {
			assert_ok!(served_verdict_by(account(member), m, 0, &served));
		}
		past_the_reveal_deadline();
		// a first failure leaves the GPU open; the second is a vote
		alice_fetches(&offchain, r, b"not the openings".to_vec());
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		assert!(Verifications::<Test>::get((r, m, 0)).is_none_or(|v| !v.votes.iter().any(|(_, x)| x.is_unserved())));
		alice_fetches(&offchain, r, b"still not the openings".to_vec());
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let v = Verifications::<Test>::get((r, m, 0)).unwrap();
		assert!(v.votes.iter().any(|(who, x)| *who == account("Alice") && x.is_unserved()), "{v:?}");
		assert_eq!(unserved_to_fail(3), 1, "with three members, one unserved vote fails an undecided GPU");

		assert_ok!(reveal(m, 0, &results[0]));
		System::assert_has_event(Event::UnservedVoided { round: r, miner: m, gpu: 0, votes: 1 }.into());
		assert_eq!(reveal(m, 0, &results[0]), Err(Error::<Test>::AlreadyRevealed.into()));
		assert_eq!(unserved_by(account("Bob"), m, 0), Err(Error::<Test>::AlreadyVoted.into()));
		let sent = run_ocw_and_include(&pool);
		assert_eq!(verdicts_in(&sent), 1, "Alice verified the revealed openings: {sent:?}");
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		assert_eq!(Verifications::<Test>::get((r, m, 0)).unwrap().status, VerificationStatus::Passed);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		assert_eq!(ValidatorStats::<Test>::get(account("Alice")).agreed, 1);
		try_state();
	});
}

/// Four validators, committees of all four (quorum 3): Charlie and Dave collude and vote a GPU
/// served to everyone unserved. After a rebuttal their unserved votes are refused (the openings
/// are on chain); they can only stay silent, and the GPU is not failed. A rebuttal comes only
/// after an unserved vote, by the rebuttal deadline: a second miner's comes one block late.
#[test]
fn colluding_unserved_votes_cannot_fail_a_miner_that_rebuts_in_time() {
	new_test_ext().execute_with(|| {
		let [prompt, late] = four_members_and_two_serving_miners();
		let dave = account("Dave");
		next_round();
		let results = [answer(prompt, Compute::Honest), answer(late, Compute::Honest)];
		run_until(RoundPhase::Reveal);
		let [alice, bob, charlie] = ["Alice", "Bob", "Charlie"].map(account);
		for (i, m) in [prompt, late].into_iter().enumerate() {
			let served = openings_for(m, 0, &results[i][0]);
			for v in [alice, bob] {
				assert_ok!(served_verdict_by(v, m, 0, &served));
			}
		}
		assert_eq!(reveal(prompt, 0, &results[0][0]), Err(Error::<Test>::ServedOffChain.into()), "nothing to rebut");
		past_the_reveal_deadline();
		for m in [prompt, late] {
			for v in [charlie, dave] {
				assert_ok!(unserved_by(v, m, 0));
			}
		}
		let deadline = Pog::round().selection.unwrap().rebuttal_deadline();
		assert!(deadline < Pog::round().selection.unwrap().verdict_deadline, "members keep time to verify");
		assert_ok!(reveal(prompt, 0, &results[0][0]));
		System::assert_has_event(
			Event::UnservedVoided { round: Pog::round().index, miner: prompt, gpu: 0, votes: 2 }.into(),
		);
		assert_eq!(unserved_by(charlie, prompt, 0), Err(Error::<Test>::InconsistentVerdict.into()));
		while System::block_number() <= deadline {
			next_block();
		}
		assert_eq!(reveal(late, 0, &results[1][0]), Err(Error::<Test>::RebuttalWindowClosed.into()));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(prompt), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
		assert_eq!(settled(late), vec![RoundOutcome::Failed(FailReason::MissedReveal)]);
		assert_eq!(ValidatorStats::<Test>::get(dave).silent, 1, "voided, then silent on the rebutted GPU");
		try_state();
	});
}

/// Served openings of a wrong C: the members name a failing leaf and the GPU fails
/// `WrongResult`; a failing verdict must name one of its sampled leaves.
#[test]
fn wrong_openings_served_fail_wrong_result() {
	new_test_ext().execute_with(|| {
		let (cheat, revealing) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(cheat, &[uuid(1)]);
		register_cpu_miner(revealing, &[uuid(2)]);
		serve(cheat);
		next_round();
		let wrong = answer(cheat, Compute::Corrupt(100));
		let honest = answer(revealing, Compute::Honest);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(revealing, 0, &honest[0]));
		let served = openings_for(cheat, 0, &wrong[0]);
		let not_sampled = (0..).find(|l| !served.iter().any(|o| o.leaf == *l)).unwrap();
		assert_eq!(
			Pog::submit_verdict(
				RuntimeOrigin::signed(account("Alice")),
				Pog::round().index,
				cheat,
				0,
				false_verdict(false, Some(not_sampled))
			)
			.map_err(|e| e.error),
			Err(Error::<Test>::InconsistentVerdict.into())
		);
		for v in validators() {
			assert_ok!(served_verdict_by(v, cheat, 0, &served));
			assert_ok!(verdict_by(v, revealing, 0, 7));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(cheat), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		assert_eq!(settled(revealing), vec![RoundOutcome::Passed]);
		try_state();
	});
}

#[test]
fn an_unserved_vote_counts_only_for_a_served_gpu() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		next_round();
		let results = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &results[0]));
		past_the_reveal_deadline();
		assert_eq!(unserved_by(account("Alice"), m, 0), Err(Error::<Test>::InconsistentVerdict.into()));
	});
}

/// Served GPUs take no bytes of the reveal window: with one block to reveal in and 32 openings a
/// GPU (16 reveals of the table's largest kind), 16 served GPUs and 32 revealed on chain, the
/// sample is the validators' 80 (every GPU drawn), where all revealing it would have been 16, and
/// a GPU revealed on chain stays in it with probability 16 / 32.
#[test]
fn served_gpus_take_no_reveal_bytes() {
	new_test_ext().execute_with(|| {
		let config = ProtocolConfig { reveal_window: 1, openings: 32, ..test_config() };
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), config));
		let reveals = Pog::reveal_capacity();
		assert_eq!(reveals, 16, "one block carries 16 reveals of the table's largest kind");
		let miners = register_eight_each(&["Miner1", "Miner2", "Miner3", "Miner4", "Dave", "Eve"]);
		for m in &miners[..2] {
			serve(*m);
		}
		let r = next_round();
		commit_eight_each(&miners);
		assert_eq!(ServedGpus::<Test>::get(r), 16);
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, Pog::verifier_capacity(), "not the {} the window carries", Pog::capacity());
		assert_eq!(Pog::capacity(), 16);
		assert_eq!(s.probability, Perbill::one());
		assert_eq!(RevealShare::<Test>::get(r), Some(Perbill::from_rational(16u32, 32)));
		for m in &miners[..2] {
			assert!((0..8).all(|g| Pog::is_selected(&s, r, m, g)), "every served GPU is verified");
		}
		let on_chain = miners[2..].iter().flat_map(|m| (0..8).filter(|g| Pog::is_selected(&s, r, m, *g))).count();
		assert!((8..=24).contains(&on_chain), "about half of the 32 revealing GPUs stay: {on_chain}");
		try_state();
	});
}

/// GPUs selected whatever the draw (due credits here, or GPUs left undecided) are not drawn: those
/// of miners revealing on chain take their reveals before the share is set, and those served take
/// none. As above (16 reveals, 16 served GPUs, 32 revealed on chain), with the 8 GPUs of one
/// miner due: revealed on chain, the 24 others stay with probability (16 − 8) / 24, so that
/// 8 + 8 reveals are expected (with 16 / 32, 8 + 12 would be, for a window of 16); served, the
/// share is 16 / 32 as without them. Forced GPUs that never commit (here 100 more counted in
/// `ProbationNext`) change neither: every committed GPU is drawn all the same.
#[test]
fn forced_gpus_revealing_on_chain_take_their_reveals_before_the_share() {
	let (on_chain, as_before) = (Perbill::from_rational(8u32, 24), Perbill::from_rational(16u32, 32));
	for (served, absent, share) in [(false, 0, on_chain), (true, 0, as_before), (false, 100, on_chain)] {
		new_test_ext().execute_with(|| {
			let names = ["Miner1", "Miner2", "Miner3", "Miner4", "Dave", "Eve"];
			// the credited miner: on chain as the third, or served beside the first two
			let credited = account(names[if served { 1 } else { 2 }]);
			let (first, _) = names.iter().enumerate().find(|(_, n)| account(n) == credited).unwrap();
			let uuids: Vec<GpuUuid> = (0..8).map(|g| uuid(10 * first as u8 + g)).collect();
			register_cpu_miner(credited, &uuids);
			play_round(&[(credited, Compute::Honest)]);
			assert!(standing(credited).iter().all(|s| s.credited()), "its eight GPUs passed");
			for (i, m) in names.iter().enumerate().filter(|(i, _)| *i != first) {
				let uuids: Vec<GpuUuid> = (0..8).map(|g| uuid(10 * i as u8 + g)).collect();
				register_cpu_miner(account(m), &uuids);
			}
			// two expected draws went by undrawn: each credit is due, counted as a settlement
			// counts it
			Standing::<Test>::mutate(credited, |all| {
				all.iter_mut().for_each(|s| s.expected_draws = REVERIFY_DRAWS * DRAW)
			});
			ProbationNext::<Test>::put(8 + absent);
			let config = ProtocolConfig { reveal_window: 1, openings: 32, ..test_config() };
			assert_ok!(Pog::set_config(RuntimeOrigin::root(), config));
			assert_eq!(Pog::reveal_capacity(), 16);
			let miners: Vec<AccountId> = names.iter().map(|n| account(n)).collect();
			for m in &miners[..2] {
				serve(*m);
			}
			let r = next_round();
			commit_eight_each(&miners);
			assert_eq!(ForcedOnChain::<Test>::get(), if served { 0 } else { 8 });
			run_until(RoundPhase::Reveal);
			let s = Pog::round().selection.unwrap();
			assert_eq!(Pog::round().selection.unwrap().probability, Perbill::one(), "every GPU is drawn");
			assert_eq!(RevealShare::<Test>::get(r), Some(share), "served: {served}, {absent} forced absent");
			assert!((0..8).all(|g| Pog::is_selected(&s, r, &credited, g)), "every due GPU is verified");
			try_state();
		});
	}
}

fn strikes(who: AccountId) -> u32 {
	ValidatorBonds::<Test>::get(who).map(|b| b.strikes).unwrap_or_default()
}

/// The review's F1: a miner serves its GPU to Alice and Bob only (2 of 4, fewer than the quorum
/// of 3) and never rebuts, three rounds running. The GPU fails `MissedReveal` every round, and
/// Alice and Bob, who passed what they were served, are neither contradicted, struck nor
/// expelled: a delivery dispute is never a result dispute.
#[test]
fn a_miner_serving_some_members_only_cannot_get_the_served_ones_struck() {
	new_test_ext().execute_with(|| {
		let [partial, _] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		for _ in 0..3 {
			next_round();
			let results = answer(partial, Compute::Honest);
			run_until(RoundPhase::Reveal);
			let served = openings_for(partial, 0, &results[0]);
			for v in [alice, bob] {
				assert_ok!(served_verdict_by(v, partial, 0, &served));
			}
			past_the_reveal_deadline();
			for v in [charlie, dave] {
				assert_ok!(unserved_by(v, partial, 0));
			}
			run_until(RoundPhase::Idle);
			assert_eq!(settled(partial), vec![RoundOutcome::Failed(FailReason::MissedReveal)]);
		}
		for v in [alice, bob] {
			let stats = ValidatorStats::<Test>::get(v);
			assert_eq!((stats.assigned, stats.contradicted, stats.agreed), (3, 0, 0), "{stats:?}");
			assert_eq!(strikes(v), 0);
		}
		assert_eq!(ValidatorStats::<Test>::get(charlie).agreed, 3, "the unserved members agreed");
		let struck = set_events()
			.iter()
			.any(|e| matches!(e, SetEvent::ValidatorStruck { .. } | SetEvent::ValidatorExpelled { .. }));
		assert!(!struck, "nobody is struck");
		assert_eq!(PlannedValidators::<Test>::get().len(), 4);
		try_state();
	});
}

/// The review's F10: committees, and the validators they are drawn from, are fixed at the draw.
/// Dave leaves and Eve joins while the round is open: each served GPU's committee is still the
/// four drawn, Dave still votes (a pass on Miner1's GPU, and a failure on Miner2's honest GPU
/// after he has left) and answers for it: struck for the contradiction, his bond released less
/// the burn once the round is judged (before, work by a validator no longer seated was never
/// judged). Eve, seated after the draw, can vote on nothing and is counted on no committee.
#[test]
fn committees_and_their_validators_are_fixed_at_the_draw() {
	new_test_ext().execute_with(|| {
		let [m, m2] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave, eve] = ["Alice", "Bob", "Charlie", "Dave", "Eve"].map(account);
		let r = next_round();
		let results = [answer(m, Compute::Honest), answer(m2, Compute::Honest)];
		run_until(RoundPhase::Reveal);
		let selection = Pog::round().selection.unwrap();
		let drawn = Pog::committee_for(&selection.seed, &m, 0);
		assert_eq!(drawn.len(), 4);
		assert!(drawn.contains(&dave));
		let bond = PogValidators::bond_of(&dave);
		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), eve));
		assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), dave));
		change_session();
		let seated = Validators::<Test>::get();
		assert!(seated.contains(&eve) && !seated.contains(&dave), "{seated:?}");
		assert_eq!(Pog::committee_for(&selection.seed, &m, 0), drawn, "the committee is the one drawn");
		let served = openings_for(m, 0, &results[0][0]);
		assert_eq!(served_verdict_by(eve, m, 0, &served), Err(Error::<Test>::NotValidator.into()));
		for v in [alice, bob, charlie, dave] {
			assert_ok!(served_verdict_by(v, m, 0, &served));
		}
		let served2 = openings_for(m2, 0, &results[1][0]);
		for v in [alice, bob, charlie] {
			assert_ok!(served_verdict_by(v, m2, 0, &served2));
		}
		let commitment = Commitments::<Test>::get(r, m2).unwrap()[0].clone().unwrap();
		let leaf = Pog::leaves_for(&selection, &commitment)[0];
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(dave), r, m2, 0, false_verdict(false, Some(leaf))));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		assert_eq!(settled(m2), vec![RoundOutcome::Passed]);
		let kept = Verifications::<Test>::get((r, m, 0)).unwrap();
		assert_eq!(kept.committee.to_vec(), drawn);
		let stats = ValidatorStats::<Test>::get(dave);
		assert_eq!((stats.assigned, stats.agreed, stats.contradicted), (2, 1, 1), "{stats:?}");
		assert!(
			set_events().iter().any(|e| matches!(e, SetEvent::ValidatorStruck { validator, .. } if *validator == dave)),
			"Dave answered for his seat after leaving it"
		);
		let released = set_events().iter().find_map(|e| match e {
			SetEvent::ValidatorBondReleased { validator, amount } if *validator == dave => Some(*amount),
			_ => None,
		});
		assert!(released.is_some_and(|a| a < bond), "released {released:?} of {bond}: less the burn");
		assert!(!ValidatorBonds::<Test>::contains_key(dave));
		assert_eq!(ValidatorStats::<Test>::get(eve), Default::default(), "Eve sat on no committee");
		assert!(CommitteePool::<Test>::get().is_empty(), "no pool once the round is settled");
		try_state();
	});
}

/// The review's F3: unserved votes are taken only until half the verdict window has passed, so every one of them lands while the miner can still rebut it. Later, in the pool
/// and in dispatch alike, they are refused (`UnservedTooLate`); the GPU two members passed is
/// undecided, not failed, and nobody is struck.
#[test]
fn unserved_votes_after_their_deadline_are_refused_so_none_goes_unanswered() {
	new_test_ext().execute_with(|| {
		let [m, _] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		let index = next_round();
		let results = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		let served = openings_for(m, 0, &results[0]);
		for v in [alice, bob] {
			assert_ok!(served_verdict_by(v, m, 0, &served));
		}
		let s = Pog::round().selection.unwrap();
		let last_vote = s.unserved_deadline();
		assert!(s.reveal_deadline < last_vote && last_vote < s.rebuttal_deadline(), "{s:?}");
		while System::block_number() <= last_vote {
			next_block();
		}
		let unserved = Verdict::unserved(SelfReported { entries_checked: 0, worst_permille: 0, walks_checked: 0 });
		for v in [charlie, dave] {
			assert_eq!(unserved_by(v, m, 0), Err(Error::<Test>::UnservedTooLate.into()));
			let call = Call::submit_verdict { round: index, miner: m, gpu: 0, verdict: unserved };
			assert_eq!(check_duty(v, call), refused_in_pool(Error::<Test>::UnservedTooLate));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
		for v in [alice, bob] {
			assert_eq!(ValidatorStats::<Test>::get(v).contradicted, 0);
			assert_eq!(strikes(v), 0);
		}
		try_state();
	});
}

/// The second review of this code: a miner that served one GPU and hung another kept each member
/// re-fetching the hung one at every run (a success of one GPU cleared the miner's mark). Marks are
/// per GPU now. Miner1 serves two GPUs; Alice gets garbage for the first in her order and the
/// openings of the second: she passes the second and leaves the first open, does not ask for it
/// again for `retry_after` blocks (no request at all in the next run), asks once more after the
/// reveal deadline, and votes it unserved after that second failure.
#[test]
fn a_gpu_that_was_not_served_is_retried_alone_and_voted_unserved_after_two_failures() {
	let mut e = env(&["Alice"]);
	let (pool, offchain) = (e.pool.clone(), e.offchain.clone());
	e.ext.execute_with(|| {
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { reveal_window: 8, period: 40, ..test_config() }
		));
		assert_eq!(offchain::retry_after(8), 2);
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		serve(m);
		let r = next_round();
		let results = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		let mut order: Vec<GpuIndex> = vec![0, 1];
		order.sort_by_key(|g| Pog::verification_position(r, &s.seed, &m, *g));
		let (hung, good) = (order[0], order[1]);
		alice_fetches_gpu(&offchain, r, hung, b"garbage".to_vec());
		let served = openings_for(m, good, &results[good as usize]);
		alice_fetches_gpu(&offchain, r, good, (served, WalkOpeningsOf::default()).encode());
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let a = Attestations::<Test>::get(r, account("Alice")).unwrap();
		assert_eq!(a.open.to_vec(), vec![(m, hung)], "the good GPU passed, the hung one left open");
		// The next block's run asks nothing (the mock refuses any request not expected).
		let sent = run_ocw_and_include(&pool);
		assert!(sent.is_empty(), "{sent:?}");
		past_the_reveal_deadline();
		alice_fetches_gpu(&offchain, r, hung, b"garbage again".to_vec());
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let v = Verifications::<Test>::get((r, m, hung)).expect("a vote");
		assert!(v.votes.iter().any(|(who, x)| *who == account("Alice") && x.is_unserved()), "{v:?}");
	});
}

/// The rebuttal a duty would be: `who` reveals its served GPU `gpu` (`result`) on chain.
fn rebuttal_call(who: AccountId, gpu: GpuIndex, result: &CommittedMatrix) -> Call<Test> {
	Call::reveal_openings {
		round: Pog::round().index,
		gpu,
		openings: openings_for(who, gpu, result),
		walks: Default::default(),
	}
}

/// The review's F5 (rebuttal bytes): colluders voting unserved on every GPU they share forced
/// more reveals than the rebuttal blocks carry, and honest GPUs whose rebuttals were left out
/// failed `MissedReveal`. Only a member's first [`unserved_quota`] unserved votes of a round
/// contest a GPU, so every rebuttal they can force fits. Charlie and Dave collude with a quota
/// of one: the first GPU they contest is rebutted; the second is not contested, its rebuttal is
/// refused in the pool and in dispatch, and it ends `Inconclusive` rather than failed; their
/// votes beyond the quota are votes (they are not silent) and count as neither.
#[test]
fn colluders_contest_no_more_gpus_than_the_rebuttal_blocks_carry() {
	new_test_ext().execute_with(|| {
		let [first, second] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		next_round();
		let results = [answer(first, Compute::Honest), answer(second, Compute::Honest)];
		run_until(RoundPhase::Reveal);
		let index = Pog::round().index;
		// four validators, committees of three when one of them mines
		let drawn = unserved_quota(Pog::rebuttal_capacity(), 4, 3);
		assert_eq!(UnservedQuota::<Test>::get(index), Some(drawn), "set at the draw");
		UnservedQuota::<Test>::insert(index, 1);
		for (i, m) in [first, second].into_iter().enumerate() {
			for v in [alice, bob] {
				assert_ok!(served_verdict_by(v, m, 0, &openings_for(m, 0, &results[i][0])));
			}
		}
		past_the_reveal_deadline();
		for m in [first, second] {
			for v in [charlie, dave] {
				assert_ok!(unserved_by(v, m, 0));
			}
		}
		assert_eq!(UnservedCast::<Test>::get(index, charlie), 2);
		assert_eq!(Contested::<Test>::get((index, first, 0)), 2, "within both quotas");
		assert_eq!(Contested::<Test>::get((index, second, 0)), 0, "beyond both quotas");
		assert_eq!(
			check_duty(second, rebuttal_call(second, 0, &results[1][0])),
			refused_in_pool(Error::<Test>::ServedOffChain)
		);
		assert_eq!(reveal(second, 0, &results[1][0]), Err(Error::<Test>::ServedOffChain.into()));
		assert_ok!(check_duty(first, rebuttal_call(first, 0, &results[0][0])));
		assert_ok!(reveal(first, 0, &results[0][0]));
		assert_eq!(Contested::<Test>::get((index, first, 0)), 0, "voided with the votes");
		run_until(RoundPhase::Idle);
		assert_eq!(settled(first), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
		assert_eq!(settled(second), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
		for v in [charlie, dave] {
			let stats = ValidatorStats::<Test>::get(v);
			assert_eq!((stats.silent, stats.contradicted), (1, 0), "silent only after the rebuttal: {stats:?}");
		}
		try_state();
	});
}

/// A miner that served fewer members than a quorum fails for non-delivery whatever the quotas:
/// its unserved votes make a quorum, more than may lie. With no quota left, one
/// served to one member of four, and one served to nobody, fail `MissedReveal`; one served to two
/// members is `Inconclusive` and may not rebut (the price of the bound on rebuttals); a live
/// miner that no member could reach rebuts, since liars alone never make a quorum, and passes.
#[test]
fn serving_fewer_than_a_quorum_fails_whatever_the_quotas() {
	new_test_ext().execute_with(|| {
		let [one, two] = four_members_and_two_serving_miners();
		let [nobody, unreachable] = [account("Miner3"), account("Miner4")];
		register_cpu_miner(nobody, &[uuid(3)]);
		register_cpu_miner(unreachable, &[uuid(4)]);
		serve(nobody);
		serve(unreachable);
		let members = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		let [alice, bob, charlie, dave] = members;
		next_round();
		let results = [one, two, nobody, unreachable].map(|m| answer(m, Compute::Honest));
		run_until(RoundPhase::Reveal);
		UnservedQuota::<Test>::insert(Pog::round().index, 0);
		assert_ok!(served_verdict_by(alice, one, 0, &openings_for(one, 0, &results[0][0])));
		for v in [alice, bob] {
			assert_ok!(served_verdict_by(v, two, 0, &openings_for(two, 0, &results[1][0])));
		}
		past_the_reveal_deadline();
		for v in [bob, charlie, dave] {
			assert_ok!(unserved_by(v, one, 0));
		}
		for v in members {
			assert_ok!(unserved_by(v, nobody, 0));
			assert_ok!(unserved_by(v, unreachable, 0));
		}
		for v in [charlie, dave] {
			assert_ok!(unserved_by(v, two, 0));
		}
		assert_eq!(reveal(two, 0, &results[1][0]), Err(Error::<Test>::ServedOffChain.into()), "no quota left");
		assert_ok!(reveal(unreachable, 0, &results[3][0]));
		for (i, v) in members.into_iter().enumerate() {
			assert_ok!(verdict_by(v, unreachable, 0, i as u8));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(one), vec![RoundOutcome::Failed(FailReason::MissedReveal)]);
		assert_eq!(settled(nobody), vec![RoundOutcome::Failed(FailReason::MissedReveal)]);
		assert_eq!(settled(two), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
		assert_eq!(settled(unreachable), vec![RoundOutcome::Passed]);
		for v in members {
			let stats = ValidatorStats::<Test>::get(v);
			assert_eq!((stats.silent, stats.contradicted), (0, 0), "{v:?}: {stats:?}");
		}
		try_state();
	});
}

/// Every member spending its whole quota on GPUs served to everyone contests at most the
/// rebuttals the blocks carry, for any set and committee size.
#[test]
fn the_unserved_quota_keeps_forced_rebuttals_within_the_rebuttal_blocks() {
	use crate::verification::committee_size;
	for rebuttals in [0, 1, 2, 13, 35, 116, 1_000, u32::MAX] {
		for validators in 1..=64u32 {
			let quota = crate::served::pool_quota(rebuttals, 5, validators);
			// a GPU's committee: the configured size, or one fewer member when its miner validates
			for committee in [committee_size(5, validators), committee_size(5, validators.saturating_sub(1).max(1))] {
				let contested = u64::from(quota) * u64::from(validators) / u64::from(unserved_to_fail(committee));
				assert!(contested <= u64::from(rebuttals), "{rebuttals} rebuttals, {validators} validators: {quota}");
			}
		}
	}
	// rebuttals land after the last unserved votes (R + 10 on mainnet) until R + 14
	assert_eq!(crate::served::rebuttal_blocks(20), 4);
	assert_eq!(crate::served::rebuttal_blocks(6), 1);
	assert_eq!(crate::served::rebuttal_blocks(3), 1);
}

/// A round drawn before the quota existed (an upgrade mid-round, no [`UnservedQuota`]) keeps the
/// rule its miners' agents knew: any unserved vote may be rebutted, and every one counts.
#[test]
fn a_round_drawn_before_the_quota_keeps_the_rule_of_its_draw() {
	new_test_ext().execute_with(|| {
		let [served, _] = four_members_and_two_serving_miners();
		next_round();
		let results = answer(served, Compute::Honest);
		run_until(RoundPhase::Reveal);
		UnservedQuota::<Test>::remove(Pog::round().index);
		past_the_reveal_deadline();
		assert_ok!(unserved_by(account("Dave"), served, 0));
		assert_ok!(reveal(served, 0, &results[0]));
		try_state();
	});
}

/// Miner1's honest served GPU that only Alice could reach, with every quota spent: Alice passes it
/// and the `unserved` members vote unserved after the reveal deadline. Returns the miner, its
/// result and the openings Alice was served.
fn served_to_alice_alone(unserved: [AccountId; 2]) -> (AccountId, CommittedMatrix, OpeningsOf<Test>) {
	let [honest, _] = four_members_and_two_serving_miners();
	next_round();
	let result = answer(honest, Compute::Honest).into_iter().next().expect("one GPU");
	run_until(RoundPhase::Reveal);
	UnservedQuota::<Test>::insert(Pog::round().index, 0);
	let served = openings_for(honest, 0, &result);
	assert_ok!(served_verdict_by(account("Alice"), honest, 0, &served));
	past_the_reveal_deadline();
	for v in unserved {
		assert_ok!(unserved_by(v, honest, 0));
	}
	(honest, result, served)
}

/// `who`'s failing verdict on `miner`'s GPU 0 naming `leaf`.
fn failing_leaf_by(who: AccountId, miner: AccountId, leaf: u32) -> DispatchResultOf {
	Pog::submit_verdict(RuntimeOrigin::signed(who), Pog::round().index, miner, 0, false_verdict(false, Some(leaf)))
		.map(|_| ())
		.map_err(|e| e.error)
}

/// Failing votes are taken until the verdict deadline, after the rebuttal deadline, so those cast
/// later than the unserved deadline must not turn a GPU into "not delivered": only votes that all
/// come while the miner can still rebut them make that quorum. Charlie and Dave could not reach
/// an honest miner and their quotas are spent; Alice passed it; Bob, a liar, names a failing leaf
/// after the rebuttal deadline: the GPU is `Inconclusive`, not failed (the second review of the
/// quota's finding).
#[test]
fn late_failing_votes_cannot_make_a_delivery_quorum() {
	new_test_ext().execute_with(|| {
		let (honest, result, served) = served_to_alice_alone(["Charlie", "Dave"].map(account));
		assert_eq!(reveal(honest, 0, &result), Err(Error::<Test>::ServedOffChain.into()), "nothing would fail it");
		let deadline = Pog::round().selection.unwrap().rebuttal_deadline();
		while System::block_number() <= deadline {
			next_block();
		}
		assert_ok!(failing_leaf_by(account("Bob"), honest, served[0].leaf));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(honest), vec![RoundOutcome::Unverified(UnverifiedReason::Inconclusive)]);
		try_state();
	});
}

/// The second review of the quota's finding (high): a cheat serving wrong openings to some
/// members and nothing to the others escaped its slash once its unserved votes no longer counted,
/// having spent the unserved members' quotas for free on GPUs that pass (an unserved vote counts
/// against a quota whatever becomes of the GPU). The failing votes cast by the unserved deadline
/// count with the unserved ones toward a delivery quorum: Alice and Bob name a wrong leaf,
/// Charlie and Dave, whose only counted votes went on two honest GPUs that pass, vote unserved,
/// and the cheat fails `WrongResult`; it could have rebutted, and nobody contradicted anyone.
#[test]
fn wrong_openings_to_some_members_and_none_to_the_others_fail_whatever_the_quotas() {
	new_test_ext().execute_with(|| {
		let [cheat, decoy] = four_members_and_two_serving_miners();
		let other = account("Miner3");
		register_cpu_miner(other, &[uuid(3)]);
		serve(other);
		let members = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		let [alice, bob, charlie, dave] = members;
		next_round();
		let wrong = answer(cheat, Compute::Corrupt(100));
		let honest = [decoy, other].map(|m| answer(m, Compute::Honest));
		run_until(RoundPhase::Reveal);
		let index = Pog::round().index;
		UnservedQuota::<Test>::insert(index, 1);
		for v in [alice, bob] {
			assert_ok!(served_verdict_by(v, cheat, 0, &openings_for(cheat, 0, &wrong[0])));
		}
		for (m, result, served_to) in [(decoy, &honest[0], dave), (other, &honest[1], charlie)] {
			for v in [alice, bob, served_to] {
				assert_ok!(served_verdict_by(v, m, 0, &openings_for(m, 0, &result[0])));
			}
		}
		past_the_reveal_deadline();
		assert_ok!(unserved_by(charlie, decoy, 0));
		assert_ok!(unserved_by(dave, other, 0));
		for v in [charlie, dave] {
			assert_ok!(unserved_by(v, cheat, 0));
		}
		assert_eq!(Contested::<Test>::get((index, cheat, 0)), 0, "both quotas spent on GPUs that pass");
		assert_eq!(EarlyFailing::<Test>::get((index, cheat, 0)), 2);
		// a delivery quorum may be answered
		assert_ok!(check_duty(cheat, rebuttal_call(cheat, 0, &wrong[0])));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(cheat), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		assert_eq!(settled(decoy), vec![RoundOutcome::Passed]);
		assert_eq!(settled(other), vec![RoundOutcome::Passed]);
		for v in members {
			let stats = ValidatorStats::<Test>::get(v);
			assert_eq!((stats.silent, stats.contradicted), (0, 0), "{v:?}: {stats:?}");
		}
		try_state();
	});
}

/// The same cheat with a colluding member passing it: one pass, two failing votes naming a
/// leaf and one unserved vote beyond its member's quota still make a delivery quorum, and the
/// GPU fails.
#[test]
fn a_colluder_passing_a_cheat_that_served_wrong_openings_does_not_save_it() {
	new_test_ext().execute_with(|| {
		let [cheat, _] = four_members_and_two_serving_miners();
		let [alice, bob, charlie, dave] = ["Alice", "Bob", "Charlie", "Dave"].map(account);
		next_round();
		let wrong = answer(cheat, Compute::Corrupt(100));
		run_until(RoundPhase::Reveal);
		let index = Pog::round().index;
		UnservedQuota::<Test>::insert(index, 0);
		for v in [alice, bob] {
			assert_ok!(served_verdict_by(v, cheat, 0, &openings_for(cheat, 0, &wrong[0])));
		}
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(dave), index, cheat, 0, false_verdict(true, None))
			.map_err(|e| e.error));
		past_the_reveal_deadline();
		assert_ok!(unserved_by(charlie, cheat, 0));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(cheat), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		try_state();
	});
}

/// A liar's early failing vote can complete the delivery quorum of an honest miner that only
/// one member could reach, whose other members' quotas are spent: the GPU is then rebuttable, the
/// miner reveals it, the members it could not reach pass it, and the liar is contradicted.
#[test]
fn a_delivery_quorum_a_liar_completes_is_answered_by_a_rebuttal() {
	new_test_ext().execute_with(|| {
		let [bob, charlie, dave] = ["Bob", "Charlie", "Dave"].map(account);
		let (honest, result, served) = served_to_alice_alone([bob, charlie]);
		assert_eq!(
			check_duty(honest, rebuttal_call(honest, 0, &result)),
			refused_in_pool(Error::<Test>::ServedOffChain),
			"two unserved votes beyond their quotas would not fail it"
		);
		assert!(System::block_number() <= Pog::round().selection.unwrap().unserved_deadline());
		assert_ok!(failing_leaf_by(dave, honest, served[0].leaf));
		assert_ok!(check_duty(honest, rebuttal_call(honest, 0, &result)));
		assert_ok!(reveal(honest, 0, &result));
		for (i, v) in [bob, charlie].into_iter().enumerate() {
			assert_ok!(verdict_by(v, honest, 0, i as u8));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
		assert_eq!(ValidatorStats::<Test>::get(dave).contradicted, 1);
		try_state();
	});
}
