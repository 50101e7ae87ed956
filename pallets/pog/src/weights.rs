
//! Weights for `pallet_pog`, generated from its benchmarks by `scripts/bench-weights.sh`; do not edit.
//!
//! Benchmark CLI 64.0.0, 2026-11-26; steps 50, repeat 20;
//! host `vm`, CPU `AMD EPYC`; WASM execution `Compiled`.
//! `attest`: the same command with `--extrinsic attest` (`EXTRINSICS=attest OUTPUT=<file>
//! scripts/bench-weights.sh`), 2026-11-29, on the same kind of machine (2-core `AMD EPYC` VM),
//! its functions copied here.
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
	fn attest(o: u32, ) -> Weight;
	fn start_round(p: u32, ) -> Weight;
	fn draw_sample() -> Weight;
	fn settle_miners(m: u32, g: u32, ) -> Weight;
	fn idle_block() -> Weight;
	fn add_profile() -> Weight;
	fn update_profile(m: u32, ) -> Weight;
	fn remove_profile() -> Weight;
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
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(85), added: 2560, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:1)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidClaimants` (r:16 w:16)
	/// Proof: `Pog::UuidClaimants` (`max_values`: None, `max_size`: Some(36), added: 2511, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:0 w:1)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn register_miner(g: u32, ) -> Weight {
		// Proof size: measured 814, estimated 8037 bytes; fastest run 156_985 ns.
		Weight::from_parts(270_172_884, 8037)
			.saturating_add(Weight::from_parts(6_463_304, 0).saturating_mul(g.into()))
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
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
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
		// Proof size: measured 1094, estimated 8037 bytes; fastest run 96_511 ns.
		Weight::from_parts(153_673_201, 8037)
			.saturating_add(Weight::from_parts(16_788_409, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(8_u64))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(5_u64))
			.saturating_add(T::DbWeight::get().writes((2_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 5022).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::EarningsOf` (r:1 w:0)
	/// Proof: `PogRewards::EarningsOf` (`max_values`: None, `max_size`: Some(5218), added: 7693, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:1 w:1)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:1 w:1)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(85), added: 2560, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:1)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidClaimants` (r:16 w:16)
	/// Proof: `Pog::UuidClaimants` (`max_values`: None, `max_size`: Some(36), added: 2511, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WeightShares` (r:1 w:1)
	/// Proof: `Pog::WeightShares` (`max_values`: Some(1), `max_size`: Some(147458), added: 147953, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:1)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:0 w:1)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:0 w:1)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(72), added: 2547, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn deregister_miner(g: u32, ) -> Weight {
		// Proof size: measured 792, estimated 148943 bytes; fastest run 117_049 ns.
		Weight::from_parts(196_135_345, 148943)
			.saturating_add(Weight::from_parts(10_572_084, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(8_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(8_u64))
			.saturating_add(T::DbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:1 w:0)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MemoryCommitments` (r:1 w:1)
	/// Proof: `Pog::MemoryCommitments` (`max_values`: None, `max_size`: Some(717), added: 3192, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::SpentDuties` (r:16 w:0)
	/// Proof: `Pog::SpentDuties` (`max_values`: None, `max_size`: Some(44), added: 2519, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn commit_memory(g: u32, ) -> Weight {
		// Proof size: measured 1269, estimated 8037 bytes; fastest run 69_119 ns.
		Weight::from_parts(96_671_324, 8037)
			.saturating_add(Weight::from_parts(19_810_999, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2519).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:1 w:0)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Commitments` (r:1 w:1)
	/// Proof: `Pog::Commitments` (`max_values`: None, `max_size`: Some(5645), added: 8120, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::SpentDuties` (r:16 w:0)
	/// Proof: `Pog::SpentDuties` (`max_values`: None, `max_size`: Some(44), added: 2519, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MemoryCommitments` (r:1 w:0)
	/// Proof: `Pog::MemoryCommitments` (`max_values`: None, `max_size`: Some(717), added: 3192, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn commit_roots(g: u32, ) -> Weight {
		// Proof size: measured 1355, estimated 9110 bytes; fastest run 82_274 ns.
		Weight::from_parts(126_386_014, 9110)
			.saturating_add(Weight::from_parts(28_787_267, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(7_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2519).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Commitments` (r:1 w:0)
	/// Proof: `Pog::Commitments` (`max_values`: None, `max_size`: Some(5645), added: 8120, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:1 w:1)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::SpentDuties` (r:1 w:0)
	/// Proof: `Pog::SpentDuties` (`max_values`: None, `max_size`: Some(44), added: 2519, mode: `MaxEncodedLen`)
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
	fn reveal_openings(_o: u32, w: u32, ) -> Weight {
		// Proof size: measured 980, estimated 9398 bytes; fastest run 3_160_288 ns.
		Weight::from_parts(4_813_481_209, 9398)
			.saturating_add(Weight::from_parts(36_943_573, 0).saturating_mul(w.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().writes(3_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:0)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:1 w:1)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::SpentDuties` (r:1 w:0)
	/// Proof: `Pog::SpentDuties` (`max_values`: None, `max_size`: Some(44), added: 2519, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:1 w:0)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131594), added: 134069, mode: `MaxEncodedLen`)
	/// Component `v` in `[1, 64]`.
	fn submit_verdict(_v: u32, ) -> Weight {
		// Proof size: measured 60320, estimated 135059 bytes; fastest run 130_454 ns.
		Weight::from_parts(262_542_843, 135059)
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:0)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Attestations` (r:1 w:1)
	/// Proof: `Pog::Attestations` (`max_values`: None, `max_size`: Some(2399), added: 4874, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:64 w:0)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Storage: `Pog::FirstDraws` (r:64 w:0)
	/// Proof: `Pog::FirstDraws` (`max_values`: None, `max_size`: Some(125), added: 2600, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:64 w:0)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ServedIn` (r:64 w:0)
	/// Proof: `Pog::ServedIn` (`max_values`: None, `max_size`: Some(318), added: 2793, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:64 w:0)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131594), added: 134069, mode: `MaxEncodedLen`)
	/// Component `o` in `[0, 64]`.
	fn attest(o: u32, ) -> Weight {
		// Proof size: measured 1098, estimated 5864 bytes; fastest run 40_636 ns.
		Weight::from_parts(42_099_000, 5864)
			.saturating_add(Weight::from_parts(50_596_347, 0).saturating_mul(o.into()))
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().reads((5_u64).saturating_mul(o.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 134069).saturating_mul(o.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::PendingPayout` (r:1 w:0)
	/// Proof: `PogRewards::PendingPayout` (`max_values`: Some(1), `max_size`: Some(40), added: 535, mode: `MaxEncodedLen`)
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
		// Proof size: measured 824, estimated 8614 bytes; fastest run 121_368 ns.
		Weight::from_parts(128_251_000, 8614)
			.saturating_add(Weight::from_parts(10_537_328, 0).saturating_mul(p.into()))
			.saturating_add(T::DbWeight::get().reads(9_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(p.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2516).saturating_mul(p.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Babe::CurrentSlot` (r:1 w:0)
	/// Proof: `Babe::CurrentSlot` (`max_values`: Some(1), `max_size`: Some(8), added: 503, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Validators` (r:1 w:0)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Entropy` (r:1 w:0)
	/// Proof: `Pog::Entropy` (`max_values`: Some(1), `max_size`: Some(32), added: 527, mode: `MaxEncodedLen`)
	fn draw_sample() -> Weight {
		// Proof size: measured 580, estimated 3535 bytes; fastest run 26_780 ns.
		Weight::from_parts(43_532_000, 3535)
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:1)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:65 w:64)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Commitments` (r:64 w:0)
	/// Proof: `Pog::Commitments` (`max_values`: None, `max_size`: Some(5645), added: 8120, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Verifications` (r:1024 w:0)
	/// Proof: `Pog::Verifications` (`max_values`: None, `max_size`: Some(5933), added: 8408, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ValidatorStats` (r:1 w:1)
	/// Proof: `Pog::ValidatorStats` (`max_values`: None, `max_size`: Some(64), added: 2539, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::AgreedVerdicts` (r:1 w:1)
	/// Proof: `PogRewards::AgreedVerdicts` (`max_values`: None, `max_size`: Some(52), added: 2527, mode: `MaxEncodedLen`)
	/// Storage: `PogRewards::EarningsOf` (r:64 w:64)
	/// Proof: `PogRewards::EarningsOf` (`max_values`: None, `max_size`: Some(5218), added: 7693, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:64 w:64)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:64 w:64)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(85), added: 2560, mode: `MaxEncodedLen`)
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
		// Proof size: measured 0, estimated 135518 bytes; fastest run 1_231_270 ns.
		Weight::from_parts(1_300_058_000, 135518)
			.saturating_add(Weight::from_parts(561_181_615, 0).saturating_mul(m.into()))
			.saturating_add(Weight::from_parts(1_003_911_671, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(29_u64))
			.saturating_add(T::DbWeight::get().reads((13_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().reads((20_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(41_u64))
			.saturating_add(T::DbWeight::get().writes((18_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes((40_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 168529).saturating_mul(g.into()))
			.saturating_add(Weight::from_parts(0, 52502).saturating_mul(m.into()))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	fn idle_block() -> Weight {
		// Proof size: measured 302, estimated 1660 bytes; fastest run 7_324 ns.
		Weight::from_parts(12_334_000, 1660)
			.saturating_add(T::DbWeight::get().reads(1_u64))
	}
	/// Storage: `Pog::ProfileCount` (r:1 w:1)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::NextProfileId` (r:1 w:1)
	/// Proof: `Pog::NextProfileId` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:0 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	fn add_profile() -> Weight {
		// Proof size: measured 221, estimated 1489 bytes; fastest run 21_120 ns.
		Weight::from_parts(24_205_000, 1489)
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().writes(3_u64))
	}
	/// Storage: `Pog::Profiles` (r:1 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Miners` (r:257 w:256)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(4572), added: 7047, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:256 w:256)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:256 w:256)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(85), added: 2560, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Standing` (r:256 w:0)
	/// Proof: `Pog::Standing` (`max_values`: None, `max_size`: Some(737), added: 3212, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:256 w:256)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(72), added: 2547, mode: `MaxEncodedLen`)
	/// Component `m` in `[0, 256]`.
	fn update_profile(m: u32, ) -> Weight {
		// Proof size: measured 828, estimated 8037 bytes; fastest run 35_547 ns.
		Weight::from_parts(415_874_459, 8037)
			.saturating_add(Weight::from_parts(148_636_287, 0).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(4_u64))
			.saturating_add(T::DbWeight::get().reads((5_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
			.saturating_add(T::DbWeight::get().writes((4_u64).saturating_mul(m.into())))
			.saturating_add(Weight::from_parts(0, 7047).saturating_mul(m.into()))
	}
	/// Storage: `Pog::Profiles` (r:1 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(99), added: 2574, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:0)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileCount` (r:1 w:1)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	fn remove_profile() -> Weight {
		// Proof size: measured 592, estimated 3564 bytes; fastest run 28_464 ns.
		Weight::from_parts(50_484_000, 3564)
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	/// Storage: `Pog::Round` (r:1 w:0)
	/// Proof: `Pog::Round` (`max_values`: Some(1), `max_size`: Some(175), added: 670, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:0 w:1)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(101), added: 596, mode: `MaxEncodedLen`)
	fn set_config() -> Weight {
		// Proof size: measured 302, estimated 1660 bytes; fastest run 19_917 ns.
		Weight::from_parts(37_691_000, 1660)
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
		// Proof size: measured 682, estimated 3537 bytes; fastest run 31_539 ns.
		Weight::from_parts(708_888_737, 3537)
			.saturating_add(Weight::from_parts(9_792_920, 0).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2547).saturating_mul(m.into()))
	}
	fn check_memory_walks() -> Weight {
		// Proof size: measured 0, estimated 0 bytes; fastest run 1_666_970_272 ns.
		Weight::from_parts(1_946_667_616_000, 0)
	}
}

/// The same figures with ParityDB's database weights, for tests and mocks.
impl WeightInfo for () {
	fn register_miner(g: u32, ) -> Weight {
		Weight::from_parts(270_172_884, 8037)
			.saturating_add(Weight::from_parts(6_463_304, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(7_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(6_u64))
			.saturating_add(ParityDbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	fn update_miner(g: u32, ) -> Weight {
		Weight::from_parts(153_673_201, 8037)
			.saturating_add(Weight::from_parts(16_788_409, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(8_u64))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
			.saturating_add(ParityDbWeight::get().writes((2_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 5022).saturating_mul(g.into()))
	}
	fn deregister_miner(g: u32, ) -> Weight {
		Weight::from_parts(196_135_345, 148943)
			.saturating_add(Weight::from_parts(10_572_084, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(8_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(8_u64))
			.saturating_add(ParityDbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2511).saturating_mul(g.into()))
	}
	fn commit_memory(g: u32, ) -> Weight {
		Weight::from_parts(96_671_324, 8037)
			.saturating_add(Weight::from_parts(19_810_999, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2519).saturating_mul(g.into()))
	}
	fn commit_roots(g: u32, ) -> Weight {
		Weight::from_parts(126_386_014, 9110)
			.saturating_add(Weight::from_parts(28_787_267, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(7_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2519).saturating_mul(g.into()))
	}
	fn reveal_openings(_o: u32, w: u32, ) -> Weight {
		Weight::from_parts(4_813_481_209, 9398)
			.saturating_add(Weight::from_parts(36_943_573, 0).saturating_mul(w.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().writes(3_u64))
	}
	fn submit_verdict(_v: u32, ) -> Weight {
		Weight::from_parts(262_542_843, 135059)
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn attest(o: u32, ) -> Weight {
		Weight::from_parts(42_099_000, 5864)
			.saturating_add(Weight::from_parts(50_596_347, 0).saturating_mul(o.into()))
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().reads((5_u64).saturating_mul(o.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 134069).saturating_mul(o.into()))
	}
	fn start_round(p: u32, ) -> Weight {
		Weight::from_parts(128_251_000, 8614)
			.saturating_add(Weight::from_parts(10_537_328, 0).saturating_mul(p.into()))
			.saturating_add(ParityDbWeight::get().reads(9_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(p.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(Weight::from_parts(0, 2516).saturating_mul(p.into()))
	}
	fn draw_sample() -> Weight {
		Weight::from_parts(43_532_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn settle_miners(m: u32, g: u32, ) -> Weight {
		Weight::from_parts(1_300_058_000, 135518)
			.saturating_add(Weight::from_parts(561_181_615, 0).saturating_mul(m.into()))
			.saturating_add(Weight::from_parts(1_003_911_671, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(29_u64))
			.saturating_add(ParityDbWeight::get().reads((13_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().reads((20_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(41_u64))
			.saturating_add(ParityDbWeight::get().writes((18_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes((40_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 168529).saturating_mul(g.into()))
			.saturating_add(Weight::from_parts(0, 52502).saturating_mul(m.into()))
	}
	fn idle_block() -> Weight {
		Weight::from_parts(12_334_000, 1660)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
	}
	fn add_profile() -> Weight {
		Weight::from_parts(24_205_000, 1489)
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().writes(3_u64))
	}
	fn update_profile(m: u32, ) -> Weight {
		Weight::from_parts(415_874_459, 8037)
			.saturating_add(Weight::from_parts(148_636_287, 0).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(4_u64))
			.saturating_add(ParityDbWeight::get().reads((5_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
			.saturating_add(ParityDbWeight::get().writes((4_u64).saturating_mul(m.into())))
			.saturating_add(Weight::from_parts(0, 7047).saturating_mul(m.into()))
	}
	fn remove_profile() -> Weight {
		Weight::from_parts(50_484_000, 3564)
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
	}
	fn set_config() -> Weight {
		Weight::from_parts(37_691_000, 1660)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn update_shares(m: u32, ) -> Weight {
		Weight::from_parts(708_888_737, 3537)
			.saturating_add(Weight::from_parts(9_792_920, 0).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2547).saturating_mul(m.into()))
	}
	fn check_memory_walks() -> Weight {
		Weight::from_parts(1_946_667_616_000, 0)
	}
}
