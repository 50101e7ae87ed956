//! The network-wide round: when it starts, every GPU's challenge (seed, precision, shape,
//! deadline), commitments, the verified sample, and the settlement sweep.
//!
//! Phases, driven by `on_initialize` with no validator discretion:
//! 1. **Idle** until a block drawn uniformly from the start window (the last `start_jitter`
//!    blocks of the period): the block's entry of the entropy chain decides, so the start is known
//!    at most one block ahead. Starting costs O(1): nothing is written per miner.
//! 2. **Commit**: each GPU's challenge is derived on demand from the round seed, the miner and the
//!    GPU. A GPU whose profile has measured memory rates first runs the memory phase, whose root
//!    must land before round start + the phase's allowed time (`commit_memory`); its GEMM is
//!    seeded from that root. Every deadline is read on one clock from the round's start: the
//!    GEMM root's is the memory phase's allowed time less its slack (none without a memory phase)
//!    plus the GEMM's allowed time, whenever the memory root landed.
//! 3. **Reveal**: the first block whose clock (`TimeProvider`: on PoG chain the start of the
//!    block's BABE slot) is at or after the commit window's close draws the sample (randomness no
//!    committer could know): each committed GPU is selected with probability
//!    min(1, capacity / committed), the capacity being what the validators can verify and the
//!    reveal window can carry ([`crate::capacity`]). Selected GPUs reveal; committees vote.
//! 4. **Settle**: after the verdict window, `settle_per_block` miners per block are settled
//!    (outcomes, slashes, credits, scores, vesting); with the last (a smaller batch, so that the
//!    block weighs no more than a full one), the weight shares are recomputed, the round's
//!    emission is minted (`RoundPay::round_settled`) and the validators' work judged
//!    (`Committee::round_settled`); the miners are paid from the next
//!    block on, and the next round starts only once they are.
//!
//! Every draw comes from the entropy chain ([`Entropy`]): each block's randomness (on PoG chain
//! the block's own BABE VRF output) hashed onto the previous entry, never a block hash.

use alloc::vec::Vec;
use codec::Encode;
use frame_support::{ensure, pallet_prelude::*, traits::Randomness};
use frame_system::pallet_prelude::BlockNumberFor;
use pog_primitives::{sampling, sizing};
use sp_runtime::{
	traits::{AtLeast32BitUnsigned, Saturating, Zero},
	Perbill,
};

use crate::config::ProtocolConfig;
use crate::miners::MAX_CPU_CORES;
use crate::profiles::ProfileFigures;
use crate::types::{Hash32, MaxTraceLen, MaxWalkOpenings};
use crate::views::ChallengeView;
use crate::{
	duty::{DutyKey, DutyKind},
	first_draw::DrawProbabilities,
	pallet::*,
	weights::WeightInfo,
};
use codec::{Decode, DecodeWithMemTracking, MaxEncodedLen};
use frame_support::BoundedVec;
use pog_primitives::challenge::{ChallengeParams, GpuIndex, MemoryParams};
use pog_primitives::{Dims, Precision};
use pog_traits::{Committee, RoundPay};
use scale_info::TypeInfo;

/// Index of a network-wide round (1, 2, …; 0 = none has started yet).
pub type RoundIndex = u32;

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
	/// GPUs the round verifies: what the validators can verify (validators × capacity /
	/// committee) and the reveal window can carry, whichever is smaller ([`crate::capacity`]).
	pub capacity: u32,
	/// Last block in which selected GPUs may reveal.
	pub reveal_deadline: BlockNumber,
	/// Last block in which verdicts are counted.
	pub verdict_deadline: BlockNumber,
}

impl<B: AtLeast32BitUnsigned + Copy> Selection<B> {
	/// A third of the verdict window, at least one block: what the members keep after the
	/// rebuttal deadline to verify what was revealed.
	fn verdict_third(&self) -> B {
		let window = self.verdict_deadline.saturating_sub(self.reveal_deadline);
		(window / 3u32.into()).max(1u32.into()).min(window)
	}

	/// The last block in which a member may vote unserved (`crate::served`): the first half of
	/// the verdict window (at least a block), which ends before the rebuttal deadline
	/// (`ConfigRule::VerdictWindowTooShort` keeps the window at three blocks or more). Every
	/// unserved vote lands while the miner can still rebut it: votes that came later could fail a
	/// served GPU nobody could answer (the review's F3: two colluding members of 64 voting
	/// unserved after the rebuttal deadline struck an honest validator in 91% of rounds).
	pub fn unserved_deadline(&self) -> B {
		let window = self.verdict_deadline.saturating_sub(self.reveal_deadline);
		self.reveal_deadline.saturating_add((window / 2u32.into()).max(1u32.into()))
	}

