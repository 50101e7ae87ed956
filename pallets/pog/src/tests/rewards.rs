//! Rewards (issue 25): emission on schedule and under the cap, the split, vesting, the unvested
//! balance burned for failures and forfeited on leaving, and why stopping once credited loses.

use super::*;
use frame_support::traits::fungible::Inspect;
use pallet_pog_rewards::{
	earnings::Earnings,
	payout::Payout,
	rules::{pro_rata, round_emission, RewardRules},
	EarningsOf, Emitted, Ledger, PendingPayout,
};

fn treasury() -> Balance {
	Balances::balance(&TreasuryAccount::get())
}

/// Who was paid how much.
type Payments = Vec<(AccountId, Balance)>;

/// The miners and the validators paid for `round`.
fn paid_events(round: RoundIndex) -> (Payments, Payments) {
	let (mut miners, mut validators) = (Vec::new(), Vec::new());
	for e in reward_events() {
		match e {
			RewardEvent::MinerPaid { round: r, miner, amount } if r == round => miners.push((miner, amount)),
			RewardEvent::ValidatorPaid { round: r, validator, amount } if r == round => {
				validators.push((validator, amount))
			},
			_ => {},
		}
	}
	(miners, validators)
}

/// A payout block settles nothing, so its page has a settlement batch's weight: many more miners
/// than `settle_per_block`. Seven miners, settled four a block, are all paid in the first block
/// after their round (before, four a block: two blocks).
#[test]
fn a_payout_page_weighs_a_settlement_batch_and_pays_every_miner_of_a_small_round_at_once() {
	new_test_ext().execute_with(|| {
		let batch = test_config().settle_per_block;
		let page = PogRewards::payout_page();
		assert!(page >= 4 * batch, "{page} miners a page, {batch} settled a block");
		let budget = Pog::settle_weight(batch, None).ref_time();
		let max_miners = <<Test as Config>::MaxMiners as frame_support::traits::Get<u32>>::get();
		assert!(
			PogRewards::payout_weight(page).ref_time() <= budget || page == max_miners,
			"a page weighs a batch at most"
		);
		assert!(
			page == max_miners || PogRewards::payout_weight(page + 1).ref_time() > budget,
			"and is as large as fits"
		);

		let names = ["Dave", "Eve", "Ferdie", "Miner1", "Miner2", "Miner3", "Miner4"];
		let miners: Vec<AccountId> = names.iter().map(|n| account(n)).collect();
		for (i, m) in miners.iter().enumerate() {
			register_cpu_miner(*m, &[uuid(i as u8 + 1)]);
		}
		assert!(miners.len() as u32 > batch);
		let round = play_round(&miners.iter().map(|m| (*m, Compute::Honest)).collect::<Vec<_>>());
		assert!(PendingPayout::<Test>::exists(), "the miners' part waits for the next block");
		next_block();
		let (paid, _) = paid_events(round);
		assert_eq!(paid.len(), miners.len(), "every miner paid in one block: {paid:?}");
		assert!(!PendingPayout::<Test>::exists());
		try_state();
	});
}

#[test]
fn over_100_rounds_issuance_grows_by_exactly_the_scheduled_emission_and_never_passes_the_cap() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		// A cap twice today's issuance and 1/20 of it a round: a halving at each of 50%, 75%,
		// 87.5% … of the room, every 10 rounds.
		let start = Balances::total_issuance();
		let rules = RewardRules { cap: 2 * u128::from(start), per_round: u128::from(start) / 20, ..test_rewards() };
		assert_ok!(PogRewards::set_rewards(RuntimeOrigin::root(), rules));
		let (mut halvings, mut last) = (0, rules.per_round);
		let (mut to_miners, mut to_validators) = (0u128, 0u128);
		let treasury_before = treasury();
		for _ in 0..100 {
			let before = u128::from(Balances::total_issuance());
			let expected = round_emission(&rules, before);
			let round = play_round(&[(m, Compute::Honest)]);
			until_paid();
			let after = u128::from(Balances::total_issuance());
			assert_eq!(after - before, expected, "round {round} minted its scheduled emission");
			assert!(after <= rules.cap);
			let (miners, validators) = paid_events(round);
			to_miners += miners.iter().map(|(_, a)| u128::from(*a)).sum::<u128>();
			to_validators += validators.iter().map(|(_, a)| u128::from(*a)).sum::<u128>();
			assert_eq!(settled(m), vec![RoundOutcome::Passed]);
			if expected < last {
				halvings += 1;
				last = expected;
			}
		}
		assert!(halvings >= 6, "the emission halved {halvings} times");
		// Nothing minted is lost: miners, validators and the treasury got every unit of it.
		let emitted = u128::from(Emitted::<Test>::get());
		assert_eq!(emitted, u128::from(Balances::total_issuance() - start));
		assert_eq!(to_miners + to_validators + u128::from(treasury() - treasury_before), emitted);
		// A round at the cap mints nothing.
		let full = RewardRules { cap: u128::from(Balances::total_issuance()), ..rules };
		assert_ok!(PogRewards::set_rewards(RuntimeOrigin::root(), full));
		let before = Balances::total_issuance();
		play_round(&[(m, Compute::Honest)]);
		until_paid();
		assert_eq!(Balances::total_issuance(), before);
	});
}

