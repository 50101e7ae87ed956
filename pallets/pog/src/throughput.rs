//! How many verifications a validator does in a round, measured from what the validators really
//! did: the figure that sizes the sample ([`Pallet::verifier_capacity`]).
//!
//! The configuration's `verifications_per_validator` is where the figure starts (at genesis, and
//! again after governance sets a configuration). At each settlement the validators' committee
//! work of the round ([`ValidatorRecord`]: assigned, and silent on) moves it:
//!
//! - **Saturated** (more than half of the validators that had work were silent on more than
//!   [`SATURATED`] of it): the validators did not keep up. The figure drops to the median of what
//!   each of them delivered (assigned − silent), but by at most half a round, so that one bad round
//!   (a network outage) does not empty the sample.
//! - **Loaded and keeping up** (not saturated, and the median validator was assigned at least
//!   [`LOADED`] of the figure): the figure grows by [`GROWTH`] (and at least one), so that the sample
//!   reaches p = 1 as soon as the validators can verify every committed GPU.
//! - Otherwise (the sample was smaller than the capacity: p = 1 already, or few GPUs committed) it
//!   stays: a round that did not load the validators says nothing about how much more they could do.
//!
//! The figure stays within [`Pallet::throughput_bounds`]: at least a quarter of the configured
//! figure (a round can always verify something, and the figure can grow back), at most what the
//! off-chain worker can verify from the draw to the verdict deadline (`MAX_VERIFICATIONS_PER_RUN`
//! a block). The GPUs revealed on chain are also bounded by the verdicts their committees send
//! ([`Pallet::verdict_capacity`]); served GPUs' passes land in bulk ([`crate::attestation`]).
//!
//! The median makes it hold against a minority: validators that go silent on purpose (to shrink
//! the sample and keep cheaters unverified) move it only while they are more than half of the
//! validators, and each such round is a silence strike against each of them
//! (`pallet-pog-validators`). Validators cannot overstate what they do: the figure grows only from
//! verdicts that landed.

use alloc::vec::Vec;
use frame_support::pallet_prelude::*;
use sp_runtime::Perbill;

use crate::pallet::*;
use crate::rounds::RoundIndex;
use pog_traits::ValidatorRecord;

/// The share of its assignments a validator may be silent on and still count as keeping up.
pub const SATURATED: Perbill = Perbill::from_percent(10);
/// The share of the figure the median validator must be assigned for a round that kept up to
/// grow the figure (the sample's size varies with the draw around the capacity).
pub const LOADED: Perbill = Perbill::from_percent(75);
/// How much a loaded round that kept up grows the figure.
pub const GROWTH: Perbill = Perbill::from_percent(25);

/// What a round's committee work says about the validators' throughput.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum Measured {
	/// More than half of the validators with work did not keep up: the figure fell.
	Saturated,
	/// The validators were loaded and kept up: the figure grew.
	KeptUp,
	/// The round did not load the validators (or none had work): the figure stayed.
	Unloaded,
}

/// The next figure of verifications per validator per round, from the `current` one and the
/// round's committee `work` (one record per committee member that had work), kept within
/// `bounds` (floor, ceiling).
pub fn next_figure(current: u32, work: &[ValidatorRecord], bounds: (u32, u32)) -> (u32, Measured) {
	let (floor, ceiling) = bounds;
	let with_work: Vec<&ValidatorRecord> = work.iter().filter(|r| r.assigned > 0).collect();
	if with_work.is_empty() {
		return (current.clamp(floor, ceiling), Measured::Unloaded);
	}
	// the upper median (of two, the larger): a tie between halves does not shrink the figure
	let median = |mut xs: Vec<u32>| -> u32 {
		xs.sort_unstable();
		xs.get(xs.len() / 2).copied().unwrap_or_default()
	};
	let saturated =
		with_work.iter().filter(|r| Perbill::from_rational(r.silent.min(r.assigned), r.assigned) > SATURATED).count();
	if saturated * 2 > with_work.len() {
		let delivered = median(with_work.iter().map(|r| r.assigned.saturating_sub(r.silent)).collect());
		let figure = delivered.max(current / 2).min(current);
		return (figure.clamp(floor, ceiling), Measured::Saturated);
	}
	let assigned = median(with_work.iter().map(|r| r.assigned).collect());
	if assigned >= LOADED * current {
		let figure = current.saturating_add((GROWTH * current).max(1));
		return (figure.clamp(floor, ceiling), Measured::KeptUp);
	}
	(current.clamp(floor, ceiling), Measured::Unloaded)
}

impl<T: Config> Pallet<T> {
	/// Verifications one validator does in a round, as measured ([`MeasuredThroughput`]; the
	/// configuration's figure until a round has moved it).
	pub fn verifications_per_validator() -> u32 {
		let (floor, ceiling) = Self::throughput_bounds();
		MeasuredThroughput::<T>::get()
			.unwrap_or(Configuration::<T>::get().verifications_per_validator)
			.clamp(floor, ceiling)
	}

	/// The range the measured figure stays in: from a quarter of the configuration's figure (at
	/// least one) to what the off-chain worker can verify in a round
	/// ([`ProtocolConfig::verifications_ceiling`]).
	pub fn throughput_bounds() -> (u32, u32) {
		let config = Configuration::<T>::get();
		let ceiling = config.verifications_ceiling();
		((config.verifications_per_validator / 4).max(1).min(ceiling), ceiling)
	}

	/// Round `round` is settled: its committee `work` moves the measured figure
	/// ([`next_figure`]).
	pub(crate) fn measure_throughput(round: RoundIndex, work: &[ValidatorRecord]) {
		let (figure, measured) = next_figure(Self::verifications_per_validator(), work, Self::throughput_bounds());
		MeasuredThroughput::<T>::put(figure);
		Self::deposit_event(Event::ThroughputMeasured { round, per_validator: figure, measured });
	}
}
