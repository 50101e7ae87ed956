//! Rewards: what a round mints, who is paid, and how a miner's earnings vest.
//!
//! 1. **Emission.** When a round is settled the chain mints `per_round`, halved each time total
//!    issuance crosses another half of what is left below `cap` (50%, 75%, 87.5% … of it), and
//!    never past `cap` ([`round_emission`]; subtensor's `block_emission.rs` halves the same way).
//! 2. **The split** ([`RewardRules::split`]): `miners` of it by the round's weight shares,
//!    `validators` by the verdicts each cast that agreed with the decided outcome, the rest to the
//!    treasury account (`Config::Treasury`; root spends from it with `balances.forceTransfer`).
//!    A part nobody earned (no scored miner, no agreeing verdict) and every rounding remainder go
//!    to the treasury too, so the round mints exactly its emission.
//! 3. **Vesting.** A miner's payment is held (`HoldReason::Vesting`) and released linearly over
//!    `vesting_rounds` settlements ([`Tranche`]). A failed GPU burns its share of the miner's
//!    unvested balance before its deposit is slashed; a miner that leaves forfeits the unvested
//!    rest to the treasury. Validators are paid free (they hold no deposit yet).
//! 4. **Bounded.** Validators and the treasury are paid when the round is settled (at most
//!    `MaxValidators` transfers); miners are paid a page a block from the next block on
//!    ([`Payout`]), before another round can start: as many as weigh no more than a settlement
//!    batch ([`Pallet::payout_page`]), since a payout block settles nothing.

use frame_support::{
	pallet_prelude::*,
	traits::{
		fungible::{Inspect, InspectHold, Mutate, MutateHold},
		tokens::{Fortitude, Precision as TokenPrecision, Restriction},
	},
};
use scale_info::TypeInfo;
use sp_runtime::{
	helpers_128bit::multiply_by_rational_with_rounding,
	traits::{AtLeast32BitUnsigned, Saturating, Zero},
	Perbill, Rounding, SaturatedConversion,
};

use crate::{pallet::*, types::*, WeightInfo};

/// Most rounds a payment vests over: bounds a miner's tranches.
pub const MAX_VESTING_ROUNDS: u32 = 256;
/// Bound of a miner's tranches (one per paid round still vesting).
pub type MaxTranches = ConstU32<MAX_VESTING_ROUNDS>;

/// The reward schedule and split, set at genesis and by root (`set_rewards`).
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	serde::Serialize,
	serde::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct RewardRules {
	/// Total issuance the emission never takes the chain past (planck).
	#[serde(with = "decimal")]
	pub cap: u128,
	/// A round's emission before any halving (planck).
	#[serde(with = "decimal")]
	pub per_round: u128,
	/// Share of the emission paid to miners by weight share.
	pub miners: Perbill,
	/// Share of the emission paid to validators by agreeing verdicts.
	pub validators: Perbill,
	/// Share of the emission paid to the treasury account.
	pub treasury: Perbill,
	/// Settlements a miner's payment is released over, one equal part each (1 to
	/// [`MAX_VESTING_ROUNDS`]).
	pub vesting_rounds: u32,
}

/// A u128 in JSON as a decimal string (a chain spec's numbers stop at u64; the cap does not).
mod decimal {
	use alloc::string::String;
	use serde::{Deserialize, Deserializer, Serializer};

	pub fn serialize<S: Serializer>(value: &u128, s: S) -> Result<S::Ok, S::Error> {
		s.collect_str(value)
	}

	pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
		String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
	}
}

/// The rule a reward schedule breaks ([`RewardRules::validate`]); carried by `Error::InvalidRewards`.
#[derive(
	Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, frame_support::PalletError,
)]
pub enum RewardRule {
	/// `miners + validators + treasury` is not exactly 100%.
	SplitNotWhole,
	/// `vesting_rounds` is 0 or above [`MAX_VESTING_ROUNDS`].
	VestingRounds,
	/// `per_round` is above `cap`.
	EmissionAboveCap,
}

/// POG's planck (12 decimals).
const POG: u128 = 1_000_000_000_000;

impl RewardRules {
	/// Mainnet: 100 M POG at most; 850 POG a round (14,600 rounds a year at 36 min), so the first
	/// half of what is left below the cap is minted in about four years; 80% to miners, 10% to
	/// validators, 10% to the treasury; payments vest over 140 rounds (3.5 days, ≥ 1/p at the
	/// sampling rate of 100,000 GPUs, p = 0.72%).
	pub const fn mainnet() -> Self {
		Self {
			cap: 100_000_000 * POG,
			per_round: 850 * POG,
			miners: Perbill::from_percent(80),
			validators: Perbill::from_percent(10),
			treasury: Perbill::from_percent(10),
			vesting_rounds: 140,
		}
	}

