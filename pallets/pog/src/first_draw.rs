//! A GPU's first verification comes in its first round, so that a sample diluted by many
//! committed GPUs cannot leave a newcomer unverified (and uncredited) round after round.
//!
//! A GPU that has never passed a verification joins its round's *first draw* when it commits
//! ([`FirstDraws`]), unless it is on probation already (left undecided in the round before, and
//! selected whatever the draw). At the sample's draw the first draw takes what the capacity
//! leaves after the undecided GPUs: every newcomer is selected while they fit, and otherwise each
//! with probability room / newcomers, the same for all (a griefer who registers GPUs to crowd
//! newcomers out pays for each of its own that is drawn and fails); the other GPUs share what
//! remains ([`Pallet::draw_probabilities`]). A GPU that was verified once keeps its credit while
//! it is not drawn, so the newcomers' priority costs it nothing.

use crate::{pallet::*, scoring::GpuStanding, types::*};
use codec::{Decode, Encode, MaxEncodedLen};
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
	/// (selected whatever the draw) and `newcomers` in the first draw.
	pub fn new(capacity: u32, committed: u32, undecided: u32, newcomers: u32) -> Self {
		if committed <= capacity {
			return Self { first: Perbill::one(), others: Perbill::one() };
		}
		let room = capacity.saturating_sub(undecided);
		if newcomers >= room {
			return Self { first: Perbill::from_rational(room, newcomers.max(1)), others: Perbill::zero() };
		}
		let others = committed.saturating_sub(undecided).saturating_sub(newcomers).max(1);
		Self { first: Perbill::one(), others: Perbill::from_rational(room - newcomers, others) }
	}
}

impl GpuStanding {
	/// Whether this GPU joins round `round`'s first draw: never verified, and not on probation
	/// (left undecided in the round before).
	pub fn is_newcomer_in(&self, round: RoundIndex) -> bool {
		self.verified_round.is_none() && !self.on_probation_in(round)
	}
}

impl<T: Config> Pallet<T> {
	/// Enters `miner`'s GPUs `landed` (just committed in round `index`) that were never verified
	/// in the round's first draw.
	pub(crate) fn enter_first_draw(index: RoundIndex, miner: &T::AccountId, landed: &[GpuIndex]) {
		let standing = Standing::<T>::get(miner);
		let mut entered = FirstDraws::<T>::get(index, miner);
		let before = entered.len();
		for gpu in landed {
			if standing.get(*gpu as usize).is_some_and(|s| s.is_newcomer_in(index)) && !entered.contains(gpu) {
				// bounded like the miner's GPUs, each of which commits once a round
				let _ = entered.try_push(*gpu);
			}
		}
		let added = (entered.len() - before) as u32;
		if added > 0 {
			FirstDraws::<T>::insert(index, miner, entered);
			FirstDrawOf::<T>::mutate(index, |d| d.newcomers = d.newcomers.saturating_add(added));
		}
	}

	/// Whether `miner`'s GPU `gpu` is in round `round`'s first draw.
	pub fn in_first_draw(round: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		FirstDraws::<T>::get(round, miner).contains(&gpu)
	}
}
