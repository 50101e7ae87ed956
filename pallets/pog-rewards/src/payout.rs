//! A settled round's emission and its payment.
//!
//! Validators and the treasury are paid when the round is settled (at most one transfer per
//! validator with agreeing verdicts); miners are paid a page a block from the next block on
//! ([`Payout`]), before another round can start: as many as weigh no more than a settlement
//! batch ([`Pallet::payout_page`]), since a payout block settles nothing. A part nobody earned
//! (no scored miner, no agreeing verdict) and every rounding remainder go to the treasury, so
//! the round mints exactly its emission.

use frame_support::{pallet_prelude::*, traits::fungible::Mutate};
use sp_runtime::{
	traits::{Saturating, Zero},
	SaturatedConversion,
};

use crate::{
	pallet::{AgreedVerdicts, BalanceOf, Config, Emitted, Event, LastEmission, Pallet, PendingPayout, Rewards},
	rules::{pro_rata, round_emission},
	WeightInfo,
};
use frame_support::traits::fungible::Inspect;
use pog_traits::{Payees, RoundIndex};

/// A settled round's emission and where it went.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Emission<Balance> {
	/// The round.
	pub round: RoundIndex,
	/// All it minted.
	pub emission: Balance,
	/// The miners' part, paid by weight share (0 with no scored miner).
	pub miners: Balance,
	/// Paid to validators.
	pub validators: Balance,
	/// Paid to the treasury (its part, what nobody earned; the miners' rounding remainder
	/// follows when they are paid).
	pub treasury: Balance,
}

/// Miners of a settled round not paid yet: paid from the weight shares, a page a block
/// ([`Pallet::payout_page`]).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Payout<Balance> {
	/// The round whose emission this is.
	pub round: RoundIndex,
	/// The miners' part of its emission.
	pub pot: Balance,
	/// Paid so far.
	pub paid: Balance,
	/// The next weight-share entry to pay.
	pub next: u32,
}

impl<T: Config> Pallet<T> {
	/// Mints `amount` into `who`'s free balance; returns what was minted (nothing where the
	/// account cannot exist with it).
	fn mint(who: &T::AccountId, amount: u128) -> u128 {
		if amount == 0 {
			return 0;
		}
		let minted = T::Currency::mint_into(who, amount.saturated_into()).map(|_| amount).unwrap_or(0);
		Self::note_minted(minted.saturated_into());
		minted
	}

	/// Mints round `round`'s emission: the validators' and the treasury's parts at once, the
	/// miners' part left to [`Self::pay_some_miners`]. Called once every miner is settled and
	/// the weight shares are recomputed. Verdicts are counted by the committee member (`pog!`
	/// account) that signed them; each member's part is paid to its validator in `seats`
	/// (validator, member): the bonded account its operator holds the phrase of, not the hot key
	/// in its node's keystore.
	pub fn emit_round(round: RoundIndex, seats: &[(T::AccountId, T::AccountId)]) {
		// No payout is pending here: a round starts only once the last one is paid.
		let rules = Rewards::<T>::get();
		let emission = round_emission(&rules, T::Currency::total_issuance().saturated_into());
		let (miners, validators, treasury) = rules.split(emission);
		let work: alloc::vec::Vec<(T::AccountId, u32)> = AgreedVerdicts::<T>::drain().collect();
		let total_work: u128 = work.iter().map(|(_, n)| u128::from(*n)).sum();
		let mut paid_validators = 0u128;
		for (member, agreed) in &work {
			// a member is always drawn from a seat; the part of one that was not (none can be)
			// goes to the treasury, never to a `pog!` key
			let Some((validator, _)) = seats.iter().find(|(_, m)| m == member) else {
				log::error!(target: "runtime::pog", "verdicts counted for {member:?}, a member of no seat: its part goes to the treasury");
				continue;
			};
			let amount = Self::mint(validator, pro_rata(validators, u128::from(*agreed), total_work));
			if amount > 0 {
				paid_validators += amount;
				Self::deposit_event(Event::ValidatorPaid {
					round,
					validator: validator.clone(),
					amount: amount.saturated_into(),
				});
			}
		}
		let scored = !T::Payees::shares().is_empty();
		let pot = if scored { miners } else { 0 };
		let to_treasury = treasury
			.saturating_add(validators.saturating_sub(paid_validators))
			.saturating_add(miners.saturating_sub(pot));
		let treasury_minted = Self::mint(&T::Treasury::get(), to_treasury);
		if pot > 0 {
			PendingPayout::<T>::put(Payout { round, pot: pot.saturated_into(), paid: Zero::zero(), next: 0 });
		}
		Emitted::<T>::mutate(|e| *e = e.saturating_add(emission.saturated_into()));
		let record = Emission {
			round,
			emission: emission.saturated_into(),
			miners: pot.saturated_into(),
			validators: paid_validators.saturated_into(),
			treasury: treasury_minted.saturated_into(),
		};
		LastEmission::<T>::put(record);
		Self::deposit_event(Event::RoundEmission {
			round,
			emission: record.emission,
			miners: record.miners,
			validators: record.validators,
			treasury: record.treasury,
		});
	}

