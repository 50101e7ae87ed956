//! The memory-hard phase on the GPU (`pog_primitives::memory`, bit for bit): the cache made on
//! the host and copied over, the dataset filled by `mem_fill`, and walks in batches of
//! [`BATCH_WALKS`], each in three stages: first mixes (`mem_walk_start`), reads (`mem_walk`) and
//! results (`mem_walk_end`), reduced on the device to one node per group of [`GROUP_WALKS`] walks
//! (`hash_nodes`); the host keeps those nodes and builds the root over them. Two batches are in
//! flight: the reads of one on one stream while the other stream hashes the batches around it.
//! Opening a walk later recomputes its whole group on the device from the cache alone
//! (`mem_walk_partial` over listed groups). `GpuProver` is a [`MemoryProver`] through it;
//! `selftest` holds it against the known answers and `bench --memory` measures it.

use std::{
	sync::Arc,
	time::{Duration, Instant},
};

use cudarc::driver::{CudaContext, CudaEvent, CudaStream};
use pog_primitives::{
	memory::{self, levels_from, Item, MemoryChallenge, MemorySpec, GROUP_WALKS, ITEM_BYTES},
	Hash32,
};
use pog_prover::memory::{MemoryCommitment, MemoryProver};

use crate::{
	device::{DevBuf, Kernels, Mix, PartialDataset, WalkReads, Walks},
	kernels::WalkShape,
	prover::{ms, timing_event},
	GpuError, GpuProver,
};

/// Walks per kernel launch: about 20 ms of reads on an H100, so the last wave's tail costs little.
const BATCH_WALKS: u64 = 1 << 23;

// `Slot::commit` ends its levels in `results`, where `Slot::group_roots` reads them.
const _: () = assert!(GROUP_WALKS.trailing_zeros().is_multiple_of(2), "an even number of levels a group");

/// Device bytes a walk of a batch takes: its mix (64), its result (32) and half a tree node (16).
const BATCH_BYTES_PER_WALK: u64 = 64 + 32 + 16;

/// One of the two batches in flight: its walks' mixes, their results (and the group nodes made
/// over them), and the events that order its three stages across the two streams.
struct Slot {
	/// One mix a walk.
	mix: DevBuf<Mix>,
	/// One result a walk, then the even levels of the groups' trees (their nodes in the first
	/// entries), the last being the groups' nodes.
	results: DevBuf<Hash32>,
	/// The odd levels of the groups' trees: half a node a walk.
	half: DevBuf<Hash32>,
	started: CudaEvent,
	walked: CudaEvent,
	hashed: CudaEvent,
}

impl Slot {
	fn new(ctx: &Arc<CudaContext>, walks: u64) -> Result<Self, GpuError> {
		Ok(Self {
			mix: DevBuf::new(ctx, walks as usize)?,
			results: DevBuf::new(ctx, walks as usize)?,
			half: DevBuf::new(ctx, walks.div_ceil(2) as usize)?,
			started: ctx.new_event(None)?,
			walked: ctx.new_event(None)?,
			hashed: ctx.new_event(None)?,
		})
	}

	/// `count` results → one node per group of GROUP_WALKS: log₂ GROUP_WALKS levels, back and
	/// forth between `results` and `half`, ending in `results` (an even number of levels).
	fn commit(&self, kernels: &Kernels, stream: &CudaStream, count: u32) -> Result<(), GpuError> {
		let (mut below, mut above, mut nodes) = (&self.results, &self.half, count as usize);
		while nodes > count as usize / GROUP_WALKS as usize {
			kernels.hash_nodes(stream, below.span(0, nodes)?, above.span(0, nodes / 2)?, nodes as u64 / 2)?;
			nodes /= 2;
			std::mem::swap(&mut below, &mut above);
		}
		Ok(())
	}

	/// The group nodes of this slot's last batch (`count` walks), once its hashing is done.
	fn group_roots(&self, count: u32) -> Result<Vec<Hash32>, GpuError> {
		self.hashed.synchronize()?;
		let mut roots = vec![Hash32::default(); (u64::from(count) / GROUP_WALKS) as usize];
		self.results.copy_to_host(0, &mut roots)?;
		Ok(roots)
	}
}

