//! # Proof of GPU pallet
//!
//! `pallet-pog` proves, on chain, what GPU compute a miner really has.
//!
//! - **Profiles** describe GPU models: memory, expected throughput per precision, score.
//! - **Miners** register claims (model, count and NVML UUID of each GPU) and their machine, with
//!   a deposit held.
//! - Once per period the chain itself starts a network-wide **round** ([`rounds`]) at a block
//!   drawn from randomness: every registered GPU of every miner is challenged at once, each with
//!   a seed derived from the round's randomness, the miner and the GPU, and its own deadline
//!   (round start + its profile's allowed time). A challenge asks for `C = A·B` with A and B
//!   generated from the seed (see `pog-primitives` and `docs/protocol.md`), sized to take the
//!   configured target time at the claimed profile's throughput. One GPU cannot answer two
//!   challenges whose windows overlap: time, not accounts, is what it cannot share.
//! - A GPU whose profile has measured memory rates first proves its memory: it fills 0.9 of the
//!   claimed memory with a dataset made from a small cache, runs data-dependent walks through it,
//!   and **commits** their Merkle root before its own deadline (`commit_memory`); its GEMM is
//!   seeded from that root, so the two phases run one after the other (`docs/protocol.md` §16).
//! - Each miner **commits** the Merkle roots of all its GPUs in one extrinsic. When the commit
//!   window has closed, randomness no committer could know **selects** the committed GPUs that
//!   are verified (all of them while the validators' capacity allows). Selected GPUs **reveal**
//!   the sampled leaves and walks with Merkle proofs (checked here).
//! - Each revealed challenge goes to a **committee** of validators chosen by hash ranking
//!   ([`verification`]); their off-chain workers ([`offchain`]) recompute sampled entries exactly
//!   and opened walks (from the cache alone) and submit signed verdicts; ⌊2c/3⌋+1 matching
//!   verdicts finalise it.
//! - Commits, reveals and verdicts are **duties** ([`duty`]): `Operational` dispatches with the
//!   highest pool priority, refused before they reach a block when nothing is due.
//! - When the verdict window is over every miner is **settled** ([`miners`], [`scoring`]), a
//!   bounded number per block: a missed commit, a missed reveal or a failed verification slashes
//!   part of the GPU's deposit; a pass credits the GPU, which keeps the credit while it commits
//!   on time, for at most `max_unverified_rounds` rounds without another pass. Every GPU scoring
//!   zero has a reason on chain. **Scores** use fixed-point arithmetic only, and the miners'
//!   **weight shares** are recomputed each round so that they sum to exactly 100%.
//! - Each settled round is **paid** through [`RoundPay`] (the runtime: `pallet-pog-rewards`):
//!   miners by weight share (vesting, and burned first when a GPU fails), validators by their
//!   agreeing verdicts, the rest to the treasury. This pallet tells it what happened and whom
//!   to pay ([`Payees`]); it never mints.
//! - **Validators** are one set for block authoring, finality and committees, kept by
//!   [`Committee`] (the runtime: `pallet-pog-validators`, pallet-session's manager and the `pog!`
//!   key's handler). This pallet draws committees from the seated set, counts each member's work
//!   and, when a round is settled, has the set judge it: a validator that contradicted decided
//!   outcomes or stayed silent loses part of its bond, and repeated strikes cost its seat. It tells
//!   the set which round runs and who owes evidence ([`set`]).
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub use pallet::*;

pub mod attestation;
#[cfg(feature = "runtime-benchmarks")]
mod benchmarking;
pub mod capacity;
mod config;
pub mod duty;
pub mod eviction;
pub mod evidence;
pub mod first_draw;
pub mod host;
#[cfg(any(feature = "try-runtime", test))]
mod invariants;
pub mod migrations;
pub mod miners;
#[cfg(test)]
mod mock;
pub mod offchain;
mod payees;
pub mod profiles;
pub mod rounds;
pub mod scoring;
pub mod served;
pub mod set;
#[cfg(test)]
mod tests;
pub mod throughput;
pub mod types;
pub mod verification;
mod views;
pub mod weights;

