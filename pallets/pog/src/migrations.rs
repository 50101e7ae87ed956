//! Storage migrations: every change of pallet-pog's storage layout ships one, versioned
//! ([`VersionedMigration`]: it runs once, only from the version it was written for, and sets the
//! next), with `pre_upgrade`/`post_upgrade` checks that try-runtime runs.
//!
//! | version | spec | layout |
//! |---|---|---|
//! | 2 | ≤ 107 | validators are accounts in `Validators`, nothing bonded |
//! | 3 | 108 | validators planned, queued and seated (with their `pog!` accounts), bonded, judged per round ([`v3`]) |
//! | 4 | 127 | each GPU's standing counts the draws it could expect since its last pass ([`GpuStanding::expected_draws`]) |
//! | 5 | 130 | the reward ledger's seven items live in `pallet-pog-rewards` ([`v5`]) |
//! | 6 | 132 | the validator set's eight items live in `pallet-pog-validators` ([`v6`]) |
//!
//! Items added without changing any existing layout need no version, only their first value:
//! [`StartEvidence`] (spec 123).

use frame_support::{
	migrations::VersionedMigration,
	traits::{Get as _, UncheckedOnRuntimeUpgrade},
	weights::Weight,
};

use crate::rounds::RoundIndex;
use crate::scoring::{RoundOutcome, ZeroReason};
use crate::{pallet::*, scoring::GpuStanding};
use pog_primitives::challenge::{GpuUuid, ProfileId};

/// The validator set as this pallet kept it from spec 108 to spec 131, under its prefix (`Pog`)
/// and its hold reason: what [`v3`] writes and `pallet_pog_validators::migrations::v1` moves.
// (`storage_alias` makes a prefix type for each alias, without docs)
#[allow(missing_docs)]
pub mod old_set {
	use crate::pallet::{BalanceOf, Config, Pallet};
	use codec::{Decode, Encode, MaxEncodedLen};
	use frame_support::{storage_alias, Blake2_128Concat, BoundedVec};
	use scale_info::TypeInfo;

	/// A validator's bond as kept then (the same encoding as `pallet_pog_validators::ValidatorBond`).
	#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
	pub struct ValidatorBond<Balance> {
		/// What is held.
		pub held: Balance,
		/// Strikes against it.
		pub strikes: u32,
		/// Once it has left: the round after whose settlement the bond is released.
		pub leaving: Option<crate::rounds::RoundIndex>,
	}

	/// The committee members.
	#[storage_alias]
	pub type Validators<T: Config> = StorageValue<
		Pallet<T>,
		BoundedVec<<T as frame_system::Config>::AccountId, <T as Config>::MaxValidators>,
		frame_support::pallet_prelude::ValueQuery,
	>;
	/// The planned set.
	#[storage_alias]
	pub type PlannedValidators<T: Config> = StorageValue<
		Pallet<T>,
		BoundedVec<<T as frame_system::Config>::AccountId, <T as Config>::MaxValidators>,
		frame_support::pallet_prelude::ValueQuery,
	>;
	/// The set last handed to the session.
	#[storage_alias]
	pub type QueuedValidators<T: Config> = StorageValue<
		Pallet<T>,
		BoundedVec<<T as frame_system::Config>::AccountId, <T as Config>::MaxValidators>,
		frame_support::pallet_prelude::ValueQuery,
	>;
	/// The active set with each validator's `pog!` account.
	#[storage_alias]
	pub type Seated<T: Config> = StorageValue<
		Pallet<T>,
		BoundedVec<
			(<T as frame_system::Config>::AccountId, <T as frame_system::Config>::AccountId),
			<T as Config>::MaxValidators,
		>,
		frame_support::pallet_prelude::ValueQuery,
	>;
	/// Each bonded validator's bond.
	#[storage_alias]
	pub type ValidatorBonds<T: Config> = CountedStorageMap<
		Pallet<T>,
		Blake2_128Concat,
		<T as frame_system::Config>::AccountId,
		ValidatorBond<BalanceOf<T>>,
		frame_support::pallet_prelude::OptionQuery,
	>;
}