/// What one memory-hard phase on the GPU gave and took.
#[derive(Clone, Debug)]
pub struct MemoryRun {
	/// The root of the commitment over every walk's result.
	pub root: Hash32,
	/// One node per group of [`GROUP_WALKS`] walks (what a prover keeps to open walks later).
	pub group_roots: Vec<Hash32>,
	/// The results of the walks asked for (`keep`), in that order.
	pub kept: Vec<Hash32>,
	/// Dataset items asked for (`read_back`), read back after the fill.
	pub items: Vec<Item>,
	/// GPU time of the fill (ms).
	pub fill_ms: f64,
	/// Wall time of the walks and the commitment, from the end of the fill to the root (ms).
	pub walk_ms: f64,
	/// Wall time of the whole call, allocation and copies included (ms).
	pub total_ms: f64,
}

/// How much of the dataset a run keeps: all of it (the agent), or a cheater's part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Residency {
	/// Every item in memory, walked in the shape for its size ([`WalkShape::for_dataset`]).
	Whole,
	/// Every item in memory, walked in the given shape (the self-test checks each shape).
	WholeIn(WalkShape),
	/// Only the first `n` items in memory; the others made again from the cache when read
	/// (an instrument: a card that cannot hold the dataset, or that keeps part of it).
	First(u64),
}

