//! What the agent sends, in the chain's generated types: openings, walks, reports, hardware.
//! (What it reads of a challenge needs no conversion: it decodes into `pog-primitives`' types.)

use super::pog::runtime_types::{
	bounded_collections::bounded_vec::BoundedVec,
	pallet_pog::{
		miners::Hardware,
		rounds::{AgentReport, RootCommit},
		verification::{Opening, WalkOpening},
	},
};
use pog_prover::{memory::OpenedWalk, trace, Committed, OpenedLeaf, Timing};

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

/// GPU `gpu`'s computed C as `commit_roots` carries it: its root and its timing report.
pub fn root_commit(gpu: u32, c: &dyn Committed, max_trace: usize) -> RootCommit {
	RootCommit { gpu, root: c.root(), report: report(c.timing(), max_trace) }
}

/// An opened leaf as the reveal extrinsic carries it.
pub fn opening(o: OpenedLeaf) -> Opening {
	Opening { leaf: o.leaf, values: BoundedVec(o.values), proof: BoundedVec(o.proof) }
}

/// What a miner serving its openings off chain answers a committee member with: the SCALE
/// encoding of `reveal_openings`' openings and walks (pallet-pog's `Opening` is leaf, values,
/// proof; `WalkOpening` is walk, result, proof; each bounded vector encodes as its vector).
pub fn served_openings(openings: &[Opening], walks: &[WalkOpening]) -> Vec<u8> {
	use subxt::ext::codec::Encode;
	let openings: Vec<_> = openings.iter().map(|o| (o.leaf, &o.values.0, &o.proof.0)).collect();
	let walks: Vec<_> = walks.iter().map(|w| (w.walk, &w.result, &w.proof.0)).collect();
	(openings, walks).encode()
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