#[test]
fn an_honest_miner_is_paid_its_share_every_round_and_spends_what_has_vested() {
	new_test_ext().execute_with(|| {
		let (m1, m2) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m1, &[uuid(1)]);
		register_cpu_miner(m2, &[uuid(2), uuid(3)]);
		let rules = test_rewards();
		let free = |who| Balances::balance(&who);
		let mut paid = 0;
		for n in 1..=6u32 {
			let free_before = free(m1);
			let round = play_round(&[(m1, Compute::Honest), (m2, Compute::Honest)]);
			until_paid();
			let (miners, _) = paid_events(round);
			let pot: Balance = miners.iter().map(|(_, a)| *a).sum();
			// Every unit of the miners' part, less one a miner at most for rounding (to the treasury).
			let part = rules.miners.mul_floor(rules.per_round) as Balance;
			assert!(pot <= part && part - pot <= 2, "round {n}: {pot} of {part}");
			let share = |who| miners.iter().find(|(w, _)| *w == who).map(|(_, a)| *a).unwrap_or(0);
			// Two GPUs score twice one GPU's points: shares 1/3 and 2/3.
			assert!(share(m1) > 0 && share(m2) > 0, "both miners are paid in round {n}");
			assert!(share(m2).abs_diff(2 * share(m1)) <= 1, "paid by weight share");
			paid += share(m1);
			let earnings = EarningsOf::<Test>::get(m1);
			assert_eq!(earnings.paid, paid);
			assert_eq!(vesting_hold(m1), earnings.unvested(), "what is not vested is held");
			if n > 1 {
				assert!(free(m1) > free_before, "each settlement releases part of what was paid");
			}
		}
		// What has vested is the miner's to spend.
		let released = EarningsOf::<Test>::get(m1).released;
		assert!(released > 0);
		assert_ok!(Balances::transfer_allow_death(RuntimeOrigin::signed(m1), account("Eve"), released));
		let view = Pog::miner_view(m1).unwrap();
		assert_eq!((view.paid, view.vesting, view.released), (paid, vesting_hold(m1), released));
		try_state();
	});
}

#[test]
fn a_validator_is_paid_for_agreeing_verdicts_and_not_for_silence_or_contradiction() {
	new_test_ext().execute_with(|| {
		let dave = account("Dave");
		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), dave));
		change_session();
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 4, ..test_config() }));
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let free = |who| Balances::balance(&who);
		// Round 1: Dave contradicts the three others (quorum 3 of 4 decides a pass).
		// Round 2: Dave stays silent.
		for dave_votes in [true, false] {
			let index = next_round();
			let result = answer(m, Compute::Honest).remove(0);
			run_until(RoundPhase::Reveal);
			assert_ok!(reveal(m, 0, &result));
			assert_eq!(committee(m, 0).len(), 4);
			if dave_votes {
				let leaf = Openings::<Test>::get((index, m, 0)).unwrap()[0].leaf;
				assert_ok!(Pog::submit_verdict(
					RuntimeOrigin::signed(dave),
					index,
					m,
					0,
					false_verdict(false, Some(leaf))
				));
			}
			for v in validators() {
				assert_ok!(verdict_by(v, m, 0, 7));
			}
			let before: Vec<Balance> = validators().into_iter().chain([dave]).map(free).collect();
			run_until(RoundPhase::Idle);
			assert_eq!(settled(m), vec![RoundOutcome::Passed]);
			let (_, paid) = paid_events(index);
			let rules = test_rewards();
			let part = rules.validators.mul_floor(rules.per_round) as Balance;
			assert_eq!(paid.len(), 3, "the three that agreed are paid");
			for (i, v) in validators().into_iter().enumerate() {
				assert_eq!(free(v) - before[i], part / 3, "{i}: a third of the validators' part");
			}
			assert_eq!(free(dave), before[3], "Dave is not paid (voted: {dave_votes})");
			assert!(paid.iter().all(|(v, _)| *v != dave));
		}
	});
}

