//! What the runtime API (`pallet-pog-runtime-api`) returns, built from storage.

use alloc::vec::Vec;
use frame_system::pallet_prelude::BlockNumberFor;

use crate::miners::{gpus_of, Hardware};
use crate::pallet::*;
use crate::profiles::GpuProfile;
use crate::rounds::{Commitment, MemoryCommitment, RoundIndex, RoundPhase};
use crate::scoring::{GpuStanding, Score};
use crate::types::Hash32;
use crate::verification::{Verdict, VerificationStatus};
use codec::{Decode, Encode};
use pog_primitives::challenge::{ChallengeParams, GpuIndex, GpuUuid, ProfileId};
use scale_info::TypeInfo;
use sp_runtime::Perbill;

/// A miner as the runtime API shows it to auditors.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct MinerView<AccountId, BlockNumber, Balance> {
	/// The miner.
	pub miner: AccountId,
	/// Claimed GPUs as (profile, UUID), in GPU index order.
	pub claimed: alloc::vec::Vec<(ProfileId, GpuUuid)>,
	/// Claimed CPU, memory and disk.
	pub hardware: Hardware,
	/// Deposit held.
	pub deposit: Balance,
	/// Slashed so far.
	pub slashed: Balance,
	/// Block of registration.
	pub registered_at: BlockNumber,
	/// First round it takes part in ([`NEVER`] while suspended).
	pub first_round: RoundIndex,
	/// Claims waiting for the current round to be settled.
	pub pending: Option<alloc::vec::Vec<(ProfileId, GpuUuid)>>,
	/// Whether it is leaving once its round is settled.
	pub leaving: bool,
	/// Each claimed GPU's credit or why it has none.
	pub standing: alloc::vec::Vec<GpuStanding>,
	/// Score and its components.
	pub score: Score,
	/// Share of the current epoch's weight.
	pub share: Perbill,
	/// Everything it was paid (`pallet-pog-rewards`).
	pub paid: Balance,
	/// Paid and still vesting (held; a failed GPU burns its share of it, leaving forfeits it).
	pub vesting: Balance,
	/// Paid and released so far (spendable; nothing is claimed: each settlement releases one
	/// part of every payment still vesting).
	pub released: Balance,
	/// Burned from its unvested balance for failed GPUs.
	pub unvested_burned: Balance,
}

/// One GPU's challenge in a round as the runtime API shows it.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct ChallengeView<AccountId> {
	/// The round.
	pub round: RoundIndex,
	/// The miner.
	pub miner: AccountId,
	/// The challenge.
	pub params: ChallengeParams,
	/// The committed root, when and the agent's report.
	pub commitment: Option<Commitment>,
	/// The committed memory root and when (with a memory phase).
	pub memory_commitment: Option<MemoryCommitment>,
	/// Whether it is in the round's sample (`None` before the sample is drawn).
	pub selected: Option<bool>,
	/// The leaves to open (selected and committed only).
	pub leaves: alloc::vec::Vec<u32>,
	/// The walks to open (selected and committed, with a memory phase, only).
	pub walks: alloc::vec::Vec<u64>,
	/// Its verification, once revealed.
	pub sample_seed: Option<Hash32>,
	/// Its committee.
	pub committee: alloc::vec::Vec<AccountId>,
	/// The committee's verdicts.
	pub votes: alloc::vec::Vec<(AccountId, Verdict)>,
	/// Where the verification stands.
	pub verification: Option<VerificationStatus>,
}

/// One line of the ranking.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct RankEntry<AccountId> {
	/// The miner.
	pub miner: AccountId,
	/// Its score.
	pub score: Score,
	/// Its share of the epoch's weight.
	pub share: Perbill,
}

impl<T: Config> Pallet<T> {
	/// A miner's view for auditors.
	pub fn miner_view(who: T::AccountId) -> Option<MinerView<T::AccountId, BlockNumberFor<T>, BalanceOf<T>>> {
		let info = Miners::<T>::get(&who)?;
		let earnings = <T::RoundPay as pog_traits::RoundPay<_, _>>::earnings(&who);
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
			paid: earnings.paid,
			vesting: earnings.vesting,
			released: earnings.released,
			unvested_burned: earnings.burned,
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
		// while its round is open, a served GPU's passes in bulk count as votes; settlement keeps
		// them in its record
		let verification = match selection {
			Some(s) if selected == Some(true) => Self::tally(round, s, &miner, gpu),
			_ => Verifications::<T>::get((round, &miner, gpu)),
		};
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
