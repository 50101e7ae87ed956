//! The reward ledger on its own, with the proof stood in for ([`crate::mock::TestPayees`]).
//! pallet-pog's tests run it with the real proof: rounds settled, miners paid, failures burned.

use crate::{
	mock::*,
	pallet::{AgreedVerdicts, EarningsOf, Error, Event, HoldReason, LastEmission, Ledger, PendingPayout},
	rules::{RewardRule, RewardRules},
};
use frame_support::{
	assert_noop, assert_ok,
	traits::fungible::{Inspect, InspectHold, Mutate},
};
use pog_traits::RoundPay;
use sp_runtime::Perbill;

fn vesting(who: AccountId) -> Balance {
	Balances::balance_on_hold(&RuntimeHoldReason::PogRewards(HoldReason::Vesting), &who)
}

/// `miner` alone scored: a round settled and its miners' part (800) paid, held to vest.
fn miner_paid_a_round(miner: AccountId) {
	Shares::set(&vec![(miner, Perbill::one())]);
	Registered::set(&vec![miner]);
	<PogRewards as RoundPay<_, _>>::round_settled(1, &[]);
	<PogRewards as RoundPay<_, _>>::pay_some();
}

#[test]
fn a_round_mints_exactly_its_emission_split_by_shares_and_agreeing_verdicts() {
	new_test_ext().execute_with(|| {
		Shares::set(&vec![(2, Perbill::from_percent(75)), (3, Perbill::from_percent(25))]);
		Registered::set(&vec![2, 3]);
		<PogRewards as RoundPay<_, _>>::agreed(&7);
		for _ in 0..3 {
			<PogRewards as RoundPay<_, _>>::agreed(&8);
		}
		let issuance = Balances::total_issuance();
		let treasury = Balances::balance(&TREASURY);
		// members 7 and 8 sign for validators 17 and 18 (their `pog!` accounts)
		let before = [17, 18].map(|v| Balances::balance(&v));
		<PogRewards as RoundPay<_, _>>::round_settled(5, &[(17, 7), (18, 8)]);
		// 1,000: 800 to miners (pending), 100 to validators by 1:3 verdicts, 100 to the treasury
		assert_eq!(Balances::balance(&17), before[0] + 25, "paid to the validator");
		assert_eq!(Balances::balance(&18), before[1] + 75);
		assert_eq!((Balances::balance(&7), Balances::balance(&8)), (FUNDS, FUNDS), "not to its pog! account");
		assert!(System::events()
			.iter()
			.any(|r| r.event == Event::ValidatorPaid { round: 5, validator: 18, amount: 75 }.into()));
		assert_eq!(Balances::balance(&TREASURY), treasury + 100);
		assert!(<PogRewards as RoundPay<_, _>>::paying(), "the miners' part waits for the next block");
		assert_eq!(AgreedVerdicts::<Test>::iter().count(), 0);
		<PogRewards as RoundPay<_, _>>::pay_some();
		assert!(!<PogRewards as RoundPay<_, _>>::paying());
		assert_eq!((vesting(2), vesting(3)), (600, 200), "paid by share, held to vest");
		assert_eq!(PaidOut::get(), 1, "the proof is told the payout is over");
		assert_eq!(Balances::total_issuance(), issuance + 1_000, "exactly the round's emission");
		assert_eq!(LastEmission::<Test>::get().map(|e| e.emission), Some(1_000));
		assert_eq!(Ledger::<Test>::get().map(|l| l.minted), Some(1_000));
		assert_ok!(PogRewards::do_try_state());
	});
}

#[test]
fn the_part_of_a_member_of_no_seat_goes_to_the_treasury_not_to_its_key() {
	new_test_ext().execute_with(|| {
		<PogRewards as RoundPay<_, _>>::agreed(&7);
		<PogRewards as RoundPay<_, _>>::agreed(&8);
		let treasury = Balances::balance(&TREASURY);
		<PogRewards as RoundPay<_, _>>::round_settled(5, &[(18, 8)]);
		// 100 to validators: 50 to 8's validator 18, 7's 50 to the treasury with its own 100
		assert_eq!(Balances::balance(&7), FUNDS, "nothing to a member of no seat");
		assert_eq!(Balances::balance(&18), FUNDS + 50);
		assert_eq!(Balances::balance(&TREASURY), treasury + 150 + 800, "nobody scored: the miners' part too");
		assert_ok!(PogRewards::do_try_state());
	});
}

