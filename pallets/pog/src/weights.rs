//! Weights for pallet-pog.
//!
//! PROVISIONAL: these figures are placeholders of the right shape until the benchmarks in
//! `benchmarking.rs` are run on the node (`runtime-benchmarks` feature) and this file is
//! regenerated from them; see README ("Weights").

#![allow(unused_parens, unused_imports, missing_docs)]

use core::marker::PhantomData;
use frame_support::{traits::Get, weights::Weight};

/// Weight functions needed for pallet-pog.
pub trait WeightInfo {
	fn register_miner(g: u32) -> Weight;
	fn update_miner(g: u32) -> Weight;
	fn deregister_miner(g: u32) -> Weight;
	fn issue_challenges(g: u32) -> Weight;
	fn commit_root() -> Weight;
	fn reveal_openings(o: u32) -> Weight;
	fn submit_verdict() -> Weight;
	fn expire_challenges(n: u32) -> Weight;
	fn add_profile() -> Weight;
	fn update_profile() -> Weight;
	fn remove_profile() -> Weight;
	fn add_validator() -> Weight;
	fn remove_validator() -> Weight;
	fn set_config() -> Weight;
	fn update_shares(m: u32) -> Weight;
}

/// Weights for pallet-pog using the runtime's database weights.
pub struct SubstrateWeight<T>(PhantomData<T>);
impl<T: frame_system::Config> WeightInfo for SubstrateWeight<T> {
	fn register_miner(g: u32) -> Weight {
		Weight::from_parts(60_000_000, 4_000)
			.saturating_add(Weight::from_parts(5_000_000, 2_600).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(4_u64 + u64::from(g)))
			.saturating_add(T::DbWeight::get().writes(4_u64 + u64::from(g)))
	}
	fn update_miner(g: u32) -> Weight {
		Weight::from_parts(80_000_000, 8_000)
			.saturating_add(Weight::from_parts(10_000_000, 2_600).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64 + 2 * u64::from(g)))
			.saturating_add(T::DbWeight::get().writes(6_u64 + 2 * u64::from(g)))
	}
	fn deregister_miner(g: u32) -> Weight {
		Weight::from_parts(80_000_000, 8_000)
			.saturating_add(Weight::from_parts(15_000_000, 5_000).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(6_u64 + 3 * u64::from(g)))
			.saturating_add(T::DbWeight::get().writes(6_u64 + 4 * u64::from(g)))
	}
	fn issue_challenges(g: u32) -> Weight {
		Weight::from_parts(50_000_000, 8_000)
			.saturating_add(Weight::from_parts(20_000_000, 3_000).saturating_mul(g.into()))
			.saturating_add(T::DbWeight::get().reads(8_u64 + 3 * u64::from(g)))
			.saturating_add(T::DbWeight::get().writes(4_u64 + 4 * u64::from(g)))
	}
	fn commit_root() -> Weight {
		Weight::from_parts(40_000_000, 6_000)
			.saturating_add(T::DbWeight::get().reads(3_u64))
			.saturating_add(T::DbWeight::get().writes(2_u64))
	}
	fn reveal_openings(o: u32) -> Weight {
		Weight::from_parts(40_000_000, 6_000)
			.saturating_add(Weight::from_parts(15_000_000, 2_100).saturating_mul(o.into()))
			.saturating_add(T::DbWeight::get().reads(4_u64))
			.saturating_add(T::DbWeight::get().writes(3_u64))
	}
	fn submit_verdict() -> Weight {
		Weight::from_parts(120_000_000, 80_000)
			.saturating_add(T::DbWeight::get().reads(10_u64))
			.saturating_add(T::DbWeight::get().writes(10_u64))
	}
	fn expire_challenges(n: u32) -> Weight {
		Weight::from_parts(20_000_000, 4_000)
			.saturating_add(Weight::from_parts(60_000_000, 12_000).saturating_mul(n.into()))
			.saturating_add(T::DbWeight::get().reads(2_u64 + 8 * u64::from(n)))
			.saturating_add(T::DbWeight::get().writes(1_u64 + 8 * u64::from(n)))
	}
	fn add_profile() -> Weight {
		Weight::from_parts(15_000_000, 1_600).saturating_add(T::DbWeight::get().reads_writes(1, 2))
	}
	fn update_profile() -> Weight {
		Weight::from_parts(15_000_000, 1_600).saturating_add(T::DbWeight::get().reads_writes(1, 1))
	}
	fn remove_profile() -> Weight {
		Weight::from_parts(15_000_000, 1_600).saturating_add(T::DbWeight::get().reads_writes(2, 1))
	}
	fn add_validator() -> Weight {
		Weight::from_parts(15_000_000, 4_000).saturating_add(T::DbWeight::get().reads_writes(1, 1))
	}
	fn remove_validator() -> Weight {
		Weight::from_parts(15_000_000, 4_000).saturating_add(T::DbWeight::get().reads_writes(1, 1))
	}
	fn set_config() -> Weight {
		Weight::from_parts(10_000_000, 0).saturating_add(T::DbWeight::get().writes(1))
	}
	fn update_shares(m: u32) -> Weight {
		Weight::from_parts(10_000_000, 2_000)
			.saturating_add(Weight::from_parts(3_000_000, 2_600).saturating_mul(m.into()))
			.saturating_add(T::DbWeight::get().reads(1_u64 + u64::from(m)))
			.saturating_add(T::DbWeight::get().writes(2))
	}
}

/// For tests: same as [`SubstrateWeight`] with the unit database weights.
impl WeightInfo for () {
	fn register_miner(g: u32) -> Weight {
		Weight::from_parts(60_000_000, 4_000)
			.saturating_add(Weight::from_parts(5_000_000, 2_600).saturating_mul(g.into()))
	}
	fn update_miner(_g: u32) -> Weight {
		Weight::from_parts(80_000_000, 8_000)
	}
	fn deregister_miner(_g: u32) -> Weight {
		Weight::from_parts(80_000_000, 8_000)
	}
	fn issue_challenges(_g: u32) -> Weight {
		Weight::from_parts(50_000_000, 8_000)
	}
	fn commit_root() -> Weight {
		Weight::from_parts(40_000_000, 6_000)
	}
	fn reveal_openings(_o: u32) -> Weight {
		Weight::from_parts(40_000_000, 6_000)
	}
	fn submit_verdict() -> Weight {
		Weight::from_parts(120_000_000, 80_000)
	}
	fn expire_challenges(_n: u32) -> Weight {
		Weight::from_parts(20_000_000, 4_000)
	}
	fn add_profile() -> Weight {
		Weight::from_parts(15_000_000, 1_600)
	}
	fn update_profile() -> Weight {
		Weight::from_parts(15_000_000, 1_600)
	}
	fn remove_profile() -> Weight {
		Weight::from_parts(15_000_000, 1_600)
	}
	fn add_validator() -> Weight {
		Weight::from_parts(15_000_000, 4_000)
	}
	fn remove_validator() -> Weight {
		Weight::from_parts(15_000_000, 4_000)
	}
	fn set_config() -> Weight {
		Weight::from_parts(10_000_000, 0)
	}
	fn update_shares(_m: u32) -> Weight {
		Weight::from_parts(10_000_000, 2_000)
	}
}
