//! Device plumbing: typed device buffers ([`DevBuf`]), the compiled kernels and their launches.

use std::{collections::HashMap, marker::PhantomData, mem::size_of, ops::Range, sync::Arc};

use cudarc::driver::{result, sys, CudaContext, CudaFunction, CudaStream, LaunchArgs, LaunchConfig, PushKernelArg};
use pog_primitives::{
	commitment::LEAF_VALUES,
	generator::Generator,
	memory::{Item, ITEM_WORDS},
	ChallengeSeed, Hash32, Matrix, Precision,
};

use crate::{
	kernels::{self, WalkShape},
	GpuError,
};

/// A dataset kept only in part (`mem_walk_partial`): items `resident..` are made again from the
/// cache (`parents` items of it each) whenever a walk reads them.
#[derive(Clone, Copy)]
pub(crate) struct PartialDataset<'a> {
	/// Items kept in memory (the first ones).
	pub resident: u64,
	/// The cache on the device (a power of two of items).
	pub cache: Span<'a, Item>,
	/// Parents of an item.
	pub parents: u32,
}

/// Where a launch of `mem_walk` reads its items.
#[derive(Clone, Copy)]
pub(crate) enum WalkReads<'a> {
	/// The whole dataset is in memory: walked in this shape.
	Whole(WalkShape),
	/// Part of it: the rest made again from the cache (`mem_walk_partial`).
	Partial(&'a PartialDataset<'a>),
}

/// The walks of one launch: `first..first + count`, or with `groups` (group numbers on the
/// device) walk t is `groups[t / group_walks] · group_walks + t mod group_walks`.
#[derive(Clone, Copy)]
pub(crate) struct Walks<'a> {
	/// The first walk (without `groups`).
	pub first: u64,
	/// Walks in the launch.
	pub count: u32,
	/// The group numbers, if the walks are listed by group.
	pub groups: Option<Span<'a, u64>>,
	/// Walks a group (1 without `groups`).
	pub group_walks: u32,
}

impl Walks<'static> {
	/// Walks `first..first + count`.
	pub fn range(first: u64, count: u32) -> Self {
		Self { first, count, groups: None, group_walks: 1 }
	}
}

impl Walks<'_> {
	/// What a launch over these walks uses of their group list: a group for each `group_walks`
	/// walks begun.
	fn uses_groups(&self) -> Option<Uses> {
		let groups = u64::from(self.count).div_ceil(u64::from(self.group_walks.max(1)));
		self.groups.map(|g| g.uses("groups", groups))
	}

	/// The group list's device address, or 0 (none) as the kernels take it.
	fn groups_ptr(&self) -> sys::CUdeviceptr {
		self.groups.map_or(0, |g| g.ptr)
	}
}

/// A walk's mix between the walk kernels (16 words, an item's size).
pub(crate) type Mix = [u32; ITEM_WORDS];

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
/// and whose addresses come from bounds-checked accessors: [`Self::all`] and [`Self::span`] for a
/// kernel launch, [`Self::ptr`] and [`Self::ptr_at`] for a library call or a copy.
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

/// Elements of a [`DevBuf`] a kernel is launched on: made only by [`DevBuf::all`] and
/// [`DevBuf::span`], so it lies in a buffer that outlives it. A launch checks that it holds the
/// elements the kernel uses ([`Uses`]) before the kernel gets its address.
#[derive(Clone, Copy)]
pub(crate) struct Span<'a, T> {
	ptr: sys::CUdeviceptr,
	len: usize,
	buf: PhantomData<&'a DevBuf<T>>,
}

impl<T> Span<'_, T> {
	/// Elements in the span.
	pub fn len(&self) -> usize {
		self.len
	}

	/// This span as a buffer of a launch whose kernel uses `need` elements of it (from its start).
	fn uses(&self, what: &'static str, need: u64) -> Uses {
		Uses { what, have: self.len, need }
	}
}

/// One buffer of a kernel launch: the kernel uses `need` elements of the `have` it is given.
struct Uses {
	what: &'static str,
	have: usize,
	need: u64,
}

