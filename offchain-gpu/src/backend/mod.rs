//! Compute backends: they compute a challenge's C, commit to it (Merkle root) and later open
//! sampled leaves. The GPU backend (CUDA through cudarc) keeps C and the tree on the device; the
//! CPU backend (pure Rust over `pog-primitives`) keeps them in memory and is for small challenges
//! (CI, the dev chain's `cpu-reference` profile) and as the fallback when no GPU is found.

pub mod cpu;
pub mod gpu;

use pog_primitives::{commitment::Hash32, verify::ChallengeSpec, Precision};

/// How an agent computes: honestly, or (tests only) in one of the ways a cheating miner would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mode {
	/// The protocol's computation.
	#[default]
	Honest,
	/// Compute in the next-lower precision ([`Precision::next_lower`]); operands are rounded to it.
	LowerPrecision,
	/// Add a large error to a fraction (per mille) of C's entries before committing.
	CorruptPermille(u16),
	/// Commit a C whose entries are all one constant drawn from the seed, without computing
	/// anything (any size, instantly; distinct roots, so the chain's replay check does not stop it).
	Constant,
}

pub use pog_cuda::{OpenedLeaf, Timing};

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

/// A device that answers challenges.
pub trait Prover: Send + Sync {
	/// Human-readable name of the device (e.g. `GPU 0: NVIDIA H100 80GB HBM3`).
	fn name(&self) -> String;
	/// Compute `spec`'s C in `mode`, commit to it and keep what openings need.
	fn prove(&self, spec: &ChallengeSpec, mode: Mode, progress: Progress) -> anyhow::Result<Box<dyn Committed>>;
	/// Get ready for challenges of `spec`'s shape (GPU: tune the GEMM once, so that the first
	/// challenge does not pay for it). The default does nothing.
	fn prepare(&self, _spec: &ChallengeSpec) -> anyhow::Result<()> {
		Ok(())
	}
}

/// The precision actually computed in for `requested` under `mode`.
pub fn computed_precision(requested: Precision, mode: Mode) -> Precision {
	match mode {
		Mode::LowerPrecision => requested.next_lower().unwrap_or(requested),
		_ => requested,
	}
}
