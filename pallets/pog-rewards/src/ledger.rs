//! The money PoG makes and destroys, so that `try_state` can check the token's supply.
//!
//! This pallet is the only one that mints: each round's emission (validators, treasury, miners'
//! pay). PoG burns registration fees, slashed deposits and burned validator bonds (pallet-pog,
//! through `RoundPay::burned`) and burned unvested pay (here). [`MoneyLedger`] counts both from a
//! baseline, the total issuance when it was set (at genesis, or by
//! [`crate::migrations::InitMoneyLedger`] on a chain that predates it), and `try_state` checks
//! `total issuance ≤ baseline + minted − burned`. Equality is not the rule: the runtime also
//! burns outside PoG (balances' dust, below the existential deposit), which only lowers the
//! issuance, while a unit minted anywhere but here breaks it. A mint by root
//! (`balances.forceSetBalance`) breaks it too, on purpose: the chain's money is what PoG emits.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use frame_support::traits::fungible::Inspect;
use scale_info::TypeInfo;
use sp_runtime::traits::{Saturating, Zero};

use crate::pallet::{BalanceOf, Config, Ledger, Pallet};

/// What PoG minted and burned since the baseline.
#[derive(
	Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, Default, TypeInfo, MaxEncodedLen,
)]
pub struct MoneyLedger<Balance> {
	/// The total issuance when the ledger was set.
	pub baseline: Balance,
	/// Minted by PoG since.
	pub minted: Balance,
	/// Burned by PoG since.
	pub burned: Balance,
}

impl<Balance: Saturating + Copy + PartialOrd> MoneyLedger<Balance> {
	/// The most the total issuance can be: the baseline, plus what was minted, less what was
	/// burned.
	pub fn ceiling(&self) -> Balance {
		self.baseline.saturating_add(self.minted).saturating_sub(self.burned)
	}
}

impl<T: Config> Pallet<T> {
	/// Starts the ledger at today's total issuance, unless it is kept already.
	pub(crate) fn open_ledger() {
		if Ledger::<T>::get().is_none() {
			let baseline = T::Currency::total_issuance();
			Ledger::<T>::put(MoneyLedger { baseline, minted: Zero::zero(), burned: Zero::zero() });
		}
	}

	/// Counts `amount` minted by PoG.
	pub(crate) fn note_minted(amount: BalanceOf<T>) {
		Ledger::<T>::mutate(|l| {
			if let Some(l) = l {
				l.minted = l.minted.saturating_add(amount);
			}
		});
	}

	/// Counts `amount` burned by PoG.
	pub(crate) fn note_burned(amount: BalanceOf<T>) {
		Ledger::<T>::mutate(|l| {
			if let Some(l) = l {
				l.burned = l.burned.saturating_add(amount);
			}
		});
	}

	/// The total issuance is at most the ledger's ceiling (nothing minted outside PoG).
	#[cfg(any(test, feature = "try-runtime"))]
	pub(crate) fn check_money() -> Result<(), sp_runtime::TryRuntimeError> {
		let Some(ledger) = Ledger::<T>::get() else { return Ok(()) };
		frame_support::ensure!(
			T::Currency::total_issuance() <= ledger.ceiling(),
			sp_runtime::TryRuntimeError::Other(
				"the total issuance exceeds genesis + minted − burned: money minted outside PoG"
			)
		);
		Ok(())
	}
}