#[test]
fn a_miner_that_fails_after_50_paid_rounds_loses_its_unvested_balance_first_and_leaving_forfeits_the_rest() {
	new_test_ext().execute_with(|| {
		let (m1, m2) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m1, &[uuid(1)]);
		register_cpu_miner(m2, &[uuid(2), uuid(3)]);
		for _ in 0..50 {
			play_round(&[(m1, Compute::Honest), (m2, Compute::Honest)]);
			until_paid();
		}
		assert!(EarningsOf::<Test>::get(m1).paid > 0);
		// Round 51: Miner1's only GPU fails, and one of Miner2's two.
		next_round();
		let unvested = |who| EarningsOf::<Test>::get(who).unvested();
		let (u1, u2) = (unvested(m1), unvested(m2));
		assert!(u1 > 0 && u2 > 0);
		let slashed_before = Miners::<Test>::get(m1).unwrap().slashed;
		let r1 = answer(m1, Compute::Corrupt(100)).remove(0);
		let r2 = answer(m2, Compute::Honest);
		// Miner2 does not reveal its GPU 1: it misses.
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m1, 0, &r1));
		assert_ok!(reveal(m2, 0, &r2[0]));
		for g in [0u32] {
			for v in committee(m1, g) {
				assert_ok!(verdict_by(v, m1, g, 7));
			}
			for v in committee(m2, g) {
				assert_ok!(verdict_by(v, m2, g, 7));
			}
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m1), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		assert_eq!(settled(m2), vec![RoundOutcome::Passed, RoundOutcome::Failed(FailReason::MissedReveal)]);
		let burned = |who| {
			reward_events().into_iter().find_map(|e| match e {
				RewardEvent::UnvestedBurned { miner, amount } if miner == who => Some(amount),
				_ => None,
			})
		};
		assert_eq!(burned(m1), Some(u1), "a failed only GPU burns all its unvested earnings");
		// One of two GPUs burns half of each payment still vesting (rounded down, one unit a payment).
		let b2 = burned(m2).expect("Miner2 burned");
		assert!(b2 <= u2 / 2 && u2 / 2 - b2 <= test_rewards().vesting_rounds as Balance, "{b2} of {u2}");
		assert_eq!(unvested(m1), 0);
		assert!(Miners::<Test>::get(m1).unwrap().slashed > slashed_before, "and the deposit is slashed too");
		// Leaving forfeits the unvested rest to the treasury.
		until_paid();
		let rest = unvested(m2);
		assert!(rest > 0);
		let t = treasury();
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(m2)));
		assert_eq!(treasury() - t, rest);
		assert_eq!(vesting_hold(m2), 0);
		assert!(reward_events()
			.iter()
			.any(|e| matches!(e, RewardEvent::UnvestedForfeited { miner, amount } if *miner == m2 && *amount == rest)));
		try_state();
	});
}

