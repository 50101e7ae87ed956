//! The validator set (issue 26; `pallet-pog-validators`) against real rounds: root plans it, a
//! session change seats it; a bond is held from every validator and released after it leaves;
//! contradicting decided outcomes or staying silent costs part of the bond and, at the most
//! strikes, the seat.

use super::*;
use crate::HoldReason;
use pallet_pog_validators::{HoldReason as SetHoldReason, QueuedValidators, ValidatorRule, ValidatorRules};

fn bond_held(who: AccountId) -> Balance {
	Balances::balance_on_hold(&RuntimeHoldReason::PogValidators(SetHoldReason::ValidatorBond), &who)
}

fn strikes(who: AccountId) -> u32 {
	ValidatorBonds::<Test>::get(who).map(|b| b.strikes).unwrap_or_default()
}

/// Plays one round with Dave on a committee of all five validators (quorum 4): the three genesis
/// validators and Eve vote honestly on an honest miner, Dave votes `dave` (`Some(passed)`, a
/// failing vote naming a leaf) or stays silent (`None`).
fn round_with_dave(dave: AccountId, vote: Option<bool>) {
	let m = account("Miner1");
	let index = next_round();
	let result = answer(m, Compute::Honest).remove(0);
	run_until(RoundPhase::Reveal);
	assert_ok!(reveal(m, 0, &result));
	assert!(committee(m, 0).contains(&dave));
	match vote {
		Some(true) => {
			assert_ok!(verdict_by(dave, m, 0, 3));
		},
		Some(false) => {
			let leaf = Openings::<Test>::get((index, m, 0)).unwrap()[0].leaf;
			assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(dave), index, m, 0, false_verdict(false, Some(leaf))));
		},
		None => {},
	}
	for v in honest_members() {
		assert_ok!(verdict_by(v, m, 0, 7));
	}
	run_until(RoundPhase::Idle);
	assert_eq!(settled(m), vec![RoundOutcome::Passed]);
}

/// The genesis validators and Eve.
fn honest_members() -> Vec<AccountId> {
	let mut v = validators();
	v.push(account("Eve"));
	v
}

/// Dave and Eve join (bonded, seated at the session change): five validators, a committee of all
/// five, an honest CPU miner and a memory miner.
fn with_dave() -> AccountId {
	let dave = account("Dave");
	assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), dave));
	assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), account("Eve")));
	assert_eq!(bond_held(dave), ValidatorBondAmount::get(), "the bond is held when root adds it");
	assert!(!Validators::<Test>::get().contains(&dave), "planned, not seated before the session change");
	change_session();
	assert!(Validators::<Test>::get().contains(&dave));
	assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 5, ..test_config() }));
	register_cpu_miner(account("Miner1"), &[uuid(1)]);
	register_memory_miner(account("Miner2"), &[uuid(2)]);
	dave
}

/// One round in which the memory miner commits made-up walks: the genesis validators and Eve name
/// a wrong walk (a quorum of the five), and Dave passes it, a pass the chain can prove wrong
/// (every member recomputes every opened walk).
fn round_where_dave_passes_made_up_walks(dave: AccountId) {
	let m = account("Miner2");
	let index = next_round();
	let answered = answer_memory(m, Memory::MadeUp, true);
	run_until(RoundPhase::Reveal);
	assert_ok!(reveal_with_walks(m, 0, &answered[0].0, walk_openings(m, 0, &answered[0].1)));
	let walk = WalkResults::<Test>::get((index, m, 0)).unwrap()[0].0;
	let wrong_walk = Verdict { failed_leaf: None, failed_walk: Some(walk), ..false_verdict(false, None) };
	for v in honest_members() {
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(v), index, m, 0, wrong_walk));
	}
	assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(dave), index, m, 0, false_verdict(true, None)));
	run_until(RoundPhase::Idle);
	assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::WrongWalk)]);
}

