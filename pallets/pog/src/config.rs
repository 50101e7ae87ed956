//! Validation of the protocol configuration.

use frame_support::pallet_prelude::*;

use crate::pallet::*;
use crate::profiles::{GpuProfile, ProfileFigures};
use crate::scoring::ScoreCaps;
use crate::types::MaxWalkOpenings;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use pog_primitives::memory::MemoryRules;
use pog_primitives::verify;
use pog_primitives::Precision;
use scale_info::TypeInfo;
use sp_runtime::Perbill;

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
	/// Challenges one validator verifies per round, where the measurement starts
	/// ([`crate::throughput`]: the figure moves with what the validators deliver).
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

/// The rule a configuration breaks ([`ProtocolConfig::validate`]); carried by
/// `Error::InvalidConfig`, so a chain runner reads which field to fix.
#[derive(
	Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, frame_support::PalletError,
)]
pub enum ConfigRule {
	/// `period` is zero.
	ZeroPeriod,
	/// `start_jitter` is not below `period`.
	JitterNotBelowPeriod,
	/// `target_ms` is zero.
	ZeroTarget,
	/// `openings` is zero or above the runtime's `MaxOpenings`.
	Openings,
	/// `entries_per_opening` is zero or above a leaf's 256 values.
	EntriesPerOpening,
	/// `committee` is zero or above the runtime's `MaxValidators`.
	Committee,
	/// `verifications_per_validator` is zero or more than the off-chain worker can send in the
	/// verdict window (64 a block).
	VerificationsPerValidator,
	/// `reveal_window` is zero.
	ZeroRevealWindow,
	/// `verdict_window` is zero.
	ZeroVerdictWindow,
	/// `settle_per_block` is zero.
	ZeroSettlePerBlock,
	/// `max_unverified_rounds` is zero.
	ZeroMaxUnverifiedRounds,
	/// `chunk_k` is not a positive multiple of 256.
	ChunkK,
	/// `hardware_bound` is above 50%.
	HardwareBound,
	/// A score cap (`caps`) is zero.
	ZeroCap,
	/// `memory.cache_items` is not a power of two of at least 2.
	MemoryCache,
	/// `memory.parents`, `memory.reads`, `memory.walk_ms` or `memory.lane_ms` is zero.
	MemoryZero,
	/// `memory.openings` is zero or above `MaxWalkOpenings`.
	MemoryOpenings,
	/// `memory.tolerance_percent` is 100 or more.
	MemoryTolerance,
	/// `period` is above [`MAX_PERIOD`] (a day): the next round's start window, set when a round
	/// starts, would keep rounds away that long, and no `set_config` can move it.
	PeriodTooLong,
	/// `target_ms` is above [`MAX_TARGET_MS`] or `slack_ms` above [`MAX_SLACK_MS`].
	DeadlineTooLong,
	/// `reveal_window` or `verdict_window` is above [`MAX_WINDOW`] blocks: a round would stay
	/// open, refusing the `set_config` that undoes it, for that long.
	WindowTooLong,
	/// `verdict_window` is below 3 blocks: unserved votes, rebuttals and the members' checks of a
	/// rebuttal take a third of it each (`served::unserved_deadline`).
	VerdictWindowTooShort,
	/// `memory.walk_ms` or `memory.lane_ms` is above [`MAX_TARGET_MS`].
	MemoryTooLong,
	/// The memory phase would exhaust a verifier: `memory.cache_items` above
	/// [`MAX_CACHE_ITEMS`] (every member builds the cache) or `memory.parents` × `memory.reads`
	/// above [`MAX_WALK_READS`] (cache reads to recompute one walk).
	MemoryTooCostly,
	/// `settle_per_block` is above [`MAX_SETTLE_PER_BLOCK`]: one block would settle more miners
	/// than it can weigh.
	SettlePerBlockTooLarge,
	/// A stored profile's GEMM would exhaust a verifier under this configuration: the entries a
	/// member checks (`openings` × `entries_per_opening`) at the profile's largest `k` (which grows
	/// with `target_ms`) would take one core more than `pog_primitives::verify::MAX_VERIFY_NS`
	/// ([`Pallet::verifier_ns`]).
	VerifierTooCostly,
}

/// The most miners settled in one block: about five times mainnet's 46, which weigh a quarter of
/// a block (`settle_weight`).
pub const MAX_SETTLE_PER_BLOCK: u32 = 256;