/// v2 → v3: the validators of a v2 chain are planned, queued and seated, each with its own
/// account as its `pog!` key (what v2's off-chain workers signed with), and bonded: up to `Bond`
/// of what each can hold (a validator short of it is bonded with what it has, and answers with
/// that). It writes the layout of its time ([`old_set`]), which `v6` later moves.
pub mod v3 {
	use super::old_set::{PlannedValidators, QueuedValidators, Seated, ValidatorBond, ValidatorBonds, Validators};
	use super::*;
	use alloc::vec::Vec;
	use frame_support::{
		traits::{
			fungible::{Inspect, MutateHold},
			tokens::{Fortitude, Preservation},
			Get,
		},
		BoundedVec,
	};

	/// The migration, unversioned: use [`SeatValidators`].
	pub struct SeatValidatorsUnchecked<T, Bond>(core::marker::PhantomData<(T, Bond)>);

	impl<T: Config, Bond: Get<BalanceOf<T>>> UncheckedOnRuntimeUpgrade for SeatValidatorsUnchecked<T, Bond> {
		fn on_runtime_upgrade() -> Weight {
			let validators = Validators::<T>::get();
			let seated: Vec<(T::AccountId, T::AccountId)> = validators.iter().map(|v| (v.clone(), v.clone())).collect();
			PlannedValidators::<T>::put(&validators);
			QueuedValidators::<T>::put(&validators);
			Seated::<T>::put(BoundedVec::truncate_from(seated));
			for v in validators.iter().filter(|v| !ValidatorBonds::<T>::contains_key(v)) {
				let can = T::Currency::reducible_balance(v, Preservation::Protect, Fortitude::Polite);
				let amount = can.min(Bond::get());
				let held = match T::Currency::hold(&HoldReason::ValidatorBond.into(), v, amount) {
					Ok(()) => amount,
					Err(_) => Default::default(),
				};
				ValidatorBonds::<T>::insert(v, ValidatorBond { held, strikes: 0, leaving: None });
			}
			let n = validators.len() as u64;
			T::DbWeight::get().reads_writes(1 + 3 * n, 3 + 3 * n)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<Vec<u8>, sp_runtime::TryRuntimeError> {
			use codec::Encode;
			frame_support::ensure!(
				ValidatorBonds::<T>::count() == 0,
				sp_runtime::TryRuntimeError::Other("a v2 chain has no validator bonds")
			);
			Ok(Validators::<T>::get().encode())
		}

		#[cfg(feature = "try-runtime")]
		fn post_upgrade(state: Vec<u8>) -> Result<(), sp_runtime::TryRuntimeError> {
			use codec::Decode;
			use frame_support::ensure;
			use sp_runtime::TryRuntimeError;
			let before: Vec<T::AccountId> =
				Decode::decode(&mut &state[..]).map_err(|_| TryRuntimeError::Other("pre_upgrade state"))?;
			ensure!(Validators::<T>::get().to_vec() == before, TryRuntimeError::Other("committee members changed"));
			ensure!(PlannedValidators::<T>::get().to_vec() == before, TryRuntimeError::Other("plan differs"));
			ensure!(
				Seated::<T>::get().iter().map(|(v, _)| v).eq(before.iter()),
				TryRuntimeError::Other("seated differ")
			);
			ensure!(
				ValidatorBonds::<T>::count() as usize == before.len(),
				TryRuntimeError::Other("a validator unbonded")
			);
			// Not the pallet's `try_state`: it checks this code's layout, which later migrations
			// (v4's standings) have not reached yet; `Executive` runs it after all of them. (It
			// failed here on a live spec-107 chain with miners: their v3 standings decoded as v4.)
			Ok(())
		}
	}

