//! # Proof of GPU pallet
//!
//! `pallet-pog` proves, on chain, what GPU compute a miner really has.
//!
//! - **Profiles** describe GPU models: memory, expected throughput per precision, score.
//! - **Miners** register claims (model, count and NVML UUID of each GPU) and their machine, with
//!   a deposit held.
//! - Every `period` blocks each miner gets a **round**: one **challenge** per claimed GPU, all with
//!   one deadline. A challenge asks for `C = A·B` with A and B generated from an on-chain seed
//!   (see `pog-primitives` and `docs/protocol.md`), sized to take the configured target time at
//!   the claimed profile's throughput.
//! - The miner **commits** the Merkle root of C before the deadline, then **reveals** the leaves
//!   chosen by randomness fixed after the commitment, with their Merkle proofs (checked here).
//! - Validators' **off-chain workers** ([`offchain`]) issue due rounds, recompute sampled entries
//!   of the opened leaves exactly and submit signed **verdicts**; a quorum finalises the challenge.
//! - A passed challenge credits the GPU with its profile's points until its next challenge ends;
//!   a failed or expired one removes the credit at once. **Scores** (GPU, CPU, RAM, disk and the
//!   weighted total) use fixed-point arithmetic only, and each epoch (= period) the miners'
//!   **weight shares** are recomputed so that they sum to exactly 100%.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub use pallet::*;

#[cfg(feature = "runtime-benchmarks")]
mod benchmarking;
mod logic;
#[cfg(test)]
mod mock;
pub mod offchain;
pub mod profiles;
#[cfg(test)]
mod tests;
pub mod types;
mod views;
pub mod weights;

pub use types::*;
pub use weights::WeightInfo;

/// The log target of the pallet and its off-chain worker (`RUST_LOG=runtime::pog=debug`).
pub const LOG_TARGET: &str = "runtime::pog";

/// Key type of the PoG validators' off-chain signing key (`pog!`).
pub const KEY_TYPE: sp_core::crypto::KeyTypeId = sp_core::crypto::KeyTypeId(*b"pog!");

/// The sr25519 application crypto of PoG validators' off-chain workers.
pub mod crypto {
	use super::KEY_TYPE;
	use sp_runtime::{
		app_crypto::{app_crypto, sr25519},
		traits::Verify,
		MultiSignature, MultiSigner,
	};
	app_crypto!(sr25519, KEY_TYPE);

	/// Signs PoG transactions with a `pog!` key; the account is the key's sr25519 account.
	pub struct AuthorityId;

	impl frame_system::offchain::AppCrypto<MultiSigner, MultiSignature> for AuthorityId {
		type RuntimeAppPublic = Public;
		type GenericSignature = sp_core::sr25519::Signature;
		type GenericPublic = sp_core::sr25519::Public;
	}

	impl frame_system::offchain::AppCrypto<<sp_core::sr25519::Signature as Verify>::Signer, sp_core::sr25519::Signature>
		for AuthorityId
	{
		type RuntimeAppPublic = Public;
		type GenericSignature = sp_core::sr25519::Signature;
		type GenericPublic = sp_core::sr25519::Public;
	}
}

#[frame_support::pallet]
pub mod pallet {
	use super::*;
	use alloc::vec::Vec;
	use frame_support::{
		pallet_prelude::*,
		traits::{
			fungible::{Inspect, MutateHold},
			Randomness, UnixTime,
		},
	};
	use frame_system::{offchain::CreateSignedTransaction, pallet_prelude::*};
	use sp_runtime::Perbill;

	/// Balance of the deposit currency.
	pub type BalanceOf<T> = <<T as Config>::Currency as Inspect<<T as frame_system::Config>::AccountId>>::Balance;
	/// A miner record of this runtime.
	pub type MinerOf<T> =
		MinerInfo<BalanceOf<T>, BlockNumberFor<T>, <T as Config>::MaxClaims, <T as Config>::MaxGpusPerMiner>;
	/// A challenge record of this runtime.
	pub type ChallengeOf<T> =
		Challenge<<T as frame_system::Config>::AccountId, BlockNumberFor<T>, <T as Config>::MaxValidators>;
	/// A claim of this runtime.
	pub type ClaimOf<T> = GpuClaim<<T as Config>::MaxGpusPerMiner>;
	/// Claims as passed to `register_miner`/`update_miner`.
	pub type ClaimsOf<T> = BoundedVec<ClaimOf<T>, <T as Config>::MaxClaims>;