/// Launches `f` on `stream` with the arguments `args` pushes, once every buffer in `uses` holds
/// what the kernel uses of it ([`GpuError::LaunchOutOfBounds`] otherwise): the one place a
/// kernel is handed device addresses.
fn launch<'a>(
	kernel: &str,
	stream: &'a CudaStream,
	f: &'a CudaFunction,
	cfg: LaunchConfig,
	uses: &[Option<Uses>],
	args: impl FnOnce(&mut LaunchArgs<'a>),
) -> Result<(), GpuError> {
	if let Some(u) = uses.iter().flatten().find(|u| u.need > u.have as u64) {
		return Err(GpuError::LaunchOutOfBounds {
			kernel: kernel.to_owned(),
			buffer: u.what,
			need: u.need,
			have: u.have,
		});
	}
	let mut b = stream.launch_builder(f);
	args(&mut b);
	// SAFETY: every device address pushed is a `Span`'s, which lies in a live buffer of the
	// stream's context, and the kernel uses no more elements of it than it holds (checked above,
	// by each kernel's own rule in `Kernels`); the other arguments are values.
	unsafe { b.launch(cfg) }?;
	Ok(())
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

	/// The whole buffer, as a kernel's argument.
	pub fn all(&self) -> Span<'_, T> {
		Span { ptr: self.ptr, len: self.len, buf: PhantomData }
	}

	/// Elements `first..first + count`, as a kernel's argument: [`GpuError::OutOfBounds`] unless
	/// they lie in the buffer.
	pub fn span(&self, first: usize, count: usize) -> Result<Span<'_, T>, GpuError> {
		Ok(Span { ptr: self.ptr_at(first, count)?, len: count, buf: PhantomData })
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
	/// `stored`'s format, bytes); the Philox key and counter layout is `pog_primitives::generator`'s.
	#[allow(clippy::too_many_arguments)]
	pub fn generate(
		&self,
		stream: &CudaStream,
		out: Span<'_, u8>,
		generated: Precision,
		stored: Precision,
		seed: &ChallengeSeed,
		matrix: Matrix,
		lines: u32,
		k0: u32,
		kc: u32,
	) -> Result<(), GpuError> {
		let at = Chunk { matrix, lines, k0, kc };
		self.launch_gen(&kernels::gen_kernel_name(generated, stored), stream, out, generated, stored, seed, at)
	}

	/// Like [`Self::generate`] for the int8 path: fp8 elements of `seed` as their int8
	/// significands, one byte each.
	#[allow(clippy::too_many_arguments)]
	pub fn generate_int8(
		&self,
		stream: &CudaStream,
		out: Span<'_, u8>,
		seed: &ChallengeSeed,
		matrix: Matrix,
		lines: u32,
		k0: u32,
		kc: u32,
	) -> Result<(), GpuError> {
		let at = Chunk { matrix, lines, k0, kc };
		let fp8 = Precision::Fp8E4M3;
		self.launch_gen(kernels::INT8_GEN_KERNEL, stream, out, fp8, fp8, seed, at)
	}

	/// The int8 path's int32 C (its first `count` entries) as fp32 in place, times `scale`.
	pub fn int32_to_f32(&self, stream: &CudaStream, c: Span<'_, u32>, count: u64, scale: f32) -> Result<(), GpuError> {
		let cfg = self.cfg(count, 256);
		launch("int32_to_f32", stream, &self.int32_to_f32, cfg, &[Some(c.uses("c", count))], |b| {
			b.arg(&c.ptr).arg(&count).arg(&scale);
		})
	}

	/// Dataset items `first..first + count` of the memory-hard phase into `dataset`, from
	/// `cache` (a power of two of items).
	pub fn mem_fill(
		&self,
		stream: &CudaStream,
		cache: Span<'_, Item>,
		dataset: Span<'_, Item>,
		first: u64,
		count: u64,
		parents: u32,
	) -> Result<(), GpuError> {
		let cache_mask = cache_mask(cache)?;
		let cfg = self.cfg(count.saturating_mul(kernels::QUAD_LANES), 128);
		let uses = [Some(dataset.uses("dataset", count))];
		launch("mem_fill", stream, &self.mem_fill, cfg, &uses, |b| {
			b.arg(&cache.ptr).arg(&cache_mask).arg(&dataset.ptr).arg(&first).arg(&count).arg(&parents);
		})
	}

	/// The first mix of each walk of `walks` into `mix`; `prefix` holds `"pog/mem/walk" ‖ seed`
	/// (44 bytes).
	pub fn mem_walk_start(
		&self,
		stream: &CudaStream,
		prefix: Span<'_, u8>,
		walks: &Walks<'_>,
		mix: Span<'_, Mix>,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(walks.count), 128);
		let groups = walks.groups_ptr();
		let uses = [
			Some(prefix.uses("prefix", WALK_PREFIX_BYTES)),
			Some(mix.uses("mix", u64::from(walks.count))),
			walks.uses_groups(),
		];
		launch("mem_walk_start", stream, &self.mem_walk_start, cfg, &uses, |b| {
			b.arg(&prefix.ptr).arg(&walks.first).arg(&groups).arg(&walks.group_walks).arg(&walks.count).arg(&mix.ptr);
		})
	}

	/// The `reads` reads of each walk of `walks` over a dataset of `items` items, in place on
	/// `mix`: from the whole dataset (`dataset` holds every item) in a [`WalkShape`], or, from a
	/// [`PartialDataset`] (a cheater's instrument, or opening walks from the cache alone; `dataset`
	/// holds its `resident` items), items from its `resident` on made again from the cache
	/// instead of read; listed groups (`walks.groups`) are walked only that way.
	#[allow(clippy::too_many_arguments)]
	pub fn mem_walk(
		&self,
		stream: &CudaStream,
		dataset: Span<'_, Item>,
		items: u64,
		walks: &Walks<'_>,
		reads: u32,
		mix: Span<'_, Mix>,
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
		let mix_uses = Some(mix.uses("mix", u64::from(walks.count)));
		match from {
			WalkReads::Whole(_) if walks.groups.is_some() => {
				Err(GpuError::InvalidSpec("listed groups are walked from the cache (`partial`)".into()))
			},
			WalkReads::Whole(shape) => {
				let (name, f) = match shape {
					WalkShape::Narrow => ("mem_walk", &self.mem_walk),
					WalkShape::Wide => ("mem_walk_wide", &self.mem_walk_wide),
				};
				launch(name, stream, f, cfg, &[Some(dataset.uses("dataset", items)), mix_uses], |b| {
					b.arg(&dataset.ptr).arg(&items).arg(&walks.first).arg(&walks.count).arg(&reads).arg(&mix.ptr);
				})
			},
			WalkReads::Partial(p) => {
				let cache_mask = cache_mask(p.cache)?;
				let groups = walks.groups_ptr();
				let uses = [Some(dataset.uses("dataset", p.resident)), mix_uses, walks.uses_groups()];
				launch("mem_walk_partial", stream, &self.mem_walk_partial, cfg, &uses, |b| {
					b.arg(&dataset.ptr).arg(&items).arg(&walks.first).arg(&groups).arg(&walks.group_walks);
					b.arg(&walks.count).arg(&reads).arg(&mix.ptr);
					b.arg(&p.resident).arg(&p.cache.ptr).arg(&cache_mask).arg(&p.parents);
				})
			},
		}
	}

	/// The pads of lanes `first_lane..first_lane + lanes` of a lane phase seeded `seed` (32 bytes)
	/// into `pad` (`lane_items` items a lane).
	pub fn lane_pad(
		&self,
		stream: &CudaStream,
		seed: Span<'_, u8>,
		first_lane: u32,
		lanes: u32,
		lane_items: u32,
		pad: Span<'_, Item>,
	) -> Result<(), GpuError> {
		let items = u64::from(lanes) * u64::from(lane_items);
		let cfg = self.cfg(items, 128);
		let uses = [Some(seed.uses("seed", 32)), Some(pad.uses("pad", items))];
		launch("lane_pad", stream, &self.lane_pad, cfg, &uses, |b| {
			b.arg(&seed.ptr).arg(&first_lane).arg(&lanes).arg(&lane_items).arg(&pad.ptr);
		})
	}

	/// Links `0..links_run` of each of `lanes` lanes, a thread a lane, over their pads (`pad`,
	/// as [`Self::lane_pad`] made them) into `results` (a link's result each, lane by lane).
	#[allow(clippy::too_many_arguments)]
	pub fn lane_links(
		&self,
		stream: &CudaStream,
		pad: Span<'_, Item>,
		seed: Span<'_, u8>,
		first_lane: u32,
		lanes: u32,
		lane_items: u32,
		links_run: u64,
		reads: u32,
		results: Span<'_, Hash32>,
	) -> Result<(), GpuError> {
		if !lane_items.is_power_of_two() {
			return Err(GpuError::InvalidSpec(format!("{lane_items} items a lane is not a power of two")));
		}
		let shift = 32 - lane_items.trailing_zeros();
		let cfg = LaunchConfig { grid_dim: (lanes.div_ceil(64), 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 0 };
		let uses = [
			Some(pad.uses("pad", u64::from(lanes) * u64::from(lane_items))),
			Some(seed.uses("seed", 32)),
			Some(results.uses("results", u64::from(lanes).saturating_mul(links_run))),
		];
		launch("lane_links", stream, &self.lane_links, cfg, &uses, |b| {
			b.arg(&pad.ptr).arg(&seed.ptr).arg(&first_lane).arg(&lanes).arg(&lane_items).arg(&shift);
			b.arg(&links_run).arg(&reads).arg(&results.ptr);
		})
	}

	/// Keccak-256 of each of `count` walks' last mix (`mix`) into `out`.
	pub fn mem_walk_end(
		&self,
		stream: &CudaStream,
		mix: Span<'_, Mix>,
		count: u32,
		out: Span<'_, Hash32>,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(count), 128);
		let uses = [Some(mix.uses("mix", u64::from(count))), Some(out.uses("out", u64::from(count)))];
		launch("mem_walk_end", stream, &self.mem_walk_end, cfg, &uses, |b| {
			b.arg(&mix.ptr).arg(&count).arg(&out.ptr);
		})
	}

	/// A generator kernel over chunk `at`, into `out` (bytes of `stored`'s format).
	#[allow(clippy::too_many_arguments)]
	fn launch_gen(
		&self,
		kernel: &str,
		stream: &CudaStream,
		out: Span<'_, u8>,
		generated: Precision,
		stored: Precision,
		seed: &ChallengeSeed,
		at: Chunk,
	) -> Result<(), GpuError> {
		let Chunk { matrix, lines, k0, kc } = at;
		let g = Generator::new(seed, generated);
		let ([key0, key1], [s2m, s3]) = (g.key(), g.counter_tail(matrix));
		let f = self.gen.get(kernel).ok_or_else(|| GpuError::InvalidSpec(format!("no generator kernel {kernel}")))?;
		let blocks = u64::from(lines) * u64::from(kc / generated.elements_per_block());
		let cfg = self.cfg(blocks, 256);
		let bytes = u64::from(lines) * u64::from(kc) * kernels::storage_bytes(stored) as u64;
		launch(kernel, stream, f, cfg, &[Some(out.uses("out", bytes))], |b| {
			b.arg(&out.ptr).arg(&lines).arg(&kc).arg(&k0).arg(&key0).arg(&key1).arg(&s2m).arg(&s3);
		})
	}

	/// Keccak-256 of each of the first `leaves` leaves of C (`c`, [`LEAF_VALUES`] entries a leaf)
	/// into `out`.
	pub fn hash_leaves(
		&self,
		stream: &CudaStream,
		c: Span<'_, u32>,
		out: Span<'_, Hash32>,
		leaves: u64,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(leaves, 128);
		let uses = [Some(c.uses("c", leaves.saturating_mul(LEAF_VALUES as u64))), Some(out.uses("out", leaves))];
		launch("hash_leaves", stream, &self.hash_leaves, cfg, &uses, |b| {
			b.arg(&c.ptr).arg(&out.ptr).arg(&leaves);
		})
	}

	/// `count` parents from the `2·count` nodes of `below` into `above`.
	pub fn hash_nodes(
		&self,
		stream: &CudaStream,
		below: Span<'_, Hash32>,
		above: Span<'_, Hash32>,
		count: u64,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(count, 128);
		let uses = [Some(below.uses("below", count.saturating_mul(2))), Some(above.uses("above", count))];
		launch("hash_nodes", stream, &self.hash_nodes, cfg, &uses, |b| {
			b.arg(&below.ptr).arg(&above.ptr).arg(&count);
		})
	}

	/// `words` u32 words of `src` from each word offset in `offsets` into `out`, one run after the
	/// other (`out[i·words + w] = src[offsets[i] + w]`): every offset is checked against `src` and
	/// copied into `offsets_buf` for the kernel.
	#[allow(clippy::too_many_arguments)]
	pub fn gather<T: Plain>(
		&self,
		stream: &CudaStream,
		src: Span<'_, T>,
		offsets: &[u64],
		offsets_buf: &mut DevBuf<u64>,
		words: u32,
		out: Span<'_, u32>,
	) -> Result<(), GpuError> {
		check_gather(src.len() * size_of::<T>() / 4, offsets, words, out.len())?;
		offsets_buf.copy_from_host(0, offsets)?;
		let on_device = offsets_buf.span(0, offsets.len())?;
		let count = u32::try_from(offsets.len())
			.map_err(|_| GpuError::InvalidSpec(format!("{} runs exceed one launch", offsets.len())))?;
		let cfg = self.cfg(u64::from(count) * u64::from(words), 256);
		let uses = [Some(on_device.uses("offsets", u64::from(count)))];
		launch("gather_words", stream, &self.gather, cfg, &uses, |b| {
			b.arg(&src.ptr).arg(&on_device.ptr).arg(&count).arg(&words).arg(&out.ptr);
		})
	}
}

