//! A per-core CPU unit's lane phase on the GPU (`pog_primitives::lanes`, bit for bit): the pads
//! made by `lane_pad`, then `lane_links`, a thread a lane running its links in order as a CPU
//! core does. No honest miner runs it (a CPU unit is answered by its CPU): it is the instrument
//! that shows what a GPU answering a CPU's claim takes (`bench --lanes`), and how an adversary's
//! GPU would answer one.

use std::time::Instant;

use pog_primitives::{
	lanes::{self, LANE_ITEMS},
	memory::{Item, MemoryChallenge, MemoryKind},
	Hash32,
};

use crate::{device::DevBuf, GpuError, GpuProver};

/// What one run of lanes on the GPU gave and took.
#[derive(Clone, Debug)]
pub struct LaneRun {
	/// The results of links `0..links_run` of every lane, lane by lane.
	pub results: Vec<Hash32>,
	/// Wall time of the pads (ms).
	pub pad_ms: f64,
	/// Wall time of the links (ms).
	pub links_ms: f64,
}

impl GpuProver {
	/// Runs the first `links_run` links of every lane of `challenge`'s lane phase (all of them:
	/// `lanes::links_per_lane`), a thread a lane.
	pub fn lanes(&self, challenge: &MemoryChallenge, links_run: u64) -> Result<LaneRun, GpuError> {
		let spec = &challenge.spec;
		let count = match spec.kind() {
			MemoryKind::Lanes(count) if spec.is_valid() && links_run <= lanes::links_per_lane(challenge) => count,
			_ => return Err(GpuError::InvalidSpec(format!("lane phase {spec:?}, {links_run} links a lane"))),
		};
		let g = self.lock()?;
		let lane_count = count as usize;
		let pad = DevBuf::<Item>::new(&g.ctx, lane_count * LANE_ITEMS as usize)?;
		let mut seed = DevBuf::<u8>::new(&g.ctx, 32)?;
		seed.copy_from_host(0, &spec.seed)?;
		let results = DevBuf::<Hash32>::new(&g.ctx, lane_count * links_run as usize)?;
		let st = &g.mm_stream;
		let started = Instant::now();
		g.kernels.lane_pad(st, seed.all(), 0, count, LANE_ITEMS, pad.all())?;
		st.synchronize()?;
		let pad_ms = started.elapsed().as_secs_f64() * 1e3;
		let started = Instant::now();
		g.kernels.lane_links(st, pad.all(), seed.all(), 0, count, LANE_ITEMS, links_run, spec.reads, results.all())?;
		st.synchronize()?;
		let links_ms = started.elapsed().as_secs_f64() * 1e3;
		let mut out = vec![Hash32::default(); results.len()];
		results.copy_to_host(0, &mut out)?;
		Ok(LaneRun { results: out, pad_ms, links_ms })
	}
}
