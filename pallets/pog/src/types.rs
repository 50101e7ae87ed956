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
/// Most walks opened per selected GPU (`MemoryRules::openings` is at most this).
pub type MaxWalkOpenings = ConstU32<128>;
/// Longest Merkle proof of a walk (one sibling per level of a tree over at most 2^64 walks).
pub type MaxWalkProofLen = ConstU32<64>;

pub use pog_primitives::memory::MemoryRules;

/// A GPU model the chain knows: what it must be able to do.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct GpuProfile {
	/// Model name, e.g. `NVIDIA H100 80GB HBM3`.
	pub name: BoundedVec<u8, MaxNameLen>,
	/// Memory in MiB, as NVML reports the total; sets the challenge's m and n.
	pub vram_mib: u32,
	/// Expected sustained dense GEMM throughput in GFLOPS per precision, in the order
	/// fp32, tf32, fp16, bf16, fp8-e4m3, on the precision's native path; 0 where the GPU is not
	/// challenged in it. With `int8_gops` it sets k and the deadline ([`Self::priced_gflops`]).
	pub gflops: [u32; 5],
	/// Expected sustained int8 GOPS (tensor cores, or DP4A on CUDA cores): the rate of the exact
	/// int8 aliases of each precision (`pog_primitives::pricing`), which price its challenges.
	pub int8_gops: u32,
	/// How much slower than `gflops` (in percent) a GPU may run and still meet the deadline.
	pub tolerance_percent: u8,
	/// Whether the figures are per CPU core: a miner claims its CPU as one unit of this profile,
	/// challenged at the figures times its declared cores ([`Self::for_cores`]).
	pub per_core: bool,
	/// Measured rate of the memory phase's walks with their commitment, in million dataset
	/// reads a second over a dataset of 0.9 × `vram_mib` (`offchain-gpu bench --memory`). With
	/// `mem_parent_mps` it sizes and times the memory phase; both 0: not measured, so the
	/// profile's rounds have no memory phase and it earns no memory points.
	pub mem_read_mps: u32,
	/// Measured rate of the memory phase's fill, in million cache-parent reads a second.
	pub mem_parent_mps: u32,
}

impl GpuProfile {
	/// The on-chain form of a default table row (a name longer than [`MaxNameLen`] would be cut;
	/// no default's is).
	pub fn from_figures(f: &pog_primitives::profiles::ProfileFigures) -> Self {
		GpuProfile {
			name: BoundedVec::truncate_from(f.name.as_bytes().to_vec()),
			vram_mib: f.vram_mib,
			gflops: f.gflops,
			int8_gops: f.int8_gops,
			tolerance_percent: f.tolerance_percent,
			per_core: f.per_core,
			mem_read_mps: f.mem_read_mps,
			mem_parent_mps: f.mem_parent_mps,
		}
	}

	/// The profile a unit of it is challenged and scored at, for a miner declaring `cores` CPU
	/// cores: itself, or for a per-core profile its memory and rates times `cores`.
	pub fn for_cores(&self, cores: u32) -> GpuProfile {
		use pog_primitives::profiles::{unit_figures, unit_memory_rates};
		let (vram_mib, gflops, int8_gops) =
			unit_figures(self.vram_mib, &self.gflops, self.int8_gops, self.per_core, cores);
		let (mem_read_mps, mem_parent_mps) =
			unit_memory_rates(self.mem_read_mps, self.mem_parent_mps, self.per_core, cores);
		GpuProfile { vram_mib, gflops, int8_gops, mem_read_mps, mem_parent_mps, ..self.clone() }
	}

	/// Whether the profile's memory rates were measured: its rounds run the memory phase.
	pub fn memory_measured(&self) -> bool {
		self.mem_read_mps > 0 && self.mem_parent_mps > 0
	}

	/// The memory phase of a GPU of this profile whose challenge seed is `seed`, under `rules`
	/// (`None`: the profile has no measured memory rates, so no memory phase).
	pub fn memory_challenge(
		&self,
		seed: &Hash32,
		rules: &MemoryRules,
	) -> Option<pog_primitives::memory::MemoryChallenge> {
		pog_primitives::memory::challenge(seed, self.vram_mib, self.mem_read_mps, self.mem_parent_mps, rules)
	}

