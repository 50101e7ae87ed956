//! The set's own rules against a stand-in for the rounds. How validators answer for the votes of
//! real rounds (strikes from contradictions, silence and unopened evidence, the bounds on
//! expulsions, equivocations through a live runtime) is tested in `pallet-pog`'s tests and the
//! runtime's, against this pallet.

use crate::{mock::*, pallet::*, rules::ValidatorRule, ValidatorRecord, ValidatorRules};
use frame_support::{
	assert_noop, assert_ok,
	traits::fungible::{Inspect, InspectHold},
};
use pog_traits::Committee;
use sp_runtime::{traits::BadOrigin, Perbill};
use sp_staking::offence::{OffenceDetails, OnOffenceHandler};

fn held(who: AccountId) -> Balance {
	Balances::balance_on_hold(&HoldReason::ValidatorBond.into(), &who)
}

fn seated() -> Vec<AccountId> {
	Seated::<Test>::get().into_iter().map(|(v, _)| v).collect()
}

fn work(assigned: u32, contradicted: u32, silent: u32) -> ValidatorRecord {
	ValidatorRecord { assigned, agreed: assigned - contradicted - silent, contradicted, silent }
}

#[test]
fn genesis_seats_bonds_and_names_each_members_key_account() {
	new_test_ext().execute_with(|| {
		assert_eq!(seated(), vec![1, 2, 3, 4]);
		assert_eq!(Validators::<Test>::get().to_vec(), vec![101, 102, 103, 104], "members are the keys' accounts");
		for v in 1..5 {
			assert_eq!(held(v), Bond::get());
			assert_eq!(PogValidators::bond_of(&v), Bond::get());
		}
		assert_eq!(<PogValidators as Committee<AccountId>>::seated()[0], (1, 101));
		PogValidators::do_try_state().unwrap();
	});
}

#[test]
fn a_validator_added_sits_after_the_session_change_and_one_removed_leaves_with_its_bond() {
	new_test_ext().execute_with(|| {
		assert_noop!(PogValidators::add_validator(RuntimeOrigin::signed(1), 5), BadOrigin);
		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), 5));
		assert_eq!(held(5), Bond::get(), "bonded when planned");
		assert!(!seated().contains(&5), "not seated before the session change");
		change_session();
		assert!(seated().contains(&5));
		assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), 5));
		// no round open, no evidence owed: released as soon as it no longer sits
		change_session();
		assert!(!seated().contains(&5));
		assert_eq!(held(5), 0);
		assert_eq!(Balances::balance(&5), FUNDS);
		assert!(!ValidatorBonds::<Test>::contains_key(5));
		PogValidators::do_try_state().unwrap();
	});
}

#[test]
fn a_validator_leaving_during_a_round_keeps_its_bond_until_that_round_is_judged() {
	new_test_ext().execute_with(|| {
		LatestRound::set(&7);
		RoundOpen::set(&true);
		assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), 4));
		change_session();
		assert!(!seated().contains(&4));
		assert_eq!(ValidatorBonds::<Test>::get(4).unwrap().leaving, Some(7));
		assert_eq!(held(4), Bond::get(), "it answers for round 7");
		// owing evidence, it is kept past the judgment of its round
		Owing::set(&vec![4]);
		PogValidators::round_settled(7, &[(4, 104)], false, &[]);
		assert_eq!(held(4), Bond::get());
		Owing::set(&vec![]);
		PogValidators::round_settled(8, &[], false, &[]);
		assert_eq!(held(4), 0, "released once its round is settled and it owes nothing");
	});
}

