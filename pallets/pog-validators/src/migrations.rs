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
	#[cfg(feature = "try-runtime")]
	use frame_support::traits::fungible::InspectHold;
	use frame_support::{
		traits::{Get, PalletInfoAccess, StorageVersion, UncheckedOnRuntimeUpgrade},
		weights::Weight,
	};
	use pog_traits::migration::{self, Rehold};
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

	/// Whether any of [`MOVED`] has a key under `pallet`'s prefix.
	pub fn left_behind(pallet: &str) -> bool {
		pog_traits::migration::left_behind(&MOVED, pallet)
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
			let keys = migration::move_items(&MOVED, OldPallet::get(), new);
			let (old, bond): (T::RuntimeHoldReason, T::RuntimeHoldReason) =
				(OldBond::get(), HoldReason::ValidatorBond.into());
			let (mut bonds, mut expelled) = (0u64, 0u64);
			for (who, mut record) in ValidatorBonds::<T>::iter() {
				bonds += 1;
				// What is held under the new reason is the bond: a record that said otherwise is
				// written to it (nothing is burned that is not held), and a validator left with
				// nothing held is planned out, never below the BFT minimum (it leaves at the next
				// session change; root adds it again to bond it again).
				let held = match migration::rehold::<T::AccountId, T::Currency>(&who, &old, &bond) {
					Rehold::Moved(held) => held,
					Rehold::Nothing => Zero::zero(),
					Rehold::Released(free) => {
						log::error!(target: "runtime::pog", "v1: a bond of {free:?} could not be held again");
						Zero::zero()
					},
				};
				if held != record.held {
					log::warn!(target: "runtime::pog", "v1: a bond recorded as {:?} holds {held:?}", record.held);
					record.held = held;
					if held.is_zero() {
						Pallet::<T>::expel(&who, crate::rules::BFT_MINIMUM);
						expelled += 1;
					}
					ValidatorBonds::<T>::insert(&who, record);
				}
			}
			StorageVersion::new(1).put::<Pallet<T>>();
			// Each moved key read, written and killed (`move_items`, one `next_key` read each);
			// each bond record read, its hold read, released and held again, and the record
			// written where it changed; each expulsion the plan and every planned validator's
			// keys. Mainnet holds at most 128 bonds; the work statistics hold one record per
			// member a chain has ever seated (no live chain holds this layout).
			let plan = 1 + u64::from(T::MaxValidators::get());
			T::DbWeight::get().reads_writes(2 * keys + 2 * bonds + plan * expelled, 2 * keys + 3 * bonds + expelled)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<Vec<u8>, sp_runtime::TryRuntimeError> {
			use codec::Encode;
			let old: Vec<(T::AccountId, BalanceOf<T>)> = frame_support::storage::migration::storage_key_iter::<
				T::AccountId,
				crate::ValidatorBondOf<T>,
				frame_support::Blake2_128Concat,
			>(OldPallet::get().as_bytes(), b"ValidatorBonds")
			.map(|(who, _)| {
				let held = T::Currency::balance_on_hold(&OldBond::get(), &who);
				(who, held)
			})
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
					TryRuntimeError::Other("a validator's bond record did not move with what was held")
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