	/// The last block in which a served GPU that drew unserved votes may be revealed on chain (the
	/// rebuttal): two thirds of the verdict window after the reveal deadline, so that its members
	/// have the last third (at least one block) to verify what it revealed. Unserved votes close
	/// at half the window ([`Self::unserved_deadline`]), so the miner has the blocks from a half to
	/// two thirds of it (mainnet 4, `served::rebuttal_blocks`) to answer the last of them.
	pub fn rebuttal_deadline(&self) -> B {
		self.verdict_deadline.saturating_sub(self.verdict_third())
	}
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
	/// The last miner settled or passed over (the sweep goes on after it).
	pub settle_cursor: Option<AccountId>,
	/// Miners settled so far (not those registered for a later round, which are passed over).
	pub settled: u32,
	/// The next round starts at a block drawn in `[earliest, latest]` (set when this one is settled).
	pub next_start: (BlockNumber, BlockNumber),
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
	/// Timestamp (ms) of the block it landed in (information: no deadline counts from it).
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

/// Rounds whose commitments and verifications stay in storage for auditors (older ones are
/// removed in idle time; events keep the whole history).
pub const KEPT_ROUNDS: RoundIndex = 4;

/// Miners registered for a later round that one settlement block passes over at most (a read
/// each, 51 ms at 25 µs a read). More than the registrations one block can hold (the runtime's
/// test: 797 at mainnet weights), so arrivals never outrun the settlement cursor: a
/// block settles a full batch, passes this many, or reaches the registry's end.
pub const ARRIVALS_PASSED_PER_BLOCK: u32 = 2_048;

/// What a commit is checked against: the round, the miner and its slots of one kind (one per GPU).
pub(crate) type SlotsContext<T, S> = (RoundOf<T>, MinerOf<T>, BoundedVec<Option<S>, <T as Config>::MaxGpusPerMiner>);

/// A commit as it would land, checked root by root: the round (with the new commits counted),
/// the miner's slots of one kind with the new roots in them, and the GPUs in call order.
pub(crate) struct CommitPlan<T: Config, S> {
	pub round: RoundOf<T>,
	pub slots: BoundedVec<Option<S>, <T as Config>::MaxGpusPerMiner>,
	pub landed: Vec<GpuIndex>,
}

/// A profile's challenge in one precision on the round's clock ([`Pallet::timing_of`]).
pub(crate) struct Timing {
	/// The GEMM's dimensions.
	pub dims: Dims,
	/// The GEMM's expected time at the profile's rate (ms).
	pub expected_ms: u64,
	/// The memory phase, if the profile has one, and its root's deadline from the round's start.
	pub memory: Option<(pog_primitives::memory::MemoryChallenge, u64)>,
	/// The GEMM root's deadline from the round's start (ms).
	pub deadline_ms: u64,
}

impl<T: Config> Pallet<T> {
	/// Current block number.
	pub(crate) fn now() -> BlockNumberFor<T> {
		frame_system::Pallet::<T>::block_number()
	}

	/// The runtime's clock in milliseconds (`TimeProvider`; on PoG chain the start of this block's
	/// BABE slot, which its author cannot move).
	pub(crate) fn now_ms() -> u64 {
		use frame_support::traits::UnixTime;
		T::TimeProvider::now().as_millis().min(u128::from(u64::MAX)) as u64
	}

	/// The round's clock (ms): the slot clock less the time the chain lost to stalls in the commit
	/// phase. Commit deadlines, the commit stamps and the close of the commit window are read on
	/// it, so a gap in block production longer than two block times moves every deadline of the
	/// round out by what it lost, and nobody is failed for the chain's own stall
	/// (docs/protocol.md §6, 'Stalls').
	pub fn round_clock_ms(round: &RoundOf<T>) -> u64 {
		Self::now_ms().saturating_sub(round.stalled_ms)
	}

	/// Adds this block's stall to the round (each block of its commit phase, in `on_initialize`,
	/// before any commit of the block is checked): the gap since the last block beyond two block
	/// times. One missed slot is ordinary and costs nothing; from the second on, every lost
	/// slot's time is given back.
	fn count_stall(round: &mut RoundOf<T>) {
		let now = Self::now_ms();
		let gap = now.saturating_sub(round.last_block_ms);
		round.stalled_ms = round.stalled_ms.saturating_add(gap.saturating_sub(2 * T::BlockTimeMs::get()));
		round.last_block_ms = now;
	}

	/// Extends the entropy chain with this block's randomness (first thing in `on_initialize`).
	pub(crate) fn mix_entropy() {
		let (random, _) = T::Randomness::random(b"pog/entropy");
		Entropy::<T>::mutate(|e| *e = sp_io::hashing::blake2_256(&(*e, random).encode()));
	}

	/// Randomness for `purpose` in this block: the entropy chain (never a block hash, which a
	/// block author can grind), hashed with the purpose and the round `index`.
	pub(crate) fn block_randomness(purpose: &[u8], index: RoundIndex) -> Hash32 {
		sp_io::hashing::blake2_256(&(purpose, Entropy::<T>::get(), index).encode())
	}

	/// Refuses a change of what challenges are derived from and miners are scored by (profiles,
	/// configuration) while a round is open: in its commit or reveal phase, or while its miners
	/// are settled a batch a block, so that every miner of a round is scored by the same figures.
	pub(crate) fn ensure_no_open_round() -> DispatchResult {
		ensure!(Self::round().phase == RoundPhase::Idle, Error::<T>::RoundOpen);
		Ok(())
	}

	/// Round 0: nothing started; round 1 starts in the first period's start window.
	pub(crate) fn genesis_round() -> RoundOf<T> {
		let config = Configuration::<T>::get();
		let latest: BlockNumberFor<T> = config.period.max(1).into();
		let earliest = latest.saturating_sub(config.start_jitter.into()).max(1u32.into());
		RoundInfo {
			index: 0,
			phase: RoundPhase::Idle,
			seed: [0; 32],
			started_at: Zero::zero(),
			start_ms: 0,
			commit_close_ms: 0,
			committed: 0,
			last_block_ms: 0,
			stalled_ms: 0,
			selection: None,
			settle_cursor: None,
			settled: 0,
			next_start: (earliest, latest),
		}
	}

	/// The current (or last) round.
	pub fn round() -> RoundOf<T> {
		Round::<T>::get().unwrap_or_else(Self::genesis_round)
	}