	/// Whether a challenge may be drawn in `precision`: the profile lists a native rate for it
	/// and it is a challenged precision (never tf32).
	pub fn challenged_in(&self, precision: Precision) -> bool {
		self.priced_gflops(precision) > 0
	}

	/// The rate a challenge in `precision` is sized and timed at: the faster of the native rate
	/// and the int8 alias (`pog_primitives::pricing::priced_gflops`); 0 if not challenged in it.
	pub fn priced_gflops(&self, precision: Precision) -> u32 {
		pog_primitives::pricing::priced_gflops(&self.gflops, self.int8_gops, precision)
	}

	/// Score points of a GPU of this model whose round passed: the mean priced rate over the
	/// challenged precisions, plus its memory's points where it has a memory phase and is not a
	/// per-core unit ([`pog_primitives::pricing::proven_points`]).
	pub fn points(&self) -> u32 {
		pog_primitives::pricing::proven_points(
			&self.gflops,
			self.int8_gops,
			self.vram_mib,
			self.memory_measured(),
			self.per_core,
		)
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

/// Index of a network-wide round (1, 2, …; 0 = none has started yet).
pub type RoundIndex = u32;
/// A GPU's position in its miner's claims (claim order, then UUID order): 0, 1, …
pub type GpuIndex = u32;

/// A registered miner.
#[derive(CloneNoBound, PartialEqNoBound, EqNoBound, DebugNoBound, Encode, Decode, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(MaxClaims, MaxGpus))]
pub struct MinerInfo<
	Balance: Clone + PartialEq + Eq + Debug,
	BlockNumber: Clone + PartialEq + Eq + Debug,
	MaxClaims: Get<u32>,
	MaxGpus: Get<u32>,
> {
	/// Claimed GPUs, per model: what the current (or next) round challenges.
	pub claims: BoundedVec<GpuClaim<MaxGpus>, MaxClaims>,
	/// Claimed CPU, memory and disk.
	pub hardware: Hardware,
	/// Deposit held from the miner's balance (less what was slashed and not yet topped up).
	pub deposit: Balance,
	/// Everything slashed from this miner so far.
	pub slashed: Balance,
	/// Block of registration.
	pub registered_at: BlockNumber,
	/// The first round this miner takes part in ([`NEVER`] while suspended for a short deposit).
	pub first_round: RoundIndex,
	/// The last round whose outcome was settled for this miner (0 = none).
	pub settled_round: RoundIndex,
	/// Claims and hardware that replace the current ones once this round is settled for the miner.
	pub pending: Option<(BoundedVec<GpuClaim<MaxGpus>, MaxClaims>, Hardware)>,
	/// The miner asked to leave: its deposit is released once its current round is settled.
	pub leaving: bool,
}

/// The `first_round` of a miner that takes part in no round (suspended).
pub const NEVER: RoundIndex = RoundIndex::MAX;

impl<B: Clone + PartialEq + Eq + Debug, N: Clone + PartialEq + Eq + Debug, C: Get<u32>, G: Get<u32>>
	MinerInfo<B, N, C, G>
{
	/// All claimed GPUs as (profile, uuid), in claim order: the GPU index is the position.
	pub fn gpus(&self) -> impl Iterator<Item = (ProfileId, GpuUuid)> + '_ {
		gpus_of(&self.claims)
	}

	/// Number of claimed GPUs.
	pub fn gpu_count(&self) -> u32 {
		gpu_count_of(&self.claims)
	}

	/// The claimed GPU at `index`.
	pub fn gpu(&self, index: GpuIndex) -> Option<(ProfileId, GpuUuid)> {
		self.gpus().nth(index as usize)
	}

	/// Whether the miner is challenged in round `round`.
	pub fn takes_part_in(&self, round: RoundIndex) -> bool {
		self.first_round <= round && self.settled_round < round
	}
}

/// All GPUs of `claims` as (profile, uuid), in claim order.
pub fn gpus_of<G: Get<u32>>(claims: &[GpuClaim<G>]) -> impl Iterator<Item = (ProfileId, GpuUuid)> + '_ {
	claims.iter().flat_map(|c| c.uuids.iter().map(move |u| (c.profile, *u)))
}

