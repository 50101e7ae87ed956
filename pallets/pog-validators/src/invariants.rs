//! The pallet's invariants (`try_state`), checked after every block in try-runtime and after
//! every step of the tests.

use frame_support::{
	ensure,
	traits::{fungible::InspectHold, Get},
};
use sp_runtime::TryRuntimeError;

use crate::pallet::{Config, HoldReason, Pallet, PlannedValidators, Seated, ValidatorBonds, Validators};

impl<T: Config> Pallet<T> {
	/// Every planned or seated validator is bonded, and what is held is its bond's record; at
	/// most two sets are bonded, and a leaving validator is neither planned nor seated;
	/// the committee members are the seated validators' `pog!` accounts; the bonds' counter counts
	/// them.
	pub fn do_try_state() -> Result<(), TryRuntimeError> {
		let reason: T::RuntimeHoldReason = HoldReason::ValidatorBond.into();
		let mut bonds = 0u32;
		for (who, bond) in ValidatorBonds::<T>::iter() {
			bonds += 1;
			ensure!(
				T::Currency::balance_on_hold(&reason, &who) == bond.held,
				TryRuntimeError::Other("validator bond held differs from its record")
			);
		}
		ensure!(ValidatorBonds::<T>::count() == bonds, TryRuntimeError::Other("the bonds' counter is off"));
		ensure!(
			bonds <= T::MaxValidators::get().saturating_mul(2),
			TryRuntimeError::Other("more bonds than a seated set and a leaving one")
		);
		let seated = Seated::<T>::get();
		let planned = PlannedValidators::<T>::get();
		ensure!(
			ValidatorBonds::<T>::iter()
				.filter(|(_, bond)| bond.leaving.is_some())
				.all(|(v, _)| !planned.contains(&v) && !seated.iter().any(|(s, _)| s == &v)),
			TryRuntimeError::Other("a leaving validator is planned or seated")
		);
		ensure!(
			planned.iter().chain(seated.iter().map(|(v, _)| v)).all(ValidatorBonds::<T>::contains_key),
			TryRuntimeError::Other("a planned or seated validator has no bond")
		);
		ensure!(
			seated.iter().map(|(_, s)| s).eq(Validators::<T>::get().iter()),
			TryRuntimeError::Other("committee members are not the seated validators' pog! accounts")
		);
		Ok(())
	}
}
