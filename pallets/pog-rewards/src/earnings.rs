//! A miner's earnings and how they vest.
//!
//! A miner's payment is held (`HoldReason::Vesting`) and released linearly over `vesting_rounds`
//! settlements ([`Tranche`]). A failed GPU burns its share of the miner's unvested balance before
//! its deposit is slashed; a miner that leaves forfeits the unvested rest to the treasury; an
//! evicted miner (it made room, it did not fail) has it released.

use frame_support::{
	pallet_prelude::*,
	traits::{
		fungible::{InspectHold, Mutate, MutateHold},
		tokens::{Fortitude, Precision as TokenPrecision, Restriction},
	},
};
use sp_runtime::{
	traits::{AtLeast32BitUnsigned, Saturating, Zero},
	SaturatedConversion,
};

use crate::{
	pallet::{BalanceOf, Config, EarningsOf, Event, HoldReason, Pallet},
	rules::{pro_rata, MAX_VESTING_ROUNDS},
};
use pog_traits::Payees;

/// Bound of a miner's tranches (one per paid round still vesting).
pub type MaxTranches = ConstU32<MAX_VESTING_ROUNDS>;

/// One round's payment to a miner, still vesting: `left` is released in equal parts over the
/// next `rounds` settlements.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Tranche<Balance> {
	/// Not yet released.
	pub left: Balance,
	/// Settlements it is still released over.
	pub rounds: u32,
}

/// A miner's earnings: what it was paid, what still vests, and what it lost.
#[derive(Clone, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct Earnings<Balance> {
	/// Everything it was paid.
	pub paid: Balance,
	/// Released so far (spendable).
	pub released: Balance,
	/// Burned from its unvested balance for failed GPUs.
	pub burned: Balance,
	/// Payments still vesting, oldest first.
	pub vesting: BoundedVec<Tranche<Balance>, MaxTranches>,
}

impl<Balance: AtLeast32BitUnsigned + Copy> Earnings<Balance> {
	/// The unvested balance (held).
	pub fn unvested(&self) -> Balance {
		self.vesting.iter().fold(Zero::zero(), |s: Balance, t| s.saturating_add(t.left))
	}

	/// A payment of `amount`, vesting over `rounds` settlements.
	pub fn add(&mut self, amount: Balance, rounds: u32) {
		self.paid = self.paid.saturating_add(amount);
		if self.vesting.try_push(Tranche { left: amount, rounds }).is_err() {
			// Full (only after `vesting_rounds` was lowered): the newest tranche takes it.
			if let Some(last) = self.vesting.last_mut() {
				last.left = last.left.saturating_add(amount);
			}
		}
	}

	/// A settlement in which GPUs weighing `failed` of the miner's `all` points failed: each
	/// tranche burns that share (`failed`/`all`), then one part of what is left of each is
	/// released. Returns (burned, released); the caller burns and releases them from the hold.
	pub fn settle(&mut self, failed: u64, all: u64) -> (Balance, Balance) {
		let (mut burned, mut released) = (Balance::zero(), Balance::zero());
		for t in self.vesting.iter_mut() {
			let left: u128 = t.left.saturated_into();
			let burn = pro_rata(left, u128::from(failed.min(all)), u128::from(all));
			let rest = left - burn;
			let release = rest / u128::from(t.rounds.max(1));
			burned = burned.saturating_add(burn.saturated_into());
			released = released.saturating_add(release.saturated_into());
			t.left = (rest - release).saturated_into();
			t.rounds = t.rounds.saturating_sub(1);
		}
		self.vesting.retain(|t| t.rounds > 0 && !t.left.is_zero());
		self.burned = self.burned.saturating_add(burned);
		self.released = self.released.saturating_add(released);
		(burned, released)
	}
}