#[test]
fn a_validator_that_passes_a_proven_fault_loses_bond_and_seat_and_agreeing_ones_keep_both() {
	new_test_ext().execute_with(|| {
		let dave = with_dave();
		let rules = ValidatorRules::mainnet();
		let mut held = ValidatorBondAmount::get();
		for strike in 1..=rules.max_strikes {
			round_where_dave_passes_made_up_walks(dave);
			held -= rules.contradiction_slash * held;
			assert_eq!(bond_held(dave), held, "strike {strike}: 10% of what is held burns");
			assert_eq!(strikes(dave), strike);
			let expelled = set_events()
				.iter()
				.any(|e| matches!(e, SetEvent::ValidatorExpelled { validator, .. } if *validator == dave));
			assert_eq!(expelled, strike == rules.max_strikes);
			for v in honest_members() {
				assert_eq!(bond_held(v), ValidatorBondAmount::get(), "an agreeing validator keeps its whole bond");
				assert_eq!(strikes(v), 0);
			}
		}
		assert!(!PlannedValidators::<Test>::get().contains(&dave), "the third strike costs the seat");
		assert!(Validators::<Test>::get().contains(&dave), "it sits until the session changes");
		change_session();
		assert!(!Validators::<Test>::get().contains(&dave));
		assert_eq!(Validators::<Test>::get().to_vec(), honest_members(), "the agreeing four keep their seats");
		// No round open: what is left of the bond is released at once.
		assert_eq!(bond_held(dave), 0);
		assert!(set_events().contains(&SetEvent::ValidatorBondReleased { validator: dave, amount: held }));
		try_state();
	});
}

/// A member that votes against a decided result (here a failing vote, naming a leaf, on a GPU a
/// quorum passed) is struck: every member checks the same entries, so no honest member can see a
/// failure the quorum did not.
#[test]
fn a_validator_that_fails_a_passed_gpu_is_struck() {
	new_test_ext().execute_with(|| {
		let dave = with_dave();
		round_with_dave(dave, Some(false));
		assert_eq!(strikes(dave), 1);
		assert_eq!(ValidatorStats::<Test>::get(dave).contradicted, 1);
		for v in honest_members() {
			assert_eq!(strikes(v), 0);
		}
	});
}

/// The review's F6: with each member sampling its own entries, a partial cheat (a few wrong
/// values of C) was caught by one member in 41% of rounds, which was then struck for
/// contradicting the others' pass. Now every member's worker checks the entries drawn from the
/// challenge's sample seed: over several rounds of a miner with 2% of C wrong, the five members'
/// verdicts are identical every round (a pass, or the same failing leaf), the outcome is theirs,
/// and nobody is struck.
#[test]
fn every_member_checks_the_same_entries_so_honest_members_never_disagree() {
	let mut e = env(&["Alice", "Bob", "Charlie", "Dave", "Eve"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		with_dave();
		let m = account("Miner1");
		for _ in 0..4 {
			let index = next_round();
			let result = answer(m, Compute::Corrupt(2)).remove(0);
			run_until(RoundPhase::Reveal);
			assert_ok!(reveal(m, 0, &result));
			let sent = run_ocw_and_include(&pool);
			assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
			let verdicts: Vec<Verdict> = events()
				.into_iter()
				.filter_map(|e| match e {
					Event::VerdictSubmitted { round, miner, verdict, .. } if round == index && miner == m => {
						Some(verdict)
					},
					_ => None,
				})
				.collect();
			assert_eq!(verdicts.len(), 5, "every member verified");
			let same = |v: &Verdict| (v.passed, v.failed_leaf, v.failed_walk);
			assert!(verdicts.iter().all(|v| same(v) == same(&verdicts[0])), "members disagree: {verdicts:?}");
			run_until(RoundPhase::Idle);
			let outcome = settled(m)[0];
			assert_eq!(outcome == RoundOutcome::Passed, verdicts[0].passed, "{outcome:?}");
		}
		for v in [validators(), vec![account("Dave"), account("Eve")]].concat() {
			let stats = ValidatorStats::<Test>::get(v);
			assert_eq!((stats.contradicted, strikes(v)), (0, 0), "{stats:?}");
			assert_eq!(stats.agreed, 4);
		}
		try_state();
	});
}

