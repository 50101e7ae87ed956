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

/// What the benchmarks need of the runtime beyond the pallet.
pub trait BenchmarkHelper<AccountId> {
	/// Sets `who`'s session keys (the runtime: pallet-session's `NextKeys`).
	fn set_session_keys(who: &AccountId);
}

/// For a mock whose `HasSessionKeys` holds without keys being set.
impl<AccountId> BenchmarkHelper<AccountId> for () {
	fn set_session_keys(_: &AccountId) {}
}

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

	/// `v` planned validators: the first is removed and only the last has session keys, so
	/// every other planned validator's keys are read before one is found.
	#[benchmark]
	fn remove_validator(v: Linear<2, { T::MaxValidators::get() }>) {
		let vs: Vec<T::AccountId> = (0..v).map(|i| account("v", i, SEED)).collect();
		let (first, last) = (vs[0].clone(), vs[vs.len() - 1].clone());
		T::BenchmarkHelper::set_session_keys(&last);
		PlannedValidators::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(vs));
		#[extrinsic_call]
		_(RawOrigin::Root, first.clone());
		assert!(!PlannedValidators::<T>::get().contains(&first));
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
