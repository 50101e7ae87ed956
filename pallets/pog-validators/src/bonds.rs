//! Each validator's bond: held from its account while it is planned, seated or leaving, burned in
//! part for a strike or a proven offence, released once its last round is settled and the audits
//! of its votes are closed.

use alloc::vec::Vec;
use codec::{Decode, Encode, MaxEncodedLen};
use frame_support::{
	pallet_prelude::*,
	traits::{
		fungible::MutateHold,
		tokens::{Fortitude, Precision},
	},
};
use pog_traits::{RoundPay, Rounds};
use scale_info::TypeInfo;
use sp_runtime::{
	traits::{Convert, Saturating, Zero},
	Perbill,
};
use sp_staking::offence::{OffenceDetails, OnOffenceHandler};

use crate::pallet::{BalanceOf, Config, Error, Event, HoldReason, Pallet, ValidatorBonds};
use crate::SessionIndex;

/// A validator's bond and standing.
#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct ValidatorBond<Balance> {
	/// What is held (less what was burned).
	pub held: Balance,
	/// Strikes against it (see [`crate::ValidatorRules`]).
	pub strikes: u32,
	/// Once it has left the active set: the round after whose settlement the bond is released.
	pub leaving: Option<pog_traits::RoundIndex>,
}

/// A validator's bond record in this runtime's balance.
pub type ValidatorBondOf<T> = ValidatorBond<BalanceOf<T>>;

impl<T: Config> Pallet<T> {
	/// Holds the bond of a new validator.
	pub(crate) fn bond(validator: &T::AccountId) -> DispatchResult {
		let amount = T::ValidatorBond::get();
		T::Currency::hold(&HoldReason::ValidatorBond.into(), validator, amount).map_err(|_| Error::<T>::CannotBond)?;
		ValidatorBonds::<T>::insert(validator, ValidatorBond { held: amount, strikes: 0, leaving: None });
		Self::deposit_event(Event::ValidatorBonded { validator: validator.clone(), amount });
		Ok(())
	}

	/// Burns `share` of what `validator` holds as its bond (`bond`, updated); returns the amount.
	pub(crate) fn burn_bond(validator: &T::AccountId, bond: &mut ValidatorBondOf<T>, share: Perbill) -> BalanceOf<T> {
		let burned = T::Currency::burn_held(
			&HoldReason::ValidatorBond.into(),
			validator,
			share * bond.held,
			Precision::BestEffort,
			Fortitude::Force,
		)
		.unwrap_or_default();
		T::RoundPay::burned(burned);
		bond.held = bond.held.saturating_sub(burned);
		burned
	}

	/// Releases what `validator` still holds as a bond.
	pub(crate) fn release_bond(validator: &T::AccountId) {
		let Some(bond) = ValidatorBonds::<T>::take(validator) else { return };
		let released =
			T::Currency::release(&HoldReason::ValidatorBond.into(), validator, bond.held, Precision::BestEffort)
				.unwrap_or_default();
		Self::deposit_event(Event::ValidatorBondReleased { validator: validator.clone(), amount: released });
	}

	/// Releases the bonds of validators that left before round `round` was settled and owe no
	/// evidence.
	pub(crate) fn release_left(round: pog_traits::RoundIndex) {
		let owing = T::Rounds::owing_evidence();
		let released: Vec<T::AccountId> = ValidatorBonds::<T>::iter()
			.filter(|(v, bond)| bond.leaving.is_some_and(|r| r <= round) && !owing.contains(v))
			.map(|(v, _)| v)
			.collect();
		for validator in released {
			Self::release_bond(&validator);
		}
	}

	/// What `validator` holds as its bond.
	pub fn bond_of(validator: &T::AccountId) -> BalanceOf<T> {
		ValidatorBonds::<T>::get(validator).map(|b| b.held).unwrap_or_else(Zero::zero)
	}
}

/// A validator's identification in historical sessions: nothing beyond its account, while it is
/// bonded.
pub struct BondedValidator<T>(core::marker::PhantomData<T>);

impl<T: Config> Convert<T::AccountId, Option<()>> for BondedValidator<T> {
	fn convert(validator: T::AccountId) -> Option<()> {
		ValidatorBonds::<T>::contains_key(&validator).then_some(())
	}
}

/// Offences reported through the standard path (pallet-offences: BABE and GRANDPA equivocations,
/// proven with historical sessions): each offender's bond burns by the offence's slash fraction,
/// and it is planned out of the set (it leaves at the next session change).
impl<T: Config> OnOffenceHandler<T::AccountId, (T::AccountId, ()), Weight> for Pallet<T> {
	fn on_offence(
		offenders: &[OffenceDetails<T::AccountId, (T::AccountId, ())>],
		slash_fraction: &[Perbill],
		session: SessionIndex,
	) -> Weight {
		for (details, fraction) in offenders.iter().zip(slash_fraction) {
			let (validator, ()) = &details.offender;
			let Some(mut bond) = ValidatorBonds::<T>::get(validator) else { continue };
			let burned = Self::burn_bond(validator, &mut bond, *fraction);
			ValidatorBonds::<T>::insert(validator, bond);
			// an equivocation is proven on chain: its validator goes, down to the last one
			let expelled = Self::expel(validator, 1);
			Self::deposit_event(Event::ValidatorOffended {
				validator: validator.clone(),
				session,
				fraction: *fraction,
				burned,
				expelled,
			});
		}
		let n = offenders.len() as u64;
		T::DbWeight::get().reads_writes(3 * n + 1, 3 * n + 1)
	}
}