impl<T: Config> Pallet<T> {
	/// Mints `amount` to `miner` and holds it to vest over `rounds` settlements; false (nothing
	/// minted) for a miner no longer registered or a mint the currency refuses.
	pub(crate) fn pay_miner(miner: &T::AccountId, amount: u128, rounds: u32) -> bool {
		if amount == 0 || !T::Payees::is_payee(miner) {
			return false;
		}
		let value: BalanceOf<T> = amount.saturated_into();
		if T::Currency::mint_into(miner, value).is_err() {
			return false;
		}
		Self::note_minted(value);
		let held = T::Currency::hold(&HoldReason::Vesting.into(), miner, value).is_ok();
		EarningsOf::<T>::mutate(miner, |e| {
			if held {
				e.add(value, rounds);
			} else {
				// Not holdable (a fresh mint always is): paid free.
				e.paid = e.paid.saturating_add(value);
				e.released = e.released.saturating_add(value);
			}
		});
		true
	}

	/// At `who`'s settlement: burns the failed GPUs' share (`failed` of `all` points) of the
	/// unvested balance, then releases one part of each payment ([`Earnings::settle`]). Returns
	/// what was burned.
	pub(crate) fn vest(who: &T::AccountId, failed: u64, all: u64) -> BalanceOf<T> {
		if !EarningsOf::<T>::contains_key(who) {
			return Zero::zero();
		}
		let reason: T::RuntimeHoldReason = HoldReason::Vesting.into();
		let (burned, released) = EarningsOf::<T>::mutate(who, |e| e.settle(failed, all));
		if !burned.is_zero() {
			let burned = T::Currency::burn_held(&reason, who, burned, TokenPrecision::BestEffort, Fortitude::Force)
				.unwrap_or_default();
			Self::note_burned(burned);
			Self::deposit_event(Event::UnvestedBurned { miner: who.clone(), amount: burned });
		}
		if !released.is_zero() {
			T::Currency::release(&reason, who, released, TokenPrecision::BestEffort).unwrap_or_default();
		}
		burned
	}

	/// An evicted miner's unvested balance is released to it: it made room for a newcomer, it did
	/// not fail or leave. Its earnings record is removed.
	pub(crate) fn release_unvested(who: &T::AccountId) {
		let Some((reason, unvested)) = Self::take_unvested(who) else { return };
		let amount = T::Currency::release(&reason, who, unvested, TokenPrecision::BestEffort).unwrap_or_default();
		Self::deposit_event(Event::UnvestedReleased { miner: who.clone(), amount });
	}

	/// A departing miner's unvested balance goes to the treasury; its earnings record is removed.
	pub(crate) fn forfeit_unvested(who: &T::AccountId) {
		let Some((reason, unvested)) = Self::take_unvested(who) else { return };
		let amount = T::Currency::transfer_on_hold(
			&reason,
			who,
			&T::Treasury::get(),
			unvested.min(T::Currency::balance_on_hold(&reason, who)),
			TokenPrecision::BestEffort,
			Restriction::Free,
			Fortitude::Force,
		)
		.unwrap_or_default();
		Self::deposit_event(Event::UnvestedForfeited { miner: who.clone(), amount });
	}

	/// Removes `who`'s earnings record; its unvested balance, if any, with the hold it is under.
	fn take_unvested(who: &T::AccountId) -> Option<(T::RuntimeHoldReason, BalanceOf<T>)> {
		let unvested = EarningsOf::<T>::take(who).unvested();
		(!unvested.is_zero()).then(|| (HoldReason::Vesting.into(), unvested))
	}

	/// Gives `who` the longest vesting schedule there can be: `MAX_VESTING_ROUNDS - 1` payments
	/// still vesting over the most rounds, held (the next payment fills it; a settlement walks
	/// them all). Benchmarks only.
	#[cfg(feature = "runtime-benchmarks")]
	pub fn fill_vesting(who: &T::AccountId) {
		let mut rules = crate::Rewards::<T>::get();
		rules.vesting_rounds = MAX_VESTING_ROUNDS;
		crate::Rewards::<T>::put(rules);
		let part: BalanceOf<T> = 1_000_000u32.into();
		let mut earnings = Earnings::default();
		for _ in 1..MAX_VESTING_ROUNDS {
			earnings.add(part, MAX_VESTING_ROUNDS);
		}
		let _ = T::Currency::mint_into(who, earnings.unvested());
		let _ = T::Currency::hold(&HoldReason::Vesting.into(), who, earnings.unvested());
		EarningsOf::<T>::insert(who, earnings);
	}
}