/// Number of GPUs in `claims`.
pub fn gpu_count_of<G: Get<u32>>(claims: &[GpuClaim<G>]) -> u32 {
	claims.iter().map(|c| c.uuids.len() as u32).sum()
}

/// Where the network-wide round stands.
#[derive(
	Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default,
)]
pub enum RoundPhase {
	/// No round is open; the next one starts at a block drawn in its start window.
	#[default]
	Idle,
	/// Every participating GPU computes its challenge; roots are committed before each deadline.
	Commit,
	/// The sample is drawn: selected GPUs reveal their openings and committees vote.
	Reveal,
	/// The verdict window is over: every miner's outcome is settled, a bounded number per block.
	Settle,
}

/// The sample of committed GPUs verified in a round, drawn once the commit window has closed.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Selection<BlockNumber> {
	/// Randomness of the block that drew it; no committer could know it.
	pub seed: Hash32,
	/// The block that drew it.
	pub at: BlockNumber,
	/// Each committed GPU is selected with this probability: min(1, capacity / committed).
	pub probability: Perbill,
	/// Verifications the validators can do this round (validators × capacity / committee).
	pub capacity: u32,
	/// Last block in which selected GPUs may reveal.
	pub reveal_deadline: BlockNumber,
	/// Last block in which verdicts are counted.
	pub verdict_deadline: BlockNumber,
}

/// The network-wide round: one per period, every registered GPU challenged at once.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct RoundInfo<AccountId, BlockNumber> {
	/// The round (0 before the first one).
	pub index: RoundIndex,
	/// Where it stands.
	pub phase: RoundPhase,
	/// Randomness of the start block; every GPU's seed is derived from it.
	pub seed: Hash32,
	/// Block it started in.
	pub started_at: BlockNumber,
	/// Timestamp (ms) of that block: every deadline counts from here.
	pub start_ms: u64,
	/// No root is accepted after this (ms): the longest allowed time of any profile.
	pub commit_close_ms: u64,
	/// GPUs committed so far.
	pub committed: u32,
	/// The slot clock of the last block of the commit phase (ms).
	pub last_block_ms: u64,
	/// Time lost to stalls in the commit phase so far (ms): what every gap between two blocks
	/// beyond two block times added up to. The round's clock is the slot clock minus this, so a
	/// stalled chain does not eat into its miners' deadlines (`Pallet::round_clock_ms`).
	pub stalled_ms: u64,
	/// The sample, once drawn.
	pub selection: Option<Selection<BlockNumber>>,
	/// The last miner settled (the sweep goes on after it).
	pub settle_cursor: Option<AccountId>,
	/// Miners settled so far.
	pub settled: u32,
	/// The next round starts at a block drawn in `[earliest, latest]` (set when this one is settled).
	pub next_start: (BlockNumber, BlockNumber),
}

/// One GPU's challenge in a round, derived from the round seed, the miner and the GPU.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct ChallengeParams {
	/// The GPU's position in the miner's claims.
	pub gpu: GpuIndex,
	/// Its UUID (self-reported).
	pub uuid: GpuUuid,
	/// The profile it is claimed to be.
	pub profile: ProfileId,
	/// The GPU's challenge seed: the memory phase's seed is derived from it
	/// (`pog_primitives::memory::memory_seed`), and so are A and B: from it alone without a memory
	/// phase, else from it and the committed memory root ([`Self::spec`]).
	pub seed: Hash32,
	/// Input precision of the GEMM.
	pub precision: Precision,
	/// Shape of the GEMM.
	pub dims: Dims,
	/// Chunk length along k.
	pub chunk_k: u32,
	/// Expected GEMM time at the profile's throughput (ms).
	pub expected_ms: u64,
	/// The GEMM root must land in a block stamped at or before this (ms). Without a memory
	/// phase: round start + the GEMM's allowed time. With one: the memory root's block + the
	/// GEMM's allowed time; before the memory root lands, the latest that can be (round start +
	/// the memory phase's and the GEMM's allowed times).
	pub deadline_ms: u64,
	/// The memory phase that comes first (`None`: the profile has no measured memory rates).
	pub memory: Option<MemoryParams>,
}

