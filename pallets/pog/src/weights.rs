
//! Weights for `pallet_pog`, generated from its benchmarks by `scripts/bench-weights.sh`; do not edit.
//!
//! Benchmark CLI 64.0.0, 2026-11-24; steps 50, repeat 20;
//! host `vm`, CPU `Intel(R) Xeon(R) Processor`; WASM execution `Compiled`.
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
//! `pallet_pog`
//! `--extrinsic`
//! `*`
//! `--steps`
//! `50`
//! `--repeat`
//! `20`
//! `--wasm-execution=compiled`
//! `--heap-pages=4096`
//! `--template`
//! `.maintain/weight-template.hbs`
//! `--output`
//! `pallets/pog/src/weights.rs`

#![cfg_attr(rustfmt, rustfmt_skip)]
#![allow(unused_parens, unused_imports, missing_docs)]

use core::marker::PhantomData;
use frame_support::{traits::Get, weights::{constants::ParityDbWeight, Weight}};

/// Weight functions needed for `pallet_pog`.
pub trait WeightInfo {
	fn register_miner(g: u32, ) -> Weight;
	fn update_miner(g: u32, ) -> Weight;
	fn deregister_miner(g: u32, ) -> Weight;
	fn commit_memory(g: u32, ) -> Weight;
	fn commit_roots(g: u32, ) -> Weight;
	fn reveal_openings(o: u32, w: u32, ) -> Weight;
	fn submit_verdict(v: u32, ) -> Weight;
	fn start_round(p: u32, ) -> Weight;
	fn draw_sample() -> Weight;
	fn settle_miners(m: u32, g: u32, ) -> Weight;
	fn idle_block() -> Weight;
	fn add_profile() -> Weight;
	fn update_profile(m: u32, ) -> Weight;
	fn pay_miners(m: u32, ) -> Weight;
	fn emit_round(v: u32, ) -> Weight;
	fn remove_profile() -> Weight;
	fn add_validator() -> Weight;
	fn remove_validator() -> Weight;
	fn set_config() -> Weight;
	fn update_shares(m: u32, ) -> Weight;
	fn check_memory_walks() -> Weight;
}

