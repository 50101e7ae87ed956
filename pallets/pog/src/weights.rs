
//! Weights for `pallet_pog`, generated from its benchmarks by `scripts/bench-weights.sh`; do not edit.
//!
//! Except, until the next run of that script: `commit_roots`, `submit_verdict`, `start_round`,
//! `draw_sample`, `settle_miners` and `idle_block` were written by hand for the network-wide round,
//! estimated from the measured calls that did the same storage and hashing work before it.
//!
//! Benchmark CLI 64.0.0, 2026-11-22; steps 50, repeat 20;
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
	fn commit_roots(g: u32, ) -> Weight;
	fn reveal_openings(o: u32, ) -> Weight;
	fn submit_verdict(v: u32, ) -> Weight;
	fn start_round(p: u32, ) -> Weight;
	fn draw_sample() -> Weight;
	fn settle_miners(m: u32, g: u32, ) -> Weight;
	fn idle_block() -> Weight;
	fn add_profile() -> Weight;
	fn update_profile() -> Weight;
	fn remove_profile() -> Weight;
	fn add_validator() -> Weight;
	fn remove_validator() -> Weight;
	fn set_config() -> Weight;
	fn update_shares(m: u32, ) -> Weight;
}

/// Weights measured for `pallet_pog`, with the runtime's database weights.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(2569), added: 5044, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:1)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(90), added: 2565, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidOwner` (r:16 w:16)
	/// Proof: `Pog::UuidOwner` (`max_values`: None, `max_size`: Some(64), added: 2539, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:1 w:1)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:1 w:1)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(67), added: 2542, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:1)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn register_miner(g: u32, ) -> Weight {
		// Proof size: measured 544, estimated 6034 bytes; fastest run 114_682 ns.
		Weight::from_parts(207_394_642, 6034)
			.saturating_add(Weight::from_parts(11_198_913, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(5_u64))
			.saturating_add(T::DbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2539).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(2569), added: 5044, mode: `MaxEncodedLen`)
	/// Storage: `Pog::InFlight` (r:16 w:0)
	/// Proof: `Pog::InFlight` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:1 w:0)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(90), added: 2565, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidOwner` (r:16 w:32)
	/// Proof: `Pog::UuidOwner` (`max_values`: None, `max_size`: Some(64), added: 2539, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:2 w:2)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Credits` (r:1 w:1)
	/// Proof: `Pog::Credits` (`max_values`: None, `max_size`: Some(625), added: 3100, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(84), added: 579, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:1 w:1)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(80), added: 2555, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn update_miner(g: u32, ) -> Weight {
		// Proof size: measured 925, estimated 6034 bytes; fastest run 84_496 ns.
		Weight::from_parts(170_081_431, 6034)
			.saturating_add(Weight::from_parts(15_542_962, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(7_u64))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(5_u64))
			.saturating_add(T::DbWeight::get().writes((2_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2539).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Miners` (r:1 w:1)
	/// Proof: `Pog::Miners` (`max_values`: None, `max_size`: Some(2569), added: 5044, mode: `MaxEncodedLen`)
	/// Storage: `Pog::InFlight` (r:16 w:16)
	/// Proof: `Pog::InFlight` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `System::Account` (r:1 w:1)
	/// Proof: `System::Account` (`max_values`: None, `max_size`: Some(128), added: 2603, mode: `MaxEncodedLen`)
	/// Storage: `Balances::Holds` (r:1 w:1)
	/// Proof: `Balances::Holds` (`max_values`: None, `max_size`: Some(67), added: 2542, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:1)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Challenges` (r:16 w:16)
	/// Proof: `Pog::Challenges` (`max_values`: None, `max_size`: Some(4221), added: 6696, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:1)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Scores` (r:0 w:1)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(80), added: 2555, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:0 w:16)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131538), added: 134013, mode: `MaxEncodedLen`)
	/// Storage: `Pog::UuidOwner` (r:0 w:16)
	/// Proof: `Pog::UuidOwner` (`max_values`: None, `max_size`: Some(64), added: 2539, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Credits` (r:0 w:1)
	/// Proof: `Pog::Credits` (`max_values`: None, `max_size`: Some(625), added: 3100, mode: `MaxEncodedLen`)
	/// Component `g` in `[1, 16]`.
	fn deregister_miner(g: u32, ) -> Weight {
		// Proof size: measured 720, estimated 6034 bytes; fastest run 140_790 ns.
		Weight::from_parts(187_962_708, 6034)
			.saturating_add(Weight::from_parts(31_572_145, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(7_u64))
			.saturating_add(T::DbWeight::get().writes((4_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 6696).saturating_mul(g.into()))
	}
	/// Storage: `Pog::Challenges` (r:1 w:1)
	/// Proof: `Pog::Challenges` (`max_values`: None, `max_size`: Some(4221), added: 6696, mode: `MaxEncodedLen`)
	/// Storage: `System::BlockHash` (r:1 w:0)
	/// Proof: `System::BlockHash` (`max_values`: None, `max_size`: Some(44), added: 2519, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Configuration` (r:1 w:0)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(84), added: 579, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Openings` (r:0 w:1)
	/// Proof: `Pog::Openings` (`max_values`: None, `max_size`: Some(131538), added: 134013, mode: `MaxEncodedLen`)
	/// Component `o` in `[1, 64]`.
	fn reveal_openings(o: u32, ) -> Weight {
		// Proof size: measured 731, estimated 7686 bytes; fastest run 88_794 ns.
		Weight::from_parts(75_378_587, 7686)
			.saturating_add(Weight::from_parts(74_539_647, 0).saturating_mul(o.into()))
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	/// Storage: `Pog::ProfileCount` (r:1 w:1)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::NextProfileId` (r:1 w:1)
	/// Proof: `Pog::NextProfileId` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Profiles` (r:0 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(90), added: 2565, mode: `MaxEncodedLen`)
	fn add_profile() -> Weight {
		// Proof size: measured 155, estimated 1489 bytes; fastest run 20_549 ns.
		Weight::from_parts(44_440_000, 1489)
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().writes(3_u64))
	}
	/// Storage: `Pog::Profiles` (r:1 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(90), added: 2565, mode: `MaxEncodedLen`)
	fn update_profile() -> Weight {
		// Proof size: measured 422, estimated 3555 bytes; fastest run 30_372 ns.
		Weight::from_parts(50_217_000, 3555)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Profiles` (r:1 w:1)
	/// Proof: `Pog::Profiles` (`max_values`: None, `max_size`: Some(90), added: 2565, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileClaims` (r:1 w:0)
	/// Proof: `Pog::ProfileClaims` (`max_values`: None, `max_size`: Some(16), added: 2491, mode: `MaxEncodedLen`)
	/// Storage: `Pog::ProfileCount` (r:1 w:1)
	/// Proof: `Pog::ProfileCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	fn remove_profile() -> Weight {
		// Proof size: measured 422, estimated 3555 bytes; fastest run 26_613 ns.
		Weight::from_parts(49_722_000, 3555)
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:1)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	fn add_validator() -> Weight {
		// Proof size: measured 2162, estimated 3535 bytes; fastest run 23_235 ns.
		Weight::from_parts(45_390_000, 3535)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Validators` (r:1 w:1)
	/// Proof: `Pog::Validators` (`max_values`: Some(1), `max_size`: Some(2050), added: 2545, mode: `MaxEncodedLen`)
	fn remove_validator() -> Weight {
		// Proof size: measured 2195, estimated 3535 bytes; fastest run 20_475 ns.
		Weight::from_parts(38_226_000, 3535)
			.saturating_add(T::DbWeight::get().reads(1_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Configuration` (r:0 w:1)
	/// Proof: `Pog::Configuration` (`max_values`: Some(1), `max_size`: Some(84), added: 579, mode: `MaxEncodedLen`)
	fn set_config() -> Weight {
		// Proof size: measured 0, estimated 0 bytes; fastest run 15_730 ns.
		Weight::from_parts(23_660_000, 0)
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Storage: `Pog::Scores` (r:4097 w:0)
	/// Proof: `Pog::Scores` (`max_values`: None, `max_size`: Some(80), added: 2555, mode: `MaxEncodedLen`)
	/// Storage: `Pog::MinerCount` (r:1 w:0)
	/// Proof: `Pog::MinerCount` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::Epoch` (r:0 w:1)
	/// Proof: `Pog::Epoch` (`max_values`: Some(1), `max_size`: Some(4), added: 499, mode: `MaxEncodedLen`)
	/// Storage: `Pog::WeightShares` (r:0 w:1)
	/// Proof: `Pog::WeightShares` (`max_values`: Some(1), `max_size`: Some(147458), added: 147953, mode: `MaxEncodedLen`)
	/// Component `m` in `[0, 4096]`.
	fn update_shares(m: u32, ) -> Weight {
		// Proof size: measured 612, estimated 3545 bytes; fastest run 28_303 ns.
		Weight::from_parts(1_153_565_196, 3545)
			.saturating_add(Weight::from_parts(11_150_450, 0).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(2_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2555).saturating_mul(m.into()))
	}
	/// Hand estimate: per GPU, the challenge derivation `issue_challenges` measured, and one slot.
	fn commit_roots(g: u32, ) -> Weight {
		Weight::from_parts(80_000_000, 7686)
			.saturating_add(Weight::from_parts(32_000_000, 0).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	/// Hand estimate: the measured `submit_verdict` (openings read) and the committee scan.
	fn submit_verdict(v: u32, ) -> Weight {
		Weight::from_parts(221_505_000, 134013)
			.saturating_add(Weight::from_parts(1_000_000, 0).saturating_mul(v.into()))
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Hand estimate: randomness, the profile table for the commit window.
	fn start_round(p: u32, ) -> Weight {
		Weight::from_parts(60_000_000, 4000)
			.saturating_add(Weight::from_parts(8_000_000, 2565).saturating_mul(p.into()))
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().reads((1_u64).saturating_mul(p.into())))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Hand estimate: randomness and the validator set.
	fn draw_sample() -> Weight {
		Weight::from_parts(60_000_000, 4000)
			.saturating_add(T::DbWeight::get().reads(5_u64))
			.saturating_add(T::DbWeight::get().writes(1_u64))
	}
	/// Hand estimate: per miner, what `expire_challenges` measured per challenge for each GPU,
	/// the hold, standing, score and miner record.
	fn settle_miners(m: u32, g: u32, ) -> Weight {
		Weight::from_parts(50_000_000, 4000)
			.saturating_add(Weight::from_parts(150_000_000, 12000).saturating_mul(m.into()))
			.saturating_add(Weight::from_parts(62_000_000, 6696).saturating_mul((m.saturating_mul(g)).into()))
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().reads((7_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().reads((2_u64).saturating_mul((m.saturating_mul(g)).into())))
			.saturating_add(T::DbWeight::get().writes((5_u64).saturating_mul(m.into())))
			.saturating_add(T::DbWeight::get().writes((2_u64).saturating_mul((m.saturating_mul(g)).into())))
	}
	/// Reading the round and the timestamp.
	fn idle_block() -> Weight {
		Weight::from_parts(5_000_000, 1000)
			.saturating_add(T::DbWeight::get().reads(2_u64))
	}
}

impl WeightInfo for () {
	fn register_miner(g: u32, ) -> Weight {
		Weight::from_parts(207_394_642, 6034)
			.saturating_add(Weight::from_parts(11_198_913, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
			.saturating_add(ParityDbWeight::get().writes((1_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2539).saturating_mul(g.into()))
	}
	fn update_miner(g: u32, ) -> Weight {
		Weight::from_parts(170_081_431, 6034)
			.saturating_add(Weight::from_parts(15_542_962, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(7_u64))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(5_u64))
			.saturating_add(ParityDbWeight::get().writes((2_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 2539).saturating_mul(g.into()))
	}
	fn deregister_miner(g: u32, ) -> Weight {
		Weight::from_parts(187_962_708, 6034)
			.saturating_add(Weight::from_parts(31_572_145, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(7_u64))
			.saturating_add(ParityDbWeight::get().writes((4_u64).saturating_mul(g.into())))
			.saturating_add(Weight::from_parts(0, 6696).saturating_mul(g.into()))
	}
	fn reveal_openings(o: u32, ) -> Weight {
		Weight::from_parts(75_378_587, 7686)
			.saturating_add(Weight::from_parts(74_539_647, 0).saturating_mul(o.into()))
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
	}
	fn add_profile() -> Weight {
		Weight::from_parts(44_440_000, 1489)
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().writes(3_u64))
	}
	fn update_profile() -> Weight {
		Weight::from_parts(50_217_000, 3555)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn remove_profile() -> Weight {
		Weight::from_parts(49_722_000, 3555)
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
	}
	fn add_validator() -> Weight {
		Weight::from_parts(45_390_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn remove_validator() -> Weight {
		Weight::from_parts(38_226_000, 3535)
			.saturating_add(ParityDbWeight::get().reads(1_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn set_config() -> Weight {
		Weight::from_parts(23_660_000, 0)
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	fn update_shares(m: u32, ) -> Weight {
		Weight::from_parts(1_153_565_196, 3545)
			.saturating_add(Weight::from_parts(11_150_450, 0).saturating_mul(m.into()))
			.saturating_add(ParityDbWeight::get().reads(2_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
			.saturating_add(Weight::from_parts(0, 2555).saturating_mul(m.into()))
	}
	/// Hand estimate: per GPU, the challenge derivation `issue_challenges` measured, and one slot.
	fn commit_roots(g: u32, ) -> Weight {
		Weight::from_parts(80_000_000, 7686)
			.saturating_add(Weight::from_parts(32_000_000, 0).saturating_mul(g.into()))
			.saturating_add(ParityDbWeight::get().reads(6_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(g.into())))
			.saturating_add(ParityDbWeight::get().writes(2_u64))
	}
	/// Hand estimate: the measured `submit_verdict` (openings read) and the committee scan.
	fn submit_verdict(v: u32, ) -> Weight {
		Weight::from_parts(221_505_000, 134013)
			.saturating_add(Weight::from_parts(1_000_000, 0).saturating_mul(v.into()))
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	/// Hand estimate: randomness, the profile table for the commit window.
	fn start_round(p: u32, ) -> Weight {
		Weight::from_parts(60_000_000, 4000)
			.saturating_add(Weight::from_parts(8_000_000, 2565).saturating_mul(p.into()))
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().reads((1_u64).saturating_mul(p.into())))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	/// Hand estimate: randomness and the validator set.
	fn draw_sample() -> Weight {
		Weight::from_parts(60_000_000, 4000)
			.saturating_add(ParityDbWeight::get().reads(5_u64))
			.saturating_add(ParityDbWeight::get().writes(1_u64))
	}
	/// Hand estimate: per miner, what `expire_challenges` measured per challenge for each GPU,
	/// the hold, standing, score and miner record.
	fn settle_miners(m: u32, g: u32, ) -> Weight {
		Weight::from_parts(50_000_000, 4000)
			.saturating_add(Weight::from_parts(150_000_000, 12000).saturating_mul(m.into()))
			.saturating_add(Weight::from_parts(62_000_000, 6696).saturating_mul((m.saturating_mul(g)).into()))
			.saturating_add(ParityDbWeight::get().reads(3_u64))
			.saturating_add(ParityDbWeight::get().reads((7_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().reads((2_u64).saturating_mul((m.saturating_mul(g)).into())))
			.saturating_add(ParityDbWeight::get().writes((5_u64).saturating_mul(m.into())))
			.saturating_add(ParityDbWeight::get().writes((2_u64).saturating_mul((m.saturating_mul(g)).into())))
	}
	/// Reading the round and the timestamp.
	fn idle_block() -> Weight {
		Weight::from_parts(5_000_000, 1000)
			.saturating_add(ParityDbWeight::get().reads(2_u64))
	}
}