	/// Moves the round forward at block `n`; returns the weight used.
	pub(crate) fn advance_round(n: BlockNumberFor<T>) -> Weight {
		let mut round = Self::round();
		match round.phase {
			RoundPhase::Idle => {
				let (earliest, latest) = round.next_start;
				// The last round's miners are paid before another starts.
				if n < earliest || T::RoundPay::paying() {
					return T::WeightInfo::idle_block();
				}
				let left: u64 = latest.saturating_sub(n).try_into().unwrap_or(u64::MAX);
				let draw = Self::block_randomness(b"pog/start", round.index);
				let draw = u64::from_le_bytes(draw[..8].try_into().unwrap_or_default());
				if n >= latest || draw % left.saturating_add(1) == 0 {
					Self::start_round(&mut round, n);
					Round::<T>::put(round);
					T::WeightInfo::start_round(ProfileCount::<T>::get())
				} else {
					T::WeightInfo::idle_block()
				}
			},
			RoundPhase::Commit => {
				Self::count_stall(&mut round);
				let weight = if Self::round_clock_ms(&round) >= round.commit_close_ms {
					Self::draw_sample(&mut round, n);
					// the capacity reads the profile table (`capacity::largest_reveal_bytes`, for
					// the capacity and again for the reveal share), which the benchmark's table of
					// 11 does not bound
					// and the undecided count (`ProbationNext`, `ForcedOnChain`), the first draw
					// (`FirstDrawOf`) and the seated set copied into the committee pool, which the
					// benchmark predates, and the table read again for the unserved quota
					// (`served::unserved_quota`)
					T::WeightInfo::draw_sample()
						.saturating_add(T::DbWeight::get().reads(3 * u64::from(T::MaxProfiles::get())))
						.saturating_add(T::DbWeight::get().reads_writes(4, 5))
				} else {
					T::WeightInfo::idle_block()
				};
				Round::<T>::put(round);
				weight.saturating_add(T::DbWeight::get().writes(1))
			},
			RoundPhase::Reveal => {
				if round.selection.as_ref().is_some_and(|s| n > s.verdict_deadline) {
					round.phase = RoundPhase::Settle;
					Round::<T>::put(round);
				}
				T::WeightInfo::idle_block()
			},
			RoundPhase::Settle => {
				let (settled, passed) = Self::settle_some(&mut round, n);
				let last = (round.phase == RoundPhase::Idle).then(MinerCount::<T>::get);
				Round::<T>::put(round);
				Self::settle_weight(settled, last).saturating_add(T::DbWeight::get().reads(passed.into()))
			},
		}
	}

	/// Weight of a settlement block: `settled` miners (each with the most GPUs) and, for the
	/// block that finishes the round (`last`: the registered miners), the weight shares
	/// recomputed over them, the emission paid to the most validators and their work judged.
	pub fn settle_weight(settled: u32, last: Option<u32>) -> Weight {
		// + the count of GPUs left undecided (`ProbationNext`), once a block, and each GPU's
		// first draw (`FirstDraws`, `FirstDrawOf`) and whether its openings were served and kept
		// (`ServedIn`, `RevealShare`), which the benchmark predates
		// + each served GPU's tally (`Pallet::tally_weight`) and audit draw
		// (`Pallet::draw_audit_weight`)
		let gpus = u64::from(settled).saturating_mul(u64::from(T::MaxGpusPerMiner::get()));
		let tally = Self::tally_weight().saturating_add(Self::draw_audit_weight());
		// + each miner's trial read, and the removal of those whose trial ends (at most
		// `TRIAL_ENDS_PER_BLOCK`)
		let trials_ended = settled.min(crate::eviction::TRIAL_ENDS_PER_BLOCK);
		let batch = T::WeightInfo::settle_miners(settled, T::MaxGpusPerMiner::get())
			.saturating_add(T::DbWeight::get().reads_writes(1, 1))
			.saturating_add(T::DbWeight::get().reads(u64::from(settled)))
			.saturating_add(
				T::WeightInfo::deregister_miner(T::MaxGpusPerMiner::get())
					.saturating_add(T::DbWeight::get().reads_writes(3, 3))
					.saturating_mul(u64::from(trials_ended)),
			)
			.saturating_add(T::DbWeight::get().reads(gpus.saturating_mul(4)))
			.saturating_add(tally.saturating_mul(gpus))
			.saturating_add(Self::audits_weight());
		match last {
			Some(miners) => batch
				.saturating_add(T::WeightInfo::update_shares(miners))
				.saturating_add(T::RoundPay::round_settled_weight())
				// the last round's audits closed, and the open ones read before bonds are released
				.saturating_add(Self::close_audits_weight())
				// Judging each validator's work and releasing bonds (the validator set), and the
				// measured throughput with the configuration it is bounded by, and the committee
				// pool read and cleared
				.saturating_add(T::Committee::round_settled_weight())
				.saturating_add(T::DbWeight::get().reads_writes(3, 2)),
			None => batch,
		}
	}

	/// Starts the next round at block `n`: its seed and provisional clock (stamped in
	/// `on_finalize` with this block's own timestamp).
	fn start_round(round: &mut RoundOf<T>, n: BlockNumberFor<T>) {
		let index = round.index.saturating_add(1);
		let seed = Self::block_randomness(b"pog/round", index);
		let start_ms = Self::now_ms();
		*round = RoundInfo {
			index,
			phase: RoundPhase::Commit,
			seed,
			started_at: n,
			start_ms,
			commit_close_ms: start_ms.saturating_add(Self::longest_allowed_ms()),
			committed: 0,
			last_block_ms: start_ms,
			stalled_ms: 0,
			selection: None,
			settle_cursor: None,
			settled: 0,
			next_start: round.next_start,
		};
		Self::deposit_event(Event::RoundStarted { round: index, seed });
	}

