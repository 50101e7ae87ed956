//! Validation of the protocol configuration.

use frame_support::{ensure, pallet_prelude::*};
use sp_runtime::Perbill;

use crate::{pallet::*, types::*};

impl<T: Config> Pallet<T> {
	pub(crate) fn do_set_config(config: ProtocolConfig) -> DispatchResult {
		Self::validate_config(&config)?;
		Self::ensure_no_open_round()?;
		Configuration::<T>::put(config);
		Self::deposit_event(Event::ConfigUpdated { config });
		Ok(())
	}

	/// Refuses a configuration with zero periods, windows or counts, a start window longer than
	/// the period, more verifications per validator than its off-chain worker can send in the
	/// verdict window (`MAX_VERIFICATIONS_PER_RUN` a block), declared hardware scaling a score
	/// by more than half, or memory rules no phase can be made from (a cache that is not a power
	/// of two of at least two items, no parents or reads, no walk time, no or more than
	/// `MaxWalkOpenings` opened walks, a tolerance of 100% or more).
	pub(crate) fn validate_config(c: &ProtocolConfig) -> DispatchResult {
		let ok = c.period > 0
			&& c.start_jitter < c.period
			&& c.target_ms > 0
			&& c.openings > 0
			&& c.openings <= T::MaxOpenings::get()
			&& c.entries_per_opening > 0
			&& c.entries_per_opening <= pog_primitives::LEAF_VALUES as u32
			&& c.committee > 0
			&& c.committee <= T::MaxValidators::get()
			&& c.verifications_per_validator > 0
			&& u64::from(c.verifications_per_validator)
				<= crate::offchain::MAX_VERIFICATIONS_PER_RUN as u64 * u64::from(c.verdict_window)
			&& c.reveal_window > 0
			&& c.verdict_window > 0
			&& c.settle_per_block > 0
			&& c.max_unverified_rounds > 0
			&& pog_primitives::sizing::is_valid_chunk_k(c.chunk_k)
			&& c.hardware_bound <= Perbill::from_percent(50)
			&& c.caps.gpus > 0
			&& c.caps.gpu_points > 0
			&& c.caps.ram_gib > 0
			&& c.caps.disk_gib > 0
			&& c.memory.cache_items >= 2
			&& c.memory.cache_items.is_power_of_two()
			&& c.memory.parents > 0
			&& c.memory.reads > 0
			&& c.memory.walk_ms > 0
			&& c.memory.openings > 0
			&& c.memory.openings <= <MaxWalkOpenings as Get<u32>>::get()
			&& c.memory.tolerance_percent < 100;
		ensure!(ok, Error::<T>::InvalidConfig);
		Ok(())
	}
}
