//! Device plumbing: plain device allocations, the compiled kernels and their launches.

use std::{collections::HashMap, sync::Arc};

use cudarc::driver::{result, sys, CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use pog_primitives::{generator::Generator, ChallengeSeed, Matrix, Precision};

use crate::{kernels, GpuError};

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

/// A plain device allocation (`cuMemAlloc`), freed on drop.
pub(crate) struct DevBuf {
	pub ptr: sys::CUdeviceptr,
	ctx: Arc<CudaContext>,
}

impl DevBuf {
	/// `bytes` of uninitialised device memory in `ctx`'s device.
	pub fn new(ctx: &Arc<CudaContext>, bytes: usize) -> Result<Self, GpuError> {
		ctx.bind_to_thread()?;
		// SAFETY: a plain allocation in the bound context; freed once in Drop.
		let ptr = unsafe { result::malloc_sync(bytes.max(1)) }?;
		Ok(Self { ptr, ctx: ctx.clone() })
	}
}

impl Drop for DevBuf {
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
	mem_walk: CudaFunction,
	mem_walk_partial: CudaFunction,
	mem_walk_groups: CudaFunction,
	/// Blocks per grid of the grid-stride kernels.
	grid: u32,
}

impl Kernels {
	/// Compile [`kernels::SOURCE`] for the context's device and load every kernel.
	pub fn compile(ctx: &Arc<CudaContext>) -> Result<Self, GpuError> {
		let (major, minor) = ctx.compute_capability()?;
		let sms = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
		let opts = cudarc::nvrtc::CompileOptions {
			options: vec![format!("--gpu-architecture=compute_{major}{minor}")],
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
			mem_walk: module.load_function("mem_walk")?,
			mem_walk_partial: module.load_function("mem_walk_partial")?,
			mem_walk_groups: module.load_function("mem_walk_groups")?,
			grid: (sms.max(1) as u32) * 16,
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
		let cfg = self.cfg(count, 128);
		let mut b = stream.launch_builder(&self.mem_fill);
		b.arg(&cache).arg(&cache_mask).arg(&dataset).arg(&first).arg(&count).arg(&parents);
		// SAFETY: `cache` holds cache_mask + 1 items and `dataset` room for `count` (the caller's).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// Walks `first..first + count` over `dataset` (`items` items) into `out` (32 bytes each);
	/// `prefix` holds `"pog/mem/walk" ‖ seed` (44 bytes). With `partial` (a cheater's instrument),
	/// items from `partial.resident` on are made again from the cache instead of read.
	#[allow(clippy::too_many_arguments)]
	pub fn mem_walk(
		&self,
		stream: &CudaStream,
		dataset: sys::CUdeviceptr,
		items: u64,
		prefix: sys::CUdeviceptr,
		first: u64,
		count: u32,
		reads: u32,
		out: sys::CUdeviceptr,
		partial: Option<&PartialDataset>,
	) -> Result<(), GpuError> {
		let cfg = self.cfg(u64::from(count), 128);
		let kernel = if partial.is_some() { &self.mem_walk_partial } else { &self.mem_walk };
		let mut b = stream.launch_builder(kernel);
		b.arg(&dataset).arg(&items).arg(&prefix).arg(&first).arg(&count).arg(&reads).arg(&out);
		if let Some(p) = partial {
			b.arg(&p.resident).arg(&p.cache).arg(&p.cache_mask).arg(&p.parents);
		}
		// SAFETY: the caller sized every buffer (with `partial`, `dataset` holds `resident` items).
		unsafe { b.launch(cfg) }?;
		Ok(())
	}

	/// Every walk of the `count` groups listed at `groups` (`group_walks` each) into `out` (32
	/// bytes a walk, group by group), every dataset item (of `items`) made from `cache`.
	#[allow(clippy::too_many_arguments)]
	pub fn mem_walk_groups(
		&self,
		stream: &CudaStream,
		items: u64,
		prefix: sys::CUdeviceptr,
		groups: sys::CUdeviceptr,
		count: u32,
		group_walks: u32,
		reads: u32,
		out: sys::CUdeviceptr,
		cache: &PartialDataset,
	) -> Result<(), GpuError> {
		let walks = count
			.checked_mul(group_walks)
			.ok_or_else(|| GpuError::InvalidSpec(format!("{count} groups of {group_walks} walks exceed one launch")))?;
		let cfg = self.cfg(u64::from(walks), 128);
		let mut b = stream.launch_builder(&self.mem_walk_groups);
		b.arg(&items).arg(&prefix).arg(&groups).arg(&group_walks).arg(&walks).arg(&reads).arg(&out);
		b.arg(&cache.cache).arg(&cache.cache_mask).arg(&cache.parents);
		// SAFETY: the caller sized `groups` (count) and `out` (32 bytes a walk).
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

/// Copy `dst.len()` values from device address `src` (synchronous).
pub(crate) fn copy_to_host<T>(ctx: &Arc<CudaContext>, src: sys::CUdeviceptr, dst: &mut [T]) -> Result<(), GpuError> {
	ctx.bind_to_thread()?;
	// SAFETY: the caller guarantees `src` holds at least size_of_val(dst) bytes.
	unsafe { result::memcpy_dtoh_sync(dst, src) }?;
	Ok(())
}

/// Copy `src` to device address `dst` (synchronous).
pub(crate) fn copy_to_device<T>(ctx: &Arc<CudaContext>, src: &[T], dst: sys::CUdeviceptr) -> Result<(), GpuError> {
	ctx.bind_to_thread()?;
	// SAFETY: the caller guarantees `dst` has room for size_of_val(src) bytes.
	unsafe { result::memcpy_htod_sync(dst, src) }?;
	Ok(())
}