	const STORAGE_VERSION: StorageVersion = StorageVersion::new(1);

	#[pallet::pallet]
	#[pallet::storage_version(STORAGE_VERSION)]
	pub struct Pallet<T>(_);

	/// Configuration of the pallet.
	#[pallet::config]
	pub trait Config:
		CreateSignedTransaction<Call<Self>> + frame_system::Config<RuntimeEvent: From<Event<Self>>>
	{
		/// The validators' off-chain signing crypto (key type `pog!`).
		type AuthorityId: frame_system::offchain::AppCrypto<Self::Public, Self::Signature>;
		/// Currency in which miners' deposits are held.
		type Currency: MutateHold<Self::AccountId, Reason = Self::RuntimeHoldReason>;
		/// The overarching hold reason.
		type RuntimeHoldReason: From<HoldReason>;
		/// Wall-clock time of the block (pallet-timestamp), for deadlines.
		type TimeProvider: UnixTime;
		/// Source of challenge seeds, mixed with the parent block hash and the challenge id.
		type Randomness: Randomness<Self::Hash, BlockNumberFor<Self>>;
		/// Deposit held from every miner.
		#[pallet::constant]
		type DepositBase: Get<BalanceOf<Self>>;
		/// Deposit held per claimed GPU.
		#[pallet::constant]
		type DepositPerGpu: Get<BalanceOf<Self>>;
		/// Most registered miners.
		#[pallet::constant]
		type MaxMiners: Get<u32>;
		/// Most GPU models in one miner's claims.
		#[pallet::constant]
		type MaxClaims: Get<u32>;
		/// Most GPUs of one miner (over all its claims).
		#[pallet::constant]
		type MaxGpusPerMiner: Get<u32>;
		/// Most validators.
		#[pallet::constant]
		type MaxValidators: Get<u32>;
		/// Most GPU profiles.
		#[pallet::constant]
		type MaxProfiles: Get<u32>;
		/// Most opened leaves per challenge.
		#[pallet::constant]
		type MaxOpenings: Get<u32>;
		/// Weights of the calls.
		type WeightInfo: WeightInfo;
	}

	/// Reasons for holding funds.
	#[pallet::composite_enum]
	pub enum HoldReason {
		/// The deposit of a registered miner.
		MinerDeposit,
	}

	/// GPU profiles by id.
	#[pallet::storage]
	pub type Profiles<T> = StorageMap<_, Twox64Concat, ProfileId, GpuProfile>;

	/// The id the next added profile gets.
	#[pallet::storage]
	pub type NextProfileId<T> = StorageValue<_, ProfileId, ValueQuery>;

	/// Number of profiles.
	#[pallet::storage]
	pub type ProfileCount<T> = StorageValue<_, u32, ValueQuery>;

	/// GPUs claimed per profile (a claimed profile cannot be removed).
	#[pallet::storage]
	pub type ProfileClaims<T> = StorageMap<_, Twox64Concat, ProfileId, u32, ValueQuery>;

	/// Accounts allowed to issue challenges and submit verdicts.
	#[pallet::storage]
	pub type Validators<T: Config> = StorageValue<_, BoundedVec<T::AccountId, T::MaxValidators>, ValueQuery>;

	/// Registered miners: claims, hardware, deposit and rounds.
	#[pallet::storage]
	pub type Miners<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, MinerOf<T>>;

	/// Number of registered miners.
	#[pallet::storage]
	pub type MinerCount<T> = StorageValue<_, u32, ValueQuery>;

	/// Owner of each claimed GPU UUID (a UUID can be claimed by one miner only).
	#[pallet::storage]
	pub type UuidOwner<T: Config> = StorageMap<_, Blake2_128Concat, GpuUuid, T::AccountId>;

	/// Challenges of the current and previous round of every miner.
	#[pallet::storage]
	pub type Challenges<T: Config> = StorageMap<_, Twox64Concat, ChallengeId, ChallengeOf<T>>;

	/// The id the next challenge gets.
	#[pallet::storage]
	pub type NextChallengeId<T> = StorageValue<_, ChallengeId, ValueQuery>;

	/// Challenges not yet finished (what off-chain workers look at).
	#[pallet::storage]
	pub type InFlight<T> = CountedStorageMap<_, Twox64Concat, ChallengeId, (), OptionQuery>;