impl GpuProver {
	/// Fills `spec`'s dataset on the device from `cache` (made by `pog_primitives::memory::cache`),
	/// runs `walks` (the protocol's are `0..n`; both ends a whole number of groups), commits to
	/// their results, and reads back the results of the walks in `keep` and the dataset items at
	/// `read_back`.
	pub fn memory_phase(
		&self,
		spec: &MemorySpec,
		cache: &[Item],
		walks: std::ops::Range<u64>,
		keep: &[u64],
		read_back: &[u64],
		residency: Residency,
	) -> Result<MemoryRun, GpuError> {
		let started = Instant::now();
		let resident = match residency {
			Residency::Whole | Residency::WholeIn(_) => spec.dataset_items,
			Residency::First(n) => n.min(spec.dataset_items),
		};
		if !spec.is_valid()
			|| cache.len() != spec.cache_items as usize
			|| walks.is_empty()
			|| !walks.start.is_multiple_of(GROUP_WALKS)
			|| !walks.end.is_multiple_of(GROUP_WALKS)
			|| keep.iter().any(|w| !walks.contains(w))
			|| read_back.iter().any(|i| *i >= resident)
		{
			return Err(GpuError::InvalidSpec(format!(
				"memory spec {spec:?} with {} cache items, walks {walks:?} (ends multiples of {GROUP_WALKS})",
				cache.len()
			)));
		}
		let g = self.lock()?;
		let cache_bytes = cache.len() * ITEM_BYTES;
		let total = walks.end - walks.start;
		let batch = BATCH_WALKS.min(total);
		let dataset_bytes = resident.max(1) * ITEM_BYTES as u64;
		Self::check_memory(&g.ctx, dataset_bytes + cache_bytes as u64 + 2 * BATCH_BYTES_PER_WALK * batch)?;
		let (cache_buf, prefix_buf) = upload_cache_and_prefix(&g.ctx, spec, cache)?;
		let dataset = DevBuf::<Item>::new(&g.ctx, resident.max(1) as usize)?;
		let slots = [Slot::new(&g.ctx, batch)?, Slot::new(&g.ctx, batch)?];
		let mut kept_buf = DevBuf::<Hash32>::new(&g.ctx, keep.len())?;
		// walks (reads) on one stream, their hashing on the other: batch i + 1's first mixes and
		// batch i − 1's results and nodes are made while batch i's walks read
		let (walk_st, hash_st) = (&g.gen_stream, &g.mm_stream);
		let (e0, e1) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?);
		e0.record(hash_st)?;
		let fill = dataset.span(0, resident as usize)?;
		g.kernels.mem_fill(hash_st, cache_buf.all(), fill, 0, resident, spec.parents)?;
		e1.record(hash_st)?;
		hash_st.synchronize()?;
		let walks_started = Instant::now();
		let partial = (resident < spec.dataset_items).then_some(PartialDataset {
			resident,
			cache: cache_buf.all(),
			parents: spec.parents,
		});
		// where the walks read, decided once for the phase
		let from = match (&partial, residency) {
			(Some(p), _) => WalkReads::Partial(p),
			(None, Residency::WholeIn(shape)) => WalkReads::Whole(shape),
			(None, _) => WalkReads::Whole(WalkShape::for_dataset(spec.dataset_bytes())),
		};
		let batches: Vec<Walks> = (walks.start..walks.end)
			.step_by(batch as usize)
			.map(|first| Walks::range(first, batch.min(walks.end - first) as u32))
			.collect();
		let mut group_roots = Vec::with_capacity((total / GROUP_WALKS) as usize);
		let first_mix = slots[0].mix.span(0, batches[0].count as usize)?;
		g.kernels.mem_walk_start(hash_st, prefix_buf.all(), &batches[0], first_mix)?;
		slots[0].started.record(hash_st)?;
		for (i, b) in batches.iter().enumerate() {
			let (slot, other) = (&slots[i % 2], &slots[(i + 1) % 2]);
			let count = b.count as usize;
			walk_st.wait(&slot.started)?;
			let (items, mix) = (dataset.span(0, resident as usize)?, slot.mix.span(0, count)?);
			g.kernels.mem_walk(walk_st, items, spec.dataset_items, b, spec.reads, mix, from)?;
			slot.walked.record(walk_st)?;
			if let Some(next) = batches.get(i + 1) {
				// `other` is free: batch i − 1's hashing, before this on the same stream, is done with it
				let next_mix = other.mix.span(0, next.count as usize)?;
				g.kernels.mem_walk_start(hash_st, prefix_buf.all(), next, next_mix)?;
				other.started.record(hash_st)?;
			}
			hash_st.wait(&slot.walked)?;
			g.kernels.mem_walk_end(hash_st, mix, b.count, slot.results.span(0, count)?)?;
			for (k, w) in keep.iter().enumerate() {
				if (b.first..b.first + u64::from(b.count)).contains(w) {
					kept_buf.copy_from_device(hash_st, k, &slot.results, (w - b.first) as usize, 1)?;
				}
			}
			slot.commit(&g.kernels, hash_st, b.count)?;
			slot.hashed.record(hash_st)?;
			if i > 0 {
				group_roots.extend(other.group_roots(batches[i - 1].count)?);
			}
		}
		let last = batches.len() - 1;
		group_roots.extend(slots[last % 2].group_roots(batches[last].count)?);
		let mut kept = vec![Hash32::default(); keep.len()];
		kept_buf.copy_to_host(0, &mut kept)?;
		let root = levels_from(group_roots.clone(), GROUP_WALKS.trailing_zeros())
			.last()
			.and_then(|l| l.first().copied())
			.unwrap_or_default();
		let walk_ms = walks_started.elapsed().as_secs_f64() * 1e3;
		let mut items = Vec::with_capacity(read_back.len());
		for &i in read_back {
			let mut item = [Item::default()];
			dataset.copy_to_host(i as usize, &mut item)?;
			items.push(item[0]);
		}
		Ok(MemoryRun {
			root,
			group_roots,
			kept,
			items,
			fill_ms: ms(&e0, &e1)?,
			walk_ms,
			total_ms: started.elapsed().as_secs_f64() * 1e3,
		})
	}
}

