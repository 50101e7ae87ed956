//! Weights for `pallet_pog_rewards`, generated from its benchmarks by
//! `PALLET=pallet_pog_rewards scripts/bench-weights.sh`; do not edit.
//!
//! `pay_miners` and `emit_round`: benchmark CLI 64.0.0, 2026-11-26; steps 50, repeat 20; host
//! `vm`, CPU `AMD EPYC`; WASM execution `Compiled`; measured as `pallet_pog`'s benchmarks of the
//! same code before it moved to this pallet (storage names below are this pallet's).
//! `set_rewards`: not yet measured on its own; weighed as `pallet_pog`'s `set_config`, the same
//! work (one read, one write of a value under 128 bytes).

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

/// Weights for `pallet_pog_rewards` using the Substrate node and recommended hardware.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	/// Storage: `PogRewards::PendingPayout` (r:1 w:1)
	/// Proof: `PogRewards::PendingPayout` (`max_values`: Some(1), `max_size`: Some(40), added: 535, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WeightShares` (r:1 w:0)
	/// Proof: `Pog::WeightShares` (`max_values`: Some(1), `max_size`: Some(147458), added: 147953, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::Rewards` (r:1 w:0)
	/// Proof: `PogRewards::Rewards` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:64 w:0)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:64 w:64)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:64 w:64)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(85), added: 2560, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::EarningsOf` (r:64 w:64)
	/// Proof: `PogRewards::EarningsOf` (`max_values`: None, `max_size`: Some(5218), added: 7693, mode: `MaxEncodedLen`)
	/// Component `m` in `[1, 64]`.
	fn pay_miners(m: u32, ) -> Weight {
		// Proof size: measured 153131, estimated 148943 bytes; fastest run 281_548 ns.
		Weight::from_parts(341_350_000, 148943)
			.saturating_add(Weight::from_parts(187_399_832, 0).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(4_u64))
			.saturating_add(T::DbWeight::get().reads((4_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(T::DbWeight::get().writes((3_u64).saturating_mul(m.into())))
			.saturating_add(Weight::from_parts(0, 7693).saturating_mul(m.into()))
	}
	/// Storage: `PogRewards::Rewards` (r:1 w:0)
	/// Proof: `PogRewards::Rewards` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::AgreedVerdicts` (r:65 w:64)
	/// Proof: `PogRewards::AgreedVerdicts` (`max_values`: None, `max_size`: Some(52), added: 2527, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:65 w:65)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
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
		// Proof size: measured 148142, estimated 148943 bytes; fastest run 239_850 ns.
		Weight::from_parts(78_735_510, 148943)
			.saturating_add(Weight::from_parts(82_982_636, 0).saturating_mul(v.into()))
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul(v.into())))
			.saturating_add(T::DbWeight::get().writes(4_u64))
			.saturating_add(T::DbWeight::get().writes((2_u64).saturating_mul(v.into())))
			.saturating_add(Weight::from_parts(0, 2603).saturating_mul(v.into()))
	}
	/// Storage: `PogRewards::Rewards` (r:0 w:1)
	/// Proof: `PogRewards::Rewards` (`max_values`: Some(1), `max_size`: Some(48), added: 543, mode: `MaxEncodedLen`)
	fn set_rewards() -> Weight {
		Weight::from_parts(37_691_000, 1660)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
}

// For backwards compatibility and tests.
impl WeightInfo for () {
	fn pay_miners(m: u32, ) -> Weight {
		Weight::from_parts(341_350_000, 148943)
			.saturating_add(Weight::from_parts(187_399_832, 0).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(4_u64))
			.saturating_add(ParityDbWeight::get().reads((4_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(ParityDbWeight::get().writes((3_u64).saturating_mul(m.into())))
			.saturating_add(Weight::from_parts(0, 7693).saturating_mul(m.into()))
	}
	fn emit_round(v: u32, ) -> Weight {
		Weight::from_parts(78_735_510, 148943)
			.saturating_add(Weight::from_parts(82_982_636, 0).saturating_mul(v.into()))
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul(v.into())))
			.saturating_add(ParityDbWeight::get().writes(4_u64))
			.saturating_add(ParityDbWeight::get().writes((2_u64).saturating_mul(v.into())))
			.saturating_add(Weight::from_parts(0, 2603).saturating_mul(v.into()))
	}
	fn set_rewards() -> Weight {
		Weight::from_parts(37_691_000, 1660)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
}