#[test]
fn strikes_burn_the_bond_expel_at_max_strikes_and_a_clean_round_forgives_one() {
	new_test_ext().execute_with(|| {
		let drawn = <PogValidators as Committee<AccountId>>::seated();
		// a contradiction of a decided outcome: 10% of the bond, counted in the ledger's burns
		PogValidators::count_work(&101, &work(10, 1, 0));
		PogValidators::count_work(&102, &work(10, 0, 0));
		PogValidators::round_settled(1, &drawn, false, &[]);
		assert_eq!(held(1), 900);
		assert_eq!(Burned::get(), 100);
		assert_eq!(ValidatorBonds::<Test>::get(1).unwrap().strikes, 1);
		assert_eq!(held(2), Bond::get());
		assert_eq!(ValidatorStats::<Test>::get(101), work(10, 1, 0), "the record keeps every round's work");
		// a clean round forgives it
		PogValidators::count_work(&101, &work(10, 0, 0));
		PogValidators::round_settled(2, &drawn, false, &[]);
		assert_eq!(ValidatorBonds::<Test>::get(1).unwrap().strikes, 0);
		// three strikes in a row cost the seat; the set has five, so one can go
		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), 5));
		for round in 3..6 {
			PogValidators::count_work(&101, &work(10, 0, 5));
			PogValidators::round_settled(round, &drawn, false, &[]);
		}
		assert_eq!(ValidatorBonds::<Test>::get(1).unwrap().strikes, 3);
		assert!(!PlannedValidators::<Test>::get().contains(&1), "expelled from the plan");
		assert!(System::events().iter().any(|r| matches!(
			r.event,
			RuntimeEvent::PogValidators(Event::ValidatorExpelled { validator: 1, round: 5 })
		)));
		PogValidators::do_try_state().unwrap();
	});
}

#[test]
fn strikes_never_take_the_set_below_four_and_an_unanswered_audit_is_a_strike() {
	new_test_ext().execute_with(|| {
		let drawn = <PogValidators as Committee<AccountId>>::seated();
		for round in 1..4 {
			// no work at all, but an audit of its evidence left unanswered
			PogValidators::round_settled(round, &drawn, false, &[2]);
		}
		assert_eq!(held(2), 1_000 - 100 - 90 - 81, "a contradiction strike a round");
		assert_eq!(ValidatorBonds::<Test>::get(2).unwrap().strikes, 3);
		assert!(PlannedValidators::<Test>::get().contains(&2), "four validators stay planned");
	});
}

#[test]
fn an_equivocation_burns_its_fraction_and_plans_the_offender_out() {
	new_test_ext().execute_with(|| {
		let offenders = [OffenceDetails { offender: (3, ()), reporters: vec![] }];
		PogValidators::on_offence(&offenders, &[Perbill::from_percent(25)], 0);
		assert_eq!(held(3), 750);
		assert!(!PlannedValidators::<Test>::get().contains(&3));
		change_session();
		assert!(!seated().contains(&3));
	});
}

#[test]
fn bad_changes_are_refused_by_name_and_change_nothing() {
	new_test_ext().execute_with(|| {
		assert_noop!(PogValidators::add_validator(RuntimeOrigin::root(), 1), Error::<Test>::AlreadyValidator);
		assert_noop!(PogValidators::add_validator(RuntimeOrigin::root(), 42), Error::<Test>::CannotBond);
		assert_noop!(PogValidators::remove_validator(RuntimeOrigin::root(), 9), Error::<Test>::NotValidator);
		Keyless::set(&vec![2, 3, 4]);
		assert_noop!(PogValidators::remove_validator(RuntimeOrigin::root(), 1), Error::<Test>::LastValidator);
		let zero = ValidatorRules { max_strikes: 0, ..ValidatorRules::mainnet() };
		assert_noop!(
			PogValidators::set_validator_rules(RuntimeOrigin::root(), zero),
			Error::<Test>::InvalidValidatorRules(ValidatorRule::ZeroMaxStrikes)
		);
		let lenient = ValidatorRules { max_strikes: 5, ..ValidatorRules::mainnet() };
		assert_ok!(PogValidators::set_validator_rules(RuntimeOrigin::root(), lenient));
		assert_eq!(Accountability::<Test>::get(), lenient);
	});
}
