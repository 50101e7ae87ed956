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
	/// the period, or score weights not summing to 100%.
	pub(crate) fn validate_config(c: &ProtocolConfig) -> DispatchResult {
		let w = c.weights;
		let weight_sum = u64::from(w.gpu.deconstruct())
			+ u64::from(w.cpu.deconstruct())
			+ u64::from(w.ram.deconstruct())
			+ u64::from(w.disk.deconstruct());
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
			&& c.reveal_window > 0
			&& c.verdict_window > 0
			&& c.settle_per_block > 0
			&& c.max_unverified_rounds > 0
			&& pog_primitives::sizing::is_valid_chunk_k(c.chunk_k)
			&& weight_sum == u64::from(Perbill::one().deconstruct())
			&& c.caps.gpus > 0
			&& c.caps.gpu_points > 0
			&& c.caps.cpu_cores > 0
			&& c.caps.ram_gib > 0
			&& c.caps.disk_gib > 0;
		ensure!(ok, Error::<T>::InvalidConfig);
		Ok(())
	}
}
