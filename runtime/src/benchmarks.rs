//! The runtime's benchmarks (`runtime-benchmarks` feature).

pub use frame_benchmarking::baseline::Pallet as BaselineBench;
pub use frame_system_benchmarking::Pallet as SystemBench;

#[allow(unused_imports)]
use super::*;

impl frame_system_benchmarking::Config for Runtime {}
impl frame_benchmarking::baseline::Config for Runtime {}

frame_benchmarking::define_benchmarks!(
	[frame_benchmarking, BaselineBench::<Runtime>]
	[frame_system, SystemBench::<Runtime>]
	[pallet_balances, Balances]
	[pallet_timestamp, Timestamp]
	[pallet_pog, Pog]
	[pallet_pog_rewards, PogRewards]
	[pallet_pog_validators, PogValidators]
);
