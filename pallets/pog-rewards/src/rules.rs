//! The reward schedule and split: what a round mints and who gets which part.
//!
//! When a round is settled the chain mints `per_round`, halved each time total issuance crosses
//! another half of what is left below `cap` (50%, 75%, 87.5% … of it), and never past `cap`
//! ([`round_emission`]; subtensor's `block_emission.rs` halves the same way). `miners` of it are
//! paid by the round's weight shares, `validators` by the verdicts each cast that agreed with the
//! decided outcome, the rest goes to the treasury ([`RewardRules::split`]).

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;
use sp_runtime::{helpers_128bit::multiply_by_rational_with_rounding, Perbill, Rounding};

/// Most rounds a payment vests over: bounds a miner's tranches.
pub const MAX_VESTING_ROUNDS: u32 = 256;

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
