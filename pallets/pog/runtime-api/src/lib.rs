//! Runtime API of pallet-pog for auditors.
//!
//! No custom RPC: clients call it through `state_call` (`api.call.pogApi.*` in polkadot.js,
//! `runtime_api()` in subxt), which every node serves.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

use alloc::vec::Vec;
use codec::Codec;
pub use pallet_pog::{ChallengeView, GpuIndex, GpuProfile, MinerView, ProfileId, RankEntry, RoundIndex, RoundInfo};
pub use pallet_pog_rewards::view::RewardsView;

sp_api::decl_runtime_apis! {
	/// What an auditor asks of PoG chain.
	pub trait PogApi<AccountId, BlockNumber, Balance>
	where
		AccountId: Codec,
		BlockNumber: Codec,
		Balance: Codec,
	{
		/// A miner's claims, deposit and slashes, each GPU's standing (credit or why none), score
		/// breakdown and weight share.
		fn miner(who: AccountId) -> Option<MinerView<AccountId, BlockNumber, Balance>>;
		/// One GPU's challenge in a round (seed, shape, deadline, root, sample, committee, verdicts).
		fn challenge(round: RoundIndex, miner: AccountId, gpu: GpuIndex) -> Option<ChallengeView<AccountId>>;
		/// The current round's challenges of `miner`, one per GPU (empty when it takes no part).
		fn challenges_of(miner: AccountId) -> Vec<ChallengeView<AccountId>>;
		/// The current (or last) network-wide round: phase, seed, clock, sample, next start window.
		fn round() -> RoundInfo<AccountId, BlockNumber>;
		/// The GPU profile table.
		fn profiles() -> Vec<(ProfileId, GpuProfile)>;
		/// Scored miners by total score, highest first, with their weight shares.
		fn ranking() -> Vec<RankEntry<AccountId>>;
		/// The reward schedule and split, everything minted, the next round's emission, the last
		/// one's split, and the treasury.
		fn rewards() -> RewardsView<AccountId, Balance>;
		/// The deposit registering `claims` (profile, GPUs) with `cpu_cores` declared cores holds:
		/// `DepositBase` plus, per GPU, `DepositPerGpu` and `DepositPerMegapoint` per million
		/// points it scores once proven (an unknown profile counts the floor; registering it is
		/// refused anyway).
		fn deposit_for(claims: Vec<(ProfileId, u32)>, cpu_cores: u32) -> Balance;
	}
}
