//! The rules validators answer by for their committee work, judged per settled round
//! ([`ValidatorRules::strike`]), and the bounds on what a round's judgment can cost the set.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use frame_support::ensure;
use pog_traits::ValidatorRecord;
use scale_info::TypeInfo;
use sp_runtime::Perbill;

/// With committees drawn from a larger set, the share of a round's assignments a validator may
/// contradict without a strike. A coalition of m of the V validators outvotes an honest member
/// wherever it holds the other four seats of its committee of five, C(m,4)/C(V−1,4) of its
/// assignments: 1.0% at a third of 64 (m = 21), 0.08% at a fifth; a validator that passes
/// everything without checking is struck wherever the cheaters it passed that a quorum failed
/// exceed this share (`docs/protocol.md` §18).
pub const SAMPLED_CONTRADICTION_TOLERANCE: Perbill = Perbill::from_percent(5);

/// With committees drawn from a larger set, contradictions in a round that are never a strike
/// whatever the share (a validator with few assignments).
pub const SAMPLED_CONTRADICTIONS_FORGIVEN: u32 = 2;

/// The smallest set strikes leave seated: 3f + 1 validators with f = 1, the smallest that
/// tolerates a faulty one. Strikes still burn bond below it; only root (or a proven equivocation)
/// makes the set smaller.
pub const BFT_MINIMUM: u32 = 4;

/// Most validators struck out of a planned set of `planned` in one round's judgment: a tenth of
/// the set, at least one. Whatever a miner or a coalition makes honest validators look like, a
/// round can cost the set at most this many seats (root re-adds them), and strikes never take it
/// below [`BFT_MINIMUM`].
pub fn max_expulsions(planned: u32) -> u32 {
	(planned / 10).max(1)
}

/// How validators answer for their committee work, judged per settled round.
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
pub struct ValidatorRules {
	/// A round in which a validator contradicted more than this share of the decided outcomes
	/// it was assigned is a strike (mainnet: none tolerated; verdicts are exact).
	pub contradiction_tolerance: Perbill,
	/// A round in which a validator said nothing on more than this share of its assignments is
	/// a strike.
	pub silence_tolerance: Perbill,
	/// Share of the bond burned for a contradiction strike.
	pub contradiction_slash: Perbill,
	/// Share of the bond burned for a silence strike.
	pub silence_slash: Perbill,
	/// Strikes at which a validator loses its seat (a clean round forgives one).
	pub max_strikes: u32,
}

/// Which rule of [`ValidatorRules::validate`] a set of rules breaks.
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
	frame_support::PalletError,
)]
pub enum ValidatorRule {
	/// `max_strikes` is zero: every validator would lose its seat at once.
	ZeroMaxStrikes,
	/// `silence_tolerance` is 100%: silence could never be a strike.
	SilenceAlwaysTolerated,
	/// `contradiction_tolerance` is 100%: contradicting could never be a strike.
	ContradictionAlwaysTolerated,
}

impl ValidatorRules {
	/// Mainnet: any contradiction of a decided outcome is a strike burning 10% of the bond;
	/// silence on more than a third of a round's assignments is a strike burning 1%; the third
	/// strike without a clean round between costs the seat.
	pub const fn mainnet() -> Self {
		Self {
			contradiction_tolerance: Perbill::zero(),
			silence_tolerance: Perbill::from_percent(33),
			contradiction_slash: Perbill::from_percent(10),
			silence_slash: Perbill::from_percent(1),
			max_strikes: 3,
		}
	}

	/// Checks the rules, naming the first one broken.
	pub fn validate(&self) -> Result<(), ValidatorRule> {
		ensure!(self.max_strikes > 0, ValidatorRule::ZeroMaxStrikes);
		ensure!(self.silence_tolerance < Perbill::one(), ValidatorRule::SilenceAlwaysTolerated);
		ensure!(self.contradiction_tolerance < Perbill::one(), ValidatorRule::ContradictionAlwaysTolerated);
		Ok(())
	}

	/// The share of the bond a round's `work` costs, if that round is a strike: a contradiction
	/// strike outweighs a silence strike. With committees drawn from the set (`sampled`, more
	/// than `pallet_pog::verification::WHOLE_SET_UP_TO` validators) contradictions are struck only
	/// beyond [`SAMPLED_CONTRADICTION_TOLERANCE`] of the assignments and
	/// [`SAMPLED_CONTRADICTIONS_FORGIVEN`]: a coalition below a third of the set still holds four
	/// of five seats on some committees, where its quorum outvotes an honest member. An audit of
	/// its evidence left unopened (`unproven`, `pallet_pog::evidence`) is a contradiction strike
	/// whatever the work.
	pub fn strike(&self, work: &ValidatorRecord, sampled: bool, unproven: bool) -> Option<Perbill> {
		let by_work = self.strike_for_work(work, sampled);
		if unproven {
			Some(by_work.unwrap_or_default().max(self.contradiction_slash))
		} else {
			by_work
		}
	}

	/// [`Self::strike`] for the work alone.
	fn strike_for_work(&self, work: &ValidatorRecord, sampled: bool) -> Option<Perbill> {
		if work.assigned == 0 {
			return None;
		}
		let share = |n: u32| Perbill::from_rational(n, work.assigned);
		let (tolerance, forgiven) = if sampled {
			(self.contradiction_tolerance.max(SAMPLED_CONTRADICTION_TOLERANCE), SAMPLED_CONTRADICTIONS_FORGIVEN)
		} else {
			(self.contradiction_tolerance, 0)
		};
		if work.contradicted > forgiven && share(work.contradicted) > tolerance {
			Some(self.contradiction_slash)
		} else if work.silent > 0 && share(work.silent) > self.silence_tolerance {
			Some(self.silence_slash)
		} else {
			None
		}
	}
}

impl Default for ValidatorRules {
	fn default() -> Self {
		Self::mainnet()
	}
}
