//! Device plumbing: typed device buffers ([`DevBuf`]), the compiled kernels and their launches.

use std::{collections::HashMap, marker::PhantomData, mem::size_of, ops::Range, sync::Arc};

use cudarc::driver::{result, sys, CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use pog_primitives::{generator::Generator, ChallengeSeed, Matrix, Precision};

use crate::{
	kernels::{self, WalkShape},
	GpuError,
};

/// A dataset kept only in part (`mem_walk_partial`): items `resident..` are made again from the
/// cache (`cache_mask + 1` items at `cache`, `parents` each) whenever a walk reads them.
#[derive(Clone, Copy, Debug)]
pub struct PartialDataset {
	/// Items kept in memory (the first ones).
	pub resident: u64,
	/// The cache on the device.
	pub cache: sys::CUdeviceptr,
	/// Cache items − 1 (a power of two − 1).
	pub cache_mask: u32,
	/// Parents of an item.
	pub parents: u32,
}

/// Where a launch of `mem_walk` reads its items.
#[derive(Clone, Copy, Debug)]
pub enum WalkReads<'a> {
	/// The whole dataset is in memory: walked in this shape.
	Whole(WalkShape),
	/// Part of it: the rest made again from the cache (`mem_walk_partial`).
	Partial(&'a PartialDataset),
}

/// The walks of one launch: `first..first + count`, or with `groups` (a device list of group
/// numbers) walk t is `groups[t / group_walks] · group_walks + t mod group_walks`.
#[derive(Clone, Copy, Debug)]
pub struct Walks {
	/// The first walk (without `groups`).
	pub first: u64,
	/// Walks in the launch.
	pub count: u32,
	/// Device address of the group numbers, or 0.
	pub groups: sys::CUdeviceptr,
	/// Walks a group (1 without `groups`).
	pub group_walks: u32,
}

impl Walks {
	/// Walks `first..first + count`.
	pub fn range(first: u64, count: u32) -> Self {
		Self { first, count, groups: 0, group_walks: 1 }
	}
}

/// Element types of [`DevBuf`]: plain data, for which any bytes a kernel or a copy leaves in
/// the buffer are a valid value.
///
/// # Safety
///
/// Implement only for types without padding, every bit pattern of whose size is a valid value.
pub(crate) unsafe trait Plain: Copy + Send + Sync + 'static {}

// SAFETY: integers have no padding and no invalid bit patterns.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: an array of plain values is plain (arrays have no padding between elements).
unsafe impl<T: Plain, const N: usize> Plain for [T; N] {}

/// The bytes of elements `first..first + count` of a buffer of `len` elements of `size` bytes,
/// or [`GpuError::OutOfBounds`] where the range leaves the buffer (or its arithmetic overflows).
pub(crate) fn byte_range(len: usize, size: usize, first: usize, count: usize) -> Result<Range<usize>, GpuError> {
	let out = || GpuError::OutOfBounds { first, count, len };
	let end = first.checked_add(count).filter(|&end| end <= len).ok_or_else(out)?;
	Ok(first.checked_mul(size).ok_or_else(out)?..end.checked_mul(size).ok_or_else(out)?)
}

/// `len` elements of `T` on the device (`cuMemAlloc`, uninitialised), freed on drop: a typed,
/// length-aware buffer in the spirit of cudarc's `CudaSlice<T>`, whose copies check their ranges
/// and whose addresses come from bounds-checked accessors ([`Self::ptr`], [`Self::ptr_at`]).
///
/// Not `CudaSlice` itself: a `CudaSlice` belongs to one stream, is allocated and freed
/// stream-ordered (`cuMemAllocAsync`/`cuMemFreeAsync`, the context's memory pool, where the
/// device has it) and, with the context's event tracking on, records a read and a write event
/// at every use and makes the next user's stream wait on them. The memory phase runs two
/// streams over the same buffers (the walks' reads on one, their hashing on the other) and
/// orders them with its own events (`memory.rs`'s `Slot`); tracking would add waits between the
/// streams beside those, and pool allocations would change what `cuMemGetInfo` reports to
/// `GpuProver::check_memory`. So this keeps the plain synchronous allocation, and users keep
/// ordering their streams themselves (the context's event tracking is off).
pub(crate) struct DevBuf<T> {
	ptr: sys::CUdeviceptr,
	len: usize,
	ctx: Arc<CudaContext>,
	elem: PhantomData<T>,
}

impl<T: Plain> DevBuf<T> {
	/// `len` elements of uninitialised device memory in `ctx`'s device.
	pub fn new(ctx: &Arc<CudaContext>, len: usize) -> Result<Self, GpuError> {
		let bytes = len.checked_mul(size_of::<T>()).ok_or_else(|| {
			GpuError::InvalidSpec(format!("{len} elements of {} bytes overflow the address space", size_of::<T>()))
		})?;
		ctx.bind_to_thread()?;
		// SAFETY: a plain allocation in the bound context; freed once in Drop.
		let ptr = unsafe { result::malloc_sync(bytes.max(1)) }?;
		Ok(Self { ptr, len, ctx: ctx.clone(), elem: PhantomData })
	}

	/// Elements in the buffer.
	pub fn len(&self) -> usize {
		self.len
	}

	/// Bytes of its elements.
	pub fn bytes(&self) -> usize {
		self.len * size_of::<T>()
	}

	/// The device address of the whole buffer (all [`Self::len`] elements), for a kernel or a
	/// library call.
	pub fn ptr(&self) -> sys::CUdeviceptr {
		self.ptr
	}

	/// The device address of element `first`, for a kernel that uses `count` elements from
	/// there: [`GpuError::OutOfBounds`] unless `first..first + count` lies in the buffer.
	pub fn ptr_at(&self, first: usize, count: usize) -> Result<sys::CUdeviceptr, GpuError> {
		let range = self.range(first, count)?;
		Ok(self.ptr + range.start as u64)
	}

	/// Copy elements `first..first + dst.len()` into `dst` (synchronous).
	pub fn copy_to_host(&self, first: usize, dst: &mut [T]) -> Result<(), GpuError> {
		let src = self.ptr_at(first, dst.len())?;
		if dst.is_empty() {
			return Ok(());
		}
		self.ctx.bind_to_thread()?;
		// SAFETY: `src` holds dst.len() elements (checked above), each byte of which is a valid
		// part of a `T` (`Plain`); the copy is done when the call returns.
		unsafe { result::memcpy_dtoh_sync(dst, src) }?;
		Ok(())
	}

	/// Copy `src` into elements `first..first + src.len()` (synchronous).
	pub fn copy_from_host(&mut self, first: usize, src: &[T]) -> Result<(), GpuError> {
		let dst = self.ptr_at(first, src.len())?;
		if src.is_empty() {
			return Ok(());
		}
		self.ctx.bind_to_thread()?;
		// SAFETY: `dst` has room for src.len() elements (checked above); the copy is done when
		// the call returns.
		unsafe { result::memcpy_htod_sync(dst, src) }?;
		Ok(())
	}

	/// Copy elements `src_first..src_first + count` of `src` into elements
	/// `first..first + count` of this buffer, on `stream` (asynchronous: both buffers must live
	/// until the stream has done it, as for every use of a buffer on a stream).
	pub fn copy_from_device(
		&mut self,
		stream: &CudaStream,
		first: usize,
		src: &DevBuf<T>,
		src_first: usize,
		count: usize,
	) -> Result<(), GpuError> {
		let (dst, from) = (self.ptr_at(first, count)?, src.ptr_at(src_first, count)?);
		if count == 0 {
			return Ok(());
		}
		// SAFETY: both ranges lie in live allocations (checked above; two buffers, since `self`
		// is borrowed mutably and `src` shared, so they do not overlap) of the stream's context.
		unsafe { result::memcpy_dtod_async(dst, from, count * size_of::<T>(), stream.cu_stream()) }?;
		Ok(())
	}

	/// Set every byte of the buffer to `value`, on `stream` (asynchronous).
	pub fn fill_bytes(&mut self, stream: &CudaStream, value: u8) -> Result<(), GpuError> {
		// SAFETY: the whole allocation, in the stream's context; any bytes are a valid `T`.
		unsafe { result::memset_d8_async(self.ptr, value, self.bytes(), stream.cu_stream()) }?;
		Ok(())
	}

	fn range(&self, first: usize, count: usize) -> Result<Range<usize>, GpuError> {
		byte_range(self.len, size_of::<T>(), first, count)
	}
}

impl<T> Drop for DevBuf<T> {
	fn drop(&mut self) {
		if self.ctx.bind_to_thread().is_ok() {
			// SAFETY: allocated by malloc_sync in this context; every user synchronised its
			// streams before letting the buffer go.
			if let Err(e) = unsafe { result::free_sync(self.ptr) } {
				tracing::warn!("cuMemFree failed: {e:?}");
			}
		}
	}
}

/// The compiled kernels of one context.
pub(crate) struct Kernels {
	gen: HashMap<String, CudaFunction>,
	hash_leaves: CudaFunction,
	hash_nodes: CudaFunction,
	gather: CudaFunction,
	int32_to_f32: CudaFunction,
	mem_fill: CudaFunction,
	mem_walk_start: CudaFunction,
	mem_walk: CudaFunction,
	mem_walk_wide: CudaFunction,
	mem_walk_partial: CudaFunction,
	mem_walk_end: CudaFunction,
	lane_pad: CudaFunction,
	lane_links: CudaFunction,
	/// Blocks per grid of the grid-stride kernels.
	grid: u32,
	/// Multiprocessors (the walks' grids are so many blocks a multiprocessor).
	sms: u32,
}

impl Kernels {
	/// Compile [`kernels::SOURCE`] for the context's device and load every kernel.
	pub fn compile(ctx: &Arc<CudaContext>) -> Result<Self, GpuError> {
		let (major, minor) = ctx.compute_capability()?;
		let sms = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
		let opts = cudarc::nvrtc::CompileOptions {
			options: vec![
				format!("--gpu-architecture=compute_{major}{minor}"),
				format!("-DMEM_NARROW_QUAD_WALKS={}", WalkShape::Narrow.quad_walks()),
				format!("-DMEM_WIDE_QUAD_WALKS={}", WalkShape::Wide.quad_walks()),
				format!("-DMEM_PARTIAL_QUAD_WALKS={}", kernels::PARTIAL_QUAD_WALKS),
			],
			name: Some("pog_kernels.cu".into()),
			..Default::default()
		};
		let started = std::time::Instant::now();
		let ptx = cudarc::nvrtc::compile_ptx_with_opts(kernels::SOURCE, opts).map_err(|e| match e {
			cudarc::nvrtc::CompileError::CompileError { log, .. } => {
				GpuError::Nvrtc(log.to_string_lossy().into_owned())
			},
			other => GpuError::Nvrtc(format!("{other:?}")),
		})?;
		let module = ctx.load_module(ptx)?;
		tracing::debug!(ms = started.elapsed().as_millis() as u64, "kernels compiled");
		let mut gen = HashMap::new();
		for name in kernels::gen_kernel_names() {
			let f = module.load_function(&name)?;
			gen.insert(name, f);
		}
		Ok(Self {
			gen,
			hash_leaves: module.load_function("hash_leaves")?,
			hash_nodes: module.load_function("hash_nodes")?,
			gather: module.load_function("gather_words")?,
			int32_to_f32: module.load_function("int32_to_f32")?,
			mem_fill: module.load_function("mem_fill")?,
			mem_walk_start: module.load_function("mem_walk_start")?,
			mem_walk: module.load_function("mem_walk")?,
			mem_walk_wide: module.load_function("mem_walk_wide")?,
			mem_walk_partial: module.load_function("mem_walk_partial")?,
			mem_walk_end: module.load_function("mem_walk_end")?,
			lane_pad: module.load_function("lane_pad")?,
			lane_links: module.load_function("lane_links")?,
			grid: (sms.max(1) as u32) * 16,
			sms: sms.max(1) as u32,
		})
	}

	fn cfg(&self, items: u64, block: u32) -> LaunchConfig {
		let blocks = items.div_ceil(u64::from(block)).clamp(1, u64::from(self.grid)) as u32;
		LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
	}

	/// Generate `kc` elements from `k0` of `lines` lines of `matrix` into `out` (`[lines][kc]`,
	/// `stored`'s format); the Philox key and counter layout is `pog_primitives::generator`'s.
	#[allow(clippy::too_many_arguments)]
	pub fn generate(
		&self,
		stream: &CudaStream,
		out: sys::CUdeviceptr,
		generated: Precision,
		stored: Precision,
		seed: &ChallengeSeed,
		matrix: Matrix,
		lines: u32,
		k0: u32,
		kc: u32,
	) -> Result<(), GpuError> {
		self.launch_gen(
			&kernels::gen_kernel_name(generated, stored),
			stream,
			out,
			generated,
			seed,
			matrix,
			lines,
			k0,
			kc,
		)
	}

	/// Like [`Self::generate`] for the int8 path: fp8 elements of `seed` as their int8
	/// significands, one byte each.
	#[allow(clippy::too_many_arguments)]
	pub fn generate_int8(
		&self,
		stream: &CudaStream,
		out: sys::CUdeviceptr,
		seed: &ChallengeSeed,
		matrix: Matrix,
		lines: u32,
		k0: u32,
		kc: u32,
	) -> Result<(), GpuError> {
		self.launch_gen(kernels::INT8_GEN_KERNEL, stream, out, Precision::Fp8E4M3, seed, matrix, lines, k0, kc)
	}

	/// The int8 path's int32 C (`count` entries at `c`) as fp32 in place, times `scale`.
	pub fn int32_to_f32(
		&self,
		stream: &CudaStream,
		c: sys::CUdeviceptr,
		count: u64,
		scale: f32,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(count, 256);
		let mut b = stream.launch_builder(&self.int32_to_f32);
		b.arg(&c).arg(&count).arg(&scale);
		// SAFETY: `c` holds `count` 4-byte entries.
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// Dataset items `first..first + count` of the memory-hard phase into `dataset` (64 bytes
	/// each), from `cache` (`cache_mask + 1` items).
	#[allow(clippy::too_many_arguments)]
	pub fn mem_fill(
		&self,
		stream: &CudaStream,
		cache: sys::CUdeviceptr,
		cache_mask: u32,
		dataset: sys::CUdeviceptr,
		first: u64,
		count: u64,
		parents: u32,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(count.saturating_mul(kernels::QUAD_LANES), 128);
		let mut b = stream.launch_builder(&self.mem_fill);
		b.arg(&cache).arg(&cache_mask).arg(&dataset).arg(&first).arg(&count).arg(&parents);
		// SAFETY: `cache` holds cache_mask + 1 items and `dataset` room for `count` (the caller's).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// The first mix of each walk of `walks` into `mix` (64 bytes a walk); `prefix` holds
	/// `"pog/mem/walk" ‖ seed` (44 bytes).
	pub fn mem_walk_start(
		&self,
		stream: &CudaStream,
		prefix: sys::CUdeviceptr,
		walks: &Walks,
		mix: sys::CUdeviceptr,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(walks.count), 128);
		let mut b = stream.launch_builder(&self.mem_walk_start);
		b.arg(&prefix).arg(&walks.first).arg(&walks.groups).arg(&walks.group_walks).arg(&walks.count).arg(&mix);
		// SAFETY: `mix` has room for `walks.count` walks and `walks.groups` (if any) lists
		// ⌈count / group_walks⌉ groups (the caller's).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// The `reads` reads of each walk of `walks` over `dataset` (`items` items), in place on
	/// `mix`: from the whole dataset in a [`WalkShape`], or, from a [`PartialDataset`] (a cheater's
	/// instrument, or opening walks from the cache alone), items from its `resident` on made again
	/// from the cache instead of read; listed groups (`walks.groups`) are walked only that way.
	#[allow(clippy::too_many_arguments)]
	pub fn mem_walk(
		&self,
		stream: &CudaStream,
		dataset: sys::CUdeviceptr,
		items: u64,
		walks: &Walks,
		reads: u32,
		mix: sys::CUdeviceptr,
		from: WalkReads<'_>,
	) -> Result<(), GpuError> {
		let (per_quad, blocks_per_sm) = match from {
			WalkReads::Whole(shape) => (shape.quad_walks(), shape.blocks_per_sm()),
			WalkReads::Partial(_) => (kernels::PARTIAL_QUAD_WALKS, WalkShape::Narrow.blocks_per_sm()),
		};
		let quads = u64::from(walks.count).div_ceil(per_quad);
		let grid = u64::from(self.sms) * u64::from(blocks_per_sm);
		let blocks = (quads * kernels::QUAD_LANES).div_ceil(128).clamp(1, grid) as u32;
		let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (128, 1, 1), shared_mem_bytes: 0 };
		let mut b;
		match from {
			WalkReads::Whole(_) if walks.groups != 0 => {
				return Err(GpuError::InvalidSpec("listed groups are walked from the cache (`partial`)".into()))
			},
			WalkReads::Whole(shape) => {
				b = stream.launch_builder(match shape {
					WalkShape::Narrow => &self.mem_walk,
					WalkShape::Wide => &self.mem_walk_wide,
				});
				b.arg(&dataset).arg(&items).arg(&walks.first).arg(&walks.count).arg(&reads).arg(&mix);
			},
			WalkReads::Partial(p) => {
				b = stream.launch_builder(&self.mem_walk_partial);
				b.arg(&dataset).arg(&items).arg(&walks.first).arg(&walks.groups).arg(&walks.group_walks);
				b.arg(&walks.count).arg(&reads).arg(&mix);
				b.arg(&p.resident).arg(&p.cache).arg(&p.cache_mask).arg(&p.parents);
			},
		}
		// SAFETY: the caller sized every buffer (from a partial dataset, `dataset` holds its
		// `resident` items).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// The pads of lanes `first_lane..first_lane + lanes` of a lane phase seeded `seed` (32 bytes
	/// on the device) into `pad` (`lane_items` items a lane).
	pub fn lane_pad(
		&self,
		stream: &CudaStream,
		seed: sys::CUdeviceptr,
		first_lane: u32,
		lanes: u32,
		lane_items: u32,
		pad: sys::CUdeviceptr,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(lanes) * u64::from(lane_items), 128);
		let mut b = stream.launch_builder(&self.lane_pad);
		b.arg(&seed).arg(&first_lane).arg(&lanes).arg(&lane_items).arg(&pad);
		// SAFETY: `seed` holds 32 bytes and `pad` room for lanes × lane_items items (the caller's).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// Links `0..links_run` of each of `lanes` lanes, a thread a lane, over their pads (`pad`,
	/// as [`Self::lane_pad`] made them) into `results` (32 bytes a link, lane by lane).
	#[allow(clippy::too_many_arguments)]
	pub fn lane_links(
		&self,
		stream: &CudaStream,
		pad: sys::CUdeviceptr,
		seed: sys::CUdeviceptr,
		first_lane: u32,
		lanes: u32,
		lane_items: u32,
		links_run: u64,
		reads: u32,
		results: sys::CUdeviceptr,
	) -> Result<(), GpuError> {
		if !lane_items.is_power_of_two() {
			return Err(GpuError::InvalidSpec(format!("{lane_items} items a lane is not a power of two")));
		}
		let shift = 32 - lane_items.trailing_zeros();
		let cfg = LaunchConfig { grid_dim: (lanes.div_ceil(64), 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 0 };
		let mut b = stream.launch_builder(&self.lane_links);
		b.arg(&pad).arg(&seed).arg(&first_lane).arg(&lanes).arg(&lane_items).arg(&shift);
		b.arg(&links_run).arg(&reads).arg(&results);
		// SAFETY: `pad` holds the lanes' pads and `results` room for lanes × links_run results
		// (the caller's).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// Keccak-256 of each of `count` walks' last mix (`mix`) into `out` (32 bytes a walk).
	pub fn mem_walk_end(
		&self,
		stream: &CudaStream,
		mix: sys::CUdeviceptr,
		count: u32,
		out: sys::CUdeviceptr,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(count), 128);
		let mut b = stream.launch_builder(&self.mem_walk_end);
		b.arg(&mix).arg(&count).arg(&out);
		// SAFETY: `mix` holds `count` walks and `out` has room for their results (the caller's).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	#[allow(clippy::too_many_arguments)]
	fn launch_gen(
		&self,
		kernel: &str,
		stream: &CudaStream,
		out: sys::CUdeviceptr,
		generated: Precision,
		seed: &ChallengeSeed,
		matrix: Matrix,
		lines: u32,
		k0: u32,
		kc: u32,
	) -> Result<(), GpuError> {
		let g = Generator::new(seed, generated);
		let ([key0, key1], [s2m, s3]) = (g.key(), g.counter_tail(matrix));
		let f = &self.gen[kernel];
		let blocks = u64::from(lines) * u64::from(kc / generated.elements_per_block());
		let cfg = self.cfg(blocks, 256);
		let mut b = stream.launch_builder(f);
		b.arg(&out).arg(&lines).arg(&kc).arg(&k0).arg(&key0).arg(&key1).arg(&s2m).arg(&s3);
		// SAFETY: `out` holds lines·kc elements of the kernel's storage (checked by the caller).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// Keccak-256 of each 1,024-byte leaf of `c` into `out` (32 bytes each).
	pub fn hash_leaves(
		&self,
		stream: &CudaStream,
		c: sys::CUdeviceptr,
		out: sys::CUdeviceptr,
		leaves: u64,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(leaves, 128);
		let mut b = stream.launch_builder(&self.hash_leaves);
		b.arg(&c).arg(&out).arg(&leaves);
		// SAFETY: `c` holds 1,024·leaves bytes and `out` 32·leaves.
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// `count` parents from the `2·count` nodes at `below` into `above`.
	pub fn hash_nodes(
		&self,
		stream: &CudaStream,
		below: sys::CUdeviceptr,
		above: sys::CUdeviceptr,
		count: u64,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(count, 128);
		let mut b = stream.launch_builder(&self.hash_nodes);
		b.arg(&below).arg(&above).arg(&count);
		// SAFETY: `below` holds 64·count bytes and `above` 32·count.
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// `out[i·words + w] = src[offsets[i] + w]` (u32 words).
	pub fn gather(
		&self,
		stream: &CudaStream,
		src: sys::CUdeviceptr,
		offsets: sys::CUdeviceptr,
		count: u32,
		words: u32,
		out: sys::CUdeviceptr,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(count) * u64::from(words), 256);
		let mut b = stream.launch_builder(&self.gather);
		b.arg(&src).arg(&offsets).arg(&count).arg(&words).arg(&out);
		// SAFETY: the caller sized `out` and checked every offset against `src`.
		unsafe { b.launch(cfg) }?;
		Ok(())
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	fn out_of_bounds(r: Result<Range<usize>, GpuError>) -> (usize, usize, usize) {
		match r {
			Err(GpuError::OutOfBounds { first, count, len }) => (first, count, len),
			other => panic!("expected OutOfBounds, got {other:?}"),
		}
	}

	#[test]
	fn ranges_inside_the_buffer_are_their_bytes() {
		assert_eq!(byte_range(10, 4, 0, 10).unwrap(), 0..40);
		assert_eq!(byte_range(10, 32, 3, 2).unwrap(), 96..160);
		assert_eq!(byte_range(10, 64, 9, 1).unwrap(), 576..640);
		// empty ranges up to and at the end are fine; an empty buffer holds only those
		assert_eq!(byte_range(10, 4, 10, 0).unwrap(), 40..40);
		assert_eq!(byte_range(0, 8, 0, 0).unwrap(), 0..0);
	}

	#[test]
	fn ranges_leaving_the_buffer_are_refused() {
		assert_eq!(out_of_bounds(byte_range(10, 4, 0, 11)), (0, 11, 10));
		assert_eq!(out_of_bounds(byte_range(10, 4, 9, 2)), (9, 2, 10));
		assert_eq!(out_of_bounds(byte_range(10, 4, 11, 0)), (11, 0, 10));
		assert_eq!(out_of_bounds(byte_range(0, 1, 0, 1)), (0, 1, 0));
	}

	#[test]
	fn overflowing_ranges_are_refused() {
		// first + count wraps around
		assert_eq!(out_of_bounds(byte_range(10, 4, usize::MAX, 2)), (usize::MAX, 2, 10));
		// in range by elements, but the bytes overflow (a length no allocation has)
		let len = usize::MAX / 2;
		out_of_bounds(byte_range(len, 4, len - 1, 1));
		out_of_bounds(byte_range(len, 4, 0, len));
	}

	#[test]
	fn out_of_bounds_names_the_range() {
		let e = byte_range(10, 4, 8, 3).unwrap_err();
		assert_eq!(e.to_string(), "elements 8..8+3 outside a device buffer of 10 elements");
	}
}
