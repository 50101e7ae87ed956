//! The device-neutral prover of the `offchain-gpu` miner agent.
//!
//! A device answers a challenge through two traits: [`Prover`] computes the challenge's C,
//! commits to it (its Merkle root) and keeps what openings need, as a [`Committed`] that later
//! opens the sampled leaves ([`OpenedLeaf`]). Where the time went is a [`Timing`], with the
//! throughput-over-time trace of [`trace`].
//!
//! - [`memory::MemoryProver`] runs the memory-hard phase and commits to its walks; the
//!   [`memory::MemoryCommitment`] it gives opens any walk later from the cache alone.
//! - [`cpu::CpuProver`] is the reference device: `pog-primitives`' GEMM on all cores (CI, the dev
//!   chain's `cpu-reference` profile, and the fallback when no GPU is found).
//! - `pog-cuda` implements [`Prover`] for CUDA GPUs; this crate never depends on it.
//! - [`adversary`] (cargo feature `adversary`, tests only) computes the ways a cheating miner
//!   would answer, so that the tests can show each is caught.

#![warn(missing_docs)]

use pog_primitives::{verify::ChallengeSpec, Hash32};

#[cfg(feature = "adversary")]
pub mod adversary;
pub mod cpu;
pub mod memory;
pub mod trace;

/// One opened leaf with its Merkle path (siblings from the leaf level up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedLeaf {
	/// Leaf index.
	pub leaf: u32,
	/// The leaf's 256 fp32 bit patterns.
	pub values: Vec<u32>,
	/// Sibling hashes, leaf level first.
	pub proof: Vec<Hash32>,
}

/// Where the time of a proof went.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timing {
	/// Wall time from start to root (what the chain's deadline measures).
	pub total: std::time::Duration,
	/// Time the GEMMs ran (on the GPU: the sum of the GEMM kernels' times).
	pub gemm: std::time::Duration,
	/// Generation of A and B not hidden behind a GEMM.
	pub generation: std::time::Duration,
	/// Hashing the leaves.
	pub hashing: std::time::Duration,
	/// Building the tree above the leaves.
	pub tree: std::time::Duration,
	/// Interval of `trace_gflops` in milliseconds.
	pub interval_ms: u32,
	/// Achieved GFLOPS per interval, from start to end (the throughput-over-time trace).
	pub trace_gflops: Vec<u32>,
}

/// A computed and committed C, ready to open leaves.
pub trait Committed: Send {
	/// The Merkle root of C.
	fn root(&self) -> Hash32;
	/// How long it took, and the throughput trace.
	fn timing(&self) -> &Timing;
	/// The given leaves with their proofs, in the order asked.
	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>>;
}

/// Progress callback: fraction of the GEMM done, in `0.0..=1.0`.
pub type Progress<'a> = &'a (dyn Fn(f64) + Sync);

/// A device that answers challenges: the memory phase ([`memory::MemoryProver`]) and the GEMM.
pub trait Prover: memory::MemoryProver + Send + Sync {
	/// Human-readable name of the device (e.g. `GPU 0: NVIDIA H100 80GB HBM3`).
	fn name(&self) -> String;

	/// Compute `spec`'s C as the protocol asks, commit to it and keep what openings need.
	fn prove(&self, spec: &ChallengeSpec, progress: Progress) -> anyhow::Result<Box<dyn Committed>>;

	/// Compute `spec`'s C with every operand first rounded to `mantissa_bits` bits (ties to
	/// even), as a GEMM run in a cheaper format than asked would: the instrument that shows such
	/// results fail verification (self-tests, the adversarial tests). A device that cannot
	/// round to that width says so.
	fn prove_rounded(
		&self,
		spec: &ChallengeSpec,
		mantissa_bits: u32,
		progress: Progress,
	) -> anyhow::Result<Box<dyn Committed>>;

	/// Get ready for challenges of `spec`'s shape (GPU: tune the GEMM once, so that the first
	/// challenge does not pay for it). The default does nothing.
	fn prepare(&self, _spec: &ChallengeSpec) -> anyhow::Result<()> {
		Ok(())
	}
}

/// What the crate's tests share: whether a committed C passes the chain's checks.
#[cfg(test)]
pub(crate) mod test_support {
	use pog_primitives::{
		commitment::verify_opening, sampling::opened_leaves, verify::check_openings, verify::ChallengeSpec,
	};

	use crate::Committed;

	/// Opens 16 sampled leaves, asserts their paths verify, and returns whether the entries pass.
	pub fn passes_verification(s: &ChallengeSpec, committed: &dyn Committed) -> bool {
		let leaves = opened_leaves(&[9u8; 32], s.dims.num_leaves(), 16);
		let opened = committed.open(&leaves).unwrap();
		for o in &opened {
			assert!(verify_opening(&committed.root(), &s.dims, o.leaf, &o.values, &o.proof), "paths are valid");
		}
		check_openings(s, opened.iter().map(|o| (o.leaf, o.values.as_slice())), 4, &[5u8; 32]).passed()
	}
}