	/// v2 → v3, versioned; `Bond` is what a validator bonds (the validator set's).
	pub type SeatValidators<T, Bond> =
		VersionedMigration<2, 3, SeatValidatorsUnchecked<T, Bond>, Pallet<T>, <T as frame_system::Config>::DbWeight>;
}

/// v3 → v4: each GPU's standing gains [`GpuStanding::expected_draws`] ([`crate::scoring`]: a
/// credit not drawn for two expected draws is due, selected until verified). A credit of a chain
/// that predates the rule starts from a share of the bound spread by a hash of its UUID, so that
/// the old credits fall due over the next 2/p rounds (43% of them, those not drawn by then)
/// rather than in one round, and none at the upgrade; a GPU without a credit starts at zero.
pub mod v4 {
	use super::*;
	use crate::scoring;
	use alloc::vec::Vec;
	use codec::{Decode, Encode};
	use frame_support::BoundedVec;

	/// A GPU's standing as v3 stored it.
	#[derive(Encode, Decode)]
	pub struct OldGpuStanding {
		uuid: GpuUuid,
		profile: ProfileId,
		points: u32,
		verified_round: Option<RoundIndex>,
		unverified_rounds: u32,
		last: Option<(RoundIndex, RoundOutcome)>,
		zero_reason: Option<ZeroReason>,
	}

	impl OldGpuStanding {
		fn upgraded(self) -> GpuStanding {
			let credited = self.zero_reason.is_none();
			GpuStanding {
				expected_draws: if credited { initial_draws(&self.uuid) } else { 0 },
				uuid: self.uuid,
				profile: self.profile,
				points: self.points,
				verified_round: self.verified_round,
				unverified_rounds: self.unverified_rounds,
				last: self.last,
				zero_reason: self.zero_reason,
			}
		}
	}

	/// The expected draws a credit of the chain before v4 starts from: a hash of its UUID,
	/// uniform below the bound (`REVERIFY_DRAWS` draws).
	pub fn initial_draws(uuid: &GpuUuid) -> u32 {
		let h = sp_io::hashing::blake2_256(&(b"pog/expected-draws", uuid).encode());
		u32::from_le_bytes([h[0], h[1], h[2], h[3]]) % scoring::REVERIFY_DRAWS.saturating_mul(scoring::DRAW)
	}

	/// Each miner's GPUs before the upgrade, as `pre_upgrade` leaves them: (UUID, credited).
	#[cfg(feature = "try-runtime")]
	type Credits<T> = Vec<(<T as frame_system::Config>::AccountId, Vec<(GpuUuid, bool)>)>;

	/// The migration, unversioned: use [`CountDraws`].
	pub struct CountDrawsUnchecked<T>(core::marker::PhantomData<T>);

	impl<T: Config> UncheckedOnRuntimeUpgrade for CountDrawsUnchecked<T> {
		fn on_runtime_upgrade() -> Weight {
			let mut miners = 0u64;
			Standing::<T>::translate::<Vec<OldGpuStanding>, _>(|_, old| {
				miners += 1;
				// as many GPUs as were stored, within the same bound
				Some(BoundedVec::truncate_from(old.into_iter().map(OldGpuStanding::upgraded).collect()))
			});
			T::DbWeight::get().reads_writes(miners, miners)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<Vec<u8>, sp_runtime::TryRuntimeError> {
			// each miner's GPUs: (uuid, credited); a standing that does not decode as v3 would be
			// skipped by `translate`, its miner left with none
			let mut before: Credits<T> = Vec::new();
			for who in Standing::<T>::iter_keys() {
				let raw = Standing::<T>::hashed_key_for(&who);
				let old: Vec<OldGpuStanding> = frame_support::storage::unhashed::get(&raw)
					.ok_or(sp_runtime::TryRuntimeError::Other("a standing does not decode as v3"))?;
				before.push((who, old.iter().map(|g| (g.uuid, g.zero_reason.is_none())).collect()));
			}
			Ok(before.encode())
		}

		#[cfg(feature = "try-runtime")]
		fn post_upgrade(state: Vec<u8>) -> Result<(), sp_runtime::TryRuntimeError> {
			use frame_support::ensure;
			use sp_runtime::TryRuntimeError;
			let before: Credits<T> =
				Decode::decode(&mut &state[..]).map_err(|_| TryRuntimeError::Other("pre_upgrade state"))?;
			ensure!(Standing::<T>::iter_keys().count() == before.len(), TryRuntimeError::Other("a standing lost"));
			for (who, gpus) in before {
				let now = Standing::<T>::get(&who);
				ensure!(
					now.iter().map(|g| (g.uuid, g.credited())).eq(gpus.iter().copied()),
					TryRuntimeError::Other("a GPU or its credit changed")
				);
				ensure!(
					now.iter().all(|g| !g.due() && (g.credited() || g.expected_draws == 0)),
					TryRuntimeError::Other("a credit due at the upgrade")
				);
			}
			// The pallet's `try_state` runs after every migration (`Executive`), not here, where a
			// later migration may not have run yet.
			Ok(())
		}
	}

