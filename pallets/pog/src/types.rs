//! Types stored and passed by pallet-pog.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use core::fmt::Debug;
use frame_support::{
	pallet_prelude::ConstU32, traits::Get, BoundedVec, CloneNoBound, DebugNoBound, EqNoBound, PartialEqNoBound,
};
use scale_info::TypeInfo;
use sp_runtime::Perbill;

pub use pog_primitives::{Dims, Precision};

/// Identifier of a GPU profile.
pub type ProfileId = u32;
/// Identifier of a challenge (one GPU, one GEMM).
pub type ChallengeId = u64;
/// A GPU's UUID as NVML reports it (`GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), as 16 bytes.
pub type GpuUuid = [u8; 16];
/// A 32-byte hash (Merkle roots, seeds).
pub type Hash32 = [u8; 32];

/// Longest profile name.
pub type MaxNameLen = ConstU32<48>;
/// Longest CPU model string.
pub type MaxCpuModelLen = ConstU32<96>;
/// fp32 values in a Merkle leaf.
pub type LeafLen = ConstU32<{ pog_primitives::LEAF_VALUES as u32 }>;
/// Longest Merkle proof (tree depth ≤ 2·17 − 8 = 26).
pub type MaxProofLen = ConstU32<32>;
/// Longest throughput trace in an agent report.
pub type MaxTraceLen = ConstU32<{ pog_primitives::MAX_TRACE_LEN }>;

/// A GPU model the chain knows: what it must be able to do.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct GpuProfile {
	/// Model name, e.g. `NVIDIA H100 80GB HBM3`.
	pub name: BoundedVec<u8, MaxNameLen>,
	/// Memory in MiB, as NVML reports the total; sets the challenge's m and n.
	pub vram_mib: u32,
	/// Expected sustained dense GEMM throughput in GFLOPS per precision, in the order
	/// fp32, tf32, fp16, bf16, fp8-e4m3; 0 where the GPU lacks the precision. Sets k and the deadline.
	pub gflops: [u32; 5],
	/// Score points a verified GPU of this model earns (3300 = 3.30 points).
	pub base_score: u32,
	/// How much slower than `gflops` (in percent) a GPU may run and still meet the deadline.
	pub tolerance_percent: u8,
}

impl GpuProfile {
	/// Expected GFLOPS in `precision` (0 if unsupported).
	pub fn gflops_for(&self, precision: Precision) -> u32 {
		self.gflops[precision.index()]
	}
}

/// GPUs of one model claimed by a miner.
#[derive(
	CloneNoBound,
	PartialEqNoBound,
	EqNoBound,
	DebugNoBound,
	Encode,
	Decode,
	DecodeWithMemTracking,
	TypeInfo,
	MaxEncodedLen,
)]
#[scale_info(skip_type_params(MaxGpus))]
pub struct GpuClaim<MaxGpus: Get<u32>> {
	/// The claimed model.
	pub profile: ProfileId,
	/// How many GPUs of this model (must equal the number of UUIDs).
	pub count: u32,
	/// Each GPU's NVML UUID.
	pub uuids: BoundedVec<GpuUuid, MaxGpus>,
}

/// The rest of a miner's machine (self-reported; scored only while a GPU is verified).
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct Hardware {
	/// Logical CPU cores.
	pub cpu_cores: u32,
	/// CPU model string.
	pub cpu_model: BoundedVec<u8, MaxCpuModelLen>,
	/// Memory in MiB.
	pub ram_mib: u64,
	/// Disk space in GiB.
	pub disk_gib: u64,
}

/// Most logical CPU cores a miner may declare: 4,096, three times the largest single machines
/// of 2026 (an 8-socket Xeon 6 with 1,376 threads; a 2-socket EPYC 9965 has 768).
pub const MAX_CPU_CORES: u32 = 4096;
/// Most memory a miner may declare: 64 TiB in MiB (the largest single-image servers hold 32 TB).
pub const MAX_RAM_MIB: u64 = 64 << 20;
/// Most disk a miner may declare: 16 PiB in GiB (a host with several full JBODs of 30 TB drives
/// holds a few PiB).
pub const MAX_DISK_GIB: u64 = 16 << 20;

/// What is implausible about declared hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardwareFault {
	/// More than [`MAX_CPU_CORES`].
	CpuCores,
	/// More than [`MAX_RAM_MIB`].
	Ram,
	/// More than [`MAX_DISK_GIB`].
	Disk,
}

