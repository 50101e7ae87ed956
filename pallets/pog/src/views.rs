//! What the runtime API (`pallet-pog-runtime-api`) returns, built from storage.

use alloc::vec::Vec;
use frame_system::pallet_prelude::BlockNumberFor;
use sp_runtime::Perbill;

use crate::{pallet::*, types::*};

impl<T: Config> Pallet<T> {
	/// The epoch's weight share of `who` (zero if unscored).
	pub fn share_of(who: &T::AccountId) -> Perbill {
		WeightShares::<T>::get().iter().find(|(w, _)| w == who).map(|(_, s)| *s).unwrap_or_default()
	}

	/// A miner's view for auditors.
	pub fn miner_view(who: T::AccountId) -> Option<MinerView<T::AccountId, BlockNumberFor<T>, BalanceOf<T>>> {
		let info = Miners::<T>::get(&who)?;
		Some(MinerView {
			claimed: info.gpus().collect(),
			hardware: info.hardware.clone(),
			deposit: info.deposit,
			next_due: info.next_due,
			current_round: info.current_round.to_vec(),
			verified: Credits::<T>::get(&who).to_vec(),
			score: Scores::<T>::get(&who).unwrap_or_default(),
			share: Self::share_of(&who),
			miner: who,
		})
	}

	/// A challenge's view for auditors.
	pub fn challenge_view(id: ChallengeId) -> Option<ChallengeView<T::AccountId, BlockNumberFor<T>>> {
		let c = Challenges::<T>::get(id)?;
		Some(ChallengeView {
			id,
			miner: c.miner,
			uuid: c.uuid,
			profile: c.profile,
			precision: c.precision,
			dims: c.dims,
			seed: c.seed,
			issued: (c.issued_at, c.issued_ms),
			expected_ms: c.expected_ms,
			deadline_ms: c.deadline_ms,
			root: c.root,
			committed_at: c.committed_at,
			report: c.report,
			sample_seed: c.sample_seed,
			votes: c.votes.to_vec(),
			status: c.status,
		})
	}

	/// The profile table.
	pub fn profile_table() -> Vec<(ProfileId, GpuProfile)> {
		let mut v: Vec<_> = Profiles::<T>::iter().collect();
		v.sort_by_key(|(id, _)| *id);
		v
	}

	/// Scored miners, highest total first.
	pub fn ranking() -> Vec<RankEntry<T::AccountId>> {
		let mut v: Vec<RankEntry<T::AccountId>> = Scores::<T>::iter()
			.map(|(miner, score)| RankEntry { share: Self::share_of(&miner), miner, score })
			.collect();
		v.sort_by_key(|e| core::cmp::Reverse(e.score.total));
		v
	}
}