impl ChallengeParams {
	/// Everything that defines this challenge's C (what a prover computes and a verifier checks):
	/// A and B from the GPU's seed, or with a memory phase from its seed and `memory_root`
	/// (`pog_primitives::memory::gemm_seed`), so that the GEMM cannot start before the memory
	/// phase has ended.
	pub fn spec(&self, memory_root: Option<&Hash32>) -> pog_primitives::verify::ChallengeSpec {
		let seed = match memory_root {
			Some(root) => pog_primitives::memory::gemm_seed(&self.seed, root),
			None => self.seed,
		};
		pog_primitives::verify::ChallengeSpec {
			seed,
			precision: self.precision,
			dims: self.dims,
			chunk_k: self.chunk_k,
		}
	}

	/// The memory phase as the primitives define it (`None` without one).
	pub fn memory_challenge(&self) -> Option<pog_primitives::memory::MemoryChallenge> {
		self.memory.as_ref().map(|m| m.challenge(&self.seed))
	}
}

/// One GPU's memory phase in a round: a dataset of 0.9 × its profile's memory made from a small
/// cache, then `walks` walks of data-dependent reads, committed as a Merkle root before
/// `deadline_ms` (`pog_primitives::memory`; `docs/protocol.md` §16).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct MemoryParams {
	/// Items of the cache.
	pub cache_items: u32,
	/// Items of the dataset.
	pub dataset_items: u64,
	/// Cache items folded into each dataset item.
	pub parents: u32,
	/// Dataset reads of each walk.
	pub reads: u32,
	/// Walks to run and commit to.
	pub walks: u64,
	/// Expected time of the fill and the walks at the profile's measured rates (ms).
	pub expected_ms: u64,
	/// The memory root must land in a block stamped at or before this (ms): round start + the
	/// phase's allowed time.
	pub deadline_ms: u64,
}

impl MemoryParams {
	/// The phase as the primitives define it, for a GPU whose challenge seed is `gpu_seed`.
	pub fn challenge(&self, gpu_seed: &Hash32) -> pog_primitives::memory::MemoryChallenge {
		use pog_primitives::memory::{memory_seed, MemoryChallenge, MemorySpec};
		MemoryChallenge {
			spec: MemorySpec {
				seed: memory_seed(gpu_seed),
				cache_items: self.cache_items,
				dataset_items: self.dataset_items,
				parents: self.parents,
				reads: self.reads,
			},
			walks: self.walks,
			expected_ms: self.expected_ms,
		}
	}
}

/// One memory root in a `commit_memory` call.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct MemoryRoot {
	/// The GPU.
	pub gpu: GpuIndex,
	/// The Merkle root of its walks' results.
	pub root: Hash32,
}

/// A committed memory root as stored.
#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct MemoryCommitment {
	/// The Merkle root of the walks' results.
	pub root: Hash32,
	/// Timestamp (ms) of the block it landed in: the GEMM's deadline counts from here.
	pub committed_ms: u64,
}

/// One root in a `commit_roots` call.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct RootCommit {
	/// The GPU.
	pub gpu: GpuIndex,
	/// The Merkle root of its C.
	pub root: Hash32,
	/// The agent's timing report (self-reported).
	pub report: AgentReport,
}

/// A committed root as stored.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Commitment {
	/// The challenge as it was set (kept so auditors see it after the claims change).
	pub params: ChallengeParams,
	/// The Merkle root of C.
	pub root: Hash32,
	/// Timestamp (ms) of the block it landed in.
	pub committed_ms: u64,
	/// The agent's timing report (self-reported; `elapsed_ms` capped at what the chain saw).
	pub report: AgentReport,
	/// The memory root the GEMM's seed was derived from (`None` without a memory phase).
	pub memory_root: Option<Hash32>,
}