	/// In the start block's `on_finalize`, the clock of the round is this block's timestamp.
	pub(crate) fn stamp_round_start(n: BlockNumberFor<T>) {
		let Some(mut round) = Round::<T>::get() else { return };
		if round.phase == RoundPhase::Commit && round.started_at == n {
			round.start_ms = Self::now_ms();
			round.last_block_ms = round.start_ms;
			round.commit_close_ms = round.start_ms.saturating_add(Self::longest_allowed_ms());
			Round::<T>::put(round);
		}
	}

	/// `profile`'s challenge in `precision` under `config`, on the round's one clock (§6): its
	/// GEMM's size and expected time, its memory phase (for a GPU whose challenge seed is
	/// `seed`) if it has one with that root's deadline, and the GEMM root's deadline, both as
	/// offsets from the round's start (ms). No time depends on the seed.
	///
	/// The GEMM's deadline is the memory phase's allowed time less its slack plus the GEMM's
	/// allowed time: both phases share one slack, and nothing the miner does moves it (when it
	/// commits its memory root, in particular: a root held back to its deadline once stretched
	/// the GEMM's window by the memory phase's tolerance and slack). A profile without a memory
	/// phase has its GEMM sized to the walks' time as well ([`sizing::gemm_target_ms`]).
	pub(crate) fn timing_of(
		profile: &ProfileFigures,
		precision: Precision,
		config: &ProtocolConfig,
		seed: &Hash32,
	) -> Timing {
		let slack_ms = u64::from(config.slack_ms);
		let rules = &config.memory;
		let memory = profile
			.memory_challenge(seed, rules)
			.map(|challenge| (challenge, sizing::allowed_ms(challenge.expected_ms, rules.tolerance_percent, slack_ms)));
		let (dims, expected_ms) = profile.gemm(precision, config.target_ms, rules.walk_ms, memory.is_some());
		let gemm_allowed = sizing::allowed_ms(expected_ms, profile.tolerance_percent, slack_ms);
		let gemm_from = memory.map_or(0, |(_, allowed)| allowed.saturating_sub(slack_ms));
		Timing { dims, expected_ms, memory, deadline_ms: gemm_from.saturating_add(gemm_allowed) }
	}

	/// Every size a GPU of the table can be challenged at: each profile's figures, a per-core
	/// profile's at one core and at the most a miner may declare (its time and its reveal hardly
	/// depend on the cores between them, memory and rate scaling together: the extremes bound them).
	pub(crate) fn profile_sizes() -> Vec<pog_primitives::profiles::ProfileFigures> {
		Profiles::<T>::iter_values()
			.flat_map(|crate::profiles::Profile { figures, .. }| Self::sizes_of(figures))
			.collect()
	}

	/// The sizes a GPU of `profile` can be challenged at ([`Self::profile_sizes`]); for a per-core
	/// profile also one core fewer than the most, whose k is the largest (a unit's C grows by
	/// powers of two with its cores, its rate with each core: k is at its largest just below a
	/// power of two, nearly twice what it is at one core or at the most).
	pub(crate) fn sizes_of(
		profile: pog_primitives::profiles::ProfileFigures,
	) -> Vec<pog_primitives::profiles::ProfileFigures> {
		if profile.per_core {
			alloc::vec![profile.for_cores(1), profile.for_cores(MAX_CPU_CORES - 1), profile.for_cores(MAX_CPU_CORES)]
		} else {
			alloc::vec![profile]
		}
	}

	/// The latest GEMM deadline of any profile in any precision: the commit window.
	fn longest_allowed_ms() -> u64 {
		let config = Configuration::<T>::get();
		Self::profile_sizes()
			.into_iter()
			.flat_map(|p| {
				Precision::CHALLENGED
					.into_iter()
					.filter(|q| p.challenged_in(*q))
					.map(|q| Self::timing_of(&p, q, &config, &[0; 32]).deadline_ms)
					.collect::<Vec<_>>()
			})
			.max()
			.unwrap_or(0)
	}

	/// The precision a seed asks for, among the challenged ones the profile supports (never tf32:
	/// [`Precision::CHALLENGED`]).
	pub fn precision_for(profile: &ProfileFigures, seed: &Hash32) -> Option<Precision> {
		let supported: Vec<Precision> =
			Precision::CHALLENGED.into_iter().filter(|p| profile.challenged_in(*p)).collect();
		let n = supported.len();
		(n > 0).then(|| supported[usize::from(seed[31]) % n])
	}

	/// The challenge of `miner`'s GPU `gpu` in `round`: seed from the round's randomness, the
	/// miner and the GPU; its memory phase, if its profile has one; its deadlines on the round's
	/// one clock ([`Self::timing_of`]).
	pub fn challenge_params(
		round: &RoundOf<T>,
		miner: &T::AccountId,
		info: &MinerOf<T>,
		gpu: GpuIndex,
	) -> Result<ChallengeParams, DispatchError> {
		let (profile_id, uuid) = info.gpu(gpu).ok_or(Error::<T>::UnknownGpu)?;
		let profile = Profiles::<T>::get(profile_id)
			.ok_or(Error::<T>::UnknownProfile)?
			.figures
			.for_cores(info.hardware.cpu_cores);
		let config = Configuration::<T>::get();
		let seed = pog_primitives::challenge::gpu_seed(&round.seed, miner, gpu, &uuid);
		let precision = Self::precision_for(&profile, &seed).ok_or(Error::<T>::NoPrecision)?;
		let Timing { dims, expected_ms, memory, deadline_ms } = Self::timing_of(&profile, precision, &config, &seed);
		Ok(ChallengeParams {
			gpu,
			uuid,
			profile: profile_id,
			seed,
			precision,
			dims,
			chunk_k: config.chunk_k,
			expected_ms,
			deadline_ms: round.start_ms.saturating_add(deadline_ms),
			memory: memory.map(|(challenge, allowed)| MemoryParams {
				challenge,
				deadline_ms: round.start_ms.saturating_add(allowed),
			}),
		})
	}