	/// Miners paid a block: as many as weigh no more than the proof's settlement batch
	/// (`Payees::page_budget`), never fewer than the batch's miners, never more than
	/// `MaxPayees`. A payout block settles nothing (a round starts only once the last is paid),
	/// so it has the batch's share of the block; paying a miner weighs about a twenty-fifth of
	/// settling one of 16 GPUs, so a registry is paid in a few blocks, not in as many as it took
	/// to settle (docs/protocol.md §17).
	pub fn payout_page() -> u32 {
		let (budget, batch) = T::Payees::page_budget();
		// `pay_miners(n)` is `base + n × per`, linear in the miners paid.
		let one = T::WeightInfo::pay_miners(1).ref_time();
		let per = T::WeightInfo::pay_miners(2).ref_time().saturating_sub(one).max(1);
		let page = budget.ref_time().saturating_sub(one) / per + 1;
		(page.min(u64::from(T::MaxPayees::get())) as u32).max(batch.max(1))
	}

	/// Pays a page ([`Self::payout_page`]) of the pending payout, if any. Returns the miners paid.
	pub fn pay_some_miners() -> u32 {
		let Some(payout) = PendingPayout::<T>::get() else { return 0 };
		Self::pay_page(payout, Self::payout_page())
	}

	/// Pays the next `page` miners of `payout`, each its weight share of the pot, held to vest;
	/// the last page mints the rounding remainder to the treasury. Returns the miners paid.
	pub fn pay_page(mut payout: Payout<BalanceOf<T>>, page: u32) -> u32 {
		let shares = T::Payees::shares();
		let vesting_rounds = Rewards::<T>::get().vesting_rounds;
		let pot: u128 = payout.pot.saturated_into();
		let from = payout.next as usize;
		let page: alloc::vec::Vec<_> = shares.iter().skip(from).take(page as usize).cloned().collect();
		for (miner, share) in &page {
			let left = pot.saturating_sub(payout.paid.saturated_into());
			let amount = share.mul_floor(pot).min(left);
			if Self::pay_miner(miner, amount, vesting_rounds) {
				payout.paid = payout.paid.saturating_add(amount.saturated_into());
				Self::deposit_event(Event::MinerPaid {
					round: payout.round,
					miner: miner.clone(),
					amount: amount.saturated_into(),
				});
			}
		}
		payout.next = payout.next.saturating_add(page.len() as u32);
		if payout.next as usize >= shares.len() {
			Self::mint(&T::Treasury::get(), pot.saturating_sub(payout.paid.saturated_into()));
			PendingPayout::<T>::kill();
			T::Payees::paid_out();
		} else {
			PendingPayout::<T>::put(payout);
		}
		page.len() as u32
	}

	/// Weight of a block's payout page of `paid` miners (none: the pending payout read).
	pub fn payout_weight(paid: u32) -> Weight {
		match paid {
			0 => T::DbWeight::get().reads(1),
			miners => T::WeightInfo::pay_miners(miners),
		}
	}

	/// Counts an agreeing verdict of `validator` in the round being settled (paid by these).
	pub(crate) fn count_agreed(validator: &T::AccountId) {
		AgreedVerdicts::<T>::mutate(validator, |n| *n = n.saturating_add(1));
	}
}