#[test]
fn nobody_scored_and_nobody_agreeing_leaves_it_all_to_the_treasury() {
	new_test_ext().execute_with(|| {
		let treasury = Balances::balance(&TREASURY);
		<PogRewards as RoundPay<_, _>>::round_settled(1, &[]);
		assert_eq!(Balances::balance(&TREASURY), treasury + 1_000);
		assert!(!PendingPayout::<Test>::exists());
		assert_ok!(PogRewards::do_try_state());
	});
}

#[test]
fn a_failure_burns_its_share_of_unvested_pay_and_leaving_forfeits_the_rest() {
	new_test_ext().execute_with(|| {
		miner_paid_a_round(2);
		assert_eq!(vesting(2), 800);
		let issuance = Balances::total_issuance();
		// a quarter of its points failed: a quarter of 800 burned, then a quarter of 600 released
		assert_eq!(<PogRewards as RoundPay<_, _>>::vest(&2, 1, 4), 200);
		assert_eq!(vesting(2), 450);
		assert_eq!(Balances::total_issuance(), issuance - 200);
		assert!(System::events().iter().any(|r| r.event == Event::UnvestedBurned { miner: 2, amount: 200 }.into()));
		let treasury = Balances::balance(&TREASURY);
		<PogRewards as RoundPay<_, _>>::forfeit(&2);
		assert_eq!(vesting(2), 0);
		assert_eq!(Balances::balance(&TREASURY), treasury + 450);
		assert!(!EarningsOf::<Test>::contains_key(2));
		Registered::set(&vec![]);
		assert_ok!(PogRewards::do_try_state());
	});
}

#[test]
fn an_evicted_miner_keeps_its_unvested_pay() {
	new_test_ext().execute_with(|| {
		miner_paid_a_round(2);
		let free = Balances::balance(&2);
		<PogRewards as RoundPay<_, _>>::release(&2);
		assert_eq!(vesting(2), 0);
		assert_eq!(Balances::balance(&2), free + 800);
	});
}

#[test]
fn a_miner_gone_before_its_page_is_not_paid_and_its_part_goes_to_the_treasury() {
	new_test_ext().execute_with(|| {
		Shares::set(&vec![(2, Perbill::from_percent(50)), (3, Perbill::from_percent(50))]);
		Registered::set(&vec![2, 3]);
		<PogRewards as RoundPay<_, _>>::round_settled(1, &[]);
		Registered::set(&vec![3]);
		let treasury = Balances::balance(&TREASURY);
		<PogRewards as RoundPay<_, _>>::pay_some();
		assert_eq!((vesting(2), vesting(3)), (0, 400));
		assert_eq!(Balances::balance(&TREASURY), treasury + 400);
	});
}

#[test]
fn a_reward_schedule_that_breaks_a_rule_is_refused_by_name() {
	new_test_ext().execute_with(|| {
		let broken = RewardRules { vesting_rounds: 0, ..RewardRules::mainnet() };
		assert_noop!(
			PogRewards::set_rewards(frame_system::RawOrigin::Root.into(), broken),
			Error::<Test>::InvalidRewards(RewardRule::VestingRounds)
		);
		assert_noop!(
			PogRewards::set_rewards(frame_system::RawOrigin::Signed(2).into(), RewardRules::mainnet()),
			sp_runtime::DispatchError::BadOrigin
		);
		assert_ok!(PogRewards::set_rewards(frame_system::RawOrigin::Root.into(), RewardRules::dev()));
		assert_eq!(crate::Rewards::<Test>::get(), RewardRules::dev());
	});
}

#[test]
fn try_state_fails_when_one_unit_is_minted_outside_the_ledger() {
	new_test_ext().execute_with(|| {
		assert_ok!(PogRewards::do_try_state());
		assert_ok!(Balances::mint_into(&2, 1));
		assert!(PogRewards::do_try_state().is_err());
	});
}