	/// `miner`'s committed memory root of GPU `gpu` in round `index`.
	pub fn memory_commitment(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> Option<MemoryCommitment> {
		MemoryCommitments::<T>::get(index, miner).and_then(|slots| slots.get(gpu as usize).copied().flatten())
	}

	/// The round, if `index` is the current one and in its commit phase (else the error a commit
	/// in it fails with).
	fn commit_phase(index: RoundIndex) -> Result<RoundOf<T>, DispatchError> {
		let round = Self::round();
		ensure!(round.index == index && index > 0, Error::<T>::WrongRound);
		match round.phase {
			RoundPhase::Commit => Ok(round),
			RoundPhase::Idle => Err(Error::<T>::WrongPhase.into()),
			// The commit window has closed: every GPU's deadline has passed.
			RoundPhase::Reveal | RoundPhase::Settle => Err(Error::<T>::DeadlinePassed.into()),
		}
	}

	/// What any commit by `who` in round `index` of `gpus` needs before its roots are checked one
	/// by one: the round's commit phase, at least one root, no GPU named twice, and a miner taking
	/// part. Returns the round,
	/// the miner and its slots of one kind (all open if none were stored).
	fn commit_slots<S: Clone>(
		who: &T::AccountId,
		index: RoundIndex,
		gpus: impl Iterator<Item = GpuIndex>,
		stored: impl FnOnce() -> Option<BoundedVec<Option<S>, T::MaxGpusPerMiner>>,
	) -> Result<SlotsContext<T, S>, DispatchError> {
		let round = Self::commit_phase(index)?;
		let mut gpus: Vec<GpuIndex> = gpus.collect();
		ensure!(!gpus.is_empty(), Error::<T>::NoRoots);
		gpus.sort_unstable();
		ensure!(gpus.windows(2).all(|w| w[0] != w[1]), Error::<T>::DuplicateGpu);
		let info = Miners::<T>::get(who).ok_or(Error::<T>::NotRegistered)?;
		ensure!(info.takes_part_in(index), Error::<T>::NotTakingPart);
		let slots = stored().unwrap_or_else(|| BoundedVec::truncate_from(alloc::vec![None; info.gpu_count() as usize]));
		Ok((round, info, slots))
	}

	/// The open slot of the GPU of `duty` among `slots`: a GPU the miner has, not committed yet,
	/// and whose duty was not spent by a failed dispatch.
	fn open_slot<'a, S>(
		slots: &'a mut BoundedVec<Option<S>, T::MaxGpusPerMiner>,
		info: &MinerOf<T>,
		duty: DutyKey<'_, T::AccountId>,
	) -> Result<&'a mut Option<S>, DispatchError> {
		let gpu = duty.gpu;
		ensure!(gpu < info.gpu_count(), Error::<T>::UnknownGpu);
		let slot = slots.get_mut(gpu as usize).ok_or(Error::<T>::UnknownGpu)?;
		ensure!(slot.is_none(), Error::<T>::AlreadyCommitted);
		Self::ensure_unspent(&duty)?;
		Ok(slot)
	}

	/// The memory commit of `roots` by `who` in round `index`, checked root by root exactly as it
	/// would land: the pool ([`crate::duty::CheckDuty`]) and the dispatch both call this, so a
	/// memory commit the pool accepts cannot fail in its block.
	pub(crate) fn memory_due(
		who: &T::AccountId,
		index: RoundIndex,
		roots: &[MemoryRoot],
	) -> Result<CommitPlan<T, MemoryCommitment>, DispatchError> {
		let (round, info, mut slots) =
			Self::commit_slots(who, index, roots.iter().map(|r| r.gpu), || MemoryCommitments::<T>::get(index, who))?;
		let now_ms = Self::round_clock_ms(&round);
		let mut landed = Vec::with_capacity(roots.len());
		for MemoryRoot { gpu, root } in roots {
			let duty = DutyKey { kind: DutyKind::Memory, round: index, miner: who, gpu: *gpu, validator: None };
			let slot = Self::open_slot(&mut slots, &info, duty)?;
			let params = Self::challenge_params(&round, who, &info, *gpu)?;
			let memory = params.memory.ok_or(Error::<T>::NoMemoryPhase)?;
			ensure!(now_ms <= memory.deadline_ms, Error::<T>::DeadlinePassed);
			*slot = Some(MemoryCommitment { root: *root, committed_ms: now_ms });
			landed.push(*gpu);
		}
		Ok(CommitPlan { round, slots, landed })
	}

	pub(crate) fn do_commit_memory(who: T::AccountId, index: RoundIndex, roots: MemoryRootsOf<T>) -> DispatchResult {
		let CommitPlan { slots, landed, .. } = Self::memory_due(&who, index, &roots)?;
		MemoryCommitments::<T>::insert(index, &who, slots);
		Self::deposit_event(Event::MemoryCommitted {
			round: index,
			miner: who,
			gpus: BoundedVec::truncate_from(landed),
		});
		Ok(())
	}