	/// Opened leaves with proofs of revealed challenges, kept until the challenge is finished.
	#[pallet::storage]
	pub type Openings<T: Config> = StorageMap<_, Twox64Concat, ChallengeId, BoundedVec<Opening, T::MaxOpenings>>;

	/// Committed roots of stored challenges (a root can be committed once).
	#[pallet::storage]
	pub type KnownRoots<T> = StorageMap<_, Identity, Hash32, ChallengeId>;

	/// Verified GPUs of each miner, with their points.
	#[pallet::storage]
	pub type Credits<T: Config> = StorageMap<
		_,
		Blake2_128Concat,
		T::AccountId,
		BoundedVec<GpuCredit<BlockNumberFor<T>>, T::MaxGpusPerMiner>,
		ValueQuery,
	>;

	/// Each miner's score and its components.
	#[pallet::storage]
	pub type Scores<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, Score>;

	/// Each scored miner's share of the epoch's weight (sums to exactly 100% when not empty).
	#[pallet::storage]
	pub type WeightShares<T: Config> = StorageValue<_, BoundedVec<(T::AccountId, Perbill), T::MaxMiners>, ValueQuery>;

	/// The epoch the weight shares belong to (block number / period).
	#[pallet::storage]
	pub type Epoch<T> = StorageValue<_, u32, ValueQuery>;

	/// Challenges issued in the current block: (block, count).
	#[pallet::storage]
	pub type IssuedInBlock<T: Config> = StorageValue<_, (BlockNumberFor<T>, u32), ValueQuery>;

	/// Protocol configuration.
	#[pallet::storage]
	pub type Configuration<T> = StorageValue<_, ProtocolConfig, ValueQuery, ConfigDefault>;

	/// Default configuration: mainnet settings.
	pub struct ConfigDefault;
	impl Get<ProtocolConfig> for ConfigDefault {
		fn get() -> ProtocolConfig {
			ProtocolConfig::mainnet()
		}
	}

	/// Genesis: profiles, validators, configuration.
	#[pallet::genesis_config]
	#[derive(frame_support::DefaultNoBound)]
	pub struct GenesisConfig<T: Config> {
		/// GPU profiles (ids 0, 1, … in this order).
		pub profiles: Vec<profiles::GenesisProfile>,
		/// Validator accounts.
		pub validators: Vec<T::AccountId>,
		/// Configuration (mainnet defaults if absent).
		pub config: Option<ProtocolConfig>,
	}

	#[pallet::genesis_build]
	impl<T: Config> BuildGenesisConfig for GenesisConfig<T> {
		fn build(&self) {
			for p in &self.profiles {
				let profile = p.to_profile().expect("genesis profile names fit MaxNameLen");
				if let Err(e) = Pallet::<T>::insert_profile(profile) {
					panic!("genesis profile {} is refused: {e:?}", p.name);
				}
			}
			let validators: BoundedVec<_, _> =
				self.validators.clone().try_into().expect("genesis validators fit MaxValidators");
			Validators::<T>::put(validators);
			if let Some(config) = self.config {
				assert!(Pallet::<T>::validate_config(&config).is_ok(), "genesis PoG config is invalid");
				Configuration::<T>::put(config);
			}
		}
	}

