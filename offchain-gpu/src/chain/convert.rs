//! Conversions between `pog-primitives` types and the chain's generated types.

use pog_primitives::{
	memory::{self, MemoryChallenge, MemorySpec},
	verify::ChallengeSpec,
	Dims, Hash32, Precision,
};
use subxt::utils::AccountId32;

use super::pog::runtime_types::{
	bounded_collections::bounded_vec::BoundedVec,
	pallet_pog::types::{AgentReport, Hardware, Opening, WalkOpening},
	pog_primitives::{precision::Precision as ChainPrecision, sizing::Dims as ChainDims},
};
use super::ChallengeView;
use pog_prover::{memory::OpenedWalk, trace, OpenedLeaf, Timing};

/// The precision as `pog-primitives` knows it.
pub fn precision(p: &ChainPrecision) -> Precision {
	match p {
		ChainPrecision::Fp32 => Precision::Fp32,
		ChainPrecision::Tf32 => Precision::Tf32,
		ChainPrecision::Fp16 => Precision::Fp16,
		ChainPrecision::Bf16 => Precision::Bf16,
		ChainPrecision::Fp8E4M3 => Precision::Fp8E4M3,
	}
}

/// The dims as `pog-primitives` knows them.
pub fn dims(d: &ChainDims) -> Dims {
	Dims { m: d.m, n: d.n, k: d.k }
}

/// Everything that defines the challenge's C: A and B from the GPU's seed, or with a memory
/// phase from its seed and the phase's root (`pog_primitives::memory::gemm_seed`).
pub fn spec(ch: &ChallengeView<AccountId32>, memory_root: Option<&Hash32>) -> ChallengeSpec {
	let p = &ch.params;
	let seed = memory_root.map_or(p.seed, |root| memory::gemm_seed(&p.seed, root));
	ChallengeSpec { seed, precision: precision(&p.precision), dims: dims(&p.dims), chunk_k: p.chunk_k }
}

/// The challenge's memory phase, if its profile has one (its seed from the GPU's seed).
pub fn memory_challenge(ch: &ChallengeView<AccountId32>) -> Option<MemoryChallenge> {
	let m = ch.params.memory.as_ref()?;
	Some(MemoryChallenge {
		spec: MemorySpec {
			seed: memory::memory_seed(&ch.params.seed),
			cache_items: m.cache_items,
			dataset_items: m.dataset_items,
			parents: m.parents,
			reads: m.reads,
		},
		walks: m.walks,
		expected_ms: m.expected_ms,
	})
}

/// An opened walk as the reveal extrinsic carries it.
pub fn walk_opening(o: OpenedWalk) -> WalkOpening {
	WalkOpening { walk: o.walk, result: o.result, proof: BoundedVec(o.proof) }
}

/// The agent's timing report as the chain stores it (trace capped at `max_trace` entries by
/// merging neighbouring intervals).
pub fn report(t: &Timing, max_trace: usize) -> AgentReport {
	let (interval_ms, trace) = trace::cap(t.interval_ms, t.trace_gflops.clone(), max_trace);
	AgentReport { elapsed_ms: t.total.as_millis() as u64, interval_ms, trace_gflops: BoundedVec(trace) }
}

/// An opened leaf as the reveal extrinsic carries it.
pub fn opening(o: OpenedLeaf) -> Opening {
	Opening { leaf: o.leaf, values: BoundedVec(o.values), proof: BoundedVec(o.proof) }
}

/// The machine's CPU, memory and disk as registration claims them.
pub fn hardware(m: &crate::hardware::Machine) -> Hardware {
	let mut model = m.cpu_model.as_bytes().to_vec();
	model.truncate(96);
	Hardware { cpu_cores: m.cpu_cores, cpu_model: BoundedVec(model), ram_mib: m.ram_mib, disk_gib: m.disk_gib }
}

/// A profile's or UUID's bytes as text.
pub fn text(bytes: &[u8]) -> String {
	String::from_utf8_lossy(bytes).into_owned()
}
