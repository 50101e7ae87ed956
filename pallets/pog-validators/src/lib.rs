//! # PoG validator set
//!
//! `pallet-pog-validators` keeps PoG chain's one validator set for block authoring, finality and
//! committees: who is planned, queued and seated, what each has bonded, and what it answers for.
//!
//! - **One set for everything** ([`set`]). Root plans the set ([`PlannedValidators`]:
//!   `add_validator`, `remove_validator`). pallet-session asks this pallet for the next set at
//!   every session boundary and, one session later, activates it for BABE, GRANDPA and PoG at
//!   once: this pallet is the `pog!` key's session handler, and seats the active validators
//!   ([`Seated`]) with their `pog!` keys' accounts, which sit on committees and sign verdicts
//!   ([`Validators`]). A validator added now authors, finalises and verifies from the second
//!   session boundary on (sessions are BABE epochs), once it has set its session keys
//!   (`session.setKeys`).
//! - **A bond** ([`bonds`]). Adding a validator holds [`Config::ValidatorBond`] from its account
//!   ([`HoldReason::ValidatorBond`]); the bond is released once the validator has left the
//!   active set, the last round it could sit on a committee of is settled and the audits of its
//!   votes are closed. A proven equivocation (pallet-offences) burns part of it and plans the
//!   validator out.
//! - **Answering for votes** ([`judge`]). The proof (`pallet-pog`) counts each committee member's
//!   work and, when a round is settled, has this pallet judge it by [`ValidatorRules`]
//!   ([`pog_traits::Committee`]); it tells this pallet which round runs and who owes evidence
//!   ([`pog_traits::Rounds`]). Neither pallet depends on the other; the runtime wires them.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub use pallet::*;

#[cfg(feature = "runtime-benchmarks")]
pub mod benchmarking;
pub mod bonds;
#[cfg(any(feature = "try-runtime", test))]
mod invariants;
pub mod judge;
pub mod migrations;
#[cfg(test)]
mod mock;
pub mod rules;
pub mod set;
#[cfg(test)]
mod tests;
pub mod weights;

pub use bonds::{BondedValidator, ValidatorBond, ValidatorBondOf};
pub use pog_traits::ValidatorRecord;
pub use rules::{ValidatorRule, ValidatorRules};
pub use weights::WeightInfo;

/// A session's index (pallet-session's).
pub type SessionIndex = u32;

#[frame_support::pallet]
pub mod pallet {
	use super::*;
	use codec::Decode;
	use frame_support::{
		pallet_prelude::*,
		traits::{
			fungible::{Inspect, MutateHold},
			Contains,
		},
	};
	use frame_system::pallet_prelude::*;
	use pog_traits::{RoundIndex, RoundPay, Rounds};
	use sp_runtime::{traits::Convert, Perbill, RuntimeAppPublic};

	/// Balance of the bond currency.
	pub type BalanceOf<T> = <<T as Config>::Currency as Inspect<<T as frame_system::Config>::AccountId>>::Balance;

	/// The storage layout's version ([`crate::migrations`] lists each with its migration).
	const STORAGE_VERSION: StorageVersion = StorageVersion::new(1);

	#[pallet::pallet]
	#[pallet::storage_version(STORAGE_VERSION)]
	pub struct Pallet<T>(_);