impl Hardware {
	/// Whether the declared figures are within what a real machine has.
	pub fn check(&self) -> Result<(), HardwareFault> {
		if self.cpu_cores > MAX_CPU_CORES {
			return Err(HardwareFault::CpuCores);
		}
		if self.ram_mib > MAX_RAM_MIB {
			return Err(HardwareFault::Ram);
		}
		if self.disk_gib > MAX_DISK_GIB {
			return Err(HardwareFault::Disk);
		}
		Ok(())
	}
}

/// A registered miner.
#[derive(CloneNoBound, PartialEqNoBound, EqNoBound, DebugNoBound, Encode, Decode, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(MaxClaims, MaxGpus))]
pub struct MinerInfo<
	Balance: Clone + PartialEq + Eq + Debug,
	BlockNumber: Clone + PartialEq + Eq + Debug,
	MaxClaims: Get<u32>,
	MaxGpus: Get<u32>,
> {
	/// Claimed GPUs, per model.
	pub claims: BoundedVec<GpuClaim<MaxGpus>, MaxClaims>,
	/// Claimed CPU, memory and disk.
	pub hardware: Hardware,
	/// Deposit held from the miner's balance while registered.
	pub deposit: Balance,
	/// Block of registration.
	pub registered_at: BlockNumber,
	/// Block from which the miner is due for its next round of challenges.
	pub next_due: BlockNumber,
	/// Challenges of the current round (one per claimed GPU).
	pub current_round: BoundedVec<ChallengeId, MaxGpus>,
	/// Challenges of the previous round, kept for auditors until the next round is issued.
	pub previous_round: BoundedVec<ChallengeId, MaxGpus>,
}

impl<B: Clone + PartialEq + Eq + Debug, N: Clone + PartialEq + Eq + Debug, C: Get<u32>, G: Get<u32>>
	MinerInfo<B, N, C, G>
{
	/// All claimed GPUs as (profile, uuid), in claim order.
	pub fn gpus(&self) -> impl Iterator<Item = (ProfileId, GpuUuid)> + '_ {
		self.claims.iter().flat_map(|c| c.uuids.iter().map(move |u| (c.profile, *u)))
	}

	/// Number of claimed GPUs.
	pub fn gpu_count(&self) -> u32 {
		self.claims.iter().map(|c| c.uuids.len() as u32).sum()
	}
}

/// Why a challenge failed.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum FailReason {
	/// No root was committed before the deadline: the GPU is slower than claimed, or absent.
	MissedDeadline,
	/// The openings were not revealed within the reveal window.
	RevealMissed,
	/// A quorum of validators found recomputed entries outside the tolerance.
	WrongResult,
	/// The miner deregistered or changed its claims (never happens with a round in flight).
	Withdrawn,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum ChallengeStatus {
	/// Issued; waiting for the miner's Merkle root.
	Issued,
	/// Root committed; waiting for the openings.
	Committed,
	/// Openings revealed and proven; waiting for validators' verdicts.
	Revealed,
	/// A quorum of validators accepted it: the GPU is verified.
	Passed,
	/// Failed; the GPU lost its credit.
	Failed(FailReason),
	/// No quorum was reached in the verdict window; the GPU's credit is unchanged.
	Inconclusive,
}

impl ChallengeStatus {
	/// Whether the challenge is finished.
	pub fn is_final(&self) -> bool {
		matches!(self, Self::Passed | Self::Failed(_) | Self::Inconclusive)
	}
}

/// The miner agent's own timing report, stored as information.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct AgentReport {
	/// Milliseconds the agent says the challenge took (stored capped at what the chain saw).
	pub elapsed_ms: u64,
	/// Interval of the trace in milliseconds.
	pub interval_ms: u32,
	/// Throughput per interval in GFLOPS: the sustained trace.
	pub trace_gflops: BoundedVec<u32, MaxTraceLen>,
}

/// A validator's verdict on a revealed challenge.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Verdict {
	/// Whether every checked entry was within tolerance.
	pub passed: bool,
	/// Entries recomputed.
	pub entries_checked: u32,
	/// Largest error over threshold seen, in permille (1000 = at the threshold).
	pub worst_permille: u32,
	/// The first failing leaf, if any.
	pub failed_leaf: Option<u32>,
}

/// One opened leaf with its Merkle proof.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Opening {
	/// Leaf index (row-major leaves of 256 values).
	pub leaf: u32,
	/// The leaf's fp32 values as IEEE-754 bit patterns.
	pub values: BoundedVec<u32, LeafLen>,
	/// Sibling hashes from the leaf level up.
	pub proof: BoundedVec<Hash32, MaxProofLen>,
}

/// One GPU challenge.
#[derive(CloneNoBound, PartialEqNoBound, EqNoBound, DebugNoBound, Encode, Decode, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(MaxVotes))]
pub struct Challenge<
	AccountId: Clone + PartialEq + Eq + Debug,
	BlockNumber: Clone + PartialEq + Eq + Debug,
	MaxVotes: Get<u32>,
