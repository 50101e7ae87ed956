//! Storage migrations of the validator set, each with `pre_upgrade`/`post_upgrade` checks that
//! try-runtime runs.
//!
//! | version | spec | layout |
//! |---|---|---|
//! | 0 | ≤ 131 | the set's items are `pallet-pog`'s (prefix `Pog`), bonds held under `Pog`'s hold reason |
//! | 1 | 132 | the set's items are this pallet's, bonds held under its own hold reason ([`v1`]) |

/// v0 → v1: the validator set leaves `pallet-pog`.
///
/// Its eight items move from the `Pog` prefix to this pallet's, unchanged in encoding, and each
/// validator's bond from `pallet-pog`'s `ValidatorBond` hold reason to this pallet's. No live
/// chain holds the old layout (the old-chain fixtures of the runtime's tests do, and run this).
///
/// It is gated on `pallet-pog`'s version, the pallet the items leave
/// (`pallet_pog::migrations::v6::ValidatorsMoved`), not on this one's: a pallet new to a runtime
/// has its version set to its in-code one before any migration runs, so a migration gated on
/// this pallet's version 0 would never run.
pub mod v1 {
	#[cfg(feature = "try-runtime")]
	use crate::pallet::BalanceOf;
	use crate::pallet::{Config, HoldReason, Pallet, ValidatorBonds};
	#[cfg(feature = "try-runtime")]
	use alloc::vec::Vec;
	use frame_support::{
		storage::migration::move_storage_from_pallet,
		traits::{
			fungible::{InspectHold, MutateHold},
			tokens::Precision,
			Get, PalletInfoAccess, StorageVersion, UncheckedOnRuntimeUpgrade,
		},
		weights::Weight,
	};
	use sp_runtime::traits::Zero;

	/// The items that move, by name (the same here as in `pallet-pog`), with the counter of the
	/// counted map of bonds.
	pub const MOVED: [&str; 9] = [
		"Validators",
		"PlannedValidators",
		"QueuedValidators",
		"Seated",
		"ValidatorBonds",
		"CounterForValidatorBonds",
		"Accountability",
		"RoundWork",
		"ValidatorStats",
	];

	/// Whether any of [`MOVED`] has a key under `pallet`'s prefix: a value at the prefix itself,
	/// or a map entry after it.
	pub fn left_behind(pallet: &str) -> bool {
		MOVED.iter().any(|item| {
			let prefix = frame_support::storage::storage_prefix(pallet.as_bytes(), item.as_bytes());
			sp_io::storage::exists(&prefix)
				|| sp_io::storage::next_key(&prefix).is_some_and(|next| next.starts_with(&prefix))
		})
	}

	/// The migration, unversioned (the runtime runs it inside `pallet-pog`'s v5 → v6). `OldPallet`
	/// is the name `pallet-pog`'s storage is under (`Pog`), `OldBond` the hold reason it held
	/// bonds under.
	pub struct MoveFromPogUnchecked<T, OldPallet, OldBond>(core::marker::PhantomData<(T, OldPallet, OldBond)>);

	impl<T, OldPallet, OldBond> UncheckedOnRuntimeUpgrade for MoveFromPogUnchecked<T, OldPallet, OldBond>
	where
		T: Config,
		OldPallet: Get<&'static str>,
		OldBond: Get<T::RuntimeHoldReason>,
	{
		fn on_runtime_upgrade() -> Weight {
			let new = <Pallet<T> as PalletInfoAccess>::name();
			for item in MOVED {
				move_storage_from_pallet(item.as_bytes(), OldPallet::get().as_bytes(), new.as_bytes());
			}
			let (old, bond): (T::RuntimeHoldReason, T::RuntimeHoldReason) =
				(OldBond::get(), HoldReason::ValidatorBond.into());
			let mut moved = 0u64;
			for who in ValidatorBonds::<T>::iter_keys() {
				let held = T::Currency::balance_on_hold(&old, &who);
				if held.is_zero() {
					continue;
				}
				let released = T::Currency::release(&old, &who, held, Precision::BestEffort).unwrap_or_default();
				if T::Currency::hold(&bond, &who, released).is_err() {
					log::error!(target: "runtime::pog", "v1: a bond of {released:?} could not be held again");
				}
				moved += 1;
			}
			StorageVersion::new(1).put::<Pallet<T>>();
			// Each moved key is read and written once and its old key killed, each bond read,
			// released and held again: at most 2 × 64 bonds and as many records on mainnet.
			let keys = 9 + 4 * moved;
			T::DbWeight::get().reads_writes(keys + 2 * moved, 2 * keys + 3 * moved)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<Vec<u8>, sp_runtime::TryRuntimeError> {
			use codec::Encode;
			let old: Vec<(T::AccountId, BalanceOf<T>)> = frame_support::storage::migration::storage_key_iter::<
				T::AccountId,
				crate::ValidatorBondOf<T>,
				frame_support::Blake2_128Concat,
			>(OldPallet::get().as_bytes(), b"ValidatorBonds")
			.map(|(who, bond)| (who, bond.held))
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
			let bond: T::RuntimeHoldReason = HoldReason::ValidatorBond.into();
			for (who, held) in &old {
				ensure!(
					ValidatorBonds::<T>::get(who).map(|b| b.held) == Some(*held),
					TryRuntimeError::Other("a validator's bond record did not move")
				);
				ensure!(
					T::Currency::balance_on_hold(&bond, who) == *held,
					TryRuntimeError::Other("a validator's bond is not held under the new reason")
				);
				ensure!(
					T::Currency::balance_on_hold(&OldBond::get(), who).is_zero(),
					TryRuntimeError::Other("a bond is still held under pallet-pog's reason")
				);
			}
			ensure!(
				ValidatorBonds::<T>::count() as usize == old.len(),
				TryRuntimeError::Other("bonds appeared or vanished in the move")
			);
			ensure!(
				!left_behind(OldPallet::get()),
				TryRuntimeError::Other("a validator set item is left under pallet-pog's prefix")
			);
			Ok(())
		}
	}
}
