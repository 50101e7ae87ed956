//! The pallet's invariants (`try_state`), checked after every block in try-runtime and after
//! every step of the tests.

use frame_support::{ensure, traits::fungible::InspectHold};
use sp_runtime::TryRuntimeError;

use crate::pallet::{Config, HoldReason, Pallet, PlannedValidators, Seated, ValidatorBonds, Validators};

impl<T: Config> Pallet<T> {
	/// Every planned or seated validator is bonded, and what is held is its bond's record;
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
		let seated = Seated::<T>::get();
		ensure!(
			PlannedValidators::<T>::get()
				.iter()
				.chain(seated.iter().map(|(v, _)| v))
				.all(ValidatorBonds::<T>::contains_key),
			TryRuntimeError::Other("a planned or seated validator has no bond")
		);
		ensure!(
			seated.iter().map(|(_, s)| s).eq(Validators::<T>::get().iter()),
			TryRuntimeError::Other("committee members are not the seated validators' pog! accounts")
		);
		Ok(())
	}
}