> {
	/// The challenged miner.
	pub miner: AccountId,
	/// The challenged GPU.
	pub uuid: GpuUuid,
	/// The profile it is claimed to be.
	pub profile: ProfileId,
	/// Input precision of the GEMM.
	pub precision: Precision,
	/// Shape of the GEMM.
	pub dims: Dims,
	/// Chunk length along k (bounds the honest fp32 accumulation chain).
	pub chunk_k: u32,
	/// Seed of A and B.
	pub seed: Hash32,
	/// Block it was issued in.
	pub issued_at: BlockNumber,
	/// Timestamp (ms) of that block.
	pub issued_ms: u64,
	/// Expected GEMM time at the profile's throughput (ms).
	pub expected_ms: u64,
	/// The root must land in a block with a timestamp at or before this (ms); shared by the round.
	pub deadline_ms: u64,
	/// Current state.
	pub status: ChallengeStatus,
	/// The committed Merkle root of C.
	pub root: Option<Hash32>,
	/// Block and timestamp (ms) the root landed in.
	pub committed_at: Option<(BlockNumber, u64)>,
	/// The agent's timing report.
	pub report: Option<AgentReport>,
	/// Last block in which the openings may be revealed.
	pub reveal_deadline: Option<BlockNumber>,
	/// Sample seed that chose the opened leaves (fixed after the commitment's block).
	pub sample_seed: Option<Hash32>,
	/// Last block in which verdicts are counted.
	pub verdict_deadline: Option<BlockNumber>,
	/// Validators' verdicts.
	pub votes: BoundedVec<(AccountId, Verdict), MaxVotes>,
}

impl<AccountId, BlockNumber, MaxVotes> Challenge<AccountId, BlockNumber, MaxVotes>
where
	AccountId: Clone + PartialEq + Eq + Debug,
	BlockNumber: Clone + PartialEq + Eq + Debug,
	MaxVotes: Get<u32>,
{
	/// Everything that defines this challenge's C (what a prover computes and a verifier checks).
	pub fn spec(&self) -> pog_primitives::verify::ChallengeSpec {
		pog_primitives::verify::ChallengeSpec {
			seed: self.seed,
			precision: self.precision,
			dims: self.dims,
			chunk_k: self.chunk_k,
		}
	}
}

/// Credit of one verified GPU; kept until its next challenge is finished.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct GpuCredit<BlockNumber> {
	/// The GPU.
	pub uuid: GpuUuid,
	/// Its verified profile.
	pub profile: ProfileId,
	/// Points it earns (the profile's base score when verified).
	pub points: u32,
	/// The challenge that verified it.
	pub challenge: ChallengeId,
	/// Block of verification.
	pub verified_at: BlockNumber,
}

/// A miner's score and its components.
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	Default,
	serde::Serialize,
	serde::Deserialize,
)]
pub struct Score {
	/// Verified GPUs.
	pub verified_gpus: u32,
	/// Sum of the verified GPUs' points (the best `caps.gpus` of them).
	pub gpu_points: u64,
	/// GPU component: points over the cap.
	pub gpu: Perbill,
	/// CPU component: cores over the cap.
	pub cpu: Perbill,
	/// Memory component: GiB over the cap.
	pub ram: Perbill,
	/// Disk component: GiB over the cap.
	pub disk: Perbill,
	/// Weighted total.
	pub total: Perbill,
}

/// Weights of the score components (must sum to 100%).
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	serde::Serialize,
	serde::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct ScoreWeights {
	/// GPU weight (55% by default, NI Compute's documented split).
	pub gpu: Perbill,
	/// CPU weight.
	pub cpu: Perbill,
	/// Memory weight.
	pub ram: Perbill,
	/// Disk weight.
	pub disk: Perbill,
}

/// Values at which a score component reaches 100%.
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	serde::Serialize,
	serde::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct ScoreCaps {
	/// GPUs counted per miner (the best ones).
	pub gpus: u32,
	/// GPU points at which the GPU component is full.
	pub gpu_points: u64,
	/// CPU cores at which the CPU component is full.
	pub cpu_cores: u32,
	/// Memory (GiB) at which the memory component is full.
	pub ram_gib: u32,
	/// Disk (GiB) at which the disk component is full.
	pub disk_gib: u32,
}