/// The longest `period`: a day of 6-second blocks.
pub const MAX_PERIOD: u32 = 14_400;
/// The longest GEMM target, and the longest memory phase part (ms): ten minutes.
pub const MAX_TARGET_MS: u32 = 600_000;
/// The most slack added to a deadline (ms): five minutes.
pub const MAX_SLACK_MS: u32 = 300_000;
/// The longest reveal or verdict window (blocks): an hour of 6-second blocks.
pub const MAX_WINDOW: u32 = 600;
/// The largest memory cache: 2²⁰ items of 64 bytes, 64 MiB that every member builds (mainnet's
/// is 16 MiB).
pub const MAX_CACHE_ITEMS: u32 = 1 << 20;
/// The most cache reads one walk costs a verifier to recompute (`parents` × `reads`): four times
/// mainnet's 1,024 × 64.
pub const MAX_WALK_READS: u64 = 1 << 18;

/// Most verifications by one validator's off-chain worker in one run, a block (wall time,
/// `offchain::RUN_TIME_MS`, bounds it first on any real machine): what sizes the configuration's
/// ceiling ([`ProtocolConfig::verifications_ceiling`]). The checks run natively on every core but
/// one (what one check costs a core: `scripts/bench-verifier.sh`, figures in
/// `benchmarking/README.md`); a served GPU's pass lands in the member's attestation
/// (`crate::attestation`), a revealed GPU's verdict in `submit_verdicts` transactions of
/// `MaxVerdicts`.
pub const MAX_VERIFICATIONS_PER_RUN: usize = 1_024;

impl ProtocolConfig {
	/// The most verifications a validator's off-chain worker can do in a round: its budget of
	/// `MAX_VERIFICATIONS_PER_RUN` a block from the draw to the verdict deadline (a served GPU is
	/// verified from the draw on, and its passes land in bulk, `crate::attestation`). Neither the
	/// configured nor the measured figure ([`crate::throughput`]) goes above it.
	pub fn verifications_ceiling(&self) -> u32 {
		(MAX_VERIFICATIONS_PER_RUN as u32).saturating_mul(self.reveal_window.saturating_add(self.verdict_window))
	}

	/// The first rule this configuration breaks, given the runtime's bounds on opened leaves
	/// (`max_openings`), validators (`max_validators`) and opened walks (`max_walk_openings`).
	/// Every bound that keeps a root's mistake from freezing rounds or exhausting a verifier is
	/// argued in `docs/protocol.md` §18, "Root's settings".
	pub fn validate(&self, max_openings: u32, max_validators: u32, max_walk_openings: u32) -> Result<(), ConfigRule> {
		use ConfigRule::*;
		let m = &self.memory;
		let rules = [
			(self.period > 0, ZeroPeriod),
			(self.start_jitter < self.period, JitterNotBelowPeriod),
			(self.target_ms > 0, ZeroTarget),
			(self.openings > 0 && self.openings <= max_openings, Openings),
			(
				self.entries_per_opening > 0 && self.entries_per_opening <= pog_primitives::LEAF_VALUES as u32,
				EntriesPerOpening,
			),
			(self.committee > 0 && self.committee <= max_validators, Committee),
			(
				self.verifications_per_validator > 0
					&& self.verifications_per_validator <= self.verifications_ceiling(),
				VerificationsPerValidator,
			),
			(self.reveal_window > 0, ZeroRevealWindow),
			(self.verdict_window > 0, ZeroVerdictWindow),
			(self.settle_per_block > 0, ZeroSettlePerBlock),
			(self.max_unverified_rounds > 0, ZeroMaxUnverifiedRounds),
			(pog_primitives::sizing::is_valid_chunk_k(self.chunk_k), ChunkK),
			(self.hardware_bound <= Perbill::from_percent(50), HardwareBound),
			(
				self.caps.gpus > 0 && self.caps.gpu_points > 0 && self.caps.ram_gib > 0 && self.caps.disk_gib > 0,
				ZeroCap,
			),
			(m.cache_items >= 2 && m.cache_items.is_power_of_two(), MemoryCache),
			(m.parents > 0 && m.reads > 0 && m.walk_ms > 0 && m.lane_ms > 0, MemoryZero),
			(m.openings > 0 && m.openings <= max_walk_openings, MemoryOpenings),
			(m.tolerance_percent < 100, MemoryTolerance),
			(self.period <= MAX_PERIOD, PeriodTooLong),
			(self.target_ms <= MAX_TARGET_MS && self.slack_ms <= MAX_SLACK_MS, DeadlineTooLong),
			(self.reveal_window <= MAX_WINDOW && self.verdict_window <= MAX_WINDOW, WindowTooLong),
			(self.verdict_window >= 3, VerdictWindowTooShort),
			(m.walk_ms <= MAX_TARGET_MS && m.lane_ms <= MAX_TARGET_MS, MemoryTooLong),
			(
				m.cache_items <= MAX_CACHE_ITEMS && u64::from(m.parents) * u64::from(m.reads) <= MAX_WALK_READS,
				MemoryTooCostly,
			),
			(self.settle_per_block <= MAX_SETTLE_PER_BLOCK, SettlePerBlockTooLarge),
		];
		match rules.into_iter().find(|(ok, _)| !ok) {
			Some((_, broken)) => Err(broken),
			None => Ok(()),
		}
	}

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
			// Forty blocks of duty space (1.25 MiB a block that normal transactions cannot take)
			// carry 359 reveals of an H100 (131 kB each): the sample fits them up to 50 validators
			// (`capacity`; ten blocks carried 89).
			reveal_window: 40,
			verdict_window: 20,
			// 45 miners of 16 GPUs, each served GPU's passes tallied (`attestation`) and its
			// contest and early failing votes read (`served`), take under a quarter of a block
			// (`settle_weight`); a full registry of 4,096 settles in 92 blocks (the last, which
			// finishes the round, in a smaller batch: `finishing_batch`).
			settle_per_block: 45,
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
				gpu_points: 8 * pog_primitives::profiles::H200.points() as u64,
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
			// Where the measurement starts (`throughput`).
			verifications_per_validator: 48,
			reveal_window: 4,
			verdict_window: 6,
			memory: MemoryRules::dev(),
			..Self::mainnet()
		}
	}
}