	/// The GEMM commit of `roots` by `who` in round `index`, checked root by root exactly as it
	/// would land (each GPU known and open, named once, its memory root committed first when its
	/// profile has a memory phase, its deadline not passed): called by the pool and the dispatch
	/// alike.
	pub(crate) fn commit_due(
		who: &T::AccountId,
		index: RoundIndex,
		roots: &[RootCommit],
	) -> Result<CommitPlan<T, Commitment>, DispatchError> {
		let (mut round, info, mut slots) =
			Self::commit_slots(who, index, roots.iter().map(|r| r.gpu), || Commitments::<T>::get(index, who))?;
		let now_ms = Self::round_clock_ms(&round);
		let seen_ms = now_ms.saturating_sub(round.start_ms);
		let mut landed = Vec::with_capacity(roots.len());
		for RootCommit { gpu, root, report } in roots {
			let duty = DutyKey { kind: DutyKind::Commit, round: index, miner: who, gpu: *gpu, validator: None };
			let slot = Self::open_slot(&mut slots, &info, duty)?;
			let params = Self::challenge_params(&round, who, &info, *gpu)?;
			let memory_root = match params.memory {
				None => None,
				Some(_) => Some(Self::memory_commitment(index, who, *gpu).ok_or(Error::<T>::MemoryNotCommitted)?.root),
			};
			ensure!(now_ms <= params.deadline_ms, Error::<T>::DeadlinePassed);
			let mut report = report.clone();
			report.elapsed_ms = report.elapsed_ms.min(seen_ms);
			*slot = Some(Commitment { params, root: *root, committed_ms: now_ms, report, memory_root });
			landed.push(*gpu);
		}
		round.committed = round.committed.saturating_add(landed.len() as u32);
		Ok(CommitPlan { round, slots, landed })
	}

	pub(crate) fn do_commit(who: T::AccountId, index: RoundIndex, roots: RootsOf<T>) -> DispatchResult {
		let CommitPlan { round, slots, landed } = Self::commit_due(&who, index, &roots)?;
		let first = !Commitments::<T>::contains_key(index, &who);
		Commitments::<T>::insert(index, &who, slots);
		Round::<T>::put(round);
		let forced = Self::enter_first_draw(index, &who, &landed);
		if !Self::enter_served(index, &who, landed.len() as u32, first) && forced > 0 {
			ForcedOnChain::<T>::mutate(|n| *n = n.saturating_add(forced));
		}
		Self::deposit_event(Event::RootsCommitted {
			round: index,
			miner: who,
			gpus: BoundedVec::truncate_from(landed),
		});
		Ok(())
	}

	/// Draws the verified sample at block `n`: the commit window is over. The GPUs left
	/// undecided in the round before and those whose credit is due (`ProbationNext`,
	/// [`GpuStanding::due`]) are selected whatever the draw
	/// ([`Self::is_selected`]); the GPUs never verified (the first draw, [`crate::first_draw`])
	/// come next, all of them while they fit; the others share what remains of the capacity:
	/// p = (capacity − undecided − newcomers) / (committed − undecided − newcomers), so that the
	/// expected sample is at most the capacity (the reveal window carries it, [`crate::capacity`]).
	/// With openings served off chain, the GPUs revealed on chain are kept within the window by
	/// [`RevealShare`].
	fn draw_sample(round: &mut RoundOf<T>, n: BlockNumberFor<T>) {
		let config = Configuration::<T>::get();
		let served = ServedGpus::<T>::get(round.index);
		let capacity = Self::capacity_for(served);
		let undecided = ProbationNext::<T>::take();
		let forced_on_chain = ForcedOnChain::<T>::take().min(undecided);
		let share = Self::reveal_share(capacity, round.committed, served, forced_on_chain);
		if share < Perbill::one() {
			RevealShare::<T>::insert(round.index, share);
		}
		let mut first = FirstDrawOf::<T>::get(round.index);
		let p = DrawProbabilities::new(capacity, round.committed, undecided, first.newcomers);
		first.probability = p.first;
		FirstDrawOf::<T>::insert(round.index, first);
		let reveal_deadline = n.saturating_add(config.reveal_window.into());
		// committees are drawn from the set seated now, whatever the sessions do until settlement
		CommitteePool::<T>::put(BoundedVec::<_, T::MaxValidators>::truncate_from(T::Committee::seated()));
		Self::draw_unserved_quota(round.index);
		round.selection = Some(Selection {
			seed: Self::block_randomness(b"pog/sample", round.index),
			at: n,
			probability: p.others,
			capacity,
			reveal_deadline,
			verdict_deadline: reveal_deadline.saturating_add(config.verdict_window.into()),
		});
		round.phase = RoundPhase::Reveal;
		Self::deposit_event(Event::SampleDrawn {
			round: round.index,
			committed: round.committed,
			capacity,
			probability: p.others,
		});
	}

	/// Whether `miner`'s GPU `gpu` is in round `round`'s sample: every GPU left `Inconclusive` in
	/// the round before (a probation draw: an undecided verification is decided in the next
	/// round) or whose credit is due ([`GpuStanding::due`]), and otherwise a hash of the sample seed, the miner and the GPU below the selection
	/// probability: the first draw's for a GPU never verified ([`crate::first_draw`]), the
	/// sample's for the others; a GPU revealed on chain then stays in the sample with the round's
	/// [`RevealShare`] (one unless openings served off chain let the sample outgrow the reveal
	/// window, [`crate::capacity`]).
	pub fn is_selected(
		selection: &Selection<BlockNumberFor<T>>,
		round: RoundIndex,
		miner: &T::AccountId,
		gpu: GpuIndex,
	) -> bool {
		if Self::on_probation(round, miner, gpu) {
			return true;
		}
		let below =
			|purpose: &[u8], probability: Perbill| Self::drawn_below(&selection.seed, purpose, miner, gpu, probability);
		let drawn = selection.probability == Perbill::one() || {
			let probability = if Self::in_first_draw(round, miner, gpu) {
				FirstDrawOf::<T>::get(round).probability
			} else {
				selection.probability
			};
			below(b"pog/select", probability)
		};
		drawn
			&& match RevealShare::<T>::get(round) {
				Some(share) if Self::served_in(round, miner).is_none() => below(b"pog/reveal-share", share),
				_ => true,
			}
	}