/// Protocol configuration (root may change it).
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	serde::Serialize,
	serde::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct ProtocolConfig {
	/// Blocks between re-validations of a miner; also the epoch of weight shares.
	pub period: u32,
	/// Target GEMM time at the claimed profile's throughput (ms).
	pub target_ms: u32,
	/// Fixed slack added to every deadline for seeing the challenge and landing the root (ms).
	pub slack_ms: u32,
	/// Leaves opened per challenge.
	pub openings: u32,
	/// Entries each validator recomputes per opened leaf.
	pub entries_per_opening: u32,
	/// Verdicts needed to finalise a challenge (capped at the number of validators).
	pub quorum: u32,
	/// Blocks after the commitment's block in which the openings must be revealed.
	pub reveal_window: u32,
	/// Blocks after the reveal in which verdicts are counted.
	pub verdict_window: u32,
	/// Most challenges issued in one block.
	pub max_challenges_per_block: u32,
	/// Chunk length along k of the protocol's accumulation.
	pub chunk_k: u32,
	/// Blocks a due miner waits for its assigned validator before any validator may issue.
	pub assignment_grace: u32,
	/// Score weights.
	pub weights: ScoreWeights,
	/// Score caps.
	pub caps: ScoreCaps,
}

impl ProtocolConfig {
	/// Mainnet-like defaults: re-validate every 360 blocks (36 min at 6 s), two-minute GEMMs.
	pub fn mainnet() -> Self {
		Self {
			period: 360,
			target_ms: 120_000,
			slack_ms: 30_000,
			openings: 32,
			entries_per_opening: 2,
			quorum: 3,
			reveal_window: 10,
			verdict_window: 20,
			max_challenges_per_block: 64,
			chunk_k: 8192,
			assignment_grace: 5,
			weights: ScoreWeights {
				gpu: Perbill::from_percent(55),
				cpu: Perbill::from_percent(20),
				ram: Perbill::from_percent(10),
				disk: Perbill::from_percent(15),
			},
			caps: ScoreCaps { gpus: 8, gpu_points: 8 * 4_000, cpu_cores: 128, ram_gib: 1024, disk_gib: 8192 },
		}
	}

	/// Dev-chain defaults: a challenge finishes in about a minute.
	pub fn dev() -> Self {
		Self {
			period: 20,
			target_ms: 5_000,
			slack_ms: 18_000,
			quorum: 1,
			reveal_window: 5,
			verdict_window: 10,
			assignment_grace: 2,
			..Self::mainnet()
		}
	}
}

/// A miner as the runtime API shows it to auditors.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct MinerView<AccountId, BlockNumber, Balance> {
	/// The miner.
	pub miner: AccountId,
	/// Claimed GPUs as (profile, UUID).
	pub claimed: alloc::vec::Vec<(ProfileId, GpuUuid)>,
	/// Claimed CPU, memory and disk.
	pub hardware: Hardware,
	/// Deposit held.
	pub deposit: Balance,
	/// Next block a round is due.
	pub next_due: BlockNumber,
	/// Challenges of the current round.
	pub current_round: alloc::vec::Vec<ChallengeId>,
	/// Verified GPUs.
	pub verified: alloc::vec::Vec<GpuCredit<BlockNumber>>,
	/// Score and its components.
	pub score: Score,
	/// Share of the current epoch's weight.
	pub share: Perbill,
}

/// A challenge as the runtime API shows it (votes as a plain list).
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct ChallengeView<AccountId, BlockNumber> {
	/// The challenge id.
	pub id: ChallengeId,
	/// The challenged miner.
	pub miner: AccountId,
	/// The GPU.
	pub uuid: GpuUuid,
	/// Claimed profile.
	pub profile: ProfileId,
	/// Precision.
	pub precision: Precision,
	/// Shape.
	pub dims: Dims,
	/// Seed.
	pub seed: Hash32,
	/// Issue block and timestamp (ms).
	pub issued: (BlockNumber, u64),
	/// Expected GEMM time (ms) and deadline (timestamp, ms).
	pub expected_ms: u64,
	/// Deadline for the root (timestamp, ms).
	pub deadline_ms: u64,
	/// Committed root.
	pub root: Option<Hash32>,
	/// Block and timestamp of the root.
	pub committed_at: Option<(BlockNumber, u64)>,
	/// The agent's report.
	pub report: Option<AgentReport>,
	/// Sample seed.
	pub sample_seed: Option<Hash32>,
	/// Verdicts.
	pub votes: alloc::vec::Vec<(AccountId, Verdict)>,
	/// Status.
	pub status: ChallengeStatus,
}

/// One line of the ranking.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct RankEntry<AccountId> {
	/// The miner.
	pub miner: AccountId,
	/// Its score.
	pub score: Score,
	/// Its share of the epoch's weight.
	pub share: Perbill,
}