	/// Events an auditor can follow.
	#[pallet::event]
	#[pallet::generate_deposit(pub(super) fn deposit_event)]
	pub enum Event<T: Config> {
		/// A GPU profile was added.
		ProfileAdded {
			/// Its id.
			id: ProfileId,
		},
		/// A GPU profile was changed.
		ProfileUpdated {
			/// Its id.
			id: ProfileId,
		},
		/// A GPU profile was removed.
		ProfileRemoved {
			/// Its id.
			id: ProfileId,
		},
		/// A validator was added.
		ValidatorAdded {
			/// Its account.
			validator: T::AccountId,
		},
		/// A validator was removed.
		ValidatorRemoved {
			/// Its account.
			validator: T::AccountId,
		},
		/// The configuration changed.
		ConfigUpdated {
			/// The new configuration.
			config: ProtocolConfig,
		},
		/// A miner registered, holding `deposit`.
		MinerRegistered {
			/// The miner.
			miner: T::AccountId,
			/// GPUs claimed.
			gpus: u32,
			/// Deposit held.
			deposit: BalanceOf<T>,
		},
		/// A miner changed its claims or hardware.
		MinerUpdated {
			/// The miner.
			miner: T::AccountId,
			/// GPUs claimed now.
			gpus: u32,
			/// Deposit held now.
			deposit: BalanceOf<T>,
		},
		/// A miner left; its deposit was released.
		MinerDeregistered {
			/// The miner.
			miner: T::AccountId,
		},
		/// A challenge was issued to one GPU of a miner.
		ChallengeIssued {
			/// The challenge.
			id: ChallengeId,
			/// The challenged miner.
			miner: T::AccountId,
			/// The challenged GPU.
			uuid: GpuUuid,
			/// The profile it is claimed to be.
			profile: ProfileId,
			/// Input precision of the GEMM.
			precision: Precision,
			/// Shape of the GEMM.
			dims: Dims,
			/// The root must land in a block stamped at or before this (ms).
			deadline_ms: u64,
		},
		/// The miner committed the Merkle root of C.
		RootCommitted {
			/// The challenge.
			id: ChallengeId,
			/// The Merkle root of C.
			root: Hash32,
			/// The agent's reported wall time (self-reported).
			elapsed_ms: u64,
		},
		/// The miner revealed the sampled leaves; their proofs matched the root.
		OpeningsRevealed {
			/// The challenge.
			id: ChallengeId,
			/// The seed that chose the opened leaves.
			sample_seed: Hash32,
		},
		/// A validator submitted a verdict.
		VerdictSubmitted {
			/// The challenge.
			id: ChallengeId,
			/// The validator.
			validator: T::AccountId,
			/// Its verdict.
			verdict: Verdict,
		},
		/// A quorum accepted the challenge: the GPU is verified as its profile.
		ChallengePassed {
			/// The challenge.
			id: ChallengeId,
			/// The miner.
			miner: T::AccountId,
			/// The verified GPU.
			uuid: GpuUuid,
			/// The profile it is verified as.
			profile: ProfileId,
		},
		/// The challenge failed; the GPU lost its credit.
		ChallengeFailed {
			/// The challenge.
			id: ChallengeId,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			uuid: GpuUuid,
			/// Why it failed.
			reason: FailReason,
		},
		/// No quorum in the verdict window; the GPU's credit is unchanged.
		ChallengeInconclusive {
			/// The challenge.
			id: ChallengeId,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			uuid: GpuUuid,
		},
		/// A miner's score changed.
		ScoreUpdated {
			/// The miner.
			miner: T::AccountId,
			/// Its new score.
			score: Score,
		},
		/// Weight shares were recomputed for an epoch.
		SharesUpdated {
			/// The epoch.
			epoch: u32,
			/// Miners with a share.
			miners: u32,
		},
	}

	/// Errors, each naming what is wrong.
	#[pallet::error]
	pub enum Error<T> {
		/// The caller is not a PoG validator.
		NotValidator,
		/// The account is already a validator.
		AlreadyValidator,
		/// The validator set is full.
		TooManyValidators,
		/// No such profile.
		UnknownProfile,
		/// The profile table is full.
		TooManyProfiles,
		/// A profile needs memory, a throughput for at least one precision, a tolerance below 100%.
		InvalidProfile,
		/// GPUs of this profile are claimed; it cannot be removed.
		ProfileInUse,
		/// The configuration is inconsistent (zero periods or counts, weights not summing to 100%).
		InvalidConfig,
		/// The account is already a registered miner.
		AlreadyRegistered,
		/// The account is not a registered miner.
		NotRegistered,
		/// The registry of miners is full.
		TooManyMiners,
		/// At least one GPU must be claimed.
		NoClaims,
		/// A claim has a count of zero.
		ZeroCount,
		/// A claim's count differs from its number of UUIDs.
		CountMismatch,
		/// More GPUs than a miner may claim.
		TooManyGpus,
		/// A UUID appears twice in the claims.
		DuplicateUuid,
		/// A UUID is already claimed by another miner.
		UuidAlreadyClaimed,
		/// The deposit could not be held (free balance too low).
		InsufficientDeposit,
		/// The miner has a round of challenges in flight; wait until it is finished.
		RoundInFlight,
		/// The miner is not due for re-validation yet.
		NotDue,
		/// Issuing would exceed the challenges allowed in one block.
		TooManyChallengesThisBlock,
		/// No such challenge.
		UnknownChallenge,
		/// The caller is not the challenged miner.
		NotChallengedMiner,
		/// The challenge is not in the state this call needs.
		WrongStatus,
		/// The deadline for the root has passed.
		DeadlinePassed,
		/// This root was already committed (replay).
		RootReplayed,
		/// The sample randomness is not known yet: reveal from the block after the commitment.
		SampleNotReady,
		/// The reveal window has closed.
		RevealWindowClosed,
		/// The number of openings differs from the sampled leaves.
		WrongOpeningCount,
		/// An opening is for another leaf than the one sampled at its position.
		WrongOpeningIndex,
		/// A Merkle proof does not lead from the opened leaf to the committed root.
		InvalidProof,
		/// This validator already submitted a verdict on the challenge.
		AlreadyVoted,
		/// None of the given challenges can be expired yet.
		NothingToExpire,
		/// The claimed profile has no throughput in any precision.
		NoPrecision,
		/// The verdict window of the challenge has closed; only verdicts inside it count.
		VerdictWindowClosed,
		/// More CPU cores than any machine has (at most `types::MAX_CPU_CORES`).
		ImplausibleCpuCores,
		/// More memory than any machine has (at most `types::MAX_RAM_MIB`).
		ImplausibleRam,
		/// More disk than any machine has (at most `types::MAX_DISK_GIB`).
		ImplausibleDisk,
	}