	/// Configuration of the pallet.
	#[pallet::config]
	pub trait Config: frame_system::Config<RuntimeEvent: From<Event<Self>>> {
		/// Currency in which bonds are held and burned.
		type Currency: MutateHold<Self::AccountId, Reason = Self::RuntimeHoldReason>;
		/// The overarching hold reason.
		type RuntimeHoldReason: From<HoldReason>;
		/// The `pog!` session key: its account sits on committees and signs verdicts.
		type Key: RuntimeAppPublic + Decode + Clone;
		/// The account a `pog!` key signs as.
		type KeyAccount: Convert<Self::Key, Self::AccountId>;
		/// The rounds whose committees the set sits on (the runtime: `pallet-pog`).
		type Rounds: Rounds<Self::AccountId>;
		/// Counts what burned bonds take out of the supply (the runtime: `pallet-pog-rewards`).
		type RoundPay: RoundPay<Self::AccountId, BalanceOf<Self>>;
		/// Most validators.
		#[pallet::constant]
		type MaxValidators: Get<u32>;
		/// Held from every validator while it is planned, seated or leaving: part of it burns for
		/// each strike against its committee work.
		#[pallet::constant]
		type ValidatorBond: Get<BalanceOf<Self>>;
		/// Validators whose session keys are set (the runtime: pallet-session's `NextKeys`). Only
		/// they are handed to the session as the next set: one without keys would not sit, and
		/// counting it in the historical session's record would make every equivocation report
		/// checked against that session fail.
		type HasSessionKeys: Contains<Self::AccountId>;
		/// Sets session keys in the benchmarks (`remove_validator`'s worst case reads every
		/// planned validator's keys).
		#[cfg(feature = "runtime-benchmarks")]
		type BenchmarkHelper: crate::benchmarking::BenchmarkHelper<Self::AccountId>;
		/// Weights of the calls.
		type WeightInfo: WeightInfo;
	}

	/// Reasons for holding funds.
	#[pallet::composite_enum]
	pub enum HoldReason {
		/// A validator's bond.
		#[codec(index = 0)]
		ValidatorBond,
	}

	/// The committee members: the accounts of the seated validators' `pog!` keys, in session order.
	#[pallet::storage]
	pub type Validators<T: Config> = StorageValue<_, BoundedVec<T::AccountId, T::MaxValidators>, ValueQuery>;

	/// The validators root has planned: what pallet-session is handed for the next session
	/// whenever it differs from what sits.
	#[pallet::storage]
	pub type PlannedValidators<T: Config> = StorageValue<_, BoundedVec<T::AccountId, T::MaxValidators>, ValueQuery>;

	/// The set last handed to pallet-session: it sits from the session after the one it was
	/// handed at.
	#[pallet::storage]
	pub type QueuedValidators<T: Config> = StorageValue<_, BoundedVec<T::AccountId, T::MaxValidators>, ValueQuery>;

	/// The active set, in session order: each validator's account and its `pog!` key's account
	/// (the committee member, in [`Validators`]).
	#[pallet::storage]
	pub type Seated<T: Config> =
		StorageValue<_, BoundedVec<(T::AccountId, T::AccountId), T::MaxValidators>, ValueQuery>;

	/// Each bonded validator's bond and strikes: planned, seated, or leaving until its last
	/// round is settled.
	#[pallet::storage]
	pub type ValidatorBonds<T: Config> =
		CountedStorageMap<_, Blake2_128Concat, T::AccountId, ValidatorBondOf<T>, OptionQuery>;

	/// How validators answer for their votes ([`ValidatorRules`]).
	#[pallet::storage]
	pub type Accountability<T> = StorageValue<_, ValidatorRules, ValueQuery>;

	/// Committee work of each `pog!` account in the round being settled (judged and drained
	/// when it is).
	#[pallet::storage]
	pub type RoundWork<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, ValidatorRecord, ValueQuery>;

	/// Committee work of each validator: assigned, agreed, contradicted, silent.
	#[pallet::storage]
	pub type ValidatorStats<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, ValidatorRecord, ValueQuery>;