impl Commitment {
	/// What defines the committed C.
	pub fn spec(&self) -> pog_primitives::verify::ChallengeSpec {
		self.params.spec(self.memory_root.as_ref())
	}
}

/// Where a revealed challenge's verification stands.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum VerificationStatus {
	/// Waiting for the committee.
	Pending,
	/// ⌊2c/3⌋+1 members found every checked entry within tolerance.
	Passed,
	/// ⌊2c/3⌋+1 members found a wrong entry.
	Failed,
}

/// A revealed challenge under verification.
#[derive(CloneNoBound, PartialEqNoBound, EqNoBound, DebugNoBound, Encode, Decode, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(MaxVoters))]
pub struct Verification<AccountId: Clone + PartialEq + Eq + Debug, MaxVoters: Get<u32>> {
	/// The sample seed that chose the opened leaves.
	pub sample_seed: Hash32,
	/// The validators that verify it (hash ranking; never the miner itself).
	pub committee: BoundedVec<AccountId, MaxVoters>,
	/// Their verdicts.
	pub votes: BoundedVec<(AccountId, Verdict), MaxVoters>,
	/// Where it stands.
	pub status: VerificationStatus,
}

/// Why a challenge failed (each costs the GPU's slash).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum FailReason {
	/// No root before the GPU's deadline: slower than claimed, absent, or busy with another account.
	MissedCommit,
	/// Selected, but the openings were not revealed (or not proven) in the reveal window.
	MissedReveal,
	/// The committee found recomputed entries outside the tolerance.
	WrongResult,
	/// The committee found an opened walk whose result differs from the walk recomputed from the
	/// cache: the dataset was not held (or the walks were not run).
	WrongWalk,
}

/// Why a committed GPU was not verified this round (no slash).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum UnverifiedReason {
	/// Not in this round's random sample.
	NotSelected,
	/// Revealed, but its committee reached no ⌊2c/3⌋+1 majority in the verdict window.
	Inconclusive,
}

/// What one GPU's round came to.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum RoundOutcome {
	/// Verified as its profile: credited.
	Passed,
	/// Failed: slashed, credit removed.
	Failed(FailReason),
	/// Committed in time but not verified (no slash; `Inconclusive` ages a credit).
	Unverified(UnverifiedReason),
}

/// Why a claimed GPU scores zero, for auditors and the miner.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum ZeroReason {
	/// Registered or changed after the current round started: challenged from the next one.
	WaitingForRound,
	/// Committed on time but never passed a verification yet (not selected, or inconclusive).
	NotYetVerified,
	/// Its last round failed.
	Failed(FailReason),
	/// Its credit lapsed: `max_unverified_rounds` inconclusive verifications since its last pass.
	CreditExpired,
	/// The deposit fell below the rule after a slash and could not be topped up.
	DepositShort,
}

/// A claimed GPU's standing: its credit, or why it has none.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct GpuStanding {
	/// The GPU.
	pub uuid: GpuUuid,
	/// Its claimed profile.
	pub profile: ProfileId,
	/// Points it earns now (the profile's base score while credited, else 0).
	pub points: u32,
	/// The round of its last passed verification.
	pub verified_round: Option<RoundIndex>,
	/// Rounds since then in which it was selected but not verified (`Inconclusive`).
	pub unverified_rounds: u32,
	/// Its last round's outcome.
	pub last: Option<(RoundIndex, RoundOutcome)>,
	/// Why it scores zero (`None` while credited).
	pub zero_reason: Option<ZeroReason>,
}

impl GpuStanding {
	/// A newly claimed GPU.
	pub fn new(uuid: GpuUuid, profile: ProfileId) -> Self {
		Self {
			uuid,
			profile,
			points: 0,
			verified_round: None,
			unverified_rounds: 0,
			last: None,
			zero_reason: Some(ZeroReason::WaitingForRound),
		}
	}

	/// Whether it holds a credit.
	pub fn credited(&self) -> bool {
		self.zero_reason.is_none()
	}
}

