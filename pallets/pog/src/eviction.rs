//! Who makes room in a full registry.
//!
//! `MaxMiners` slots used to be held for good: 4,096 accounts each claiming a 1-core `cpu-core`
//! unit, answered honestly by one GPU in a minute a round, kept every later registration out
//! (`TooManyMiners`) for 4,096 POG of fees (docs/protocol.md §9, 'Registry'). Now a registration
//! into a full registry evicts one miner, as Bittensor prunes its lowest-scoring neuron once its
//! immunity period is over: among the miners with no unsettled round and past their immunity
//! (their first [`IMMUNITY_ROUNDS`] rounds settled), a suspended one first, then the one with the
//! lowest score, the longest-registered first among equals. Its deposit is released as if it had
//! left. Holding every slot then means out-scoring every newcomer's proven hardware.

use frame_support::pallet_prelude::*;

use crate::{pallet::*, types::*};

/// A miner's first rounds, during which (until the last of them is settled) a full registry
/// cannot evict it: time for its
/// first verification (every GPU is verified in its first round while the sample is the whole
/// round, the normal case).
pub const IMMUNITY_ROUNDS: RoundIndex = 4;

/// A miner a full registry evicts, with its record.
pub(crate) type Evictee<T> = (<T as frame_system::Config>::AccountId, MinerOf<T>);

impl<T: Config> Pallet<T> {
	/// The miner a registration into the full registry evicts, and how many miners were read to
	/// find it; `None` when every miner is immune or has an unsettled round.
	pub(crate) fn eviction_candidate() -> (Option<Evictee<T>>, u32) {
		let round = Self::round();
		let open = round.phase != RoundPhase::Idle;
		let mut read = 0u32;
		let candidate = Miners::<T>::iter()
			.inspect(|_| read = read.saturating_add(1))
			// Not leaving, and not in the open round (it is settled first).
			.filter(|(_, info)| !(info.leaving || open && info.takes_part_in(round.index)))
			.filter(|(_, info)| {
				// Its first IMMUNITY_ROUNDS rounds have started (and, by the filter above, the
				// last of them is settled).
				info.first_round == NEVER
					|| round.index.saturating_add(1) >= info.first_round.saturating_add(IMMUNITY_ROUNDS)
			})
			.map(|(who, info)| {
				let suspended = info.first_round == NEVER;
				let score = Scores::<T>::get(&who).map_or(0, |s| s.total.deconstruct());
				((!suspended, score, info.registered_at), who, info)
			})
			.min_by(|a, b| a.0.cmp(&b.0))
			.map(|(_, who, info)| (who, info));
		(candidate, read)
	}

	/// The weight of a registration that read `scanned` miners (and their scores) to find one to
	/// evict; declared for a full scan, refunded down to what was read.
	pub fn register_weight(scanned: u32) -> Weight {
		use crate::weights::WeightInfo;
		T::WeightInfo::register_miner(T::MaxGpusPerMiner::get())
			.saturating_add(T::DbWeight::get().reads(2 * u64::from(scanned)))
			.saturating_add(T::DbWeight::get().reads_writes(4, 6))
	}
}
