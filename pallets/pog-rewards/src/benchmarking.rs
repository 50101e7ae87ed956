//! Benchmarks of the reward ledger (frame-benchmarking v2), each in its worst case.

use super::*;
use crate::{
	pallet::{AgreedVerdicts, BalanceOf, EarningsOf, Pallet as PogRewards, PendingPayout},
	payout::Payout,
	rules::{RewardRules, MAX_VESTING_ROUNDS},
};
use alloc::vec::Vec;
use frame_benchmarking::v2::*;
use frame_support::traits::{fungible::Inspect, Get};
use frame_system::RawOrigin;
use pog_traits::Payees;
use sp_runtime::Saturating;

const SEED: u32 = 0;

#[benchmarks]
mod benchmarks {
	use super::*;

	/// A page of `m` miners paid, each filling the longest vesting schedule, from a full
	/// registry's weight shares.
	#[benchmark]
	fn pay_miners(m: Linear<1, 64>) {
		let miners: Vec<T::AccountId> = T::Payees::bench_payees(m);
		assert_eq!(miners.len() as u32, m, "the runtime's Payees make benchmark payees");
		miners.iter().for_each(PogRewards::<T>::fill_vesting);
		let pot: BalanceOf<T> =
			T::Currency::minimum_balance().saturating_mul(T::MaxPayees::get().into()).saturating_mul(1_000u32.into());
		let payout = Payout { round: 1, pot, paid: 0u32.into(), next: 0 };
		PendingPayout::<T>::put(payout);
		#[block]
		{
			PogRewards::<T>::pay_page(payout, m);
		}
		for who in &miners {
			assert_eq!(EarningsOf::<T>::get(who).vesting.len() as u32, MAX_VESTING_ROUNDS);
		}
	}

	/// A settled round's emission paid to `v` validators with agreeing verdicts and the
	/// treasury, the miners' part left pending; each member's validator is found among a full
	/// set of seats, listed in the order that makes every search longest.
	#[benchmark]
	fn emit_round(v: Linear<0, { T::MaxValidators::get() }>) {
		let seats: Vec<(T::AccountId, T::AccountId)> = (0..T::MaxValidators::get())
			.rev()
			.map(|i| (account::<T::AccountId>("validator", i, SEED), account::<T::AccountId>("member", i, SEED)))
			.collect();
		for i in 0..v {
			AgreedVerdicts::<T>::insert(account::<T::AccountId>("member", i, SEED), i + 1);
		}
		T::Payees::bench_payees(0);
		#[block]
		{
			PogRewards::<T>::emit_round(1, &seats);
		}
		assert!(PendingPayout::<T>::exists());
		assert_eq!(AgreedVerdicts::<T>::iter().count(), 0);
	}

	#[benchmark]
	fn set_rewards() {
		let rules = RewardRules { vesting_rounds: 7, ..RewardRules::mainnet() };
		#[extrinsic_call]
		_(RawOrigin::Root, rules);
		assert_eq!(crate::Rewards::<T>::get(), rules);
	}

	impl_benchmark_test_suite!(PogRewards, crate::mock::new_test_ext(), crate::mock::Test);
}