	/// Dev chains: mainnet's schedule, vesting over 10 rounds (20 minutes).
	pub const fn dev() -> Self {
		Self { vesting_rounds: 10, ..Self::mainnet() }
	}

	/// The first rule this schedule breaks.
	pub fn validate(&self) -> Result<(), RewardRule> {
		use RewardRule::*;
		let parts =
			[self.miners, self.validators, self.treasury].iter().map(|p| u64::from(p.deconstruct())).sum::<u64>();
		let rules = [
			(parts == u64::from(Perbill::one().deconstruct()), SplitNotWhole),
			((1..=MAX_VESTING_ROUNDS).contains(&self.vesting_rounds), VestingRounds),
			(self.per_round <= self.cap, EmissionAboveCap),
		];
		match rules.into_iter().find(|(ok, _)| !ok) {
			Some((_, broken)) => Err(broken),
			None => Ok(()),
		}
	}

	/// `emission` split into (miners, validators, treasury); the treasury takes the rounding
	/// remainder, so the three sum to `emission` exactly.
	pub fn split(&self, emission: u128) -> (u128, u128, u128) {
		let miners = self.miners.mul_floor(emission);
		let validators = self.validators.mul_floor(emission);
		(miners, validators, emission.saturating_sub(miners).saturating_sub(validators))
	}
}

impl Default for RewardRules {
	fn default() -> Self {
		Self::mainnet()
	}
}

/// `amount × numerator / denominator`, rounded down (`sp_arithmetic`'s 256-bit intermediate);
/// 0 for a zero denominator. Every use has `numerator ≤ denominator`, so it always fits.
pub fn pro_rata(amount: u128, numerator: u128, denominator: u128) -> u128 {
	multiply_by_rational_with_rounding(amount, numerator, denominator, Rounding::Down).unwrap_or(0)
}

