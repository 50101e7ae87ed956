//! The memory-hard phase on the GPU (`pog_primitives::memory`, bit for bit): the cache made on
//! the host and copied over, the dataset filled by `mem_fill`, and walks run by `mem_walk`. Not in
//! rounds yet; `selftest` holds it against the known answers and `bench --memory` measures it.

use std::time::Instant;

use pog_primitives::{
	memory::{Item, MemorySpec, ITEM_BYTES, ITEM_WORDS},
	Hash32,
};

use crate::{
	device::{copy_to_device, copy_to_host, DevBuf},
	prover::{ms, timing_event},
	GpuError, GpuProver,
};

/// What one memory-hard phase on the GPU gave and took.
#[derive(Clone, Debug)]
pub struct MemoryRun {
	/// The walks' results, in walk order.
	pub results: Vec<Hash32>,
	/// Dataset items asked for, read back after the fill.
	pub items: Vec<Item>,
	/// GPU time of the fill (ms).
	pub fill_ms: f64,
	/// GPU time of the walks (ms).
	pub walk_ms: f64,
	/// Wall time of the whole call, allocation and copies included (ms).
	pub total_ms: f64,
}

impl GpuProver {
	/// Fills `spec`'s dataset on the device from `cache` (made by `pog_primitives::memory::cache`),
	/// runs walks `0..walks`, and reads back the results and the dataset items at `read_back`.
	pub fn memory_phase(
		&self,
		spec: &MemorySpec,
		cache: &[Item],
		walks: u32,
		read_back: &[u64],
	) -> Result<MemoryRun, GpuError> {
		let started = Instant::now();
		if !spec.is_valid()
			|| cache.len() != spec.cache_items as usize
			|| read_back.iter().any(|i| *i >= spec.dataset_items)
		{
			return Err(GpuError::InvalidSpec(format!("memory spec {spec:?} with {} cache items", cache.len())));
		}
		let g = self.lock()?;
		let cache_bytes = cache.len() * ITEM_BYTES;
		let dataset_bytes = spec.dataset_bytes();
		Self::check_memory(&g.ctx, dataset_bytes + cache_bytes as u64 + 32 * u64::from(walks))?;
		let cache_buf = DevBuf::new(&g.ctx, cache_bytes)?;
		let words: Vec<u32> = cache.iter().flat_map(|i| i.iter().copied()).collect();
		copy_to_device(&g.ctx, &words, cache_buf.ptr)?;
		let dataset = DevBuf::new(&g.ctx, dataset_bytes as usize)?;
		let mut prefix = b"pog/mem/walk".to_vec();
		prefix.extend_from_slice(&spec.seed);
		let prefix_buf = DevBuf::new(&g.ctx, prefix.len())?;
		copy_to_device(&g.ctx, &prefix, prefix_buf.ptr)?;
		let out = DevBuf::new(&g.ctx, 32 * walks.max(1) as usize)?;
		let st = &g.mm_stream;
		let (e0, e1, e2) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?, timing_event(&g.ctx)?);
		e0.record(st)?;
		g.kernels.mem_fill(
			st,
			cache_buf.ptr,
			spec.cache_items - 1,
			dataset.ptr,
			0,
			spec.dataset_items,
			spec.parents,
		)?;
		e1.record(st)?;
		g.kernels.mem_walk(st, dataset.ptr, spec.dataset_items, prefix_buf.ptr, 0, walks, spec.reads, out.ptr)?;
		e2.record(st)?;
		st.synchronize()?;
		let mut raw = vec![0u8; 32 * walks as usize];
		copy_to_host(&g.ctx, out.ptr, &mut raw)?;
		let results = raw.chunks_exact(32).map(|c| c.try_into().expect("32 bytes")).collect();
		let mut items = Vec::with_capacity(read_back.len());
		for i in read_back {
			let mut item = [0u32; ITEM_WORDS];
			copy_to_host(&g.ctx, dataset.ptr + i * ITEM_BYTES as u64, &mut item)?;
			items.push(item);
		}
		Ok(MemoryRun {
			results,
			items,
			fill_ms: ms(&e0, &e1)?,
			walk_ms: ms(&e1, &e2)?,
			total_ms: started.elapsed().as_secs_f64() * 1e3,
		})
	}
}