/// How a validator's committee work went, counted as each challenge it was assigned is settled.
#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct ValidatorRecord {
	/// Revealed challenges it was a committee member of.
	pub assigned: u32,
	/// Verdicts that matched the final outcome.
	pub agreed: u32,
	/// Verdicts that contradicted the final outcome.
	pub contradicted: u32,
	/// Challenges it said nothing about.
	pub silent: u32,
}

/// What the validator's own recomputation found (self-reported: the chain cannot check it).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct SelfReported {
	/// Entries recomputed.
	pub entries_checked: u32,
	/// Largest error over threshold seen, in permille (1000 = at the threshold).
	pub worst_permille: u32,
	/// Opened walks recomputed from the cache.
	pub walks_checked: u32,
}

/// A validator's verdict on a revealed challenge.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Verdict {
	/// Whether every checked entry was within tolerance and every opened walk right (the vote).
	pub passed: bool,
	/// The first failing leaf, or else the first wrong walk: a failing verdict names exactly one
	/// of the opened leaves or walks (checked on chain), a passing one none.
	pub failed_leaf: Option<u32>,
	/// See `failed_leaf`.
	pub failed_walk: Option<u64>,
	/// The validator's own figures (not checked).
	pub reported: SelfReported,
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

/// One opened walk with its Merkle proof.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct WalkOpening {
	/// Walk index.
	pub walk: u64,
	/// Its result (`pog_primitives::memory::walk`).
	pub result: Hash32,
	/// Sibling hashes from the walk level up.
	pub proof: BoundedVec<Hash32, MaxWalkProofLen>,
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
	/// GPU component: points over the cap. The only source of score.
	pub gpu: Perbill,
	/// Declared memory and disk, each over its cap, averaged. Self-reported, so it only scales
	/// the GPU component, by at most `hardware_bound` (see [`Score::scale`]).
	pub hardware: Perbill,
	/// `gpu` scaled by `hardware`.
	pub total: Perbill,
}

impl Score {
	/// `gpu × (1 − bound + bound × hardware)`: the declared hardware moves a proven score by at
	/// most `bound` of it, and nothing scores without a proven GPU.
	pub fn scale(gpu: Perbill, hardware: Perbill, bound: Perbill) -> Perbill {
		let factor = sp_runtime::Saturating::saturating_add(Perbill::one() - bound, bound * hardware);
		factor * gpu
	}
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
	/// Blocks from one round's start to the latest start of the next; also the epoch of weight shares.
	pub period: u32,
	/// The next round starts at a block drawn uniformly from the last `start_jitter` blocks of
	/// the period, so nobody knows it more than a block ahead.
	pub start_jitter: u32,
	/// Target GEMM time at the claimed profile's throughput (ms).
	pub target_ms: u32,
	/// Fixed slack added to every deadline for seeing the round and landing the root (ms).
	pub slack_ms: u32,
	/// Leaves opened per selected challenge.
	pub openings: u32,
	/// Entries each committee member recomputes per opened leaf.
	pub entries_per_opening: u32,
	/// Validators verifying each selected challenge (capped at the validators other than the miner).
	pub committee: u32,
	/// Challenges one validator verifies per round (measured: see `docs/protocol.md`).
	pub verifications_per_validator: u32,
	/// Blocks after the selection in which selected GPUs reveal.
	pub reveal_window: u32,
	/// Blocks after the reveal window in which verdicts are counted.
	pub verdict_window: u32,
	/// Miners settled per block once the verdict window is over.
	pub settle_per_block: u32,
	/// Chunk length along k of the protocol's accumulation.
	pub chunk_k: u32,
	/// Share of the per-GPU deposit slashed for each failed challenge.
	pub slash: Perbill,
	/// Inconclusive verifications a credit survives (rounds it was selected and not verified).
	pub max_unverified_rounds: u32,
	/// The most the declared memory and disk scale a proven score by (mainnet 10%: a miner
	/// declaring none scores 90% of one declaring the caps; at most 50%).
	pub hardware_bound: Perbill,
	/// Score caps.
	pub caps: ScoreCaps,
	/// The memory phase of GPUs whose profile has measured memory rates.
	pub memory: MemoryRules,
}