impl GpuProver {
	/// Every walk of each group in `groups` (one `Vec` of [`GROUP_WALKS`] results a group, in the
	/// order asked), every dataset item made from `cache` on the device: opening walks once the
	/// dataset is gone, as `pog_primitives::memory::group_results` does on the CPU.
	pub fn walk_groups(&self, spec: &MemorySpec, cache: &[Item], groups: &[u64]) -> Result<Vec<Vec<Hash32>>, GpuError> {
		if !spec.is_valid()
			|| cache.len() != spec.cache_items as usize
			|| groups.iter().any(|g| g.checked_mul(GROUP_WALKS).is_none())
		{
			return Err(GpuError::InvalidSpec(format!("memory spec {spec:?} with {} cache items", cache.len())));
		}
		if groups.is_empty() {
			return Ok(Vec::new());
		}
		let g = self.lock()?;
		let walks = groups.len() * GROUP_WALKS as usize;
		let (cache_buf, prefix_buf) = upload_cache_and_prefix(&g.ctx, spec, cache)?;
		let mut groups_buf = DevBuf::<u64>::new(&g.ctx, groups.len())?;
		groups_buf.copy_from_host(0, groups)?;
		let mix = DevBuf::<Mix>::new(&g.ctx, walks)?;
		let results = DevBuf::<Hash32>::new(&g.ctx, walks)?;
		let from_cache = PartialDataset { resident: 0, cache: cache_buf.all(), parents: spec.parents };
		let count = u32::try_from(walks).map_err(|_| {
			GpuError::InvalidSpec(format!("{} groups of {GROUP_WALKS} walks exceed one launch", groups.len()))
		})?;
		let listed = Walks { first: 0, count, groups: Some(groups_buf.all()), group_walks: GROUP_WALKS as u32 };
		let st = &g.mm_stream;
		let (mix_span, results_span) = (mix.span(0, walks)?, results.span(0, walks)?);
		g.kernels.mem_walk_start(st, prefix_buf.all(), &listed, mix_span)?;
		// `resident` 0: every item is made from the cache, which stands in for the dataset
		let from = WalkReads::Partial(&from_cache);
		g.kernels.mem_walk(st, cache_buf.all(), spec.dataset_items, &listed, spec.reads, mix_span, from)?;
		g.kernels.mem_walk_end(st, mix_span, listed.count, results_span)?;
		st.synchronize()?;
		let mut all = vec![Hash32::default(); walks];
		results.copy_to_host(0, &mut all)?;
		Ok(all.chunks_exact(GROUP_WALKS as usize).map(<[Hash32]>::to_vec).collect())
	}
}

/// `cache` and the walks' prefix (`WALK_TAG ‖ seed`) on the device, for the walk kernels.
fn upload_cache_and_prefix(
	ctx: &Arc<CudaContext>,
	spec: &MemorySpec,
	cache: &[Item],
) -> Result<(DevBuf<Item>, DevBuf<u8>), GpuError> {
	let mut cache_buf = DevBuf::new(ctx, cache.len())?;
	cache_buf.copy_from_host(0, cache)?;
	let prefix = [memory::WALK_TAG, &spec.seed[..]].concat();
	let mut prefix_buf = DevBuf::new(ctx, prefix.len())?;
	prefix_buf.copy_from_host(0, &prefix)?;
	Ok((cache_buf, prefix_buf))
}

impl MemoryProver for GpuProver {
	fn group_results(&self, spec: &MemorySpec, cache: &[Item], groups: &[u64]) -> anyhow::Result<Vec<Vec<Hash32>>> {
		Ok(self.walk_groups(spec, cache, groups)?)
	}

	fn prove_memory(&self, challenge: &MemoryChallenge) -> anyhow::Result<MemoryCommitment> {
		if let memory::MemoryKind::Lanes(_) = challenge.spec.kind() {
			// a CPU unit's lanes on the GPU: only an adversary answers one so (`crate::lanes`)
			let run = self.lanes(challenge, pog_primitives::lanes::links_per_lane(challenge))?;
			let (fill, walks) = (run.pad_ms / 1e3, run.links_ms / 1e3);
			return MemoryCommitment::of_results(
				*challenge,
				run.results,
				Duration::from_secs_f64(fill),
				Duration::from_secs_f64(walks),
			);
		}
		let cache = memory::cache(&challenge.spec);
		let run = self.memory_phase(&challenge.spec, &cache, 0..challenge.walks, &[], &[], Residency::Whole)?;
		MemoryCommitment::new(
			*challenge,
			cache,
			run.group_roots,
			Duration::from_secs_f64(run.fill_ms / 1e3),
			Duration::from_secs_f64(run.walk_ms / 1e3),
		)
	}
}
