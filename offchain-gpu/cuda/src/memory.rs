//! The memory-hard phase on the GPU (`pog_primitives::memory`, bit for bit): the cache made on
//! the host and copied over, the dataset filled by `mem_fill`, walks run by `mem_walk` in
//! batches, and each batch's results reduced on the device to one node per group of
//! [`GROUP_WALKS`] walks (`hash_nodes`); the host keeps those nodes and builds the root over
//! them. Opening a walk later recomputes its whole group on the device from the cache alone
//! (`mem_walk_groups`). `GpuProver` is a [`MemoryProver`] through it; `selftest` holds it
//! against the known answers and `bench --memory` measures it.

use std::time::Instant;

use std::time::Duration;

use pog_primitives::{
	memory::{self, levels_from, Item, MemoryChallenge, MemorySpec, GROUP_WALKS, ITEM_BYTES, ITEM_WORDS},
	Hash32,
};
use pog_prover::memory::{MemoryCommitment, MemoryProver};

use crate::{
	device::{copy_to_device, copy_to_host, DevBuf, PartialDataset},
	prover::{ms, timing_event},
	GpuError, GpuProver,
};

/// Walks per kernel launch (results: 128 MiB, and half that for the first tree level).
const BATCH_WALKS: u64 = 1 << 22;

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
	/// Every item in memory.
	Whole,
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
			Residency::Whole => spec.dataset_items,
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
		Self::check_memory(&g.ctx, dataset_bytes + cache_bytes as u64 + 48 * batch)?;
		let (cache_buf, prefix_buf) = upload_cache_and_prefix(&g.ctx, spec, cache)?;
		let dataset = DevBuf::new(&g.ctx, dataset_bytes as usize)?;
		let results = DevBuf::new(&g.ctx, 32 * batch as usize)?;
		let half = DevBuf::new(&g.ctx, 16 * batch as usize)?;
		let st = &g.mm_stream;
		let (e0, e1) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?);
		e0.record(st)?;
		g.kernels.mem_fill(st, cache_buf.ptr, spec.cache_items - 1, dataset.ptr, 0, resident, spec.parents)?;
		e1.record(st)?;
		st.synchronize()?;
		let walks_started = Instant::now();
		let partial = (resident < spec.dataset_items).then_some(PartialDataset {
			resident,
			cache: cache_buf.ptr,
			cache_mask: spec.cache_items - 1,
			parents: spec.parents,
		});
		let mut group_roots = Vec::with_capacity((total / GROUP_WALKS) as usize);
		let mut kept = vec![[0u8; 32]; keep.len()];
		let mut first = walks.start;
		while first < walks.end {
			let count = batch.min(walks.end - first);
			g.kernels.mem_walk(
				st,
				dataset.ptr,
				spec.dataset_items,
				prefix_buf.ptr,
				first,
				count as u32,
				spec.reads,
				results.ptr,
				partial.as_ref(),
			)?;
			st.synchronize()?;
			for (slot, w) in kept.iter_mut().zip(keep) {
				if (first..first + count).contains(w) {
					copy_to_host(&g.ctx, results.ptr + (w - first) * 32, slot)?;
				}
			}
			// GROUP_WALKS results → one node: log₂ GROUP_WALKS levels, back and forth.
			let (mut below, mut above, mut nodes) = (results.ptr, half.ptr, count);
			while nodes > count / GROUP_WALKS {
				g.kernels.hash_nodes(st, below, above, nodes / 2)?;
				nodes /= 2;
				std::mem::swap(&mut below, &mut above);
			}
			st.synchronize()?;
			let mut raw = vec![0u8; 32 * nodes as usize];
			copy_to_host(&g.ctx, below, &mut raw)?;
			group_roots.extend(raw.chunks_exact(32).map(|c| <Hash32>::try_from(c).expect("32 bytes")));
			first += count;
		}
		let root = levels_from(group_roots.clone(), GROUP_WALKS.trailing_zeros())
			.last()
			.and_then(|l| l.first().copied())
			.unwrap_or_default();
		let walk_ms = walks_started.elapsed().as_secs_f64() * 1e3;
		let mut items = Vec::with_capacity(read_back.len());
		for i in read_back {
			let mut item = [0u32; ITEM_WORDS];
			copy_to_host(&g.ctx, dataset.ptr + i * ITEM_BYTES as u64, &mut item)?;
			items.push(item);
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
		let groups_buf = DevBuf::new(&g.ctx, 8 * groups.len())?;
		copy_to_device(&g.ctx, groups, groups_buf.ptr)?;
		let results = DevBuf::new(&g.ctx, 32 * walks)?;
		let from_cache = PartialDataset {
			resident: 0,
			cache: cache_buf.ptr,
			cache_mask: spec.cache_items - 1,
			parents: spec.parents,
		};
		let st = &g.mm_stream;
		g.kernels.mem_walk_groups(
			st,
			spec.dataset_items,
			prefix_buf.ptr,
			groups_buf.ptr,
			groups.len() as u32,
			GROUP_WALKS as u32,
			spec.reads,
			results.ptr,
			&from_cache,
		)?;
		st.synchronize()?;
		let mut raw = vec![0u8; 32 * walks];
		copy_to_host(&g.ctx, results.ptr, &mut raw)?;
		Ok(raw
			.chunks_exact(32 * GROUP_WALKS as usize)
			.map(|group| group.chunks_exact(32).map(|c| <Hash32>::try_from(c).expect("32 bytes")).collect())
			.collect())
	}
}

/// `cache` and the walks' prefix (`WALK_TAG ‖ seed`) on the device, for the walk kernels.
fn upload_cache_and_prefix(
	ctx: &std::sync::Arc<cudarc::driver::CudaContext>,
	spec: &MemorySpec,
	cache: &[Item],
) -> Result<(DevBuf, DevBuf), GpuError> {
	let cache_buf = DevBuf::new(ctx, cache.len() * ITEM_BYTES)?;
	let words: Vec<u32> = cache.iter().flat_map(|i| i.iter().copied()).collect();
	copy_to_device(ctx, &words, cache_buf.ptr)?;
	let prefix = [memory::WALK_TAG, &spec.seed[..]].concat();
	let prefix_buf = DevBuf::new(ctx, prefix.len())?;
	copy_to_device(ctx, &prefix, prefix_buf.ptr)?;
	Ok((cache_buf, prefix_buf))
}

impl MemoryProver for GpuProver {
	fn group_results(&self, spec: &MemorySpec, cache: &[Item], groups: &[u64]) -> anyhow::Result<Vec<Vec<Hash32>>> {
		Ok(self.walk_groups(spec, cache, groups)?)
	}

	fn prove_memory(&self, challenge: &MemoryChallenge) -> anyhow::Result<MemoryCommitment> {
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
