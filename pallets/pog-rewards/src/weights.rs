
//! Weights for `pallet_pog_rewards`, generated from its benchmarks by `scripts/bench-weights.sh`; do not edit.
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
//! `pallet_pog_rewards`
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
//! `pallets/pog-rewards/src/weights.rs`

#![cfg_attr(rustfmt, rustfmt_skip)]
#![allow(unused_parens, unused_imports, missing_docs)]

use core::marker::PhantomData;
use frame_support::{traits::Get, weights::{constants::ParityDbWeight, Weight}};

/// Weight functions needed for `pallet_pog_rewards`.
pub trait WeightInfo {
	fn pay_miners(m: u32, ) -> Weight;
	fn emit_round(v: u32, ) -> Weight;
	fn set_rewards() -> Weight;
}

/// Weights measured for `pallet_pog_rewards`, with the runtime's database weights.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	/// Storage: `Pog::WeightShares` (r:1 w:0)
	/// Proof: `Pog::WeightShares` (`max_values`: Some(1), `max_size`: Some(147458), added: 147953, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::Rewards` (r:1 w:0)
	/// Proof: `PogRewards::Rewards` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:64 w:0)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:64 w:64)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::Ledger` (r:1 w:1)
	/// Proof: `PogRewards::Ledger` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:64 w:64)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(157), added: 2632, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::EarningsOf` (r:64 w:64)
	/// Proof: `PogRewards::EarningsOf` (`max_values`: None, `max_size`: Some(5218), added: 7693, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::PendingPayout` (r:0 w:1)
	/// Proof: `PogRewards::PendingPayout` (`max_values`: Some(1), `max_size`: Some(40), added: 535, mode: `MaxEncodedLen`)
	/// Component `m` in `[1, 64]`.
	fn pay_miners(m: u32, ) -> Weight {
		// Proof size: measured 153101, estimated 148943 bytes; fastest run 118_737 ns.
		Weight::from_parts(57_747_713, 148943)
			.saturating_add(Weight::from_parts(67_303_893, 0).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().reads((4_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes(2_u64))
			.saturating_add(T::DbWeight::get().writes((3_u64).saturating_mul(m.into())))
			.saturating_add(Weight::from_parts(0, 7693).saturating_mul(m.into()))
	}
	/// Storage: `PogRewards::Rewards` (r:1 w:0)
	/// Proof: `PogRewards::Rewards` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::AgreedVerdicts` (r:65 w:64)
	/// Proof: `PogRewards::AgreedVerdicts` (`max_values`: None, `max_size`: Some(52), added: 2527, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:65 w:65)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::Ledger` (r:1 w:1)
	/// Proof: `PogRewards::Ledger` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WeightShares` (r:1 w:0)
	/// Proof: `Pog::WeightShares` (`max_values`: Some(1), `max_size`: Some(147458), added: 147953, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::Emitted` (r:1 w:1)
	/// Proof: `PogRewards::Emitted` (`max_values`: Some(1), `max_size`: Some(16), added: 511, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::LastEmission` (r:0 w:1)
	/// Proof: `PogRewards::LastEmission` (`max_values`: Some(1), `max_size`: Some(68), added: 563, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::PendingPayout` (r:0 w:1)
	/// Proof: `PogRewards::PendingPayout` (`max_values`: Some(1), `max_size`: Some(40), added: 535, mode: `MaxEncodedLen`)
	/// Component `v` in `[0, 64]`.
	fn emit_round(v: u32, ) -> Weight {
		// Proof size: measured 147937, estimated 148943 bytes; fastest run 71_607 ns.
		Weight::from_parts(78_720_902, 148943)
			.saturating_add(Weight::from_parts(24_781_060, 0).saturating_mul(v.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul(v.into())))
			.saturating_add(T::DbWeight::get().writes(5_u64))
			.saturating_add(T::DbWeight::get().writes((2_u64).saturating_mul(v.into())))
			.saturating_add(Weight::from_parts(0, 2603).saturating_mul(v.into()))
	}
	/// Storage: `PogRewards::Rewards` (r:0 w:1)
	/// Proof: `PogRewards::Rewards` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	fn set_rewards() -> Weight {
		// Proof size: measured 0, estimated 0 bytes; fastest run 4_036 ns.
		Weight::from_parts(4_527_000, 0)
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
}

/// The same figures with ParityDB's database weights, for tests and mocks.
impl WeightInfo for () {
	fn pay_miners(m: u32, ) -> Weight {
		Weight::from_parts(57_747_713, 148943)
			.saturating_add(Weight::from_parts(67_303_893, 0).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().reads((4_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
			.saturating_add(ParityDbWeight::get().writes((3_u64).saturating_mul(m.into())))
			.saturating_add(Weight::from_parts(0, 7693).saturating_mul(m.into()))
	}
	fn emit_round(v: u32, ) -> Weight {
		Weight::from_parts(78_720_902, 148943)
			.saturating_add(Weight::from_parts(24_781_060, 0).saturating_mul(v.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul(v.into())))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
			.saturating_add(ParityDbWeight::get().writes((2_u64).saturating_mul(v.into())))
			.saturating_add(Weight::from_parts(0, 2603).saturating_mul(v.into()))
	}
	fn set_rewards() -> Weight {
		Weight::from_parts(4_527_000, 0)
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
}
