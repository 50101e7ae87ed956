//! Weights for `pallet_pog_validators`: the times `scripts/bench-weights.sh` measured for these
//! calls in `pallet_pog` (2026-11-26, steps 50, repeat 20, a 2-core `AMD EPYC` VM) before they
//! moved here unchanged (`set_validator_rules` was weighed by `set_config`'s), with the storage
//! each touches since bonds were added counted from the code (that run predates them: the plan,
//! the bond and its counter, the hold and the account). Regenerate with
//! `PALLET=pallet_pog_validators scripts/bench-weights.sh`.

#![cfg_attr(rustfmt, rustfmt_skip)]
#![allow(unused_parens, unused_imports, missing_docs)]

use core::marker::PhantomData;
use frame_support::{traits::Get, weights::{constants::ParityDbWeight, Weight}};

/// Weight functions needed for `pallet_pog_validators`.
pub trait WeightInfo {
	fn add_validator() -> Weight;
	fn remove_validator(v: u32, ) -> Weight;
	fn set_validator_rules() -> Weight;
}

/// Weights for `pallet_pog_validators` using the runtime's database weights.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	/// Storage: `PogValidators::PlannedValidators`, `ValidatorBonds` and its counter,
	/// `Balances::Holds`, `System::Account` (r:5 w:5).
	fn add_validator() -> Weight {
		Weight::from_parts(26_119_000, 3535)
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(5_u64))
	}
	/// Storage: `PogValidators::PlannedValidators` (r:1 w:1), `Session::NextKeys` (r:v).
	fn remove_validator(v: u32, ) -> Weight {
		Weight::from_parts(29_856_000, 3535)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(v.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `PogValidators::Accountability` (r:1 w:1).
	fn set_validator_rules() -> Weight {
		Weight::from_parts(37_691_000, 1660)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
}

// For backwards compatibility and tests.
impl WeightInfo for () {
	fn add_validator() -> Weight {
		Weight::from_parts(26_119_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
	}
	fn remove_validator(v: u32, ) -> Weight {
		Weight::from_parts(29_856_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(v.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn set_validator_rules() -> Weight {
		Weight::from_parts(37_691_000, 1660)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
}