	#[pallet::hooks]
	impl<T: Config> Hooks<BlockNumberFor<T>> for Pallet<T> {
		fn on_initialize(n: BlockNumberFor<T>) -> Weight {
			let period = Configuration::<T>::get().period.max(1);
			let n: u32 = n.try_into().unwrap_or(u32::MAX);
			if n.is_multiple_of(period) {
				let miners = Self::update_shares(n / period);
				T::WeightInfo::update_shares(miners)
			} else {
				T::DbWeight::get().reads(1)
			}
		}

		fn offchain_worker(n: BlockNumberFor<T>) {
			offchain::run::<T>(n);
		}

		#[cfg(feature = "try-runtime")]
		fn try_state(_n: BlockNumberFor<T>) -> Result<(), sp_runtime::TryRuntimeError> {
			Self::do_try_state()
		}
	}

	#[pallet::call]
	impl<T: Config> Pallet<T> {
		/// Register as a miner with GPU `claims` and `hardware`; holds the deposit.
		/// Each GPU is challenged from the next block on.
		#[pallet::call_index(0)]
		#[pallet::weight(T::WeightInfo::register_miner(T::MaxGpusPerMiner::get()))]
		pub fn register_miner(origin: OriginFor<T>, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_register(who, claims, hardware)
		}

		/// Replace the caller's claims and hardware (not while a round is in flight). Credits of
		/// GPUs no longer claimed are dropped and the deposit follows the new GPU count; the new
		/// claims are challenged from the next block.
		#[pallet::call_index(1)]
		#[pallet::weight(T::WeightInfo::update_miner(T::MaxGpusPerMiner::get()))]
		pub fn update_miner(origin: OriginFor<T>, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_update(who, claims, hardware)
		}

		/// Leave (not while a round is in flight): releases the deposit, UUIDs, score and records.
		#[pallet::call_index(2)]
		#[pallet::weight(T::WeightInfo::deregister_miner(T::MaxGpusPerMiner::get()))]
		pub fn deregister_miner(origin: OriginFor<T>) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_deregister(who)
		}