	/// Whether `miner`'s GPU `gpu` is drawn, for `purpose`, with `probability` under `seed`: a
	/// hash of the seed, the purpose, the miner and the GPU below it. Every per-GPU draw of the
	/// round (the sample, the reveal share, the evidence audits) is made so.
	pub(crate) fn drawn_below(
		seed: &Hash32,
		purpose: &[u8],
		miner: &T::AccountId,
		gpu: GpuIndex,
		probability: Perbill,
	) -> bool {
		let h = sp_io::hashing::blake2_256(&(purpose, seed, miner, gpu).encode());
		let draw = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
		Perbill::from_rational(u64::from(draw), u64::from(u32::MAX) + 1) < probability
	}

	/// Whether `miner`'s GPU `gpu` was selected and left undecided (`Inconclusive`) in the round
	/// before `round`, or holds a credit that is due: it is verified in `round` whatever the
	/// sample draws.
	pub fn on_probation(round: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		Standing::<T>::get(miner).get(gpu as usize).is_some_and(|s| s.on_probation_in(round))
	}

	/// The seed that chooses a selected challenge's opened leaves: the sample seed (unknown at
	/// commit time), the challenge seed and the committed root.
	pub fn sample_seed_for(selection: &Selection<BlockNumberFor<T>>, commitment: &Commitment) -> Hash32 {
		sampling::sample_seed(&selection.seed, &commitment.params.seed, &commitment.root)
	}

	/// The leaves a selected challenge opens.
	pub fn leaves_for(selection: &Selection<BlockNumberFor<T>>, commitment: &Commitment) -> Vec<u32> {
		let count = Configuration::<T>::get().openings.min(T::MaxOpenings::get());
		let seed = Self::sample_seed_for(selection, commitment);
		sampling::opened_leaves(&seed, commitment.params.dims.num_leaves(), count)
	}

	/// The walks a selected challenge opens (none without a memory phase). Drawn from the same
	/// sample seed as the leaves, which no committer could know before its roots landed.
	pub fn walks_for(selection: &Selection<BlockNumberFor<T>>, commitment: &Commitment) -> Vec<u64> {
		let Some(memory) = commitment.params.memory.filter(|_| commitment.memory_root.is_some()) else {
			return Vec::new();
		};
		let count = Configuration::<T>::get().memory.openings.min(<MaxWalkOpenings as Get<u32>>::get());
		let seed = Self::sample_seed_for(selection, commitment);
		sampling::opened_walks(&seed, memory.challenge.walks, count)
	}

	/// Settles up to `settle_per_block` miners at block `n`; finishes the round with the last,
	/// in a batch no heavier than a full one ([`Self::finishing_batch`]). Miners registered
	/// for a later round (`MinerInfo::arrives_after`) are passed over, at most
	/// [`ARRIVALS_PASSED_PER_BLOCK`] a block, so
	/// registrations ahead of the cursor cannot hold the round open (returns the miners settled
	/// and the arrivals passed).
	fn settle_some(round: &mut RoundOf<T>, n: BlockNumberFor<T>) -> (u32, u32) {
		let budget = Configuration::<T>::get().settle_per_block.max(1);
		let mut miners = match &round.settle_cursor {
			Some(last) => Miners::<T>::iter_from(Miners::<T>::hashed_key_for(last)),
			None => Miners::<T>::iter(),
		};
		let mut batch: Vec<(T::AccountId, MinerOf<T>)> = Vec::new();
		let (mut passed, mut last_read) = (0u32, None);
		// the registry's end reached in this block: the last batch
		let mut short = true;
		while batch.len() < budget as usize && passed < ARRIVALS_PASSED_PER_BLOCK {
			let Some((who, info)) = miners.next() else { break };
			last_read = Some(who.clone());
			if info.arrives_after(round.index) {
				passed = passed.saturating_add(1);
			} else {
				batch.push((who, info));
			}
		}
		if batch.len() == budget as usize || passed == ARRIVALS_PASSED_PER_BLOCK {
			short = false;
		}
		// The last batch also finishes the round (shares, pay, the validators' judgment) if it
		// holds at most `finishing_batch` miners; else it settles that many (all of them where
		// that is none) and the block after it finishes.
		let room = if short { Self::finishing_batch(budget) as usize } else { 0 };
		let finishes = short && batch.len() <= room;
		if short && !finishes && room > 0 {
			batch.truncate(room);
			last_read = batch.last().map(|(who, _)| who.clone());
		}
		let count = batch.len() as u32;
		let mut forced = 0u32;
		let mut trial_ends = crate::eviction::TRIAL_ENDS_PER_BLOCK;
		for (who, info) in batch {
			forced = forced.saturating_add(Self::settle_miner(round, who, info, &mut trial_ends));
		}
		if forced > 0 {
			ProbationNext::<T>::mutate(|n| *n = n.saturating_add(forced));
		}
		round.settled = round.settled.saturating_add(count);
		if finishes {
			Self::finish_round(round, n);
		} else if last_read.is_some() {
			round.settle_cursor = last_read;
		}
		(count, passed)
	}

	/// The most miners the block that finishes a round settles: as many as keep it, with the
	/// round's finishing work over a full registry, no heavier in time than a full batch of
	/// `budget` (a solochain's blocks carry no proof of their reads, so only time is bounded).
	pub fn finishing_batch(budget: u32) -> u32 {
		let full = Self::settle_weight(budget, None).ref_time();
		let registry = T::MaxMiners::get();
		(0..budget).rev().find(|k| Self::settle_weight(*k, Some(registry)).ref_time() <= full).unwrap_or(0)
	}