pub use duty::{CheckDuty, DUTY_PRIORITY};
pub use pog_traits::{Committee, Earned, Payees, RoundPay, Rounds, ValidatorRecord};
pub use types::*;
// The crate's vocabulary for the runtime and its clients (inside the crate, each file imports a
// concept's types from the file that owns it).
pub use config::{ConfigRule, ProtocolConfig};
pub use miners::{
	gpu_count_of, gpus_of, GpuClaim, Hardware, HardwareFault, MinerInfo, MAX_CPU_CORES, MAX_DISK_GIB, MAX_RAM_MIB,
	NEVER,
};
pub use pog_primitives::{
	challenge::{ChallengeParams, GpuIndex, GpuUuid, MemoryParams, ProfileId},
	memory::MemoryRules,
	Dims, Precision,
};
pub use profiles::{GpuProfile, Profile, ProfileFigures, ProfileRule, ValidateProfile};
pub use rounds::{
	AgentReport, Commitment, MemoryCommitment, MemoryRoot, RootCommit, RoundIndex, RoundInfo, RoundPhase, Selection,
};
pub use scoring::{FailReason, GpuStanding, RoundOutcome, Score, ScoreCaps, UnverifiedReason, ZeroReason};
pub use verification::{Opening, SelfReported, Verdict, Verification, VerificationStatus, WalkOpening, WalkResult};
pub use views::{ChallengeView, MinerView, RankEntry};
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
			fungible::{Inspect, Mutate, MutateHold},
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
	/// The round record of this runtime.
	pub type RoundOf<T> = RoundInfo<<T as frame_system::Config>::AccountId, BlockNumberFor<T>>;
	/// A verification record of this runtime.
	pub type VerificationOf<T> = Verification<<T as frame_system::Config>::AccountId, <T as Config>::MaxValidators>;
	/// A claim of this runtime.
	pub type ClaimOf<T> = GpuClaim<<T as Config>::MaxGpusPerMiner>;
	/// Claims as passed to `register_miner`/`update_miner`.
	pub type ClaimsOf<T> = BoundedVec<ClaimOf<T>, <T as Config>::MaxClaims>;
	/// Roots as passed to `commit_roots`.
	pub type RootsOf<T> = BoundedVec<RootCommit, <T as Config>::MaxGpusPerMiner>;
	/// One miner's commitments in a round, in GPU order (`None`: not committed).
	pub type CommitmentsOf<T> = BoundedVec<Option<Commitment>, <T as Config>::MaxGpusPerMiner>;
	/// Openings as passed to `reveal_openings`.
	pub type OpeningsOf<T> = BoundedVec<Opening, <T as Config>::MaxOpenings>;
	/// Memory roots as passed to `commit_memory`.
	pub type MemoryRootsOf<T> = BoundedVec<MemoryRoot, <T as Config>::MaxGpusPerMiner>;
	/// One miner's memory roots in a round, in GPU order (`None`: not committed).
	pub type MemoryCommitmentsOf<T> = BoundedVec<Option<MemoryCommitment>, <T as Config>::MaxGpusPerMiner>;
	/// Opened walks as passed to `reveal_openings`.
	pub type WalkOpeningsOf = BoundedVec<WalkOpening, MaxWalkOpenings>;
	/// Verdicts as passed to `submit_verdicts`: each the miner, the GPU and the verdict.
	pub type VerdictsOf<T> = BoundedVec<(<T as frame_system::Config>::AccountId, GpuIndex, Verdict), MaxVerdicts>;
	/// Opened walks as stored for the committee: the walk, its result and, in a per-core unit's
	/// lane phase, the digest of its parents from its path (`pog_primitives::lanes`; zeros in a
	/// GPU's phase). Their paths are checked at reveal.
	pub type WalkResultsOf = BoundedVec<WalkResult, MaxWalkOpenings>;
	/// Outcomes of one miner's GPUs in a round, in GPU order.
	pub type OutcomesOf<T> = BoundedVec<(GpuUuid, RoundOutcome), <T as Config>::MaxGpusPerMiner>;

	/// The storage layout's version ([`crate::migrations`] lists each with its migration).
	const STORAGE_VERSION: StorageVersion = StorageVersion::new(6);

	#[pallet::pallet]
	#[pallet::storage_version(STORAGE_VERSION)]
	pub struct Pallet<T>(_);

	/// Configuration of the pallet.
	#[pallet::config]
	pub trait Config:
		CreateSignedTransaction<Call<Self>> + frame_system::Config<RuntimeEvent: From<Event<Self>>>
	{
		/// The validators' off-chain signing crypto (key type `pog!`).
		/// Its public key is the `pog!` session key (`pallet-pog-validators` handles it).
		type AuthorityId: frame_system::offchain::AppCrypto<
			Self::Public,
			Self::Signature,
			RuntimeAppPublic = crate::crypto::Public,
		>;
		/// Currency in which miners' deposits are held, slashed and fees burned.
		type Currency: MutateHold<Self::AccountId, Reason = Self::RuntimeHoldReason> + Mutate<Self::AccountId>;
		/// Who pays for settled rounds and counts what this pallet burns (the runtime:
		/// `pallet-pog-rewards`).
		type RoundPay: RoundPay<Self::AccountId, BalanceOf<Self>>;
		/// Who sits on committees, and who judges their work once a round is settled (the
		/// runtime: `pallet-pog-validators`).
		type Committee: Committee<Self::AccountId>;
		/// The overarching hold reason.
		type RuntimeHoldReason: From<HoldReason>;
		/// The block's time, for deadlines: a clock its author cannot move (PoG chain: the start of
		/// the block's BABE slot).
		type TimeProvider: UnixTime;
		/// This block's fresh randomness, chained into [`Entropy`] at the start of every block
		/// (PoG chain: the block's own BABE VRF output). It must not be grindable by the block's
		/// author: a block hash is.
		type Randomness: Randomness<Self::Hash, BlockNumberFor<Self>>;
		/// The chain's block time (ms; PoG chain: the BABE slot). A gap between two blocks of a
		/// commit phase beyond two block times is a stall, and the round's clock does not count it.
		#[pallet::constant]
		type BlockTimeMs: Get<u64>;
		/// Deposit held from every miner.
		#[pallet::constant]
		type DepositBase: Get<BalanceOf<Self>>;
		/// Deposit held per claimed GPU whatever its points: the floor of a GPU's deposit, which
		/// prices a claim that never earns (griefing, sybils).
		#[pallet::constant]
		type DepositPerGpu: Get<BalanceOf<Self>>;
		/// Deposit held per million points a claimed GPU scores once proven, on top of
		/// `DepositPerGpu`: a GPU bonds in proportion to what it earns, and a failed challenge
		/// slashes `config.slash` of its GPU's whole deposit (`pog_primitives::deposit`).
		#[pallet::constant]
		type DepositPerMegapoint: Get<BalanceOf<Self>>;
		/// Burned at registration (not refunded): filling `MaxMiners` costs `MaxMiners` times this.
		#[pallet::constant]
		type RegistrationFee: Get<BalanceOf<Self>>;
		/// Most registered miners.
		#[pallet::constant]
		type MaxMiners: Get<u32>;
		/// Most GPU models in one miner's claims.
		#[pallet::constant]
		type MaxClaims: Get<u32>;
		/// Most GPUs of one miner (over all its claims).
		#[pallet::constant]
		type MaxGpusPerMiner: Get<u32>;
		/// Most validators (and so most committee members).
		#[pallet::constant]
		type MaxValidators: Get<u32>;
		/// Most GPU profiles.
		#[pallet::constant]
		type MaxProfiles: Get<u32>;
		/// Most opened leaves per challenge.
		#[pallet::constant]
		type MaxOpenings: Get<u32>;
		/// Served GPUs audited a round, on average, for the evidence of their members' fetches
		/// ([`evidence`]): each decided served GPU is audited with probability this / the round's
		/// served GPUs.
		#[pallet::constant]
		type EvidenceAudits: Get<u32>;
		/// Weights of the calls and hooks.
		type WeightInfo: WeightInfo;
	}

	/// Reasons for holding funds.
	#[pallet::composite_enum]
	pub enum HoldReason {
		/// The deposit of a registered miner.
		#[codec(index = 0)]
		MinerDeposit,
		/// A miner's earnings still vesting, before spec 130: `pallet-pog-rewards` holds them
		/// under its own reason since, and its migration moved every hold
		/// (`pallet_pog_rewards::migrations::v1`). Nothing is held under it; it keeps its index.
		#[codec(index = 1)]
		Vesting,
		/// A validator's bond, before spec 132: `pallet-pog-validators` holds bonds under its own
		/// reason since, and its migration moved every hold
		/// (`pallet_pog_validators::migrations::v1`). Nothing is held under it; it keeps its index.
		#[codec(index = 2)]
		ValidatorBond,
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

	/// The validators the drawn round's committees are drawn from: the seated set
	/// (`Committee::seated`) as it was at the
	/// sample's draw (each validator and its `pog!` key's account), kept until the round is
	/// settled ([`verification`], the review's F10). A validator seated later sits on none of its
	/// committees; one that left or rotated its key since still votes with the key it was drawn
	/// with, and answers for those votes. Empty while no round is drawn.
	#[pallet::storage]
	pub type CommitteePool<T: Config> =
		StorageValue<_, BoundedVec<(T::AccountId, T::AccountId), T::MaxValidators>, ValueQuery>;

	/// Registered miners: claims, hardware, deposit.
	#[pallet::storage]
	pub type Miners<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, MinerOf<T>>;

	/// Number of registered miners.
	#[pallet::storage]
	pub type MinerCount<T> = StorageValue<_, u32, ValueQuery>;

	/// How many miners claim each UUID. Information only: a UUID is self-reported, and a UUID
	/// claimed by several accounts must answer each account's challenge in the same round.
	#[pallet::storage]
	pub type UuidClaimants<T> = StorageMap<_, Blake2_128Concat, GpuUuid, u32, ValueQuery>;

	/// The current (or last) network-wide round.
	#[pallet::storage]
	pub type Round<T: Config> = StorageValue<_, RoundOf<T>, OptionQuery>;

	/// GPUs left undecided (`Inconclusive`) in the last settled round, and GPUs whose credit is
	/// due after it (`GpuStanding::due`). They are selected in the next round whatever its draw
	/// (`Pallet::on_probation`), so that draw gives the others what remains of the capacity; the
	/// draw takes the count.
	#[pallet::storage]
	pub type ProbationNext<T> = StorageValue<_, u32, ValueQuery>;

	/// The round's GPUs selected whatever the draw ([`ProbationNext`]) whose roots landed from a
	/// miner revealing on chain: their reveals come before the drawn ones' in the reveal window
	/// ([`Pallet::reveal_share`]). Counted as roots land, taken at the draw.
	#[pallet::storage]
	pub type ForcedOnChain<T> = StorageValue<_, u32, ValueQuery>;

	/// Verifications a validator does in a round, as measured from the rounds settled so far
	/// ([`crate::throughput`]); none until a round has moved the configuration's figure, and
	/// none again after a configuration is set.
	#[pallet::storage]
	pub type MeasuredThroughput<T> = StorageValue<_, u32, OptionQuery>;

	/// Each round's GPUs that committed never verified: its first draw, which selects them before
	/// the others (`crate::first_draw`). Removed with the round's records.
	#[pallet::storage]
	pub type FirstDraws<T: Config> = StorageDoubleMap<
		_,
		Twox64Concat,
		RoundIndex,
		Blake2_128Concat,
		T::AccountId,
		BoundedVec<GpuIndex, T::MaxGpusPerMiner>,
		ValueQuery,
	>;

	/// Each round's first draw: how many GPUs joined it, and the probability each is selected
	/// with. Removed with the round's records.
	#[pallet::storage]
	pub type FirstDrawOf<T> = StorageMap<_, Twox64Concat, RoundIndex, crate::first_draw::FirstDraw, ValueQuery>;

	/// The entropy chain: E(n) = BLAKE2(E(n−1), this block's randomness), mixed in at the start
	/// of every block. Every draw of block n (round start, seeds, sample, openings) comes from
	/// E(n), so knowing it before block n−1 is published takes knowing the randomness of both
	/// blocks (with BABE: authoring both; docs/protocol.md, 'Randomness').
	#[pallet::storage]
	pub type Entropy<T> = StorageValue<_, Hash32, ValueQuery>;

	/// Committed roots per round and miner, one slot per GPU index.
	#[pallet::storage]
	pub type Commitments<T: Config> =
		StorageDoubleMap<_, Twox64Concat, RoundIndex, Blake2_128Concat, T::AccountId, CommitmentsOf<T>>;

	/// Committed memory roots per round and miner, one slot per GPU index.
	#[pallet::storage]
	pub type MemoryCommitments<T: Config> =
		StorageDoubleMap<_, Twox64Concat, RoundIndex, Blake2_128Concat, T::AccountId, MemoryCommitmentsOf<T>>;

	/// Revealed challenges: sample seed, committee, verdicts and status.
	#[pallet::storage]
	pub type Verifications<T: Config> = StorageNMap<
		_,
		(NMapKey<Twox64Concat, RoundIndex>, NMapKey<Blake2_128Concat, T::AccountId>, NMapKey<Twox64Concat, GpuIndex>),
		VerificationOf<T>,
	>;

	/// Each committee member's passes in bulk in a round ([`attestation`]): up to where in the
	/// round's verification order its served GPUs pass, and which it left open.
	#[pallet::storage]
	pub type Attestations<T: Config> =
		StorageDoubleMap<_, Twox64Concat, RoundIndex, Blake2_128Concat, T::AccountId, attestation::AttestationOf<T>>;

	/// Opened leaves with proofs, kept until the miner is settled.
	#[pallet::storage]
	pub type Openings<T: Config> = StorageNMap<
		_,
		(NMapKey<Twox64Concat, RoundIndex>, NMapKey<Blake2_128Concat, T::AccountId>, NMapKey<Twox64Concat, GpuIndex>),
		OpeningsOf<T>,
	>;

	/// Opened walks' results, kept until the miner is settled.
	#[pallet::storage]
	pub type WalkResults<T: Config> = StorageNMap<
		_,
		(NMapKey<Twox64Concat, RoundIndex>, NMapKey<Blake2_128Concat, T::AccountId>, NMapKey<Twox64Concat, GpuIndex>),
		WalkResultsOf,
	>;

	/// Each miner's GPUs in claim order: credit, or why none.
	#[pallet::storage]
	pub type Standing<T: Config> =
		StorageMap<_, Blake2_128Concat, T::AccountId, BoundedVec<GpuStanding, T::MaxGpusPerMiner>, ValueQuery>;

	/// Each miner's score and its components.
	#[pallet::storage]
	pub type Scores<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, Score>;

	/// Newcomers admitted on trial into a registry whose regular slots are all taken, with
	/// the last round of their trial ([`eviction`]).
	#[pallet::storage]
	pub type Trial<T: Config> = CountedStorageMap<_, Blake2_128Concat, T::AccountId, RoundIndex, OptionQuery>;

	/// Each scored miner's share of the epoch's weight (sums to exactly 100% when not empty).
	#[pallet::storage]
	pub type WeightShares<T: Config> = StorageValue<_, BoundedVec<(T::AccountId, Perbill), T::MaxMiners>, ValueQuery>;

	/// The epoch the weight shares belong to (the round they were settled in).
	#[pallet::storage]
	pub type Epoch<T> = StorageValue<_, u32, ValueQuery>;

	/// Each committee member's evidence tree of a round ([`evidence`]): the root over one leaf per
	/// served GPU it voted on with a result, as its last attestation set it.
	#[pallet::storage]
	pub type EvidenceRoots<T: Config> =
		StorageDoubleMap<_, Twox64Concat, RoundIndex, Blake2_128Concat, T::AccountId, evidence::EvidenceRoot>;

	/// Served GPUs audited after their round's votes closed ([`evidence`]): the leaf of C whose
	/// hash each member still owing must open, until the next round is settled.
	#[pallet::storage]
	pub type Audits<T: Config> = StorageNMap<
		_,
		(NMapKey<Twox64Concat, RoundIndex>, NMapKey<Blake2_128Concat, T::AccountId>, NMapKey<Twox64Concat, GpuIndex>),
		evidence::AuditOf<T>,
	>;

	/// Audits drawn per round, while any is open (at most [`Pallet::max_audits`]).
	#[pallet::storage]
	pub type AuditCount<T> = StorageMap<_, Twox64Concat, RoundIndex, u32, ValueQuery>;

	/// The first round whose decided served GPUs are audited ([`evidence`]): votes cast before
	/// the runtime that audits carry no evidence. None before it is set (at genesis, or by
	/// [`migrations::StartEvidence`]).
	#[pallet::storage]
	pub type EvidenceSince<T> = StorageValue<_, RoundIndex, OptionQuery>;

	/// Duties spent by a failed dispatch, per round (key: [`duty::DutyKey::spent_key`]): each is
	/// refused from then on, so a failing duty cannot be sent twice (pruned with its round).
	#[pallet::storage]
	pub type SpentDuties<T> = StorageDoubleMap<_, Twox64Concat, RoundIndex, Identity, Hash32, ()>;

	/// A round whose records are being removed in idle time (rounds are kept for auditors for
	/// [`rounds::KEPT_ROUNDS`] rounds).
	#[pallet::storage]
	pub type PruneRound<T> = StorageValue<_, RoundIndex, OptionQuery>;

	/// Where each miner that serves its openings off chain serves them ([`served`]).
	#[pallet::storage]
	pub type OpeningsEndpoints<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, served::Endpoint>;

	/// Whether `WeightShares` holds the share of a miner that departed while a payout was being
	/// paid: dropped after its last page (`scoring::drop_share`).
	#[pallet::storage]
	pub type SharesOfDeparted<T> = StorageValue<_, bool, ValueQuery>;

	/// Whether openings endpoints may name local or private hosts (dev and local chains, set at
	/// genesis); on a public chain they name public hosts only
	/// (`pog_primitives::endpoint::is_public_endpoint`).
	#[pallet::storage]
	pub type LocalEndpoints<T: Config> = StorageValue<_, bool, ValueQuery>;

	/// The miners serving a round's openings off chain, with the endpoint of their first commit
	/// of the round (pruned with the round's records).
	#[pallet::storage]
	pub type ServedIn<T: Config> =
		StorageDoubleMap<_, Twox64Concat, RoundIndex, Blake2_128Concat, T::AccountId, served::Endpoint>;

	/// A round's committed GPUs whose openings are served off chain.
	#[pallet::storage]
	pub type ServedGpus<T> = StorageMap<_, Twox64Concat, RoundIndex, u32, ValueQuery>;

	/// Each member's unserved votes that count toward a rebuttal in a round, set at its draw
	/// ([`served::unserved_quota`]): the rebuttals they can force all fit the rebuttal blocks.
	/// Absent for a round drawn before the quota existed (every unserved vote counts).
	#[pallet::storage]
	pub type UnservedQuota<T> = StorageMap<_, Twox64Concat, RoundIndex, u32, OptionQuery>;

	/// Unserved votes each member cast in a round ([`served`]; pruned with the round).
	#[pallet::storage]
	pub type UnservedCast<T: Config> =
		StorageDoubleMap<_, Twox64Concat, RoundIndex, Blake2_128Concat, T::AccountId, u32, ValueQuery>;

	/// Unserved votes on a served GPU cast within their members' quotas ([`served`]): with
	/// ⌈c/3⌉ of them the GPU may be rebutted, and fails at settlement if it is not. Voided by a
	/// rebuttal, pruned with the round.
	#[pallet::storage]
	pub type Contested<T: Config> = StorageNMap<
		_,
		(NMapKey<Twox64Concat, RoundIndex>, NMapKey<Blake2_128Concat, T::AccountId>, NMapKey<Twox64Concat, GpuIndex>),
		u32,
		ValueQuery,
	>;

	/// Failing votes naming a leaf or a walk cast on a served GPU, not rebutted, by the unserved
	/// deadline ([`served`]): with its unserved votes they make a delivery quorum, so a miner
	/// serving wrong openings to some members and nothing to the others fails whatever the
	/// members' quotas. Pruned with the round.
	#[pallet::storage]
	pub type EarlyFailing<T: Config> = StorageNMap<
		_,
		(NMapKey<Twox64Concat, RoundIndex>, NMapKey<Blake2_128Concat, T::AccountId>, NMapKey<Twox64Concat, GpuIndex>),
		u32,
		ValueQuery,
	>;

	/// The probability with which a GPU revealing on chain that a round's draw selected stays in
	/// its sample, where it is below one ([`capacity`]): absent, one.
	#[pallet::storage]
	pub type RevealShare<T> = StorageMap<_, Twox64Concat, RoundIndex, Perbill, OptionQuery>;

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
		/// The validators at genesis: planned in the validator set here
		/// (`Committee::plan_genesis`), handed to pallet-session for its first two sessions (their
		/// keys are the session's genesis keys), seated and bonded when the session's genesis
		/// seats them. Named here because this pallet's genesis comes before pallet-session's,
		/// whose genesis asks the set for its first sessions (and records their historical roots).
		pub validators: Vec<T::AccountId>,
		/// Configuration (mainnet defaults if absent).
		pub config: Option<ProtocolConfig>,
		/// Whether openings endpoints may name local or private hosts (dev chains only).
		pub local_endpoints: bool,
	}

	#[pallet::genesis_build]
	impl<T: Config> BuildGenesisConfig for GenesisConfig<T> {
		fn build(&self) {
			// the configuration first: each profile is checked under it (a verifier's cost)
			if let Some(config) = self.config {
				assert!(Pallet::<T>::validate_config(&config).is_ok(), "genesis PoG config is invalid");
				Configuration::<T>::put(config);
			}
			for p in &self.profiles {
				let profile = profiles::on_chain(&p.name, p.figures).expect("genesis profile names fit MaxNameLen");
				if let Err(e) = Pallet::<T>::insert_profile(profile) {
					panic!("genesis profile {} is refused: {e:?}", p.name);
				}
			}
			assert!(self.validators.len() as u32 <= T::MaxValidators::get(), "genesis validators fit MaxValidators");
			T::Committee::plan_genesis(self.validators.clone());
			LocalEndpoints::<T>::put(self.local_endpoints);
			Round::<T>::put(Pallet::<T>::genesis_round());
			Pallet::<T>::start_evidence(true);
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
		/// The configuration changed.
		#[codec(index = 11)]
		ConfigUpdated {
			/// The new configuration.
			config: ProtocolConfig,
		},
		/// A miner registered, holding `deposit` and burning `fee`; challenged from `first_round`.
		#[codec(index = 12)]
		MinerRegistered {
			/// The miner.
			miner: T::AccountId,
			/// GPUs claimed.
			gpus: u32,
			/// Deposit held.
			deposit: BalanceOf<T>,
			/// Registration fee burned.
			fee: BalanceOf<T>,
			/// The first round it takes part in.
			first_round: RoundIndex,
		},
		/// A miner changed its claims or hardware; they apply from `from_round`.
		#[codec(index = 13)]
		MinerUpdated {
			/// The miner.
			miner: T::AccountId,
			/// GPUs claimed now.
			gpus: u32,
			/// Deposit held now.
			deposit: BalanceOf<T>,
			/// The first round the new claims are challenged in.
			from_round: RoundIndex,
		},
		/// A newcomer on trial proved more GPU points than a regular miner and took its slot
		/// (its deposit and unvested pay are released: it made room, it did not fail).
		#[codec(index = 14)]
		MinerEvicted {
			/// The evicted miner.
			miner: T::AccountId,
			/// The miner that took its slot.
			by: T::AccountId,
		},
		/// A miner asked to leave during a round it takes part in: it is released once settled.
		#[codec(index = 15)]
		MinerLeaving {
			/// The miner.
			miner: T::AccountId,
		},
		/// A miner left; what remained of its deposit was released.
		#[codec(index = 16)]
		MinerDeregistered {
			/// The miner.
			miner: T::AccountId,
			/// Deposit released.
			released: BalanceOf<T>,
		},
		/// A miner's deposit fell short after a slash and could not be topped up: it takes part in
		/// no round until `update_miner` holds the deposit again.
		#[codec(index = 17)]
		MinerSuspended {
			/// The miner.
			miner: T::AccountId,
		},
		/// A round started: every participating GPU is challenged from this block.
		#[codec(index = 18)]
		RoundStarted {
			/// The round.
			round: RoundIndex,
			/// Its randomness (each GPU's seed is derived from it).
			seed: Hash32,
		},
		/// A miner committed memory roots; each GPU's GEMM is seeded from its root and due its
		/// allowed time after this block.
		#[codec(index = 19)]
		MemoryCommitted {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPUs whose memory roots landed.
			gpus: BoundedVec<GpuIndex, T::MaxGpusPerMiner>,
		},
		/// A miner committed roots.
		#[codec(index = 20)]
		RootsCommitted {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPUs whose roots landed.
			gpus: BoundedVec<GpuIndex, T::MaxGpusPerMiner>,
		},
		/// The commit window closed and the verified sample was drawn.
		#[codec(index = 21)]
		SampleDrawn {
			/// The round.
			round: RoundIndex,
			/// GPUs committed.
			committed: u32,
			/// Verifications the validators can do this round.
			capacity: u32,
			/// Probability of each committed GPU to be selected.
			probability: Perbill,
		},
		/// A selected GPU revealed its openings; their proofs matched its root.
		#[codec(index = 22)]
		OpeningsRevealed {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
			/// The seed that chose the opened leaves.
			sample_seed: Hash32,
		},
		/// A committee member submitted a verdict.
		#[codec(index = 23)]
		VerdictSubmitted {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
			/// The validator.
			validator: T::AccountId,
			/// Its verdict.
			verdict: Verdict,
		},
		/// ⌊2c/3⌋+1 committee members agreed.
		#[codec(index = 24)]
		VerificationFinished {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
			/// Whether it passed.
			passed: bool,
		},
		/// A miner's round was settled: each GPU's outcome, and what was slashed.
		#[codec(index = 25)]
		MinerSettled {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// Each GPU's outcome, in GPU order.
			outcomes: OutcomesOf<T>,
			/// Deposit slashed (burned) for failures.
			slashed: BalanceOf<T>,
		},
		/// Every miner of the round is settled.
		#[codec(index = 32)]
		RoundSettled {
			/// The round.
			round: RoundIndex,
			/// Miners settled.
			miners: u32,
		},
		/// A miner's score changed.
		#[codec(index = 33)]
		ScoreUpdated {
			/// The miner.
			miner: T::AccountId,
			/// Its new score.
			score: Score,
		},
		/// A duty passed the pool but failed in its block (the state moved in between): its duties
		/// are spent, refused from now on; a GPU's missed commit or reveal is slashed at settlement.
		#[codec(index = 34)]
		DutyFailed {
			/// The round.
			round: RoundIndex,
			/// The sender (the miner, or the validator of a verdict).
			who: T::AccountId,
			/// The GPUs it was about.
			gpus: BoundedVec<GpuIndex, T::MaxGpusPerMiner>,
			/// Why its dispatch failed.
			error: DispatchError,
		},
		/// A miner set (`Some`) or cleared (`None`) where it serves its openings, from its next
		/// round's first commit on.
		#[codec(index = 35)]
		OpeningsEndpointSet {
			/// The miner.
			miner: T::AccountId,
			/// The endpoint.
			endpoint: Option<served::Endpoint>,
		},
		/// A served GPU that drew unserved votes was revealed on chain (a rebuttal): those votes
		/// are void, and their members verify the revealed openings.
		#[codec(index = 36)]
		UnservedVoided {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
			/// Unserved votes voided.
			votes: u32,
		},
		/// Weight shares were recomputed for an epoch.
		#[codec(index = 37)]
		SharesUpdated {
			/// The epoch.
			epoch: u32,
			/// Miners with a share.
			miners: u32,
		},
		/// A settled round's committee work moved (or kept) the verifications per validator that
		/// size the next samples. (Appended after spec_version 115 put it before `RoundSettled`: new
		/// variants go last, so that the events before keep their indices.)
		#[codec(index = 38)]
		ThroughputMeasured {
			/// The round settled.
			round: RoundIndex,
			/// Verifications per validator per round from now on.
			per_validator: u32,
			/// What the round's work said.
			measured: throughput::Measured,
		},
		/// A committee member passed its served GPUs up to `upto` in the round's verification
		/// order in bulk, with `verdicts` individual verdicts, leaving `open` GPUs open
		/// ([`attestation`]).
		#[codec(index = 39)]
		Attested {
			/// The round.
			round: RoundIndex,
			/// The member.
			validator: T::AccountId,
			/// Up to where its served GPUs pass.
			upto: attestation::Position,
			/// GPUs left open (not served to it yet).
			open: u32,
			/// Individual verdicts recorded with it.
			verdicts: u32,
		},
		/// Every regular slot is taken: the miner is registered on trial ([`eviction`]). Once
		/// it has passed, `claim_slot` takes a free slot or that of fewer proven points; still on
		/// trial when the round after `last_round` is settled, it is removed.
		#[codec(index = 41)]
		MinerOnTrial {
			/// The newcomer.
			miner: T::AccountId,
			/// The last round of its trial (a pass in it can still claim a slot).
			last_round: RoundIndex,
		},
		/// A miner on trial took a regular slot (a free one, or an evicted miner's).
		#[codec(index = 42)]
		MinerAdmitted {
			/// The miner.
			miner: T::AccountId,
		},
		/// A miner's trial ended without a regular slot: it is removed, its deposit and
		/// unvested pay released.
		#[codec(index = 43)]
		MinerTrialEnded {
			/// The miner.
			miner: T::AccountId,
		},
		/// A decided served GPU is audited: the members whose votes named a result open their
		/// evidence of its fetch until the next round is settled ([`evidence`]).
		#[codec(index = 44)]
		EvidenceAudited {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
			/// Members owing the opening.
			members: u32,
		},
		/// A member opened its evidence on an audited GPU.
		#[codec(index = 45)]
		EvidenceOpened {
			/// The round of the audited GPU.
			round: RoundIndex,
			/// The member (`pog!` account).
			validator: T::AccountId,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
		},
		/// A member did not open its evidence on an audited GPU in time: a strike for its
		/// validator in the judgment of the round being settled.
		#[codec(index = 46)]
		EvidenceMissing {
			/// The round of the audited GPU.
			round: RoundIndex,
			/// The validator.
			validator: T::AccountId,
			/// The `pog!` account it voted with.
			member: T::AccountId,
			/// The miner.
			miner: T::AccountId,
			/// The GPU.
			gpu: GpuIndex,
		},
	}

	/// Errors, each naming what is wrong.
	#[pallet::error]
	pub enum Error<T> {
		/// The caller is not a PoG validator.
		NotValidator,
		/// More votes than the validator set's bound (`MaxValidators`) on one challenge.
		#[codec(index = 2)]
		TooManyValidators,
		/// No such profile.
		#[codec(index = 6)]
		UnknownProfile,
		/// The profile table is full.
		#[codec(index = 7)]
		TooManyProfiles,
		/// The profile breaks the rule named (`ProfileRule`: a name, memory, a rate in a
		/// challenged precision, a tolerance below 100%, both memory rates or neither).
		#[codec(index = 8)]
		InvalidProfile(ProfileRule),
		/// GPUs of this profile are claimed; it cannot be removed.
		#[codec(index = 9)]
		ProfileInUse,
		/// The configuration breaks the rule named (`ConfigRule`: which field to fix).
		#[codec(index = 10)]
		InvalidConfig(ConfigRule),
		/// The account is already a registered miner.
		#[codec(index = 11)]
		AlreadyRegistered,
		/// The account is not a registered miner.
		#[codec(index = 12)]
		NotRegistered,
		/// Every regular slot of the registry and every trial slot is taken (retry once a
		/// newcomer's trial ends, after a round is settled).
		#[codec(index = 13)]
		TooManyMiners,
		/// At least one GPU must be claimed.
		#[codec(index = 14)]
		NoClaims,
		/// A claim has a count of zero.
		#[codec(index = 15)]
		ZeroCount,
		/// A claim's count differs from its number of UUIDs.
		#[codec(index = 16)]
		CountMismatch,
		/// More GPUs than a miner may claim.
		#[codec(index = 17)]
		TooManyGpus,
		/// A UUID appears twice in the claims.
		#[codec(index = 18)]
		DuplicateUuid,
		/// The deposit or the registration fee could not be taken (free balance too low).
		#[codec(index = 19)]
		InsufficientDeposit,
		/// The miner already asked to leave.
		#[codec(index = 20)]
		AlreadyLeaving,
		/// No round is open for this call, or the round given is not the current one.
		#[codec(index = 21)]
		WrongRound,
		/// The round is not in the phase this call needs.
		#[codec(index = 22)]
		WrongPhase,
		/// The miner does not take part in this round (registered after it started, or suspended).
		#[codec(index = 23)]
		NotTakingPart,
		/// No GPU with this index among the miner's claims.
		#[codec(index = 24)]
		UnknownGpu,
		/// At least one root must be given.
		#[codec(index = 25)]
		NoRoots,
		/// A GPU appears twice in one call.
		#[codec(index = 26)]
		DuplicateGpu,
		/// This GPU's root is already committed.
		#[codec(index = 27)]
		AlreadyCommitted,
		/// The GPU's deadline for its root has passed.
		#[codec(index = 28)]
		DeadlinePassed,
		/// The GPU has no committed root this round.
		#[codec(index = 29)]
		NotCommitted,
		/// The GPU is not in this round's verified sample.
		#[codec(index = 30)]
		NotSelected,
		/// The GPU's openings are already revealed.
		#[codec(index = 31)]
		AlreadyRevealed,
		/// The reveal window has closed.
		#[codec(index = 32)]
		RevealWindowClosed,
		/// The number of openings differs from the sampled leaves.
		#[codec(index = 33)]
		WrongOpeningCount,
		/// An opening is for another leaf than the one sampled at its position.
		#[codec(index = 34)]
		WrongOpeningIndex,
		/// A Merkle proof does not lead from the opened leaf to the committed root.
		#[codec(index = 35)]
		InvalidProof,
		/// The challenge was not revealed.
		#[codec(index = 36)]
		NotRevealed,
		/// `submit_verdicts` carries no verdict, or none once the unserved votes a rebuttal
		/// answered since are left out.
		#[codec(index = 37)]
		NoVerdicts,
		/// `submit_verdicts` names one miner's GPU twice.
		#[codec(index = 38)]
		DuplicateVerdict,
		/// The caller is not on this challenge's committee.
		#[codec(index = 39)]
		NotInCommittee,
		/// This validator already submitted a verdict on the challenge.
		#[codec(index = 40)]
		AlreadyVoted,
		/// The verdict window has closed; only verdicts inside it count.
		#[codec(index = 41)]
		VerdictWindowClosed,
		/// A failing verdict must name one of the opened (or, when served off chain, sampled)
		/// leaves or walks, a passing one none; only a GPU served off chain may be voted unserved
		/// (failing, naming none).
		#[codec(index = 42)]
		InconsistentVerdict,
		/// The claimed profile has no throughput in any precision.
		#[codec(index = 43)]
		NoPrecision,
		/// More CPU cores than any machine has (at most `types::MAX_CPU_CORES`).
		#[codec(index = 44)]
		ImplausibleCpuCores,
		/// More memory than any machine has (at most `types::MAX_RAM_MIB`).
		#[codec(index = 45)]
		ImplausibleRam,
		/// More disk than any machine has (at most `types::MAX_DISK_GIB`).
		#[codec(index = 46)]
		ImplausibleDisk,
		/// A round is open (commit, reveal or settlement): its challenges are derived from the
		/// profiles and the configuration, and its miners are scored by them, all by the same
		/// figures. Change them once the round is settled (phase `Idle`).
		#[codec(index = 47)]
		RoundOpen,
		/// The profile lists a precision whose native rate is slower than its exact int8 alias
		/// allows (`native < int8 / int8_gemms · (1 − tolerance)`, `pog_primitives::pricing`): an
		/// honest card would miss the deadline the alias sets. List it as 0 (not challenged).
		#[codec(index = 48)]
		AliasOutrunsNative,
		/// A CPU is claimed as one unit of one per-core profile (`cpu-core`), and needs
		/// `cpu_cores` declared: its challenge is sized at those cores.
		#[codec(index = 49)]
		InvalidCpuClaim,
		/// The GPU's profile has no measured memory rates, so its rounds have no memory phase:
		/// commit its GEMM root alone.
		#[codec(index = 50)]
		NoMemoryPhase,
		/// The GPU's memory root must land first: its GEMM is seeded from it.
		#[codec(index = 51)]
		MemoryNotCommitted,
		/// The number of opened walks differs from the sampled walks (none without a memory
		/// phase).
		#[codec(index = 52)]
		WrongWalkCount,
		/// An opened walk is another walk than the one sampled at its position.
		#[codec(index = 53)]
		WrongWalkIndex,
		/// A walk's Merkle proof does not lead from its result to the committed memory root.
		#[codec(index = 54)]
		InvalidWalkProof,
		/// This duty failed in an earlier block of the round and is spent: it is not owed again.
		#[codec(index = 55)]
		DutySpent,
		/// An openings endpoint is an `http://` or `https://` URL with a host, printable ASCII
		/// without spaces, `?`, `#` or `@`, at most 256 bytes.
		#[codec(index = 57)]
		InvalidEndpoint,
		/// The miner serves this round's openings off chain (it had an endpoint when its first
		/// root of the round landed): its committee fetches them from there, and they are not
		/// revealed on chain, except to rebut unserved votes that would fail it while it is
		/// undecided (`served::rebuttable`: ⌈c/3⌉ cast within their members' quotas, or a
		/// quorum not passing it).
		#[codec(index = 58)]
		ServedOffChain,
		/// An unserved vote (failing, naming no leaf or walk) counts only once the reveal window,
		/// the miner's time to serve its openings, has closed.
		#[codec(index = 59)]
		UnservedTooEarly,
		/// A served GPU's rebuttal (its reveal on chain against unserved votes) comes by two thirds
		/// of the verdict window (`served::rebuttal_deadline`), so that its committee can verify it.
		#[codec(index = 60)]
		RebuttalWindowClosed,
		/// The member's attestation already passes this served GPU: a pass once given is not
		/// taken back, and its vote is the pass.
		#[codec(index = 61)]
		AlreadyAttested,
		/// An attestation moves forward: `upto` after the member's last one (or the same, with
		/// verdicts).
		#[codec(index = 62)]
		AttestationBehind,
		/// An open GPU must be served off chain, at or before `upto`, named once, not voted on by
		/// the member, and not passed by its last attestation.
		#[codec(index = 63)]
		InvalidOpen,
		/// An unserved vote comes in the first half of the verdict window
		/// (`served::unserved_deadline`), so that the miner can rebut it before the rebuttal
		/// window closes.
		#[codec(index = 64)]
		UnservedTooLate,
		/// An openings endpoint names a local or private host (loopback, a private, link-local or
		/// reserved address, `localhost`, `*.local`): on this chain every committee member's node
		/// would send requests into its own network. Name a public host.
		#[codec(index = 65)]
		PrivateEndpoint,
		/// `claim_slot` is for a miner on trial (registered while every regular slot was
		/// taken); this one holds a regular slot or is not registered.
		#[codec(index = 66)]
		NotOnTrial,
		/// A miner on trial claims a slot only once it has passed a verification: its score
		/// is zero.
		#[codec(index = 67)]
		NotYetPassed,
		/// No regular slot is free, and no regular miner past its immunity and with no unsettled
		/// round has fewer proven GPU points than the caller (retry once a round is settled).
		#[codec(index = 68)]
		NoLowerScore,
		/// `open_evidence`: the GPU is not audited, the audit is closed, or the caller owes it no
		/// opening (it did not vote on the result, or has opened already).
		#[codec(index = 69)]
		NotAudited,
		/// `open_evidence`: the leaf hash does not lead to the GPU's committed root at the audited
		/// leaf, or the caller's evidence leaf for it does not lead to its evidence root.
		#[codec(index = 70)]
		WrongEvidence,
	}

	#[pallet::hooks]
	impl<T: Config> Hooks<BlockNumberFor<T>> for Pallet<T> {
		fn on_initialize(n: BlockNumberFor<T>) -> Weight {
			Self::mix_entropy();
			let paid = T::RoundPay::pay_some();
			Self::advance_round(n).saturating_add(T::DbWeight::get().reads_writes(2, 1)).saturating_add(paid)
		}

		fn on_finalize(n: BlockNumberFor<T>) {
			Self::stamp_round_start(n);
		}

		fn on_idle(_n: BlockNumberFor<T>, remaining: Weight) -> Weight {
			Self::prune_old_round(remaining)
		}

		fn offchain_worker(n: BlockNumberFor<T>) {
			offchain::run::<T>(n);
		}

		fn integrity_test() {
			// The committee pool copies the seated set: every seat must fit it.
			assert!(
				T::MaxValidators::get() >= T::Committee::max_seated(),
				"pallet-pog's MaxValidators is below the validator set's (Committee::max_seated)"
			);
		}

		#[cfg(feature = "try-runtime")]
		fn try_state(_n: BlockNumberFor<T>) -> Result<(), sp_runtime::TryRuntimeError> {
			Self::do_try_state()
		}
	}

	#[pallet::call]
	impl<T: Config> Pallet<T> {
		/// Register as a miner with GPU `claims` and `hardware`: holds the deposit and burns the
		/// registration fee. The GPUs are challenged from the next round on. Once every regular
		/// slot is taken, the miner is registered on trial ([`eviction`]).
		#[pallet::call_index(0)]
		#[pallet::weight(Pallet::<T>::register_weight())]
		pub fn register_miner(origin: OriginFor<T>, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_register(who, claims, hardware)
		}

		/// Replace the caller's claims and hardware. They apply at once if the miner has no
		/// unsettled round, else once its current round is settled; nothing is re-drawn. An
		/// increased deposit is held now. Also resumes a miner suspended for a short deposit.
		#[pallet::call_index(1)]
		// Plus re-pricing lowered cores (`reprice_cores`: the standing and a profile per GPU).
		#[pallet::weight(T::WeightInfo::update_miner(T::MaxGpusPerMiner::get())
			.saturating_add(T::DbWeight::get().reads_writes(u64::from(T::MaxGpusPerMiner::get()) + 1, 1)))]
		pub fn update_miner(origin: OriginFor<T>, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_update(who, claims, hardware)
		}

		/// Leave: at once if the miner has no unsettled round, else once its current round is
		/// settled (its failures in that round are still slashed).
		#[pallet::call_index(2)]
		// Plus taking the miner out of the weight shares (`drop_share`: one read and write) and
		// off trial (`Trial`: its count and entry).
		#[pallet::weight(T::WeightInfo::deregister_miner(T::MaxGpusPerMiner::get())
			.saturating_add(T::DbWeight::get().reads_writes(3, 3)))]
		pub fn deregister_miner(origin: OriginFor<T>) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_deregister(who)
		}

		/// Miner: commit the Merkle roots of its GPUs' results in `round`, each before its own
		/// deadline (several calls may split the GPUs; each GPU commits once). A duty
		/// ([`duty::CheckDuty`]): first in the pool, refused there when nothing is left to commit,
		/// and free when it succeeds (its fee is refunded; a failed one pays).
		#[pallet::call_index(3)]
		// Plus entering the round's first draw (`Standing`, `FirstDraws`, `FirstDrawOf`), which
		// the benchmark predates, whether it is the miner's first of the round (`Commitments`),
		// whether the endpoint is still fetchable (`LocalEndpoints`) and the count of forced GPUs
		// revealing on chain (`ForcedOnChain`).
		#[pallet::weight((
			T::WeightInfo::commit_roots(roots.len() as u32).saturating_add(T::DbWeight::get().reads_writes(6, 3)),
			DispatchClass::Operational
		))]
		pub fn commit_roots(origin: OriginFor<T>, round: RoundIndex, roots: RootsOf<T>) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_commit(who, round, roots)?;
			Ok(Pays::No.into())
		}

		/// Miner: reveal a selected GPU's sampled leaves and (with a memory phase) its sampled
		/// walks with their Merkle proofs, in sample order, within the reveal window; a GPU served
		/// off chain, only to rebut unserved votes, by `served::rebuttal_deadline`. A duty
		/// ([`duty::CheckDuty`]), free when it succeeds.
		#[pallet::call_index(4)]
		// Plus whether the GPU is in the first draw (`FirstDraws`, `FirstDrawOf`), which the
		// benchmark predates, and for a rebuttal whether its openings are already on chain
		// (`Openings`, `served::ensure_rebuttal`) and its contest (`UnservedQuota`, `Contested`
		// removed, `EarlyFailing`), which the benchmark's reveal does not read.
		#[pallet::weight((
			T::WeightInfo::reveal_openings(openings.len() as u32, walks.len() as u32)
				.saturating_add(T::DbWeight::get().reads_writes(6, 1)),
			DispatchClass::Operational
		))]
		pub fn reveal_openings(
			origin: OriginFor<T>,
			round: RoundIndex,
			gpu: GpuIndex,
			openings: OpeningsOf<T>,
			walks: WalkOpeningsOf,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_reveal(who, round, gpu, openings, walks)?;
			Ok(Pays::No.into())
		}

		/// Committee member: submit a verdict on a revealed challenge. A duty
		/// ([`duty::CheckDuty`]), free when it succeeds.
		#[pallet::call_index(5)]
		#[pallet::weight((
			Pallet::<T>::verdicts_weight(1).saturating_add(Pallet::<T>::failing_weight((!verdict.passed).into())),
			DispatchClass::Operational
		))]
		pub fn submit_verdict(
			origin: OriginFor<T>,
			round: RoundIndex,
			miner: T::AccountId,
			gpu: GpuIndex,
			verdict: Verdict,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_verdict(who, round, miner, gpu, verdict)?;
			Ok(Pays::No.into())
		}

		// Indices 6 and 7 were the per-miner challenge calls that network-wide rounds replaced;
		// they stay unused, so that no old transaction decodes as a new call.

		/// Root: add a GPU profile.
		#[pallet::call_index(8)]
		#[pallet::weight(T::WeightInfo::add_profile().saturating_add(Pallet::<T>::config_read_weight()))]
		pub fn add_profile(origin: OriginFor<T>, profile: GpuProfile) -> DispatchResult {
			ensure_root(origin)?;
			let id = Self::insert_profile(profile)?;
			Self::deposit_event(Event::ProfileAdded { id });
			Ok(())
		}

		/// Root: change a GPU profile (refused while a round is open, until it is settled). The
		/// deposit of every miner claiming it follows its new points at once. Operational: with
		/// every registered miner claiming the profile it needs more than the normal class's
		/// share of a block (1.6 s of 2 s with 4,096 miners).
		#[pallet::call_index(9)]
		#[pallet::weight((
			T::WeightInfo::update_profile(T::MaxMiners::get()).saturating_add(Pallet::<T>::config_read_weight()),
			DispatchClass::Operational
		))]
		pub fn update_profile(origin: OriginFor<T>, id: ProfileId, profile: GpuProfile) -> DispatchResultWithPostInfo {
			ensure_root(origin)?;
			let read = Self::do_update_profile(id, profile)?;
			Ok(Some(T::WeightInfo::update_profile(read).saturating_add(Pallet::<T>::config_read_weight())).into())
		}

		/// Root: remove an unclaimed GPU profile.
		#[pallet::call_index(10)]
		#[pallet::weight(T::WeightInfo::remove_profile())]
		pub fn remove_profile(origin: OriginFor<T>, id: ProfileId) -> DispatchResult {
			ensure_root(origin)?;
			Self::do_remove_profile(id)
		}

		// Indices 11 and 12 were `add_validator` and `remove_validator`, and 16 `set_validator_rules`,
		// now `pallet-pog-validators`' calls; they stay unused.

		/// Root: set the protocol configuration (refused while a round is open, until it is
		/// settled; the start window of the next round is the one already drawn).
		#[pallet::call_index(13)]
		#[pallet::weight(T::WeightInfo::set_config().saturating_add(Pallet::<T>::profiles_check_weight()))]
		pub fn set_config(origin: OriginFor<T>, config: ProtocolConfig) -> DispatchResult {
			ensure_root(origin)?;
			Self::do_set_config(config)
		}

		/// Miner: commit the memory roots of its GPUs in `round` (those whose profile has a memory
		/// phase), each before its own deadline; each GPU's GEMM is then seeded from its root and
		/// due its allowed time after the block this lands in. A duty ([`duty::CheckDuty`]), free
		/// when it succeeds.
		#[pallet::call_index(14)]
		#[pallet::weight((T::WeightInfo::commit_memory(roots.len() as u32), DispatchClass::Operational))]
		pub fn commit_memory(
			origin: OriginFor<T>,
			round: RoundIndex,
			roots: MemoryRootsOf<T>,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_commit_memory(who, round, roots)?;
			Ok(Pays::No.into())
		}

		// Index 15 was `set_rewards`, now `pallet-pog-rewards`' call; it stays unused.

		/// Committee member: submit verdicts on several revealed challenges of `round` at once
		/// (at most [`MaxVerdicts`]), each checked as `submit_verdict` checks one, all or none; an
		/// unserved vote on a GPU revealed on chain since (a rebuttal) is left out. Weighed per
		/// verdict. A duty ([`duty::CheckDuty`]), free when it succeeds.
		#[pallet::call_index(17)]
		#[pallet::weight((
			Pallet::<T>::verdicts_weight(verdicts.len() as u32)
				.saturating_add(Pallet::<T>::failing_weight(served::failing_in(verdicts))),
			DispatchClass::Operational
		))]
		pub fn submit_verdicts(
			origin: OriginFor<T>,
			round: RoundIndex,
			verdicts: VerdictsOf<T>,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_verdicts(who, round, verdicts)?;
			Ok(Pays::No.into())
		}

		/// Miner: serve the openings of its selected GPUs at `endpoint` (an `http://` or
		/// `https://` URL; validators fetch `{endpoint}/openings/{round}/{gpu}`) instead of
		/// revealing them on chain, or with `None` reveal them on chain again; from the first
		/// commit of its next round on ([`served`]).
		#[pallet::call_index(18)]
		#[pallet::weight(T::DbWeight::get().reads_writes(1, 1).saturating_add(Weight::from_parts(20_000_000, 300)))]
		pub fn set_openings_endpoint(origin: OriginFor<T>, endpoint: Option<served::Endpoint>) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::do_set_openings_endpoint(who, endpoint)
		}

		/// Committee member: pass, in bulk, every GPU served off chain assigned to it in `round` up
		/// to `upto` in the round's verification order, except `open` ones (not served to it yet)
		/// and those `verdicts` name, which are recorded first as `submit_verdicts` records them
		/// ([`attestation`]); `evidence` is the root of its evidence tree over every served GPU
		/// it voted on with a result so far in the round ([`evidence`]). A duty ([`duty::CheckDuty`]), free when it succeeds.
		#[pallet::call_index(19)]
		#[pallet::weight((
			Pallet::<T>::attest_weight(verdicts.len() as u32, open.len() as u32)
				.saturating_add(Pallet::<T>::failing_weight(served::failing_in(verdicts))),
			DispatchClass::Operational
		))]
		pub fn attest(
			origin: OriginFor<T>,
			round: RoundIndex,
			upto: attestation::Position,
			open: attestation::OpenOf<T>,
			verdicts: VerdictsOf<T>,
			evidence: evidence::EvidenceRoot,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_attest(who, round, upto, open, verdicts, evidence)?;
			Ok(Pays::No.into())
		}

		/// Committee member: open its evidence of the fetch of `miner`'s audited served GPU `gpu`
		/// of `round` ([`evidence`]): the hash of the audited leaf of C with its path to the
		/// miner's root, and the member's evidence leaf for it with its place and path in its
		/// evidence tree. A duty ([`duty::CheckDuty`]), free when it succeeds.
		#[pallet::call_index(21)]
		#[pallet::weight((Pallet::<T>::open_evidence_weight(), DispatchClass::Operational))]
		pub fn open_evidence(
			origin: OriginFor<T>,
			round: RoundIndex,
			miner: T::AccountId,
			gpu: GpuIndex,
			opening: evidence::EvidenceOpening,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			Self::do_open_evidence(who, round, miner, gpu, opening)?;
			Ok(Pays::No.into())
		}

		/// Miner on trial, once it has passed: take a free regular slot, or evict the regular
		/// miner with the fewest proven GPU points below the caller's ([`eviction`]).
		#[pallet::call_index(20)]
		#[pallet::weight(Pallet::<T>::claim_slot_weight(T::MaxMiners::get()))]
		pub fn claim_slot(origin: OriginFor<T>) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			match Self::do_claim_slot(who) {
				Ok(read) => Ok(Some(Self::claim_slot_weight(read)).into()),
				Err((error, read)) => Err(sp_runtime::DispatchErrorWithPostInfo {
					post_info: Some(Self::claim_slot_weight(read)).into(),
					error,
				}),
			}
		}
	}
}
