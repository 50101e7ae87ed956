//! Benchmarks of every pallet-pog-validators call (frame-benchmarking v2), each in its worst case.

use crate::pallet::*;
use crate::ValidatorRules;
use alloc::vec::Vec;
use frame_benchmarking::v2::*;
use frame_support::{
	traits::{
		fungible::{Inspect, Mutate},
		Get,
	},
	BoundedVec,
};
use frame_system::RawOrigin;
use sp_runtime::Saturating;

const SEED: u32 = 0;

/// Seats `n` validators, each its own committee member, planned and bonded (for the proof's
/// benchmarks, `pog_traits::Committee::bench_seat`).
pub(crate) fn seat<T: Config>(n: u32) -> Vec<(T::AccountId, T::AccountId)> {
	let accounts: Vec<T::AccountId> = (0..n.min(T::MaxValidators::get())).map(|i| account("seat", i, SEED)).collect();
	let seats: Vec<(T::AccountId, T::AccountId)> = accounts.iter().map(|a| (a.clone(), a.clone())).collect();
	for a in &accounts {
		ValidatorBonds::<T>::insert(a, crate::ValidatorBond::default());
	}
	Seated::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(seats.clone()));
	Validators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(accounts.clone()));
	PlannedValidators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(accounts));
	seats
}

#[benchmarks(where T::Currency: Mutate<T::AccountId>)]
mod benchmarks {
	use super::*;

	#[benchmark]
	fn add_validator() {
		// Worst case: the plan one short of full, a new validator whose bond is held.
		let vs: Vec<T::AccountId> = (0..T::MaxValidators::get() - 1).map(|i| account("v", i, SEED)).collect();
		PlannedValidators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(vs));
		let new: T::AccountId = account("new", 0, SEED);
		let funds = T::ValidatorBond::get().saturating_add(T::Currency::minimum_balance()).saturating_mul(2u32.into());
		let _ = T::Currency::set_balance(&new, funds);
		#[extrinsic_call]
		_(RawOrigin::Root, new.clone());
		assert!(PlannedValidators::<T>::get().contains(&new));
		assert!(ValidatorBonds::<T>::contains_key(&new));
	}

	#[benchmark]
	fn remove_validator() {
		let vs: Vec<T::AccountId> = (0..T::MaxValidators::get()).map(|i| account("v", i, SEED)).collect();
		let last = vs.last().cloned().expect("MaxValidators > 0");
		PlannedValidators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(vs));
		#[extrinsic_call]
		_(RawOrigin::Root, last.clone());
		assert!(!PlannedValidators::<T>::get().contains(&last));
	}

	#[benchmark]
	fn set_validator_rules() {
		let rules = ValidatorRules { max_strikes: 5, ..ValidatorRules::mainnet() };
		#[extrinsic_call]
		_(RawOrigin::Root, rules);
		assert_eq!(Accountability::<T>::get(), rules);
	}

	impl_benchmark_test_suite!(Pallet, crate::mock::new_test_ext(), crate::mock::Test);
}
