//! Storage migrations of the reward ledger, each with `pre_upgrade`/`post_upgrade` checks that
//! try-runtime runs.
//!
//! | version | spec | layout |
//! |---|---|---|
//! | 0 | ≤ 129 | the ledger's items are `pallet-pog`'s (prefix `Pog`), vesting held under `Pog`'s hold reason |
//! | 1 | 130 | the ledger's items are this pallet's, vesting held under its own hold reason ([`v1`]) |

use frame_support::{traits::Get as _, weights::Weight};

use crate::pallet::{Config, Ledger, Pallet};

/// v0 → v1: the reward ledger leaves `pallet-pog`.
///
/// Its seven items move from the `Pog` prefix to this pallet's, unchanged in encoding, and each
/// miner's vesting hold moves from `pallet-pog`'s `Vesting` reason to this pallet's. No live
/// chain holds the old layout (the old-chain fixture of the runtime's tests does, and runs this).
///
/// It is gated on `pallet-pog`'s version, the pallet the items leave
/// (`pallet_pog::migrations::v5::LedgerMoved`), not on this one's: a pallet new to a runtime has
/// its version set to its in-code one before any migration runs (`Executive`'s
/// `before_all_runtime_migrations`), so a migration gated on this pallet's version 0 would never
/// run.
pub mod v1 {
	use super::*;
	use crate::HoldReason;
	#[cfg(feature = "try-runtime")]
	use crate::{earnings::Earnings, pallet::BalanceOf};
	#[cfg(feature = "try-runtime")]
	use alloc::vec::Vec;
	#[cfg(feature = "try-runtime")]
	use frame_support::traits::fungible::InspectHold;
	use frame_support::traits::{Get, PalletInfoAccess, StorageVersion, UncheckedOnRuntimeUpgrade};
	use pog_traits::migration::{self, Rehold};
	#[cfg(feature = "try-runtime")]
	use sp_runtime::traits::Zero;

	/// The items that move, by name (the same here as in `pallet-pog`).
	pub const MOVED: [&str; 7] =
		["Rewards", "Emitted", "Ledger", "LastEmission", "EarningsOf", "PendingPayout", "AgreedVerdicts"];

	/// Whether any of [`MOVED`] has a key under `pallet`'s prefix.
	pub fn left_behind(pallet: &str) -> bool {
		pog_traits::migration::left_behind(&MOVED, pallet)
	}

	/// The migration, unversioned (the runtime runs it inside `pallet-pog`'s v4 → v5). `OldPallet`
	/// is the name `pallet-pog`'s storage is under (`Pog`), `OldVesting` the hold reason it held
	/// vesting pay under.
	pub struct MoveFromPogUnchecked<T, OldPallet, OldVesting>(core::marker::PhantomData<(T, OldPallet, OldVesting)>);

	impl<T, OldPallet, OldVesting> UncheckedOnRuntimeUpgrade for MoveFromPogUnchecked<T, OldPallet, OldVesting>
	where
		T: Config,
		OldPallet: Get<&'static str>,
		OldVesting: Get<T::RuntimeHoldReason>,
	{
		fn on_runtime_upgrade() -> Weight {
			let new = <Pallet<T> as PalletInfoAccess>::name();
			let keys = migration::move_items(&MOVED, OldPallet::get(), new);
			let (old, vesting): (T::RuntimeHoldReason, T::RuntimeHoldReason) =
				(OldVesting::get(), HoldReason::Vesting.into());
			let mut earners = 0u64;
			for who in crate::EarningsOf::<T>::iter_keys() {
				earners += 1;
				if let Rehold::Released(free) = migration::rehold::<T::AccountId, T::Currency>(&who, &old, &vesting) {
					log::error!(target: "runtime::pog", "v1: {free:?} of vesting pay could not be held again");
				}
			}
			StorageVersion::new(1).put::<Pallet<T>>();
			// Each moved key read, written and killed (`move_items`, one `next_key` read each);
			// each earner's hold read, released and held again: at most 4,096 earnings on mainnet.
			T::DbWeight::get().reads_writes(2 * keys + 2 * earners, 2 * keys + 2 * earners)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<Vec<u8>, sp_runtime::TryRuntimeError> {
			use codec::Encode;
			let old: Vec<(T::AccountId, BalanceOf<T>)> = frame_support::storage::migration::storage_key_iter::<
				T::AccountId,
				Earnings<BalanceOf<T>>,
				frame_support::Blake2_128Concat,
			>(OldPallet::get().as_bytes(), b"EarningsOf")
			.map(|(who, e)| (who, e.unvested()))
			.collect();
			Ok(old.encode())
		}

		#[cfg(feature = "try-runtime")]
		fn post_upgrade(state: Vec<u8>) -> Result<(), sp_runtime::TryRuntimeError> {
			use codec::Decode;
			use frame_support::ensure;
			use sp_runtime::TryRuntimeError;
			let old: Vec<(T::AccountId, BalanceOf<T>)> =
				Decode::decode(&mut &state[..]).map_err(|_| TryRuntimeError::Other("pre_upgrade state"))?;
			let vesting: T::RuntimeHoldReason = HoldReason::Vesting.into();
			for (who, unvested) in &old {
				ensure!(
					crate::EarningsOf::<T>::get(who).unvested() == *unvested,
					TryRuntimeError::Other("a miner's earnings did not move")
				);
				ensure!(
					T::Currency::balance_on_hold(&vesting, who) == *unvested,
					TryRuntimeError::Other("a miner's vesting is not held under the new reason")
				);
				ensure!(
					T::Currency::balance_on_hold(&OldVesting::get(), who).is_zero(),
					TryRuntimeError::Other("vesting is still held under pallet-pog's reason")
				);
			}
			ensure!(
				crate::EarningsOf::<T>::iter_keys().count() == old.len(),
				TryRuntimeError::Other("earnings appeared or vanished in the move")
			);
			ensure!(
				!left_behind(OldPallet::get()),
				TryRuntimeError::Other("a reward ledger item is left under pallet-pog's prefix")
			);
			Ok(())
		}
	}
}

/// A chain whose ledger was never opened (before spec 121) opens it at its total issuance at the
/// upgrade. Runs once (it does nothing where the ledger is kept); after [`v1`], which moves a
/// ledger kept under `pallet-pog`.
pub struct InitMoneyLedger<T>(core::marker::PhantomData<T>);

impl<T: Config> frame_support::traits::OnRuntimeUpgrade for InitMoneyLedger<T> {
	fn on_runtime_upgrade() -> Weight {
		Pallet::<T>::open_ledger();
		T::DbWeight::get().reads_writes(2, 1)
	}

	#[cfg(feature = "try-runtime")]
	fn post_upgrade(_state: alloc::vec::Vec<u8>) -> Result<(), sp_runtime::TryRuntimeError> {
		frame_support::ensure!(Ledger::<T>::get().is_some(), sp_runtime::TryRuntimeError::Other("no money ledger"));
		Pallet::<T>::check_money()
	}
}
