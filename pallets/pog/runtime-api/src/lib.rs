//! Runtime API of pallet-pog for auditors.
//!
//! No custom RPC: clients call it through `state_call` (`api.call.pogApi.*` in polkadot.js,
//! `runtime_api()` in subxt), which every node serves.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

use alloc::vec::Vec;
use codec::Codec;
pub use pallet_pog::types::{ChallengeView, GpuProfile, MinerView, ProfileId, RankEntry};

sp_api::decl_runtime_apis! {
	/// What an auditor asks of PoG chain.
	pub trait PogApi<AccountId, BlockNumber, Balance>
	where
		AccountId: Codec,
		BlockNumber: Codec,
		Balance: Codec,
	{
		/// A miner's claims, deposit, verified GPUs, score breakdown and weight share.
		fn miner(who: AccountId) -> Option<MinerView<AccountId, BlockNumber, Balance>>;
		/// A challenge's full state (seed, dims, deadline, root, sample, verdicts, status).
		fn challenge(id: u64) -> Option<ChallengeView<AccountId, BlockNumber>>;
		/// The GPU profile table.
		fn profiles() -> Vec<(ProfileId, GpuProfile)>;
		/// Scored miners by total score, highest first, with their weight shares.
		fn ranking() -> Vec<RankEntry<AccountId>>;
	}
}