/// A chunk of a generated matrix: `kc` elements from `k0` of each of `lines` lines.
#[derive(Clone, Copy)]
struct Chunk {
	matrix: Matrix,
	lines: u32,
	k0: u32,
	kc: u32,
}

/// Bytes of the walks' prefix, `"pog/mem/walk" ‖ seed`.
const WALK_PREFIX_BYTES: u64 = 44;

/// A cache's items − 1, as the kernels index it: [`GpuError::InvalidSpec`] unless its items are a
/// power of two.
fn cache_mask(cache: Span<'_, Item>) -> Result<u32, GpuError> {
	u32::try_from(cache.len())
		.ok()
		.filter(|n| n.is_power_of_two())
		.map(|n| n - 1)
		.ok_or_else(|| GpuError::InvalidSpec(format!("a cache of {} items is not a power of two", cache.len())))
}

/// Checks a gather of `words` words from each of `offsets` in a source of `src_words` words into
/// `out_words` words: every run inside the source, and exactly as many words as `out` holds.
fn check_gather(src_words: usize, offsets: &[u64], words: u32, out_words: usize) -> Result<(), GpuError> {
	let words = words as usize;
	let gathered = offsets.len().checked_mul(words);
	if gathered != Some(out_words) {
		return Err(GpuError::OutOfBounds { first: 0, count: gathered.unwrap_or(usize::MAX), len: out_words });
	}
	for &off in offsets {
		let first = usize::try_from(off).unwrap_or(usize::MAX);
		if first.checked_add(words).is_none_or(|end| end > src_words) {
			return Err(GpuError::OutOfBounds { first, count: words, len: src_words });
		}
	}
	Ok(())
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

	#[test]
	fn gathers_stay_inside_the_source() {
		// a tree of 7 nodes is 56 words: node 6 (words 48..56) is its last
		assert!(check_gather(56, &[0, 8, 48], 8, 24).is_ok());
		assert!(check_gather(56, &[], 8, 0).is_ok());
		assert!(matches!(
			check_gather(56, &[0, 49], 8, 16),
			Err(GpuError::OutOfBounds { first: 49, count: 8, len: 56 })
		));
		assert!(matches!(check_gather(56, &[u64::MAX], 8, 8), Err(GpuError::OutOfBounds { .. })));
		// `out` must take exactly the words gathered
		assert!(matches!(check_gather(56, &[0, 8], 8, 15), Err(GpuError::OutOfBounds { count: 16, len: 15, .. })));
	}
}
