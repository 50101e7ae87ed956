//! The pallet's vocabulary in one place: every type it stores and passes, re-exported from the
//! file of the concept that owns it (`profiles.rs`, `miners.rs`, `rounds.rs`, `verification.rs`,
//! `scoring.rs`, `config.rs`, `views.rs`), the challenge's types from `pog_primitives::challenge`,
//! and the bounds of its vectors.

use frame_support::pallet_prelude::ConstU32;

pub use pog_primitives::{
	challenge::{ChallengeParams, GpuIndex, GpuUuid, MemoryParams, ProfileId},
	Dims, Precision,
};

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
/// Most verdicts in one `submit_verdicts`: what an off-chain worker verifies in a run, and more.
pub type MaxVerdicts = ConstU32<64>;
/// An opened walk as the committee recomputes it: (walk, result, its link's parents' digest).
pub type WalkResult = (u64, Hash32, Hash32);
/// Longest Merkle proof of a walk (one sibling per level of a tree over at most 2^64 walks).
pub type MaxWalkProofLen = ConstU32<64>;

pub use pog_primitives::memory::MemoryRules;

pub use crate::config::{ConfigRule, ProtocolConfig};
pub use crate::miners::{
	gpu_count_of, gpus_of, GpuClaim, Hardware, HardwareFault, MinerInfo, MAX_CPU_CORES, MAX_DISK_GIB, MAX_RAM_MIB,
	NEVER,
};
pub use crate::profiles::{GpuProfile, Profile, ProfileFigures, ProfileRule, ValidateProfile};
pub use crate::rounds::{
	AgentReport, Commitment, MemoryCommitment, MemoryRoot, RootCommit, RoundIndex, RoundInfo, RoundPhase, Selection,
};
pub use crate::scoring::{FailReason, GpuStanding, RoundOutcome, Score, ScoreCaps, UnverifiedReason, ZeroReason};
pub use crate::validators::{SessionIndex, ValidatorBond, ValidatorBondOf, ValidatorRule, ValidatorRules};
pub use crate::verification::{
	Opening, SelfReported, ValidatorRecord, Verdict, Verification, VerificationStatus, WalkOpening,
};
pub use crate::views::{ChallengeView, MinerView, RankEntry};