		/// Validator: issue a due miner's round, one challenge per claimed GPU with one deadline.
		#[pallet::call_index(3)]
		#[pallet::weight(T::WeightInfo::issue_challenges(T::MaxGpusPerMiner::get()))]
		pub fn issue_challenges(origin: OriginFor<T>, miner: T::AccountId) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::ensure_validator(&who)?;
			Self::do_issue(miner)
		}

		/// Miner: commit the Merkle root of C with the agent's timing report, before the deadline.
		#[pallet::call_index(4)]
		#[pallet::weight(T::WeightInfo::commit_root())]
		pub fn commit_root(origin: OriginFor<T>, id: ChallengeId, root: Hash32, report: AgentReport) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_commit(who, id, root, report)
		}

		/// Miner: reveal the sampled leaves with their Merkle proofs, in sample order, from the block
		/// after the commitment and within the reveal window.
		#[pallet::call_index(5)]
		#[pallet::weight(T::WeightInfo::reveal_openings(openings.len() as u32))]
		pub fn reveal_openings(
			origin: OriginFor<T>,
			id: ChallengeId,
			openings: BoundedVec<Opening, T::MaxOpenings>,
		) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_reveal(who, id, openings)
		}

		/// Validator: submit a verdict on a revealed challenge; a quorum finalises it.
		#[pallet::call_index(6)]
		#[pallet::weight(T::WeightInfo::submit_verdict())]
		pub fn submit_verdict(origin: OriginFor<T>, id: ChallengeId, verdict: Verdict) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::ensure_validator(&who)?;
			Self::do_verdict(who, id, verdict)
		}

		/// Anyone: finish challenges whose deadline, reveal window or verdict window has passed.
		#[pallet::call_index(7)]
		#[pallet::weight(T::WeightInfo::expire_challenges(ids.len() as u32))]
		pub fn expire_challenges(origin: OriginFor<T>, ids: BoundedVec<ChallengeId, ConstU32<64>>) -> DispatchResult {
			ensure_signed(origin)?;
			Self::do_expire(&ids)
		}

		/// Root: add a GPU profile.
		#[pallet::call_index(8)]
		#[pallet::weight(T::WeightInfo::add_profile())]
		pub fn add_profile(origin: OriginFor<T>, profile: GpuProfile) -> DispatchResult {
			ensure_root(origin)?;
			let id = Self::insert_profile(profile)?;
			Self::deposit_event(Event::ProfileAdded { id });
			Ok(())
		}

		/// Root: change a GPU profile (applies to challenges issued from now on).
		#[pallet::call_index(9)]
		#[pallet::weight(T::WeightInfo::update_profile())]
		pub fn update_profile(origin: OriginFor<T>, id: ProfileId, profile: GpuProfile) -> DispatchResult {
			ensure_root(origin)?;
			Self::validate_profile(&profile)?;
			ensure!(Profiles::<T>::contains_key(id), Error::<T>::UnknownProfile);
			Profiles::<T>::insert(id, profile);
			Self::deposit_event(Event::ProfileUpdated { id });
			Ok(())
		}

		/// Root: remove an unclaimed GPU profile.
		#[pallet::call_index(10)]
		#[pallet::weight(T::WeightInfo::remove_profile())]
		pub fn remove_profile(origin: OriginFor<T>, id: ProfileId) -> DispatchResult {
			ensure_root(origin)?;
			ensure!(Profiles::<T>::contains_key(id), Error::<T>::UnknownProfile);
			ensure!(ProfileClaims::<T>::get(id) == 0, Error::<T>::ProfileInUse);
			Profiles::<T>::remove(id);
			ProfileCount::<T>::mutate(|c| *c = c.saturating_sub(1));
			Self::deposit_event(Event::ProfileRemoved { id });
			Ok(())
		}

		/// Root: add a validator.
		#[pallet::call_index(11)]
		#[pallet::weight(T::WeightInfo::add_validator())]
		pub fn add_validator(origin: OriginFor<T>, validator: T::AccountId) -> DispatchResult {
			ensure_root(origin)?;
			Validators::<T>::try_mutate(|v| {
				ensure!(!v.contains(&validator), Error::<T>::AlreadyValidator);
				v.try_push(validator.clone()).map_err(|_| Error::<T>::TooManyValidators)
			})?;
			Self::deposit_event(Event::ValidatorAdded { validator });
			Ok(())
		}

		/// Root: remove a validator.
		#[pallet::call_index(12)]
		#[pallet::weight(T::WeightInfo::remove_validator())]
		pub fn remove_validator(origin: OriginFor<T>, validator: T::AccountId) -> DispatchResult {
			ensure_root(origin)?;
			Validators::<T>::try_mutate(|v| {
				let pos = v.iter().position(|x| x == &validator).ok_or(Error::<T>::NotValidator)?;
				v.remove(pos);
				Ok::<_, Error<T>>(())
			})?;
			Self::deposit_event(Event::ValidatorRemoved { validator });
			Ok(())
		}

		/// Root: set the protocol configuration.
		#[pallet::call_index(13)]
		#[pallet::weight(T::WeightInfo::set_config())]
		pub fn set_config(origin: OriginFor<T>, config: ProtocolConfig) -> DispatchResult {
			ensure_root(origin)?;
			Self::validate_config(&config)?;
			Configuration::<T>::put(config);
			Self::deposit_event(Event::ConfigUpdated { config });
			Ok(())
		}
	}
}
