//! What the runtime API (`pallet-pog-runtime-api`) returns, built from storage.

use alloc::vec::Vec;
use frame_system::pallet_prelude::BlockNumberFor;

use crate::{pallet::*, types::*};

impl<T: Config> Pallet<T> {
	/// A miner's view for auditors.
	pub fn miner_view(who: T::AccountId) -> Option<MinerView<T::AccountId, BlockNumberFor<T>, BalanceOf<T>>> {
		let info = Miners::<T>::get(&who)?;
		Some(MinerView {
			claimed: info.gpus().collect(),
			hardware: info.hardware.clone(),
			deposit: info.deposit,
			slashed: info.slashed,
			registered_at: info.registered_at,
			first_round: info.first_round,
			pending: info.pending.as_ref().map(|(claims, _)| gpus_of(claims).collect()),
			leaving: info.leaving,
			standing: Standing::<T>::get(&who).to_vec(),
			score: Scores::<T>::get(&who).unwrap_or_default(),
			share: Self::share_of(&who),
			miner: who,
		})
	}

	/// `miner`'s GPU `gpu` in round `round`: the challenge (as committed, or as derived for the
	/// current round), the sample, the committee and the verdicts.
	pub fn challenge_view(
		round: RoundIndex,
		miner: T::AccountId,
		gpu: GpuIndex,
	) -> Option<ChallengeView<T::AccountId>> {
		let current = Self::round();
		let commitment =
			Commitments::<T>::get(round, &miner).and_then(|slots| slots.get(gpu as usize).cloned().flatten());
		let params = match &commitment {
			Some(c) => c.params.clone(),
			None if round == current.index && current.phase != RoundPhase::Idle => {
				let info = Miners::<T>::get(&miner)?;
				if !info.takes_part_in(round) {
					return None;
				}
				Self::challenge_params(&current, &miner, &info, gpu).ok()?
			},
			None => return None,
		};
		let selection = current.selection.as_ref().filter(|_| round == current.index);
		let selected = selection.map(|s| Self::is_selected(s, round, &miner, gpu));
		let (leaves, walks) = match (selection, &commitment) {
			(Some(s), Some(c)) if selected == Some(true) => (Self::leaves_for(s, c), Self::walks_for(s, c)),
			_ => (Vec::new(), Vec::new()),
		};
		let memory_commitment = Self::memory_commitment(round, &miner, gpu);
		let verification = Verifications::<T>::get((round, &miner, gpu));
		Some(ChallengeView {
			round,
			params,
			commitment,
			memory_commitment,
			selected,
			leaves,
			walks,
			sample_seed: verification.as_ref().map(|v| v.sample_seed),
			committee: verification.as_ref().map(|v| v.committee.to_vec()).unwrap_or_default(),
			votes: verification.as_ref().map(|v| v.votes.to_vec()).unwrap_or_default(),
			verification: verification.map(|v| v.status),
			miner,
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