	/// Events an auditor can follow.
	#[pallet::event]
	#[pallet::generate_deposit(pub(super) fn deposit_event)]
	pub enum Event<T: Config> {
		/// Root planned a validator in: it sits from the second session change on.
		ValidatorAdded {
			/// Its account.
			validator: T::AccountId,
		},
		/// Root planned a validator out: it leaves at the next session change that has not
		/// queued it already.
		ValidatorRemoved {
			/// Its account.
			validator: T::AccountId,
		},
		/// A validator's bond was held.
		ValidatorBonded {
			/// Its account.
			validator: T::AccountId,
			/// The bond.
			amount: BalanceOf<T>,
		},
		/// A validator's committee work in a settled round was a strike: part of its bond burned.
		ValidatorStruck {
			/// Its account.
			validator: T::AccountId,
			/// The round.
			round: RoundIndex,
			/// Its work in that round.
			work: ValidatorRecord,
			/// What was burned of its bond.
			burned: BalanceOf<T>,
			/// Its strikes now.
			strikes: u32,
		},
		/// A validator reached the most strikes: planned out, it leaves at the next session change.
		ValidatorExpelled {
			/// Its account.
			validator: T::AccountId,
			/// The round that was its last strike.
			round: RoundIndex,
		},
		/// A validator that left has its last round settled: its bond is released.
		ValidatorBondReleased {
			/// Its account.
			validator: T::AccountId,
			/// What was released.
			amount: BalanceOf<T>,
		},
		/// A validator was reported for an offence (an equivocation in BABE or GRANDPA): its bond
		/// burned by the offence's fraction, and it is planned out of the set.
		ValidatorOffended {
			/// Its account.
			validator: T::AccountId,
			/// The session of the offence.
			session: SessionIndex,
			/// The share of its bond burned.
			fraction: Perbill,
			/// What was burned.
			burned: BalanceOf<T>,
			/// Whether it was planned out (not when it was the last validator).
			expelled: bool,
		},
		/// The rules validators answer by changed.
		ValidatorRulesUpdated {
			/// The new rules.
			rules: ValidatorRules,
		},
	}

	/// Errors, each naming what is wrong.
	#[pallet::error]
	pub enum Error<T> {
		/// The account is not a planned validator.
		NotValidator,
		/// The account is already a validator.
		AlreadyValidator,
		/// The validator set is full.
		TooManyValidators,
		/// The validator cannot bond `ValidatorBond` (its free balance is short).
		CannotBond,
		/// The last planned validator with session keys cannot be removed: the chain would have
		/// nobody to author blocks.
		LastValidator,
		/// The rules break the rule named (`ValidatorRule`).
		InvalidValidatorRules(ValidatorRule),
	}

	#[pallet::hooks]
	impl<T: Config> Hooks<BlockNumberFor<T>> for Pallet<T> {
		#[cfg(feature = "try-runtime")]
		fn try_state(_n: BlockNumberFor<T>) -> Result<(), sp_runtime::TryRuntimeError> {
			Self::do_try_state()
		}
	}

	#[pallet::call]
	impl<T: Config> Pallet<T> {
		/// Root: add a validator, holding its bond. It authors, finalises and sits on committees
		/// from the second session change on, once its session keys are set (`session.setKeys`).
		#[pallet::call_index(0)]
		#[pallet::weight(T::WeightInfo::add_validator())]
		pub fn add_validator(origin: OriginFor<T>, validator: T::AccountId) -> DispatchResult {
			ensure_root(origin)?;
			Self::do_add_validator(validator)
		}

		/// Root: remove a validator: it leaves at the next session change that has not queued it
		/// already, and its bond is released once its last round is settled.
		#[pallet::call_index(1)]
		#[pallet::weight(T::WeightInfo::remove_validator(T::MaxValidators::get()))]
		pub fn remove_validator(origin: OriginFor<T>, validator: T::AccountId) -> DispatchResult {
			ensure_root(origin)?;
			Self::do_remove_validator(validator)
		}

		/// Root: set the rules validators answer by (judged from the next settled round on).
		#[pallet::call_index(2)]
		#[pallet::weight(T::WeightInfo::set_validator_rules())]
		pub fn set_validator_rules(origin: OriginFor<T>, rules: ValidatorRules) -> DispatchResult {
			ensure_root(origin)?;
			Self::do_set_validator_rules(rules)
		}
	}
}