/// What a round mints at total issuance `issuance`: `per_round` halved once for each half of
/// the remaining room below `cap` already issued (`floor(log2(cap / (cap − issuance)))`
/// halvings), and never more than that room. Zero once `issuance` has reached `cap`.
pub fn round_emission(rules: &RewardRules, issuance: u128) -> u128 {
	let room = rules.cap.saturating_sub(issuance);
	if room == 0 {
		return 0;
	}
	// floor(log2(x)) = floor(log2(floor(x))) for x ≥ 1, and cap / room ≥ 1 here
	let halvings = (rules.cap / room).ilog2();
	(rules.per_round >> halvings).min(room)
}

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
	pub(crate) fn do_set_rewards(rules: RewardRules) -> DispatchResult {
		rules.validate().map_err(Error::<T>::InvalidRewards)?;
		Rewards::<T>::put(rules);
		Self::deposit_event(Event::RewardsUpdated { rules });
		Ok(())
	}

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
	/// the weight shares are recomputed.
	pub(crate) fn emit_round(round: RoundIndex) {
		// No payout is pending here: a round starts only once the last one is paid.
		let rules = Rewards::<T>::get();
		let emission = round_emission(&rules, T::Currency::total_issuance().saturated_into());
		let (miners, validators, treasury) = rules.split(emission);
		let work: alloc::vec::Vec<(T::AccountId, u32)> = AgreedVerdicts::<T>::drain().collect();
		let total_work: u128 = work.iter().map(|(_, n)| u128::from(*n)).sum();
		let mut paid_validators = 0u128;
		for (validator, agreed) in &work {
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
		let scored = !WeightShares::<T>::get().is_empty();
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

	/// Miners paid a block: as many as weigh no more than a settlement batch of `settle_per_block`
	/// miners (`Pallet::settle_weight`), never fewer than `settle_per_block`, never more than
	/// `MaxMiners`. A payout block settles nothing (a round starts only once the last is paid), so
	/// it has the batch's share of the block; paying a miner weighs about a twenty-fifth of
	/// settling one of 16 GPUs, so a registry is paid in a few blocks, not in as many as it took
	/// to settle (docs/protocol.md §17).
	pub fn payout_page() -> u32 {
		let batch = Configuration::<T>::get().settle_per_block.max(1);
		let budget = Self::settle_weight(batch, None).ref_time();
		// `pay_miners(n)` is `base + n × per`, linear in the miners paid.
		let one = T::WeightInfo::pay_miners(1).ref_time();
		let per = T::WeightInfo::pay_miners(2).ref_time().saturating_sub(one).max(1);
		let page = budget.saturating_sub(one) / per + 1;
		(page.min(u64::from(T::MaxMiners::get())) as u32).max(batch)
	}

	/// Pays a page ([`Self::payout_page`]) of the pending payout, if any. Returns the miners paid.
	pub(crate) fn pay_some_miners() -> u32 {
		let Some(payout) = PendingPayout::<T>::get() else { return 0 };
		Self::pay_page(payout, Self::payout_page())
	}

	/// Pays the next `page` miners of `payout`, each its weight share of the pot, held to vest;
	/// the last page mints the rounding remainder to the treasury. Returns the miners paid.
	pub(crate) fn pay_page(mut payout: Payout<BalanceOf<T>>, page: u32) -> u32 {
		let shares = WeightShares::<T>::get();
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
			Self::drop_departed_shares();
		} else {
			PendingPayout::<T>::put(payout);
		}
		page.len() as u32
	}

	/// Mints `amount` to `miner` and holds it to vest over `rounds` settlements; false (nothing
	/// minted) for a miner no longer registered or a mint the currency refuses.
	fn pay_miner(miner: &T::AccountId, amount: u128, rounds: u32) -> bool {
		if amount == 0 || !Miners::<T>::contains_key(miner) {
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

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn emission_halves_at_each_half_of_the_room_left_and_stops_at_the_cap() {
		let rules = RewardRules { cap: 1_000, per_round: 64, ..RewardRules::mainnet() };
		assert_eq!(round_emission(&rules, 0), 64);
		assert_eq!(round_emission(&rules, 499), 64);
		assert_eq!(round_emission(&rules, 500), 32);
		assert_eq!(round_emission(&rules, 749), 32);
		assert_eq!(round_emission(&rules, 750), 16);
		assert_eq!(round_emission(&rules, 875), 8);
		assert_eq!(round_emission(&rules, 999), 0, "64 >> 9 = 0 with 1 left");
		assert_eq!(round_emission(&rules, 1_000), 0);
		assert_eq!(round_emission(&rules, 2_000), 0);
		let big = RewardRules { cap: u128::MAX, per_round: u128::MAX, ..RewardRules::mainnet() };
		assert_eq!(round_emission(&big, 0), u128::MAX);
		assert_eq!(round_emission(&big, u128::MAX - 1), 1);
	}

	#[test]
	fn issuing_every_round_approaches_the_cap_and_never_passes_it() {
		let rules = RewardRules::mainnet();
		let mut issuance = 4_000 * POG;
		for _ in 0..1_000_000 {
			issuance += round_emission(&rules, issuance);
		}
		assert!(issuance <= rules.cap);
		assert!(issuance > rules.cap / 100 * 99, "a million rounds (68 years) issue over 99% of the cap");
	}

	#[test]
	fn the_split_sums_to_the_emission_and_rules_are_named() {
		let rules = RewardRules::mainnet();
		assert_eq!(rules.validate(), Ok(()));
		let (m, v, t) = rules.split(850 * POG + 7);
		assert_eq!(m + v + t, 850 * POG + 7);
		assert_eq!(m, 680 * POG + 5);
		let broken = RewardRules { treasury: Perbill::from_percent(11), ..rules };
		assert_eq!(broken.validate(), Err(RewardRule::SplitNotWhole));
		assert_eq!(RewardRules { vesting_rounds: 0, ..rules }.validate(), Err(RewardRule::VestingRounds));
		assert_eq!(RewardRules { vesting_rounds: 257, ..rules }.validate(), Err(RewardRule::VestingRounds));
		assert_eq!(RewardRules { per_round: rules.cap + 1, ..rules }.validate(), Err(RewardRule::EmissionAboveCap));
	}

	#[test]
	fn pro_rata_and_perbill_do_not_overflow() {
		assert_eq!(pro_rata(u128::MAX, 1, 1), u128::MAX);
		assert_eq!(pro_rata(10, 1, 3), 3);
		assert_eq!(pro_rata(10, 0, 0), 0);
		assert_eq!(Perbill::one().mul_floor(u128::MAX), u128::MAX);
		assert_eq!(Perbill::from_percent(50).mul_floor(101u128), 50);
	}
}
