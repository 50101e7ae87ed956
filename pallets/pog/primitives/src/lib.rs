//! # PoG primitives
//!
//! Everything that the chain (pallet-pog and its off-chain worker) and the miner agent
//! (`offchain-gpu`) must agree on bit for bit, written once:
//!
//! - [`challenge`]: one GPU's challenge in a round and the seeds its C follows from;
//! - [`philox`]: the Philox4x32-10 counter-based generator;
//! - [`precision`]: the challenge precisions and how a random word becomes an element of each;
//! - [`generator`]: the seeded matrices A (m×k) and B (k×n), any row of A or column of B on its own;
//! - [`sizing`]: challenge dimensions from a GPU profile and the deadline that follows;
//! - [`pricing`]: the rate each precision's challenge is priced at (native or int8 alias) and points;
//! - [`commitment`]: the leaf layout of C and its Keccak-256 binary Merkle tree;
//! - [`sampling`]: which leaves are opened, from randomness fixed after the commitment;
//! - [`verify`]: exact recomputation of sampled entries and the fp32-accumulation tolerance;
//! - [`memory`]: the memory-hard phase's cache, dataset, walks and their commitment;
//! - [`lanes`]: a per-core CPU unit's memory phase, latency-bound chains of reads a core;
//! - [`evidence`]: what a committee member commits to show it fetched the openings it voted on.
//!
//! The protocol and its numbers are written down in `docs/protocol.md`.
#![cfg_attr(not(feature = "std"), no_std)]
// One `unsafe` block: calling the verifier's AVX2 build after checking that the CPU has AVX2
// (`verify::exact_entries`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod challenge;
pub mod commitment;
pub mod cpu;
pub mod deposit;
pub mod endpoint;
pub mod evidence;
pub mod generator;
pub mod lanes;
pub mod memory;
pub mod philox;
pub mod precision;
pub mod pricing;
pub mod profiles;
pub mod sampling;
pub mod sizing;
pub mod verdict;
pub mod verify;

pub use commitment::{Hash32, Keccak256, LEAF_BYTES, LEAF_VALUES};
pub use generator::{ChallengeSeed, Matrix};
pub use precision::Precision;

/// Most intervals of an agent's throughput trace the chain stores with a commitment (the agent
/// coarsens a longer trace to fit): 32 entries, 128 bytes a GPU. It is information, stored with
/// the commitment for 4 rounds and carried in a duty whose fee is refunded, so it is kept short:
/// at 256 (to bfa5f92) it was 1 KiB a GPU, ≈ 330 MB of state at 65,536 GPUs, and the largest
/// part of a flood of commits.
pub const MAX_TRACE_LEN: u32 = 32;
pub use sizing::Dims;
