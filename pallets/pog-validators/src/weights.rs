
//! Weights for `pallet_pog_validators`, generated from its benchmarks by `scripts/bench-weights.sh`; do not edit.
//!
//! Benchmark CLI 64.0.0, 2026-12-05; steps 20, repeat 10;
//! host `vm`, CPU `AMD EPYC`; WASM execution `Compiled`.
//!
//! Command:
//! `/root/.cache/pog-chain/target/release/pog-node`
//! `benchmark`
//! `pallet`
//! `--runtime`
//! `/root/.cache/pog-chain/target/release/wbuild/pog-runtime/pog_runtime.compact.compressed.wasm`
//! `--genesis-builder=runtime`
//! `--genesis-builder-preset=development`
//! `--pallet`
//! `pallet_pog_validators`
//! `--extrinsic`
//! `*`
//! `--steps`
//! `20`
//! `--repeat`
//! `10`
//! `--wasm-execution=compiled`
//! `--heap-pages=4096`
//! `--template`
//! `.maintain/weight-template.hbs`
//! `--output`
//! `pallets/pog-validators/src/weights.rs`

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

/// Weights measured for `pallet_pog_validators`, with the runtime's database weights.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	/// Storage: `PogValidators::PlannedValidators` (r:1 w:1)
	/// Proof: `PogValidators::PlannedValidators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `PogValidators::ValidatorBonds` (r:1 w:1)
	/// Proof: `PogValidators::ValidatorBonds` (`max_values`: None, `max_size`: Some(73), added: 2548, mode: `MaxEncodedLen`)
	/// Storage: `PogValidators::CounterForValidatorBonds` (r:1 w:1)
	/// Proof: `PogValidators::CounterForValidatorBonds` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:1 w:1)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:1 w:1)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(157), added: 2632, mode: `MaxEncodedLen`)
	fn add_validator() -> Weight {
		// Proof size: measured 2499, estimated 3622 bytes; fastest run 55_332 ns.
		Weight::from_parts(58_287_000, 3622)
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(5_u64))
	}
	/// Storage: `PogValidators::PlannedValidators` (r:1 w:1)
	/// Proof: `PogValidators::PlannedValidators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Session::NextKeys` (r:63 w:0)
	/// Proof: `Session::NextKeys` (`max_values`: None, `max_size`: None, mode: `Measured`)
	/// Component `v` in `[2, 64]`.
	fn remove_validator(v: u32, ) -> Weight {
		// Proof size: measured 474, estimated 3963 bytes; fastest run 11_277 ns.
		Weight::from_parts(9_814_152, 3963)
			.saturating_add(Weight::from_parts(1_541_734, 0).saturating_mul(v.into()))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(v.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2392).saturating_mul(v.into()))
	}
	/// Storage: `PogValidators::Accountability` (r:0 w:1)
	/// Proof: `PogValidators::Accountability` (`max_values`: Some(1), `max_size`: Some(20), added: 515, mode: `MaxEncodedLen`)
	fn set_validator_rules() -> Weight {
		// Proof size: measured 0, estimated 0 bytes; fastest run 3_986 ns.
		Weight::from_parts(4_416_000, 0)
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
}

/// The same figures with ParityDB's database weights, for tests and mocks.
impl WeightInfo for () {
	fn add_validator() -> Weight {
		Weight::from_parts(58_287_000, 3622)
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
	}
	fn remove_validator(v: u32, ) -> Weight {
		Weight::from_parts(9_814_152, 3963)
			.saturating_add(Weight::from_parts(1_541_734, 0).saturating_mul(v.into()))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(v.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2392).saturating_mul(v.into()))
	}
	fn set_validator_rules() -> Weight {
		Weight::from_parts(4_416_000, 0)
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
}
