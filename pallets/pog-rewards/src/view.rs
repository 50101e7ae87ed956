//! What the runtime API shows of the reward ledger (`PogApi::rewards`).

use codec::{Decode, Encode};
use frame_support::traits::{fungible::Inspect, Get};
use scale_info::TypeInfo;
use sp_runtime::SaturatedConversion;

use crate::{
	pallet::{BalanceOf, Config, Emitted, LastEmission, Pallet, Rewards},
	payout::Emission,
	rules::{round_emission, RewardRules},
};

/// The reward schedule as the runtime API shows it.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct RewardsView<AccountId, Balance> {
	/// The schedule and split.
	pub rules: RewardRules,
	/// Everything the rounds' emission minted so far.
	pub emitted: Balance,
	/// What the next settled round mints at today's total issuance.
	pub next_emission: Balance,
	/// The last settled round's emission and its split.
	pub last: Option<Emission<Balance>>,
	/// The treasury account.
	pub treasury: AccountId,
	/// Its balance.
	pub treasury_balance: Balance,
}

impl<T: Config> Pallet<T> {
	/// The reward schedule, what it minted, and the treasury.
	pub fn view() -> RewardsView<T::AccountId, BalanceOf<T>> {
		let rules = Rewards::<T>::get();
		let issuance: u128 = T::Currency::total_issuance().saturated_into();
		let treasury = T::Treasury::get();
		RewardsView {
			rules,
			emitted: Emitted::<T>::get(),
			next_emission: round_emission(&rules, issuance).saturated_into(),
			last: LastEmission::<T>::get(),
			treasury_balance: T::Currency::balance(&treasury),
			treasury,
		}
	}
}