	/// Every miner is settled: weight shares, the next start window, pruning of old records.
	fn finish_round(round: &mut RoundOf<T>, n: BlockNumberFor<T>) {
		let config = Configuration::<T>::get();
		Self::update_shares(round.index);
		// the seats the round's committees were drawn from (a validator that left since answers
		// for the work it was assigned while its bond is held, and is paid for it), and whether
		// they were sampled
		let drawn = Self::drawn_seats();
		T::RoundPay::round_settled(round.index, &drawn);
		let unproven = Self::close_audits(round.index);
		let sampled = drawn.len() as u32 > crate::verification::WHOLE_SET_UP_TO;
		let work = T::Committee::round_settled(round.index, &drawn, sampled, &unproven);
		Self::measure_throughput(round.index, &work);
		CommitteePool::<T>::kill();
		let after = n.saturating_add(1u32.into());
		let latest = round.started_at.saturating_add(config.period.into()).max(after);
		let earliest = latest.saturating_sub(config.start_jitter.into()).max(after);
		round.phase = RoundPhase::Idle;
		round.settle_cursor = None;
		round.next_start = (earliest, latest);
		// the rounds left to prune are [PruneRound, index − KEPT_ROUNDS]: one still being pruned
		// stays first (it was overwritten before, and its records were never removed)
		if round.index > KEPT_ROUNDS && !PruneRound::<T>::exists() {
			PruneRound::<T>::put(round.index - KEPT_ROUNDS);
		}
		Self::deposit_event(Event::RoundSettled { round: round.index, miners: round.settled });
	}

	/// Removes the records of the round in `PruneRound` within `remaining` weight (at most 1,024
	/// items a block), map after map, each taking what the ones before left of the budget; once
	/// the round is clean, `PruneRound` moves to the next round older than the [`KEPT_ROUNDS`]
	/// kept, if any. So pruning keeps up with a full registry (65,536 served GPUs: about 70,000
	/// records a round, 69 blocks of the 360 of a mainnet period) where a fixed ninth of the budget
	/// a map left a map of 65,536 `Verifications` behind (the review's F9).
	pub(crate) fn prune_old_round(remaining: Weight) -> Weight {
		let Some(old) = PruneRound::<T>::get() else { return Weight::zero() };
		let per_item = T::DbWeight::get().reads_writes(1, 1);
		let mut budget = (remaining.ref_time() / per_item.ref_time().max(1)).min(1024) as u32;
		// each of the 13 maps below costs at least one item, cleared or not
		if budget < 13 {
			return Weight::zero();
		}
		let mut loops = 0u32;
		let mut clean = true;
		let mut clear = |f: &dyn Fn(u32) -> sp_io::MultiRemovalResults| {
			if !clean || budget == 0 {
				clean = false;
				return;
			}
			let r = f(budget);
			budget = budget.saturating_sub(r.loops.max(1));
			loops = loops.saturating_add(r.loops.max(1));
			clean = r.maybe_cursor.is_none();
		};
		clear(&|n| Commitments::<T>::clear_prefix(old, n, None));
		clear(&|n| MemoryCommitments::<T>::clear_prefix(old, n, None));
		clear(&|n| Verifications::<T>::clear_prefix((old,), n, None));
		clear(&|n| Openings::<T>::clear_prefix((old,), n, None));
		clear(&|n| WalkResults::<T>::clear_prefix((old,), n, None));
		clear(&|n| SpentDuties::<T>::clear_prefix(old, n, None));
		clear(&|n| FirstDraws::<T>::clear_prefix(old, n, None));
		clear(&|n| ServedIn::<T>::clear_prefix(old, n, None));
		clear(&|n| Attestations::<T>::clear_prefix(old, n, None));
		clear(&|n| EvidenceRoots::<T>::clear_prefix(old, n, None));
		clear(&|n| UnservedCast::<T>::clear_prefix(old, n, None));
		clear(&|n| Contested::<T>::clear_prefix((old,), n, None));
		clear(&|n| EarlyFailing::<T>::clear_prefix((old,), n, None));
		if clean {
			UnservedQuota::<T>::remove(old);
			FirstDrawOf::<T>::remove(old);
			ServedGpus::<T>::remove(old);
			RevealShare::<T>::remove(old);
			let last = Self::round().index.saturating_sub(KEPT_ROUNDS);
			if old < last {
				PruneRound::<T>::put(old + 1);
			} else {
				PruneRound::<T>::kill();
			}
		}
		per_item.saturating_mul(u64::from(loops).saturating_add(1))
	}

	/// The oldest round whose records may still be kept: the current round and the
	/// [`KEPT_ROUNDS`] before it, and any older one still being pruned (`PruneRound`). `try_state` checks that no record is older.
	pub fn oldest_kept_round() -> RoundIndex {
		let kept = Self::round().index.saturating_sub(KEPT_ROUNDS);
		PruneRound::<T>::get().map_or(kept, |r| r.min(kept))
	}

	/// The current round's challenges of `miner`, with what was committed and selected.
	pub fn challenges_of(miner: &T::AccountId) -> Vec<ChallengeView<T::AccountId>> {
		let round = Self::round();
		let Some(info) = Miners::<T>::get(miner) else { return Vec::new() };
		if round.index == 0 || round.phase == RoundPhase::Idle || !info.takes_part_in(round.index) {
			return Vec::new();
		}
		(0..info.gpu_count()).filter_map(|gpu| Self::challenge_view(round.index, miner.clone(), gpu)).collect()
	}
}