impl ProtocolConfig {
	/// Mainnet settings: a round every 360 blocks (36 min at 6 s), two-minute GEMMs.
	pub fn mainnet() -> Self {
		Self {
			period: 360,
			start_jitter: 60,
			target_ms: 120_000,
			slack_ms: 30_000,
			openings: 32,
			entries_per_opening: 2,
			committee: 5,
			// The GEMM check and the memory check fill 158 s of a validator's 180 s verdict time
			// at 36 (docs/protocol.md §16).
			verifications_per_validator: 36,
			reveal_window: 10,
			verdict_window: 20,
			settle_per_block: 64,
			chunk_k: 8192,
			slash: Perbill::from_percent(50),
			// An undecided verification removes the credit at once, and the GPU is verified
			// again in the next round (a probation draw), so it keeps no credit it did not
			// re-earn.
			max_unverified_rounds: 1,
			hardware_bound: Perbill::from_percent(10),
			// Eight of the table's largest GPU fill the GPU component.
			caps: ScoreCaps {
				gpus: 8,
				gpu_points: 8 * pog_primitives::profiles::H200.proven_points() as u64,
				ram_gib: 1024,
				disk_gib: 8192,
			},
			memory: MemoryRules::mainnet(),
		}
	}

	/// Dev-chain settings: a round every 20 blocks (2 min), every committed GPU verified.
	pub fn dev() -> Self {
		Self {
			period: 20,
			start_jitter: 3,
			target_ms: 5_000,
			slack_ms: 18_000,
			committee: 1,
			// What one off-chain worker verifies in the verdict window: 8 a block × 6 blocks.
			verifications_per_validator: 48,
			reveal_window: 4,
			verdict_window: 6,
			memory: MemoryRules::dev(),
			..Self::mainnet()
		}
	}
}

/// A miner as the runtime API shows it to auditors.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct MinerView<AccountId, BlockNumber, Balance> {
	/// The miner.
	pub miner: AccountId,
	/// Claimed GPUs as (profile, UUID), in GPU index order.
	pub claimed: alloc::vec::Vec<(ProfileId, GpuUuid)>,
	/// Claimed CPU, memory and disk.
	pub hardware: Hardware,
	/// Deposit held.
	pub deposit: Balance,
	/// Slashed so far.
	pub slashed: Balance,
	/// Block of registration.
	pub registered_at: BlockNumber,
	/// First round it takes part in ([`NEVER`] while suspended).
	pub first_round: RoundIndex,
	/// Claims waiting for the current round to be settled.
	pub pending: Option<alloc::vec::Vec<(ProfileId, GpuUuid)>>,
	/// Whether it is leaving once its round is settled.
	pub leaving: bool,
	/// Each claimed GPU's credit or why it has none.
	pub standing: alloc::vec::Vec<GpuStanding>,
	/// Score and its components.
	pub score: Score,
	/// Share of the current epoch's weight.
	pub share: Perbill,
}

/// One GPU's challenge in a round as the runtime API shows it.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo)]
pub struct ChallengeView<AccountId> {
	/// The round.
	pub round: RoundIndex,
	/// The miner.
	pub miner: AccountId,
	/// The challenge.
	pub params: ChallengeParams,
	/// The committed root, when and the agent's report.
	pub commitment: Option<Commitment>,
	/// The committed memory root and when (with a memory phase).
	pub memory_commitment: Option<MemoryCommitment>,
	/// Whether it is in the round's sample (`None` before the sample is drawn).
	pub selected: Option<bool>,
	/// The leaves to open (selected and committed only).
	pub leaves: alloc::vec::Vec<u32>,
	/// The walks to open (selected and committed, with a memory phase, only).
	pub walks: alloc::vec::Vec<u64>,
	/// Its verification, once revealed.
	pub sample_seed: Option<Hash32>,
	/// Its committee.
	pub committee: alloc::vec::Vec<AccountId>,
	/// The committee's verdicts.
	pub votes: alloc::vec::Vec<(AccountId, Verdict)>,
	/// Where the verification stands.
	pub verification: Option<VerificationStatus>,
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
