//! The bounds of the pallet's vectors, and its hash. Each type it stores and passes lives in the
//! file of the concept that owns it (`profiles.rs`, `miners.rs`, `rounds.rs`, `verification.rs`,
//! `scoring.rs`, `config.rs`, `views.rs`), the challenge's types in `pog_primitives::challenge`;
//! the crate's root re-exports them for the runtime and its clients.

use frame_support::pallet_prelude::ConstU32;

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
/// Longest Merkle proof of a walk (one sibling per level of a tree over at most 2^64 walks).
pub type MaxWalkProofLen = ConstU32<64>;