impl<T: Config> Pallet<T> {
	pub(crate) fn do_set_config(config: ProtocolConfig) -> DispatchResult {
		Self::validate_config(&config)?;
		Self::ensure_no_open_round()?;
		Configuration::<T>::put(config);
		// the measurement starts again from the new figure
		MeasuredThroughput::<T>::kill();
		Self::deposit_event(Event::ConfigUpdated { config });
		Ok(())
	}

	/// Refuses a configuration that breaks one of [`ProtocolConfig::validate`]'s rules, or under
	/// which a stored profile's GEMM would take a verifier's core longer than
	/// `pog_primitives::verify::MAX_VERIFY_NS` to check, naming the rule (`InvalidConfig(rule)`).
	pub(crate) fn validate_config(c: &ProtocolConfig) -> DispatchResult {
		c.validate(T::MaxOpenings::get(), T::MaxValidators::get(), <MaxWalkOpenings as Get<u32>>::get())
			.map_err(Error::<T>::InvalidConfig)?;
		ensure!(
			Self::profile_sizes().iter().all(|p| Self::verifier_ns(p, c) <= verify::MAX_VERIFY_NS),
			Error::<T>::InvalidConfig(ConfigRule::VerifierTooCostly)
		);
		Ok(())
	}

	/// What [`Self::validate_config`]'s check of every stored profile reads beyond `set_config`'s
	/// benchmark: `MaxProfiles` profiles.
	pub fn profiles_check_weight() -> Weight {
		let profiles = u64::from(T::MaxProfiles::get());
		T::DbWeight::get()
			.reads(profiles)
			.saturating_add(Weight::from_parts(0, profiles.saturating_mul(GpuProfile::max_encoded_len() as u64)))
	}

	/// What a profile's check of its verifier's cost reads beyond `add_profile`'s and
	/// `update_profile`'s benchmarks: the configuration.
	pub fn config_read_weight() -> Weight {
		T::DbWeight::get().reads(1).saturating_add(Weight::from_parts(0, ProtocolConfig::max_encoded_len() as u64))
	}

	/// One core's time (ns, estimated from above: `pog_primitives::verify::verify_ns`) to check
	/// the entries of the costliest GEMM a GPU of `profile` is challenged at under `config`: the
	/// entries of its opened leaves (`openings` × `entries_per_opening`), each a dot product of
	/// length `k`, in each challenged precision at its `k`.
	pub fn verifier_ns(profile: &ProfileFigures, config: &ProtocolConfig) -> u64 {
		let entries = u64::from(config.openings.min(T::MaxOpenings::get())) * u64::from(config.entries_per_opening);
		Precision::CHALLENGED
			.into_iter()
			.filter(|q| profile.challenged_in(*q))
			.map(|q| verify::verify_ns(&Self::timing_of(profile, q, config, &[0; 32]).dims, q, entries))
			.max()
			.unwrap_or(0)
	}
}