/// The review's F11: a failure burns the failed GPUs' share of the unvested pay by points, not by
/// count. A miner's H100 beside seven T4 claims earns most of its pay; when the H100 fails, most
/// of the unvested pay burns (by count it was an eighth).
#[test]
fn a_failure_burns_unvested_pay_by_the_failed_gpus_share_of_points() {
	new_test_ext().execute_with(|| {
		let t4 = Profiles::<Test>::iter().find(|(_, p)| p.name.as_slice() == b"Tesla T4").map(|(id, _)| id).unwrap();
		let points = |id| u64::from(Profiles::<Test>::get(id).unwrap().figures.for_cores(0).points());
		let failed = [true, false, false, false, false, false, false, false];
		let (lost, all) = Pog::failed_points([(H100_PROFILE, 1), (t4, 7)], 0, &failed);
		assert_eq!((lost, all), (points(H100_PROFILE), points(H100_PROFILE) + 7 * points(t4)));
		let mut earnings: Earnings<u128> = Default::default();
		earnings.add(8_000_000, 10);
		let (burned, _) = earnings.settle(lost, all);
		assert_eq!(burned, pro_rata(8_000_000, lost.into(), all.into()));
		assert!(burned > 6_000_000, "the H100's share of the points, not an eighth: {burned}");
	});
}

/// The review's F13: a payout paid in pages indexes the weight shares by position, so a miner
/// leaving between pages must not move them. Shares A 50%, B 25%, C 25%, one miner a page; A
/// leaves after the first page: B and C are still paid 25% each (before, B was skipped and C paid
/// at a rescaled 50%), and A's share is dropped once the payout is done.
#[test]
fn a_miner_leaving_between_payout_pages_shifts_nobody() {
	new_test_ext().execute_with(|| {
		let [a, b, c] = ["Miner1", "Miner2", "Miner3"].map(account);
		for (i, m) in [a, b, c].into_iter().enumerate() {
			register_cpu_miner(m, &[uuid(i as u8 + 1)]);
		}
		let shares =
			vec![(a, Perbill::from_percent(50)), (b, Perbill::from_percent(25)), (c, Perbill::from_percent(25))];
		WeightShares::<Test>::put(frame_support::BoundedVec::truncate_from(shares));
		let payout = Payout { round: 1, pot: 1_000 as Balance, paid: 0, next: 0 };
		PendingPayout::<Test>::put(payout);
		assert_eq!(PogRewards::pay_page(PendingPayout::<Test>::get().unwrap(), 1), 1);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(a)));
		assert!(!Miners::<Test>::contains_key(a));
		assert_eq!(WeightShares::<Test>::get().len(), 3, "nothing moves while the payout is paid");
		while let Some(p) = PendingPayout::<Test>::get() {
			PogRewards::pay_page(p, 1);
		}
		let paid: Vec<(AccountId, Balance)> = reward_events()
			.into_iter()
			.filter_map(|e| match e {
				RewardEvent::MinerPaid { miner, amount, .. } => Some((miner, amount)),
				_ => None,
			})
			.collect();
		assert_eq!(paid, vec![(a, 500), (b, 250), (c, 250)]);
		let left: Vec<AccountId> = WeightShares::<Test>::get().iter().map(|(m, _)| *m).collect();
		assert_eq!(left, vec![b, c], "the departed miner's share goes after the last page");
		try_state();
	});
}

/// Issue 50: `try_state` checks the money. In the mock nothing burns outside PoG, so the total
/// issuance is exactly genesis + minted − burned after a round with emission, a registration fee
/// and a slash; a unit burned outside (as balances' dust is) keeps the check, a unit minted
/// outside the schedule fails it.
#[test]
fn try_state_fails_when_one_unit_is_minted_outside_the_schedule() {
	use frame_support::traits::{
		fungible::Mutate,
		tokens::{Fortitude, Precision, Preservation},
	};
	new_test_ext().execute_with(|| {
		let (honest, cheat) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(honest, &[uuid(1)]);
		register_cpu_miner(cheat, &[uuid(2)]);
		for _ in 0..3 {
			play_round(&[(honest, Compute::Honest), (cheat, Compute::Corrupt(50))]);
		}
		let ledger = Ledger::<Test>::get().expect("opened at genesis");
		assert!(ledger.minted > 0 && ledger.burned > 0, "{ledger:?}");
		assert_eq!(Balances::total_issuance(), ledger.ceiling(), "every mint and burn is counted");
		assert_ok!(PogRewards::do_try_state());
		assert_ok!(Balances::burn_from(&honest, 1, Preservation::Preserve, Precision::Exact, Fortitude::Polite));
		assert_ok!(PogRewards::do_try_state());
		assert_ok!(Balances::mint_into(&honest, 2));
		assert!(PogRewards::do_try_state().is_err(), "one unit more than the ledger allows");
	});
}