#[test]
fn a_silent_validator_loses_bond_and_seat_and_a_clean_round_forgives_a_strike() {
	new_test_ext().execute_with(|| {
		let dave = with_dave();
		let rules = ValidatorRules::mainnet();
		round_with_dave(dave, None);
		let after_one = ValidatorBondAmount::get() - rules.silence_slash * ValidatorBondAmount::get();
		assert_eq!((bond_held(dave), strikes(dave)), (after_one, 1), "silence on every assignment is a strike");
		round_with_dave(dave, Some(true));
		assert_eq!((bond_held(dave), strikes(dave)), (after_one, 0), "an agreeing round forgives it, burns nothing");
		for _ in 0..rules.max_strikes {
			round_with_dave(dave, None);
		}
		assert!(bond_held(dave) < after_one);
		assert!(!PlannedValidators::<Test>::get().contains(&dave));
		change_session();
		assert!(!Validators::<Test>::get().contains(&dave));
		assert_eq!(bond_held(dave), 0, "released once it has left");
		try_state();
	});
}

/// Expulsions are bounded: at most a tenth of the set (at least one) a round, and never below
/// the BFT minimum of four. Dave and Eve stay silent round after round beside three honest
/// validators (committees of all five, quorum 4: every GPU undecided). At the third strike one of
/// them is expelled, the other only struck; at the fourth the set is at four and nobody else
/// goes, whatever the strikes.
#[test]
fn strikes_expel_at_most_a_tenth_of_the_set_a_round_and_never_below_four() {
	use pallet_pog_validators::rules::{max_expulsions, BFT_MINIMUM};
	new_test_ext().execute_with(|| {
		assert_eq!((max_expulsions(4), max_expulsions(64), BFT_MINIMUM), (1, 6, 4));
		let dave = with_dave();
		let eve = account("Eve");
		let m = account("Miner1");
		for round in 1..=5u32 {
			next_round();
			let result = answer(m, Compute::Honest).remove(0);
			run_until(RoundPhase::Reveal);
			assert_ok!(reveal(m, 0, &result));
			for v in validators() {
				assert_ok!(verdict_by(v, m, 0, 7));
			}
			run_until(RoundPhase::Idle);
			let planned = PlannedValidators::<Test>::get();
			let gone = [dave, eve].iter().filter(|v| !planned.contains(v)).count();
			assert_eq!(
				gone,
				match round {
					1 | 2 => 0,
					_ => 1,
				},
				"round {round}: {planned:?}"
			);
			assert_eq!(strikes(dave).min(strikes(eve)), round, "both struck every round");
		}
		assert_eq!(PlannedValidators::<Test>::get().len(), 4);
		try_state();
	});
}

#[test]
fn a_validator_leaving_mid_round_keeps_its_bond_until_the_round_is_settled() {
	new_test_ext().execute_with(|| {
		let dave = with_dave();
		next_round();
		assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), dave));
		change_session();
		assert!(!Validators::<Test>::get().contains(&dave));
		assert_eq!(bond_held(dave), ValidatorBondAmount::get(), "its round is not settled yet");
		assert_eq!(ValidatorBonds::<Test>::get(dave).unwrap().leaving, Some(Pog::round().index));
		run_until(RoundPhase::Idle);
		assert_eq!(bond_held(dave), 0, "released with the round's settlement");
		try_state();
	});
}

#[test]
fn bad_validator_changes_are_refused_and_lose_nothing() {
	new_test_ext().execute_with(|| {
		let poor = account("Nobody");
		assert_noop!(PogValidators::add_validator(RuntimeOrigin::root(), poor), SetError::<Test>::CannotBond);
		assert_noop!(
			PogValidators::add_validator(RuntimeOrigin::signed(account("Dave")), account("Dave")),
			DispatchError::BadOrigin
		);
		for v in &validators()[1..] {
			assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), *v));
		}
		assert_noop!(
			PogValidators::remove_validator(RuntimeOrigin::root(), validators()[0]),
			SetError::<Test>::LastValidator
		);
		let bad = ValidatorRules { max_strikes: 0, ..ValidatorRules::mainnet() };
		assert_noop!(
			PogValidators::set_validator_rules(RuntimeOrigin::root(), bad),
			SetError::<Test>::InvalidValidatorRules(ValidatorRule::ZeroMaxStrikes)
		);
		// The session never hands over an empty set, nor one that did not change.
		change_session();
		assert_eq!(<PogValidators as pallet_session::SessionManager<AccountId>>::new_session(1), None);
	});
}

