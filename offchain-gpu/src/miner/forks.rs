//! Forks: a fork that replaces a round's start block draws another seed, and one that replaces
//! its draw block another sample. What is computed or opened for the old one never goes out, and
//! the new one is answered.

use std::{collections::BTreeMap, sync::Arc};

use subxt::utils::AccountId32;

use super::Ctx;
use crate::{
	chain::ChallengeView,
	state::{Key, Phase},
};

/// The leaves and walks a selected GPU's openings answer: the chain's sample of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Sample {
	leaves: Vec<u32>,
	walks: Vec<u64>,
}

impl Sample {
	pub(super) fn of(ch: &ChallengeView<AccountId32>) -> Self {
		Sample { leaves: ch.leaves.clone(), walks: ch.walks.clone() }
	}

	/// Whether `ch`'s leaves and walks are these.
	pub(super) fn is_of(&self, ch: &ChallengeView<AccountId32>) -> bool {
		ch.leaves == self.leaves && ch.walks == self.walks
	}
}

/// Whether a selected GPU's openings are sent: the first time, or again when a fork redrew its
/// sample after they went out.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Opening {
	First,
	Redrawn,
	/// Its openings of this sample went out, or it is done.
	Skip,
}

/// Whether a selected GPU whose state file records `phase` is opened for the chain's `sample`,
/// its openings having last answered `opened` (`None`: not sent since this agent started).
pub(super) fn opening(phase: Option<&Phase>, opened: Option<&Sample>, sample: &Sample) -> Opening {
	match phase {
		Some(Phase::Done { .. }) => Opening::Skip,
		Some(Phase::RevealSent) if opened.is_some_and(|o| o != sample) => Opening::Redrawn,
		Some(Phase::RevealSent) => Opening::Skip,
		_ => Opening::First,
	}
}

/// How a round event seen in a best block compares with its last sighting.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Sighting {
	First,
	/// The same (the block announced again).
	Again,
	/// A fork replaced it: another round seed, another draw block.
	Replaced,
}

/// What each round's event (the start, the draw) was last seen with.
pub(super) struct Sightings<V>(BTreeMap<u32, V>);

impl<V: PartialEq> Sightings<V> {
	pub(super) fn new() -> Self {
		Sightings(BTreeMap::new())
	}

	pub(super) fn note(&mut self, round: u32, value: V) -> Sighting {
		match self.0.insert(round, value) {
			None => Sighting::First,
			Some(old) if self.0.get(&round) == Some(&old) => Sighting::Again,
			Some(_) => Sighting::Replaced,
		}
	}

	/// Forgets the rounds up to `round` (settled).
	pub(super) fn forget_through(&mut self, round: u32) {
		self.0.retain(|r, _| *r > round);
	}
}

/// Whether the chain's challenge of `key` (at the best block) still has the seed `seed`: a fork
/// that replaces the round's start block draws another round seed, and a root of the old
/// challenge would fail its verification (and keep the new one from being committed).
pub(super) async fn still_current(ctx: &Arc<Ctx>, key: Key, seed: &[u8; 32]) -> anyhow::Result<bool> {
	let now = ctx.chain.my_challenges().await?;
	Ok(now.iter().any(|ch| ch.round == key.round && ch.params.gpu == key.gpu && ch.params.seed == *seed))
}

/// Whether the chain's sample of `key` (at the best block) is still `sample`: a fork that replaces
/// the block that drew it draws another, and openings of the old one would fail.
pub(super) async fn sample_current(ctx: &Arc<Ctx>, key: Key, sample: &Sample) -> anyhow::Result<bool> {
	let now = ctx.chain.my_challenges().await?;
	Ok(now.iter().any(|ch| ch.round == key.round && ch.params.gpu == key.gpu && sample.is_of(ch)))
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::state::Outcome;

	/// A fork that replaces the block that drew the sample redraws it: a GPU whose openings went
	/// out for the first draw is opened again for the second (before, the second `SampleDrawn`
	/// was "seen again: already revealing", the committee was served openings of a sample no
	/// longer the chain's, and the GPU failed); the same sample is never sent twice, and a GPU
	/// done is left alone. After a restart (nothing opened since) the state file decides.
	#[test]
	fn a_redrawn_sample_is_opened_again_and_the_same_one_never() {
		let first = Sample { leaves: vec![3, 17], walks: vec![5] };
		let redrawn = Sample { leaves: vec![9, 17], walks: vec![5] };
		let sent = Some(&Phase::RevealSent);
		assert_eq!(opening(None, None, &first), Opening::First);
		let committed = Phase::Committed { root: "00".into() };
		assert_eq!(opening(Some(&committed), None, &first), Opening::First);
		assert_eq!(opening(sent, Some(&first), &first), Opening::Skip);
		assert_eq!(opening(sent, Some(&first), &redrawn), Opening::Redrawn);
		assert_eq!(opening(sent, None, &redrawn), Opening::Skip);
		let done = Phase::Done { outcome: Outcome::Passed };
		assert_eq!(opening(Some(&done), Some(&first), &redrawn), Opening::Skip);
	}

	/// A round's start or draw seen again in the same block is answered once; seen with another
	/// seed or block (a fork replaced it), it is answered again; settled rounds are forgotten.
	#[test]
	fn a_round_event_replaced_by_a_fork_is_told_from_one_seen_again() {
		let mut draws = Sightings::new();
		assert_eq!(draws.note(4, Some([1u8; 32])), Sighting::First);
		assert_eq!(draws.note(4, Some([1u8; 32])), Sighting::Again);
		assert_eq!(draws.note(4, Some([2u8; 32])), Sighting::Replaced);
		assert_eq!(draws.note(4, Some([2u8; 32])), Sighting::Again);
		assert_eq!(draws.note(5, None), Sighting::First);
		draws.forget_through(4);
		assert_eq!(draws.note(4, Some([2u8; 32])), Sighting::First);
		assert_eq!(draws.note(5, None), Sighting::Again);
	}
}