/// Weights measured for `pallet_pog`, with the runtime's database weights.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:1)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:1 w:1)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:1 w:1)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(67), added: 2542, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:1)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidClaimants` (r:16 w:16)
	/// Proof: `Pog::UuidClaimants` (`max_values`: None, `max_size`: Some(36), added: 2511, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:0 w:1)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn register_miner(g: u32, ) -> Weight {
		// Proof size: measured 765, estimated 8037 bytes; fastest run 82_899 ns.
		Weight::from_parts(86_455_060, 8037)
			.saturating_add(Weight::from_parts(2_394_660, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(7_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(6_u64))
			.saturating_add(T::DbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:2 w:2)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidClaimants` (r:32 w:32)
	/// Proof: `Pog::UuidClaimants` (`max_values`: None, `max_size`: Some(36), added: 2511, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:1 w:1)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:1 w:1)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(72), added: 2547, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn update_miner(g: u32, ) -> Weight {
		// Proof size: measured 1045, estimated 8037 bytes; fastest run 47_550 ns.
		Weight::from_parts(47_334_770, 8037)
			.saturating_add(Weight::from_parts(6_186_191, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(8_u64))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(5_u64))
			.saturating_add(T::DbWeight::get().writes((2_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 5022).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:1 w:1)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:1 w:1)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(67), added: 2542, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:1)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidClaimants` (r:16 w:16)
	/// Proof: `Pog::UuidClaimants` (`max_values`: None, `max_size`: Some(36), added: 2511, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:1)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:0 w:1)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:0 w:1)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(72), added: 2547, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn deregister_miner(g: u32, ) -> Weight {
		// Proof size: measured 743, estimated 8037 bytes; fastest run 60_424 ns.
		Weight::from_parts(61_645_991, 8037)
			.saturating_add(Weight::from_parts(3_733_605, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(7_u64))
			.saturating_add(T::DbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:1 w:0)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MemoryCommitments` (r:1 w:1)
	/// Proof: `Pog::MemoryCommitments` (`max_values`: None, `max_size`: Some(717), added: 3192, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn commit_memory(g: u32, ) -> Weight {
		// Proof size: measured 1220, estimated 8037 bytes; fastest run 33_370 ns.
		Weight::from_parts(30_670_855, 8037)
			.saturating_add(Weight::from_parts(5_151_519, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:1 w:0)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Commitments` (r:1 w:1)
	/// Proof: `Pog::Commitments` (`max_values`: None, `max_size`: Some(19997), added: 22472, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MemoryCommitments` (r:1 w:0)
	/// Proof: `Pog::MemoryCommitments` (`max_values`: None, `max_size`: Some(717), added: 3192, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn commit_roots(g: u32, ) -> Weight {
		// Proof size: measured 1306, estimated 23462 bytes; fastest run 39_561 ns.
		Weight::from_parts(35_567_116, 23462)
			.saturating_add(Weight::from_parts(8_199_906, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(7_u64))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Commitments` (r:1 w:0)
	/// Proof: `Pog::Commitments` (`max_values`: None, `max_size`: Some(19997), added: 22472, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:1 w:1)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Validators` (r:1 w:0)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:0 w:1)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131594), added: 134069, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WalkResults` (r:0 w:1)
	/// Proof: `Pog::WalkResults` (`max_values`: None, `max_size`: Some(5194), added: 7669, mode: `MaxEncodedLen`)
	/// Component `o` in `[1, 64]`.
	/// Component `w` in `[1, 128]`.
	fn reveal_openings(o: u32, w: u32, ) -> Weight {
		// Proof size: measured 931, estimated 23462 bytes; fastest run 1_386_064 ns.
		Weight::from_parts(71_040_567, 23462)
			.saturating_add(Weight::from_parts(21_005_430, 0).saturating_mul(o.into()))
			.saturating_add(Weight::from_parts(22_843_150, 0).saturating_mul(w.into()))
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(3_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:0)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:1 w:1)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:1 w:0)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131594), added: 134069, mode: `MaxEncodedLen`)
	/// Component `v` in `[1, 64]`.
	fn submit_verdict(v: u32, ) -> Weight {
		// Proof size: measured 60271, estimated 135059 bytes; fastest run 59_621 ns.
		Weight::from_parts(66_936_260, 135059)
			.saturating_add(Weight::from_parts(176_277, 0).saturating_mul(v.into()))
			.saturating_add(T::DbWeight::get().reads(4_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Entropy` (r:1 w:0)
	/// Proof: `Pog::Entropy` (`max_values`: Some(1), `max_size`: Some(32), added: 527, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:129 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileCount` (r:1 w:0)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Component `p` in `[1, 128]`.
	fn start_round(p: u32, ) -> Weight {
		// Proof size: measured 775, estimated 8614 bytes; fastest run 70_239 ns.
		Weight::from_parts(22_351_123, 8614)
			.saturating_add(Weight::from_parts(5_535_192, 0).saturating_mul(p.into()))
			.saturating_add(T::DbWeight::get().reads(8_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(p.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2516).saturating_mul(p.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Validators` (r:1 w:0)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Entropy` (r:1 w:0)
	/// Proof: `Pog::Entropy` (`max_values`: Some(1), `max_size`: Some(32), added: 527, mode: `MaxEncodedLen`)
	fn draw_sample() -> Weight {
		// Proof size: measured 531, estimated 3535 bytes; fastest run 14_135 ns.
		Weight::from_parts(15_799_000, 3535)
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:65 w:64)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Commitments` (r:64 w:0)
	/// Proof: `Pog::Commitments` (`max_values`: None, `max_size`: Some(19997), added: 22472, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:1024 w:0)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ValidatorStats` (r:1 w:1)
	/// Proof: `Pog::ValidatorStats` (`max_values`: None, `max_size`: Some(64), added: 2539, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:64 w:64)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:64 w:64)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(72), added: 2547, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:0 w:1024)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131594), added: 134069, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WalkResults` (r:0 w:1024)
	/// Proof: `Pog::WalkResults` (`max_values`: None, `max_size`: Some(5194), added: 7669, mode: `MaxEncodedLen`)
	/// Component `m` in `[1, 64]`.
	/// Component `g` in `[1, 16]`.
	fn settle_miners(m: u32, g: u32, ) -> Weight {
		// Proof size: measured 0, estimated 135518 bytes; fastest run 296_882 ns.
		Weight::from_parts(303_758_000, 135518)
			.saturating_add(Weight::from_parts(119_225_060, 0).saturating_mul(m.into()))
			.saturating_add(Weight::from_parts(341_487_285, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(25_u64))
			.saturating_add(T::DbWeight::get().reads((10_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().reads((20_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(37_u64))
			.saturating_add(T::DbWeight::get().writes((15_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes((40_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 168529).saturating_mul(g.into()))
			.saturating_add(Weight::from_parts(0, 52502).saturating_mul(m.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	fn idle_block() -> Weight {
		// Proof size: measured 253, estimated 1644 bytes; fastest run 4_424 ns.
		Weight::from_parts(5_127_000, 1644)
			.saturating_add(T::DbWeight::get().reads(1_u64))
	}
	/// Storage: `Pog::ProfileCount` (r:1 w:1)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::NextProfileId` (r:1 w:1)
	/// Proof: `Pog::NextProfileId` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:0 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	fn add_profile() -> Weight {
		// Proof size: measured 188, estimated 1489 bytes; fastest run 11_182 ns.
		Weight::from_parts(12_330_000, 1489)
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().writes(3_u64))
	}
	/// Storage: `Pog::Profiles` (r:1 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	fn update_profile(m: u32, ) -> Weight {
		Weight::from_parts(16_184_000, 3564)
			.saturating_add(T::DbWeight::get().reads_writes(3, 3).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	fn pay_miners(m: u32, ) -> Weight {
		T::DbWeight::get().reads_writes(4, 1).saturating_add(T::DbWeight::get().reads_writes(5, 5).saturating_mul(m.into()))
	}
	fn emit_round(v: u32, ) -> Weight {
		T::DbWeight::get().reads_writes(5, 5).saturating_add(T::DbWeight::get().reads_writes(3, 3).saturating_mul(v.into()))
	}
	/// Storage: `Pog::Profiles` (r:1 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:0)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileCount` (r:1 w:1)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	fn remove_profile() -> Weight {
		// Proof size: measured 559, estimated 3564 bytes; fastest run 15_147 ns.
		Weight::from_parts(16_672_000, 3564)
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:1)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	fn add_validator() -> Weight {
		// Proof size: measured 2195, estimated 3535 bytes; fastest run 11_116 ns.
		Weight::from_parts(12_515_000, 3535)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:1)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	fn remove_validator() -> Weight {
		// Proof size: measured 2228, estimated 3535 bytes; fastest run 10_703 ns.
		Weight::from_parts(12_016_000, 3535)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(159), added: 654, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:0 w:1)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	fn set_config() -> Weight {
		// Proof size: measured 253, estimated 1644 bytes; fastest run 10_073 ns.
		Weight::from_parts(11_213_000, 1644)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Scores` (r:4097 w:0)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(72), added: 2547, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:0)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Epoch` (r:0 w:1)
	/// Proof: `Pog::Epoch` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WeightShares` (r:0 w:1)
	/// Proof: `Pog::WeightShares` (`max_values`: Some(1), `max_size`: Some(147458), added: 147953, mode: `MaxEncodedLen`)
	/// Component `m` in `[0, 4096]`.
	fn update_shares(m: u32, ) -> Weight {
		// Proof size: measured 649, estimated 3537 bytes; fastest run 9_669 ns.
		Weight::from_parts(9_863_000, 3537)
			.saturating_add(Weight::from_parts(3_860_028, 0).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2547).saturating_mul(m.into()))
	}
	fn check_memory_walks() -> Weight {
		// Proof size: measured 0, estimated 0 bytes; fastest run 668_883_064 ns.
		Weight::from_parts(680_527_462_000, 0)
	}
}

/// The same figures with ParityDB's database weights, for tests and mocks.
impl WeightInfo for () {
	fn register_miner(g: u32, ) -> Weight {
		Weight::from_parts(86_455_060, 8037)
			.saturating_add(Weight::from_parts(2_394_660, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(7_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(6_u64))
			.saturating_add(ParityDbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	fn update_miner(g: u32, ) -> Weight {
		Weight::from_parts(47_334_770, 8037)
			.saturating_add(Weight::from_parts(6_186_191, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(8_u64))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
			.saturating_add(ParityDbWeight::get().writes((2_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 5022).saturating_mul(g.into()))
	}
	fn deregister_miner(g: u32, ) -> Weight {
		Weight::from_parts(61_645_991, 8037)
			.saturating_add(Weight::from_parts(3_733_605, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(7_u64))
			.saturating_add(ParityDbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	fn commit_memory(g: u32, ) -> Weight {
		Weight::from_parts(30_670_855, 8037)
			.saturating_add(Weight::from_parts(5_151_519, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn commit_roots(g: u32, ) -> Weight {
		Weight::from_parts(35_567_116, 23462)
			.saturating_add(Weight::from_parts(8_199_906, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(7_u64))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
	}
	fn reveal_openings(o: u32, w: u32, ) -> Weight {
		Weight::from_parts(71_040_567, 23462)
			.saturating_add(Weight::from_parts(21_005_430, 0).saturating_mul(o.into()))
			.saturating_add(Weight::from_parts(22_843_150, 0).saturating_mul(w.into()))
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(3_u64))
	}
	fn submit_verdict(v: u32, ) -> Weight {
		Weight::from_parts(66_936_260, 135059)
			.saturating_add(Weight::from_parts(176_277, 0).saturating_mul(v.into()))
			.saturating_add(ParityDbWeight::get().reads(4_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn start_round(p: u32, ) -> Weight {
		Weight::from_parts(22_351_123, 8614)
			.saturating_add(Weight::from_parts(5_535_192, 0).saturating_mul(p.into()))
			.saturating_add(ParityDbWeight::get().reads(8_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(p.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2516).saturating_mul(p.into()))
	}
	fn draw_sample() -> Weight {
		Weight::from_parts(15_799_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn settle_miners(m: u32, g: u32, ) -> Weight {
		Weight::from_parts(303_758_000, 135518)
			.saturating_add(Weight::from_parts(119_225_060, 0).saturating_mul(m.into()))
			.saturating_add(Weight::from_parts(341_487_285, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(25_u64))
			.saturating_add(ParityDbWeight::get().reads((10_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().reads((20_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(37_u64))
			.saturating_add(ParityDbWeight::get().writes((15_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes((40_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 168529).saturating_mul(g.into()))
			.saturating_add(Weight::from_parts(0, 52502).saturating_mul(m.into()))
	}
	fn idle_block() -> Weight {
		Weight::from_parts(5_127_000, 1644)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
	}
	fn add_profile() -> Weight {
		Weight::from_parts(12_330_000, 1489)
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().writes(3_u64))
	}
	fn update_profile(m: u32, ) -> Weight {
		Weight::from_parts(16_184_000, 3564)
			.saturating_add(ParityDbWeight::get().reads_writes(3, 3).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn pay_miners(m: u32, ) -> Weight {
		ParityDbWeight::get().reads_writes(4, 1).saturating_add(ParityDbWeight::get().reads_writes(5, 5).saturating_mul(m.into()))
	}
	fn emit_round(v: u32, ) -> Weight {
		ParityDbWeight::get().reads_writes(5, 5).saturating_add(ParityDbWeight::get().reads_writes(3, 3).saturating_mul(v.into()))
	}
	fn remove_profile() -> Weight {
		Weight::from_parts(16_672_000, 3564)
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
	}
	fn add_validator() -> Weight {
		Weight::from_parts(12_515_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn remove_validator() -> Weight {
		Weight::from_parts(12_016_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn set_config() -> Weight {
		Weight::from_parts(11_213_000, 1644)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn update_shares(m: u32, ) -> Weight {
		Weight::from_parts(9_863_000, 3537)
			.saturating_add(Weight::from_parts(3_860_028, 0).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2547).saturating_mul(m.into()))
	}
	fn check_memory_walks() -> Weight {
		Weight::from_parts(680_527_462_000, 0)
	}
}