frame_support::parameter_types! {
	pub const PogName: &'static str = "Pog";
	pub PogBond: RuntimeHoldReason = RuntimeHoldReason::Pog(HoldReason::ValidatorBond);
}

/// Issue 26, item 3: a v2 chain (validators as accounts, nothing bonded) upgrades to v3 with its
/// validators planned, seated (each its own `pog!` key) and bonded in pallet-pog's layout of the
/// time, checked by the migration's `pre_upgrade`/`post_upgrade` under try-runtime; the migration
/// runs once. Then v6 moves the set to `pallet-pog-validators`, its bonds to that pallet's hold
/// reason, and leaves nothing under pallet-pog's prefix.
#[test]
fn a_v2_chain_upgrades_to_v3_with_its_validators_seated_and_bonded_once_then_moves_to_the_set() {
	use crate::migrations::old_set;
	use frame_support::traits::{
		fungible::MutateHold, tokens::Precision, GetStorageVersion, OnRuntimeUpgrade, StorageVersion,
	};
	type V3 = crate::migrations::v3::SeatValidators<Test, ValidatorBondAmount>;
	type V6 = crate::migrations::v6::ValidatorsMoved<
		Test,
		pallet_pog_validators::migrations::v1::MoveFromPogUnchecked<Test, PogName, PogBond>,
	>;
	new_test_ext().execute_with(|| {
		// The v2 layout: the committee members under pallet-pog's prefix; no plan, seats or bonds,
		// and nothing of the validator set's pallet.
		for v in validators() {
			assert_ok!(Balances::release_all(
				&RuntimeHoldReason::PogValidators(SetHoldReason::ValidatorBond),
				&v,
				Precision::Exact
			));
		}
		let _ = ValidatorBonds::<Test>::clear(u32::MAX, None);
		PlannedValidators::<Test>::kill();
		QueuedValidators::<Test>::kill();
		Seated::<Test>::kill();
		Validators::<Test>::kill();
		old_set::Validators::<Test>::put(frame_support::BoundedVec::truncate_from(validators()));
		StorageVersion::new(2).put::<Pog>();

		#[cfg(feature = "try-runtime")]
		V3::try_on_runtime_upgrade(true).expect("checks pass");
		#[cfg(not(feature = "try-runtime"))]
		V3::on_runtime_upgrade();

		assert_eq!(Pog::on_chain_storage_version(), 3);
		assert_eq!(old_set::PlannedValidators::<Test>::get().to_vec(), validators());
		assert_eq!(old_set::ValidatorBonds::<Test>::count(), 3);
		for v in validators() {
			assert_eq!(Balances::balance_on_hold(&PogBond::get(), &v), ValidatorBondAmount::get());
		}
		// Once: a second run finds version 3 and changes nothing.
		old_set::PlannedValidators::<Test>::kill();
		V3::on_runtime_upgrade();
		assert!(old_set::PlannedValidators::<Test>::get().is_empty(), "the migration did not run again");
		old_set::PlannedValidators::<Test>::put(frame_support::BoundedVec::truncate_from(validators()));

		// v5 → v6 (v4 and v5 move what this test does not hold)
		StorageVersion::new(5).put::<Pog>();
		#[cfg(feature = "try-runtime")]
		V6::try_on_runtime_upgrade(true).expect("checks pass");
		#[cfg(not(feature = "try-runtime"))]
		V6::on_runtime_upgrade();
		assert_eq!(Pog::on_chain_storage_version(), 6);
		assert_eq!(Validators::<Test>::get().to_vec(), validators());
		assert_eq!(PlannedValidators::<Test>::get().to_vec(), validators());
		assert_eq!(Seated::<Test>::get().iter().map(|(v, _)| *v).collect::<Vec<_>>(), validators());
		for v in validators() {
			assert_eq!(bond_held(v), ValidatorBondAmount::get(), "held under the set's own reason");
			assert_eq!(Balances::balance_on_hold(&PogBond::get(), &v), 0);
		}
		assert!(!pallet_pog_validators::migrations::v1::left_behind("Pog"));
		try_state();
	});
}

