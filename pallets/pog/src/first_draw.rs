//! A GPU's first verification comes early: in its first round while the capacity allows, and at
//! twice the others' rate otherwise, so that a sample diluted by many committed GPUs cannot leave
//! a newcomer unverified (and uncredited) round after round, and newcomers cannot crowd the
//! re-verification of credited GPUs out.
//!
//! A GPU that has never passed a verification joins its round's *first draw* when it commits
//! ([`FirstDraws`]), unless it is on probation already (left undecided in the round before, and
//! selected whatever the draw). At the sample's draw the first draw takes what the capacity
//! leaves after the undecided GPUs: every newcomer is selected while that leaves the others at
//! least 1 / [`NEWCOMER_ADVANTAGE`] of the probability, and otherwise newcomers are drawn with
//! [`NEWCOMER_ADVANTAGE`] times the others' probability, the same for all (a griefer who
//! registers GPUs to crowd newcomers out pays for each of its own that is drawn and fails, and
//! cannot crowd re-verification out: the others' probability never falls to zero while there is
//! room, [`DrawProbabilities::new`]). A GPU that was verified once keeps its credit while
//! it is not drawn, so the newcomers' priority costs it nothing.

use crate::rounds::RoundIndex;
use crate::{pallet::*, scoring::GpuStanding};
use codec::{Decode, Encode, MaxEncodedLen};
use pog_primitives::challenge::GpuIndex;
use scale_info::TypeInfo;
use sp_runtime::Perbill;

/// A round's first draw.
#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct FirstDraw {
	/// GPUs that joined it: committed in the round, never verified, not on probation.
	pub newcomers: u32,
	/// Each of them is selected with this probability (set when the sample is drawn).
	pub probability: Perbill,
}

/// The selection probabilities of a round's draw: (first draw's, everyone else's).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawProbabilities {
	/// Each newcomer's (GPUs in the first draw).
	pub first: Perbill,
	/// Each other GPU's (not on probation).
	pub others: Perbill,
}

impl DrawProbabilities {
	/// With `capacity` GPUs to verify, `committed` committed, `undecided` of them on probation
	/// (selected whatever the draw) and `newcomers` in the first draw: the room the undecided
	/// leave is shared so that a newcomer is drawn with [`NEWCOMER_ADVANTAGE`] times the others'
	/// probability (at most 1), the expected sample filling the room.
	pub fn new(capacity: u32, committed: u32, undecided: u32, newcomers: u32) -> Self {
		if committed <= capacity {
			return Self { first: Perbill::one(), others: Perbill::one() };
		}
		let room = u64::from(capacity.saturating_sub(undecided));
		let others = u64::from(committed.saturating_sub(undecided).saturating_sub(newcomers));
		let (n, k) = (u64::from(newcomers), u64::from(NEWCOMER_ADVANTAGE));
		// Newcomers all drawn (p_first = 1) when what is left gives the others at least 1/k.
		if n <= room && others <= (room - n).saturating_mul(k) {
			let p = Perbill::from_rational((room - n).min(others), others.max(1));
			return Self { first: Perbill::one(), others: p };
		}
		// Otherwise p_others = room / (k·newcomers + others), p_first = k·p_others.
		let denominator = n.saturating_mul(k).saturating_add(others).max(1);
		Self {
			first: Perbill::from_rational(room.saturating_mul(k).min(denominator), denominator),
			others: if others == 0 {
				Perbill::zero()
			} else {
				Perbill::from_rational(room.min(denominator), denominator)
			},
		}
	}
}

/// How many times the others' probability a GPU in its first draw is drawn with (while below 1).
/// A miner that answers one fresh claim per card every round and lets its credited claims commit
/// made-up roots holds about this many credits per card, each drawn and slashed at the others'
/// rate, where without the bound the newcomers could fill the room, draw every credited GPU with
/// p = 0 and let a card hold a credit for every round played (the review's F4: 100 credits per
/// card after 100 rounds, 61–87% of the miners' pot, nothing slashed). Honest newcomers are
/// verified twice as soon as the others are re-verified, and every GPU when the capacity covers
/// the round (the normal case, §8).
pub const NEWCOMER_ADVANTAGE: u32 = 2;

impl GpuStanding {
	/// Whether this GPU joins round `round`'s first draw: never verified, and not on probation
	/// (left undecided in the round before).
	pub fn is_newcomer_in(&self, round: RoundIndex) -> bool {
		self.verified_round.is_none() && !self.on_probation_in(round)
	}
}

impl<T: Config> Pallet<T> {
	/// Enters `miner`'s GPUs `landed` (just committed in round `index`) that were never verified
	/// in the round's first draw. Returns how many of the `landed` GPUs are selected whatever the draw
	/// ([`GpuStanding::on_probation_in`]), read from the same standing.
	pub(crate) fn enter_first_draw(index: RoundIndex, miner: &T::AccountId, landed: &[GpuIndex]) -> u32 {
		let standing = Standing::<T>::get(miner);
		let mut entered = FirstDraws::<T>::get(index, miner);
		let before = entered.len();
		let mut forced = 0u32;
		for gpu in landed {
			let Some(s) = standing.get(*gpu as usize) else { continue };
			if s.on_probation_in(index) {
				forced = forced.saturating_add(1);
			} else if s.is_newcomer_in(index) && !entered.contains(gpu) {
				// bounded like the miner's GPUs, each of which commits once a round
				let _ = entered.try_push(*gpu);
			}
		}
		let added = (entered.len() - before) as u32;
		if added > 0 {
			FirstDraws::<T>::insert(index, miner, entered);
			FirstDrawOf::<T>::mutate(index, |d| d.newcomers = d.newcomers.saturating_add(added));
		}
		forced
	}

	/// Whether `miner`'s GPU `gpu` is in round `round`'s first draw.
	pub fn in_first_draw(round: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		FirstDraws::<T>::get(round, miner).contains(&gpu)
	}
}