	/// v3 → v4, versioned.
	pub type CountDraws<T> =
		VersionedMigration<3, 4, CountDrawsUnchecked<T>, Pallet<T>, <T as frame_system::Config>::DbWeight>;
}

/// v4 → v5: the reward ledger (schedule, emission, money ledger, earnings, payout, agreeing
/// verdicts) lives in `pallet-pog-rewards`. The move and its checks are that pallet's (`Move`:
/// the runtime names `pallet_pog_rewards::migrations::v1::MoveFromPogUnchecked`); it runs here,
/// gated on this pallet's version, since the new pallet's own version is set to its in-code one
/// before any migration runs (`Executive`'s `before_all_runtime_migrations` does so for a pallet
/// with no storage yet).
pub mod v5 {
	use super::*;
	use frame_support::migrations::VersionedMigration;

	/// v4 → v5, versioned: `Move` runs once, on a chain at v4.
	pub type LedgerMoved<T, Move> = VersionedMigration<4, 5, Move, Pallet<T>, <T as frame_system::Config>::DbWeight>;
}

/// v5 → v6: the validator set (planned, queued and seated validators, their bonds, rules and
/// records) lives in `pallet-pog-validators`. The move and its checks are that pallet's (`Move`:
/// the runtime names `pallet_pog_validators::migrations::v1::MoveFromPogUnchecked`), gated here
/// as [`v5`]'s is.
pub mod v6 {
	use super::*;
	use frame_support::migrations::VersionedMigration;

	/// v5 → v6, versioned: `Move` runs once, on a chain at v5.
	pub type ValidatorsMoved<T, Move> =
		VersionedMigration<5, 6, Move, Pallet<T>, <T as frame_system::Config>::DbWeight>;
}

/// Spec 123 audits the evidence of served GPUs' votes ([`crate::evidence`]): a chain that
/// predates it audits from the round after the one in progress at the upgrade, whose votes were
/// cast without evidence (auditing them would strike every honest member of an audited GPU).
/// Runs once (it does nothing where the start is set).
pub struct StartEvidence<T>(core::marker::PhantomData<T>);

impl<T: Config> frame_support::traits::OnRuntimeUpgrade for StartEvidence<T> {
	fn on_runtime_upgrade() -> Weight {
		if EvidenceSince::<T>::exists() {
			return T::DbWeight::get().reads(1);
		}
		Pallet::<T>::start_evidence(false);
		T::DbWeight::get().reads_writes(2, 1)
	}

	#[cfg(feature = "try-runtime")]
	fn post_upgrade(_state: alloc::vec::Vec<u8>) -> Result<(), sp_runtime::TryRuntimeError> {
		frame_support::ensure!(
			EvidenceSince::<T>::get().is_some_and(|since| since <= Pallet::<T>::round().index.saturating_add(1)),
			sp_runtime::TryRuntimeError::Other("audits start no later than the next round")
		);
		Ok(())
	}
}