/// Issue 26: a set of at most seven validators votes as a whole, ⌊2V/3⌋+1 of V: with seven, two
/// silent or lying validators cannot freeze a verification (five honest verdicts decide it),
/// whereas committees of five drawn from seven would let them freeze the ones they share. An
/// eighth validator brings back committees of the configured size.
#[test]
fn a_small_set_votes_as_a_whole_so_a_third_cannot_freeze_it() {
	new_test_ext().execute_with(|| {
		let extra: Vec<AccountId> = ["Dave", "Eve", "Ferdie", "Miner4"].iter().map(|n| account(n)).collect();
		for v in &extra {
			assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), *v));
		}
		change_session();
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 5, ..test_config() }));
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let index = next_round();
		let r = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &r[0]));
		let members = committee(m, 0);
		assert_eq!(members.len(), 7, "the whole set");
		assert_eq!(Pog::quorum_of(7), 5);
		// Two lie, five pass: decided.
		let lie = false_verdict(false, Some(openings_for(m, 0, &r[0])[0].leaf));
		for liar in &members[..2] {
			assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(*liar), index, m, 0, lie));
		}
		for v in &members[2..] {
			assert_ok!(verdict_by(*v, m, 0, 5));
		}
		assert_eq!(Verifications::<Test>::get((index, m, 0)).unwrap().status, VerificationStatus::Passed);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		// An eighth validator: committees of five again.
		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), account("Miner3")));
		change_session();
		next_round();
		let r = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &r[0]));
		assert_eq!(committee(m, 0).len(), 5);
	});
}

/// With committees drawn from a larger set, a coalition below a third of the set still holds four
/// of five seats on some committees (the second review of this code: 12 of 64 struck an honest
/// validator in 48% of rounds at 10,000 served GPUs). There, a lone honest member outvoted by a
/// quorum is counted contradicting, but not struck: a few contradictions a round are forgiven on
/// sampled committees, and only more than 5% of its assignments are a strike.
#[test]
fn on_sampled_committees_a_member_outvoted_by_a_colluding_quorum_is_not_struck() {
	new_test_ext().execute_with(|| {
		for v in ["Dave", "Eve", "Ferdie", "Miner3", "Miner4"] {
			assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), account(v)));
		}
		change_session();
		assert_eq!(Validators::<Test>::get().len(), 8);
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 5, ..test_config() }));
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let index = next_round();
		let result = answer(m, Compute::Honest).remove(0);
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &result));
		let members = committee(m, 0);
		assert_eq!(members.len(), 5, "drawn from eight");
		let (honest, colluders) = (members[0], &members[1..]);
		assert_ok!(verdict_by(honest, m, 0, 7));
		let leaf = Openings::<Test>::get((index, m, 0)).unwrap()[0].leaf;
		for c in colluders {
			assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(*c), index, m, 0, false_verdict(false, Some(leaf))));
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		assert_eq!(ValidatorStats::<Test>::get(honest).contradicted, 1);
		assert_eq!(strikes(honest), 0, "outvoted on a sampled committee: not struck");
		assert_eq!(bond_held(honest), ValidatorBondAmount::get());
	});
}

/// Issue 49, F15: a planned validator without session keys is not handed to the session (so the
/// historical record of a session counts exactly who sits in it, and equivocation reports against
/// it hold), does not count as the validator that must stay, and is handed over once it sets
/// its keys.
#[test]
fn a_planned_validator_without_session_keys_is_not_handed_to_the_session() {
	use crate::mock::Keyless;
	new_test_ext().execute_with(|| {
		let dave = account("Dave");
		Keyless::set(&vec![dave]);
		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), dave));
		let handed = <PogValidators as pallet_session::SessionManager<AccountId>>::new_session(1);
		assert_eq!(handed, None, "the keyed set is the one seated: nothing new to hand over");
		assert!(!QueuedValidators::<Test>::get().contains(&dave));
		// Root removes every keyed validator but one: the last cannot go, whatever Dave's plan.
		let keyed = validators();
		for v in &keyed[1..] {
			assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), *v));
		}
		assert_noop!(PogValidators::remove_validator(RuntimeOrigin::root(), keyed[0]), SetError::<Test>::LastValidator);
		// Dave sets his keys: he is handed over with the one left.
		Keyless::set(&vec![]);
		let handed = <PogValidators as pallet_session::SessionManager<AccountId>>::new_session(2);
		assert_eq!(handed, Some(vec![keyed[0], dave]));
		try_state();
	});
}
