//! The GPU backend: `pog-cuda` (cuBLASLt GEMMs, on-device generation and Merkle tree) behind the
//! agent's [`Prover`] trait. One prover per GPU; the miner runs them on their own threads.

use pog_primitives::{commitment::Hash32, verify::ChallengeSpec};

use super::{computed_precision, Committed, Mode, OpenedLeaf, Progress, Prover, Timing};

pub use pog_cuda::{detect, GpuInfo};

/// One GPU.
pub struct GpuBackend {
	prover: pog_cuda::GpuProver,
}

impl GpuBackend {
	/// Opens GPU `ordinal` (a CUDA context and its streams).
	pub fn open(ordinal: usize) -> anyhow::Result<Self> {
		Ok(Self { prover: pog_cuda::GpuProver::new(ordinal)? })
	}

	/// The GPU's NVML facts now.
	pub fn info(&self) -> GpuInfo {
		self.prover.info()
	}
}

struct GpuCommitted(pog_cuda::GpuCommitment);

impl Committed for GpuCommitted {
	fn root(&self) -> Hash32 {
		self.0.root()
	}
	fn timing(&self) -> &Timing {
		self.0.timing()
	}
	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>> {
		Ok(self.0.open(leaves)?)
	}
}

impl Prover for GpuBackend {
	fn name(&self) -> String {
		let info = self.prover.info();
		format!("GPU {}: {} ({})", info.ordinal, info.name, info.uuid)
	}

	fn prove(&self, spec: &ChallengeSpec, mode: Mode, progress: Progress) -> anyhow::Result<Box<dyn Committed>> {
		anyhow::ensure!(
			!matches!(mode, Mode::CorruptPermille(_) | Mode::Constant),
			"the corrupt-result and constant-result adversaries run on the CPU backend only"
		);
		let committed = self.prover.prove(spec, computed_precision(spec.precision, mode), progress)?;
		Ok(Box::new(GpuCommitted(committed)))
	}

	fn prepare(&self, spec: &ChallengeSpec) -> anyhow::Result<()> {
		let took = self.prover.prepare(spec, spec.precision)?;
		tracing::debug!(precision = spec.precision.name(), ?took, "GEMM tuned for this shape");
		Ok(())
	}
}
