//! [`GpuProver`]: one challenge on one GPU, and [`GpuCommitment`], its result on the device —
//! the proof path, and `pog_prover`'s [`Prover`] and [`Committed`] for them. The measuring
//! instruments (benchmark GEMMs, bandwidth) are in `instruments.rs`.

use std::{
	collections::BTreeMap,
	sync::{Arc, Mutex, MutexGuard},
	time::{Duration, Instant},
};

use cudarc::driver::{result, sys, CudaContext, CudaEvent, CudaStream};
use pog_primitives::{sizing, verify::ChallengeSpec, Dims, Hash32, Matrix, Precision, LEAF_VALUES};
use pog_prover::{
	trace::{resample, GemmSample},
	Committed, OpenedLeaf, Progress, Prover, Timing,
};

use crate::{
	device::{DevBuf, Kernels, Plain},
	gemm::{challenger_wins, choose_algorithm, Fp8Path, Lt, Plan, DUEL_ORDER},
	kernels::storage_bytes,
	GpuError, GpuInfo,
};

/// Device memory kept free beside a challenge's buffers (cuBLASLt, kernels, the driver).
const MARGIN_BYTES: u64 = 512 << 20;
/// cuBLASLt candidates the GEMM tuning times (the heuristic's first among them). Later ones were
/// each slower at the full shape on an H100 (fp8, 16384 × 16384 × 8192: 0.79x-0.92x of the
/// first, `benchmarking/gpu/gemm/h100-fp8-algos/`).
const TUNE_CANDIDATES: usize = 4;
/// GEMM time of the tuning's timed rounds, all candidates together, in ms. Three passes of 20 ms
/// a candidate chose a candidate 2.3-3.5% slower than the first in two of three fp8 tunings on an
/// H200 (2026-11-27), five passes of 50 ms in four of four on an H100 (2026-11-28): a pass moved
/// by up to 15% with the clock (`benchmarking/gpu/gemm/tuning/`).
const TUNE_MS: f64 = 1_000.0;
/// GEMM time of one candidate's batch in a timed round, in ms: its GEMMs run back to back, as a
/// proof runs them, between one pair of events.
const TUNE_BATCH_MS: f64 = 20.0;
/// Timed rounds at least (each runs every candidate's batch once).
const TUNE_MIN_ROUNDS: usize = 5;
/// GEMM time of the heuristic's first before the timed rounds, into the steady state, in ms.
const TUNE_WARM_MS: f64 = 200.0;
/// How much faster (median over the passes) a candidate must be to replace the heuristic's first.
/// At the full shape the candidates' order is what it is in a proof; two were 1.2-1.4% faster
/// than the first in fp16 and bf16 on an H100 (2026-11-27, `benchmarking/gpu/gemm/h100-steady/`).
const TUNE_MARGIN: f64 = 0.005;
/// GEMM time of the heuristic's first before a sustained duel, unmeasured, in ms: the clock
/// settles on a kernel's own power draw over hundreds of ms (an H100's fp16 turns of 500 ms still
/// fell by 2-4% from the first to the last after 250 ms run-ins, 2026-11-28).
const DUEL_RUN_IN_MS: f64 = 1_000.0;
/// GEMM time of one sustained turn of a duel, in ms, after [`DUEL_SETTLE_MS`] of the same
/// kernel unmeasured. Interleaved batches of 20 ms cannot see what a kernel's own power draw does
/// to the clock under the power limit: an H200's second fp8 candidate read 2-3% faster so, and
/// 1,000 GEMMs back to back then read 0.992x PyTorch (`benchmarking/gpu/gemm/tuning/`).
const DUEL_TURN_MS: f64 = 400.0;
/// GEMM time of a duellist before each of its turns, unmeasured, in ms.
const DUEL_SETTLE_MS: f64 = 100.0;
/// How much faster (mean over its turns) the screened winner must be in the sustained duel to
/// replace the heuristic's first. On an H200 (2026-11-28, `gemm/tuning/h200-abba/`) the fp16 and
/// bf16 winners were 1.2-1.8% faster in six duels of six, and 1.5-2.5% above PyTorch over 1,000
/// GEMMs; the fp8 winner was 0.7-0.8% faster in its duels, and over 1,000 accumulating GEMMs ran
/// at the first's rate (1,240 TFLOPS against 1,241), 0.7% slower without accumulation.
pub(crate) const DUEL_MARGIN: f64 = 0.01;

pub(crate) struct Inner {
	pub(crate) ctx: Arc<CudaContext>,
	pub(crate) gen_stream: Arc<CudaStream>,
	pub(crate) mm_stream: Arc<CudaStream>,
	pub(crate) kernels: Arc<Kernels>,
	pub(crate) lt: Lt,
	/// How fp8 challenges run.
	pub(crate) fp8_path: Fp8Path,
	/// Fastest algorithm found per (compute, m, n, kc, fp8 path).
	pub(crate) tuned: BTreeMap<(Precision, u32, u32, u32, Fp8Path), cudarc::cublaslt::sys::cublasLtMatmulAlgo_t>,
}

impl Inner {
	/// The fp8 path a GEMM of `spec`'s challenge computed in `compute` takes: the int8 path only
	/// for an fp8 challenge computed in fp8 (a lower-precision computation of another challenge
	/// rounds its elements to fp8 and needs fp8 tensor cores).
	pub(crate) fn fp8_path_for(&self, spec: &ChallengeSpec, compute: Precision) -> Fp8Path {
		match self.fp8_path {
			Fp8Path::Int8 if spec.precision == Precision::Fp8E4M3 && compute == Precision::Fp8E4M3 => Fp8Path::Int8,
			Fp8Path::Int8 => Fp8Path::Native,
			other => other,
		}
	}

	/// Generate chunk `k0..k0 + kc` of `matrix` of `spec` as the GEMM in `compute` takes it
	/// (int8 significands on the int8 path) into the first `lines·kc` elements of `out` (bytes of
	/// `compute`'s storage; [`GpuError::LaunchOutOfBounds`] where they do not fit).
	#[allow(clippy::too_many_arguments)]
	pub(crate) fn generate(
		&self,
		stream: &CudaStream,
		out: &DevBuf<u8>,
		spec: &ChallengeSpec,
		compute: Precision,
		matrix: Matrix,
		lines: u32,
		k0: u32,
		kc: u32,
	) -> Result<(), GpuError> {
		// the int8 path stores one byte an element, as fp8 does
		let out = out.all();
		if self.fp8_path_for(spec, compute) == Fp8Path::Int8 {
			self.kernels.generate_int8(stream, out, &spec.seed, matrix, lines, k0, kc)
		} else {
			self.kernels.generate(stream, out, spec.precision, compute, &spec.seed, matrix, lines, k0, kc)
		}
	}

	/// Give `full` the algorithm [`choose_algorithm`] picks among cuBLASLt's first
	/// [`TUNE_CANDIDATES`] for its shape, timed at that shape (once per shape, then cached; the
	/// miner agent tunes every shape its claims can be given before its first round). `a`, `b` and
	/// `c` hold a generated chunk of the full shape; `c` is overwritten.
	///
	/// Timed as the proof runs them (accumulating, beta = 1), after each candidate's kernel is
	/// loaded and [`TUNE_WARM_MS`] of the heuristic's first (under the power limit a GEMM after a
	/// pause runs faster than one in the steady state a proof runs in), in rounds that run every
	/// candidate's batch of [`TUNE_BATCH_MS`] back to back, interleaved, for [`TUNE_MS`] in all;
	/// the median batch of each screens. A screened winner other than the heuristic's first then
	/// duels it in sustained turns of [`DUEL_TURN_MS`] in [`DUEL_ORDER`], which cancels the
	/// clock's drift, and takes the shape only if its mean turn is faster by [`DUEL_MARGIN`].
	/// Until 2026-11-27 the candidates were
	/// timed twice each on the first 8,192 rows, where another tiling wins: an H100's fp8 GEMM at
	/// 16384 × 16384 × 8192 took a candidate 4% faster there and 21% slower at the full shape.
	#[allow(clippy::too_many_arguments)]
	pub(crate) fn tune(
		&mut self,
		compute: Precision,
		path: Fp8Path,
		m: u32,
		n: u32,
		full: &mut Plan,
		a: sys::CUdeviceptr,
		b: sys::CUdeviceptr,
		c: sys::CUdeviceptr,
		kc: u32,
	) -> Result<(), GpuError> {
		let key = (compute, m, n, kc, path);
		if let Some(algo) = self.tuned.get(&key) {
			full.algo = *algo;
			return Ok(());
		}
		// fp32 (CUDA cores) is ~15x slower to time, and its heuristic's first was within 3-5% of
		// cuBLAS's rate on an H100
		if compute == Precision::Fp32 || full.candidates.len() < 2 {
			self.tuned.insert(key, full.algo);
			return Ok(());
		}
		let started = Instant::now();
		let candidates: Vec<_> = full
			.candidates
			.iter()
			.take(TUNE_CANDIDATES)
			.copied()
			.filter(|algo| full.supports(&self.lt, algo))
			.collect();
		// the heuristic's first, cuBLAS's own choice for the full shape, is the one to beat
		let Some(first) = candidates.first().copied() else {
			self.tuned.insert(key, full.algo);
			return Ok(());
		};
		let plan = &*full;
		let mm = &self.mm_stream;
		// Each candidate's first launch loads its kernel (cuBLASLt loads them lazily): 0.2-0.6 ms of
		// a 0.03 ms GEMM, and a first pass that made every candidate but the first look slower.
		plan.run_with(&self.lt, &first, mm, a, b, c, 0.0)?;
		for algo in &candidates[1..] {
			plan.run_with(&self.lt, algo, mm, a, b, c, 1.0)?;
		}
		let (e0, e1) = (timing_event(&self.ctx)?, timing_event(&self.ctx)?);
		e0.record(mm)?;
		plan.run_with(&self.lt, &first, mm, a, b, c, 1.0)?;
		e1.record(mm)?;
		let one = ms(&e0, &e1)?.max(1e-3);
		// Interleaved: each round runs every candidate once, in a rotating order, each as a batch of
		// GEMMs back to back between one pair of events. Under the power limit the clock swings by
		// up to 15% over tens of ms (an H100's 16384² × 8192 fp8 GEMM read 3.26-4.15 ms in passes of
		// 50 ms, 2026-11-28), so candidates timed in separate passes differ by the swing; interleaved,
		// every candidate sees the same clock, and the median over the rounds compares the kernels.
		// Batched, because a proof runs its GEMMs back to back: one GEMM between two events hides
		// how a kernel's tail meets the next one's start, and an H200's second fp8 candidate, 2%
		// faster so, was slower back to back (`benchmarking/gpu/gemm/tuning/`).
		let warm_reps = ((TUNE_WARM_MS / one).ceil() as u32).clamp(1, 512);
		for _ in 0..warm_reps {
			plan.run_with(&self.lt, &first, mm, a, b, c, 1.0)?;
		}
		let batch = ((TUNE_BATCH_MS / one).ceil() as u32).clamp(1, 64);
		let per_round = one * f64::from(batch) * candidates.len() as f64;
		let rounds = ((TUNE_MS / per_round).ceil() as usize).clamp(TUNE_MIN_ROUNDS, 512);
		// `reps` GEMMs of `algo` back to back between one pair of events
		let (ctx, lt) = (&self.ctx, &self.lt);
		let timed = |algo: &cudarc::cublaslt::sys::cublasLtMatmulAlgo_t, reps: u32| -> Result<_, GpuError> {
			let (e0, e1) = (timing_event(ctx)?, timing_event(ctx)?);
			e0.record(mm)?;
			for _ in 0..reps {
				plan.run_with(lt, algo, mm, a, b, c, 1.0)?;
			}
			e1.record(mm)?;
			Ok((e0, e1))
		};
		let mut marks = Vec::with_capacity(rounds * candidates.len());
		for round in 0..rounds {
			for i in (0..candidates.len()).map(|i| (i + round) % candidates.len()) {
				let (e0, e1) = timed(&candidates[i], batch)?;
				marks.push((i, e0, e1));
			}
		}
		let mut times = vec![Vec::with_capacity(rounds); candidates.len()];
		for (i, e0, e1) in &marks {
			times[*i].push(ms(e0, e1)? / f64::from(batch));
		}
		let screened = choose_algorithm(&times, TUNE_MARGIN);
		// A winner other than cuBLAS's own choice must also win sustained: each kernel alone long
		// enough for the clock to settle on its power draw, as over a proof's GEMMs.
		let mut turns = Vec::with_capacity(DUEL_ORDER.len());
		if screened != 0 {
			let duellists = [first, candidates[screened]];
			let reps = |ms: f64| ((ms / one).ceil() as u32).clamp(1, 1 << 14);
			for _ in 0..reps(DUEL_RUN_IN_MS) {
				plan.run_with(lt, &first, mm, a, b, c, 1.0)?;
			}
			let turn = reps(DUEL_TURN_MS);
			let mut marks = Vec::with_capacity(DUEL_ORDER.len());
			for d in DUEL_ORDER {
				for _ in 0..reps(DUEL_SETTLE_MS) {
					plan.run_with(lt, &duellists[d], mm, a, b, c, 1.0)?;
				}
				let (e0, e1) = timed(&duellists[d], turn)?;
				marks.push((d, e0, e1));
			}
			for (d, e0, e1) in &marks {
				turns.push((*d, ms(e0, e1)? / f64::from(turn)));
			}
		}
		let chosen = if screened != 0 && challenger_wins(&turns, DUEL_MARGIN) { screened } else { 0 };
		tracing::debug!(
			?compute,
			m,
			n,
			kc,
			screened,
			chosen,
			rounds,
			batch,
			?times,
			?turns,
			ms = started.elapsed().as_millis() as u64,
			"GEMM tuned"
		);
		full.algo = candidates[chosen];
		self.tuned.insert(key, full.algo);
		Ok(())
	}

	fn is_tuned(&self, compute: Precision, path: Fp8Path, m: u32, n: u32, kc: u32) -> bool {
		self.tuned.contains_key(&(compute, m, n, kc, path))
	}
}

/// Proves challenges on one GPU: one CUDA context, a generation and a GEMM stream, the compiled
/// kernels and a cuBLASLt handle. `Send + Sync`; proofs on one prover run one at a time.
pub struct GpuProver {
	info: GpuInfo,
	nvml: Option<nvml_wrapper::Nvml>,
	inner: Mutex<Inner>,
}

pub(crate) fn timing_event(ctx: &Arc<CudaContext>) -> Result<CudaEvent, GpuError> {
	Ok(ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?)
}

pub(crate) fn ms(a: &CudaEvent, b: &CudaEvent) -> Result<f64, GpuError> {
	Ok(f64::from(a.elapsed_ms(b)?))
}

pub(crate) fn check_spec(spec: &ChallengeSpec) -> Result<(), GpuError> {
	let d = spec.dims;
	if !d.is_valid() {
		return Err(GpuError::InvalidSpec(format!("dims {d:?} break the protocol's shape rules")));
	}
	if !sizing::is_valid_chunk_k(spec.chunk_k) {
		return Err(GpuError::InvalidSpec(format!(
			"chunk_k {} is not a positive multiple of {}",
			spec.chunk_k,
			sizing::K_ALIGN
		)));
	}
	Ok(())
}

/// Device bytes a challenge needs: C, the tree, and double-buffered chunks of A and B.
pub fn device_bytes(dims: &Dims, chunk_k: u32, compute: Precision) -> u64 {
	let (m, n) = (u64::from(dims.m), u64::from(dims.n));
	let kc = u64::from(sizing::chunk_len(dims.k, chunk_k));
	let leaves = u64::from(dims.num_leaves());
	4 * m * n + 32 * (2 * leaves - 1) + 2 * (m + n) * kc * storage_bytes(compute) as u64
}

impl GpuProver {
	/// A prover on CUDA device `ordinal`: creates its context and streams and compiles the
	/// kernels (NVRTC, about a second).
	pub fn new(ordinal: usize) -> Result<Self, GpuError> {
		crate::nvml::require_libraries(true)?;
		result::init()?;
		let count = result::device::get_count()?.max(0) as usize;
		if ordinal >= count {
			return Err(GpuError::NoSuchDevice { ordinal, count });
		}
		let nvml = crate::nvml::nvml()?;
		let info = crate::nvml::device_info(&nvml, ordinal)?;
		let ctx = CudaContext::new(ordinal)?;
		// SAFETY: this crate orders its streams itself with events and uses raw allocations.
		unsafe { ctx.disable_event_tracking() };
		let gen_stream = ctx.new_stream()?;
		let mm_stream = ctx.new_stream()?;
		let kernels = Arc::new(Kernels::compile(&ctx)?);
		let lt = Lt::new(&ctx)?;
		// fp8 tensor cores come with Ada (sm_89) and Hopper; before them the int8 path is the way.
		let fp8_path = if ctx.compute_capability()? >= (8, 9) { Fp8Path::Native } else { Fp8Path::Int8 };
		tracing::info!(ordinal, name = %info.name, uuid = %info.uuid, "CUDA prover ready");
		Ok(Self {
			info,
			nvml: Some(nvml),
			inner: Mutex::new(Inner { ctx, gen_stream, mm_stream, kernels, lt, fp8_path, tuned: BTreeMap::new() }),
		})
	}

	pub(crate) fn lock(&self) -> Result<MutexGuard<'_, Inner>, GpuError> {
		let g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
		g.ctx.bind_to_thread()?;
		Ok(g)
	}

	/// The device's facts, with clocks, temperature and power read now.
	pub fn info(&self) -> GpuInfo {
		let fresh = self.nvml.as_ref().and_then(|n| crate::nvml::device_info(n, self.info.ordinal as usize).ok());
		fresh.unwrap_or_else(|| self.info.clone())
	}

	/// How fp8 challenges run from now on: natively on sm_89 and later by default, on the int8
	/// path before. The agent takes the int8 path where the claimed profile's int8 rate is above its
	/// native fp8 (`pog_primitives::pricing::fp8_on_int8_path`: fp8 is priced at that int8 rate).
	pub fn set_fp8_path(&self, path: Fp8Path) {
		if let Ok(mut g) = self.lock() {
			g.fp8_path = path;
		}
	}

	/// The fp8 path challenges take now.
	pub fn fp8_path(&self) -> Fp8Path {
		self.lock().map(|g| g.fp8_path).unwrap_or(Fp8Path::Native)
	}

	/// Free and total device memory in bytes.
	pub fn memory(&self) -> Result<(u64, u64), GpuError> {
		let g = self.lock()?;
		let (free, total) = g.ctx.mem_get_info()?;
		Ok((free as u64, total as u64))
	}

	pub(crate) fn check_memory(ctx: &Arc<CudaContext>, needed: u64) -> Result<(), GpuError> {
		let (free, _) = ctx.mem_get_info()?;
		if needed + MARGIN_BYTES > free as u64 {
			return Err(GpuError::OutOfMemory {
				needed_mib: (needed + MARGIN_BYTES) >> 20,
				free_mib: (free as u64) >> 20,
			});
		}
		Ok(())
	}

	/// Compute C = A·B of `spec` with inputs in `compute` precision (normally `spec.precision`;
	/// a lower one rounds every generated element to it first, as
	/// `pog_primitives::cpu::gemm_rows_rounded` does), commit to it, and keep C and the tree on
	/// the device. `progress` gets the fraction done, from 0 to 1.
	pub fn prove_in(
		&self,
		spec: &ChallengeSpec,
		compute: Precision,
		progress: &(dyn Fn(f64) + Sync),
	) -> Result<GpuCommitment, GpuError> {
		let started = Instant::now();
		check_spec(spec)?;
		let mut g = self.lock()?;
		let dims = spec.dims;
		let (m, n) = (dims.m, dims.n);
		let leaves = u64::from(dims.num_leaves());
		let sb = storage_bytes(compute) as u64;
		let kc_max = sizing::chunk_len(dims.k, spec.chunk_k);
		Self::check_memory(&g.ctx, device_bytes(&dims, spec.chunk_k, compute))?;
		let cells = m as usize * n as usize;
		let c = DevBuf::<u32>::new(&g.ctx, cells)?;
		let tree = DevBuf::<Hash32>::new(&g.ctx, 2 * leaves as usize - 1)?;
		// a chunk of A or B: bytes of `compute`'s storage
		let a_bytes = (u64::from(m) * u64::from(kc_max) * sb) as usize;
		let b_bytes = (u64::from(n) * u64::from(kc_max) * sb) as usize;
		let a = [DevBuf::new(&g.ctx, a_bytes)?, DevBuf::new(&g.ctx, a_bytes)?];
		let b = [DevBuf::new(&g.ctx, b_bytes)?, DevBuf::new(&g.ctx, b_bytes)?];
		let parts: Vec<(u32, u32)> = sizing::chunks(dims.k, spec.chunk_k).collect();
		let path = g.fp8_path_for(spec, compute);
		let mut full = Plan::new(&g.lt, compute, m, n, kc_max, path)?;
		if !g.is_tuned(compute, path, m, n, kc_max) {
			// first proof of this shape: time cuBLASLt's candidates on a generated chunk 0
			g.generate(&g.gen_stream, &a[1], spec, compute, Matrix::A, m, 0, kc_max)?;
			g.generate(&g.gen_stream, &b[1], spec, compute, Matrix::B, n, 0, kc_max)?;
			g.gen_stream.synchronize()?;
		}
		g.tune(compute, path, m, n, &mut full, a[1].ptr(), b[1].ptr(), c.ptr(), kc_max)?;
		let last_kc = parts.last().map(|p| p.1).unwrap_or(kc_max);
		let short = if last_kc != kc_max { Some(Plan::new(&g.lt, compute, m, n, last_kc, path)?) } else { None };

		let sync_ev = || g.ctx.new_event(None);
		let gen_done = [sync_ev()?, sync_ev()?];
		let gemm_done = [sync_ev()?, sync_ev()?];
		let phase_start = timing_event(&g.ctx)?;
		let mut starts = Vec::with_capacity(parts.len());
		let mut ends = Vec::with_capacity(parts.len());
		for _ in &parts {
			starts.push(timing_event(&g.ctx)?);
			ends.push(timing_event(&g.ctx)?);
		}
		let (gs, ms_) = (&g.gen_stream, &g.mm_stream);
		phase_start.record(gs)?;
		for (i, &(k0, kc)) in parts.iter().enumerate() {
			let s = i % 2;
			if i >= 2 {
				gs.wait(&gemm_done[s])?;
			}
			g.generate(gs, &a[s], spec, compute, Matrix::A, m, k0, kc)?;
			g.generate(gs, &b[s], spec, compute, Matrix::B, n, k0, kc)?;
			gen_done[s].record(gs)?;
			ms_.wait(&gen_done[s])?;
			starts[i].record(ms_)?;
			let plan = if kc == kc_max { &full } else { short.as_ref().unwrap_or(&full) };
			plan.run(&g.lt, ms_, a[s].ptr(), b[s].ptr(), c.ptr(), if i == 0 { 0.0 } else { 1.0 })?;
			ends[i].record(ms_)?;
			gemm_done[s].record(ms_)?;
		}
		if path == Fp8Path::Int8 {
			// C holds Σ s_A·s_B exactly; each fp8 element is s / 2^3.
			let scale = 1.0 / (1u32 << (2 * Precision::Fp8E4M3.mantissa_bits())) as f32;
			g.kernels.int32_to_f32(ms_, c.all(), cells as u64, scale)?;
		}
		let (h0, h1, h2) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?, timing_event(&g.ctx)?);
		h0.record(ms_)?;
		g.kernels.hash_leaves(ms_, c.all(), tree.span(0, leaves as usize)?, leaves)?;
		h1.record(ms_)?;
		let mut level_offsets = vec![0u64];
		let (mut off, mut count) = (0u64, leaves);
		while count > 1 {
			let above = off + count;
			let below = tree.span(off as usize, count as usize)?;
			let above_nodes = tree.span(above as usize, count as usize / 2)?;
			g.kernels.hash_nodes(ms_, below, above_nodes, count / 2)?;
			off = above;
			count /= 2;
			level_offsets.push(off);
		}
		h2.record(ms_)?;

		// Report progress while the GPU works.
		let mut done = 0;
		while done < ends.len() {
			while done < ends.len() && ends[done].try_is_complete()? {
				done += 1;
			}
			progress(0.99 * done as f64 / ends.len() as f64);
			if done < ends.len() {
				std::thread::sleep(Duration::from_millis(5));
			}
		}
		ms_.synchronize()?;
		gs.synchronize()?;
		let mut root = [Hash32::default()];
		tree.copy_to_host(off as usize, &mut root)?;
		let [root] = root;
		let total = started.elapsed();
		progress(1.0);

		let mut samples = Vec::with_capacity(parts.len());
		let mut gemm_ms = 0.0;
		for (i, &(_, kc)) in parts.iter().enumerate() {
			let d = ms(&starts[i], &ends[i])?;
			gemm_ms += d;
			let flops = 2.0 * f64::from(m) * f64::from(n) * f64::from(kc);
			samples.push(GemmSample { start_ms: ms(&phase_start, &starts[i])?, ms: d, flops });
		}
		let phase_ms = ms(&phase_start, ends.last().expect("k >= 256 gives a chunk"))?;
		let (interval_ms, trace_gflops) = resample(&samples, None);
		let timing = Timing {
			total,
			gemm: Duration::from_secs_f64(gemm_ms / 1e3),
			generation: Duration::from_secs_f64((phase_ms - gemm_ms).max(0.0) / 1e3),
			hashing: Duration::from_secs_f64(ms(&h0, &h1)? / 1e3),
			tree: Duration::from_secs_f64(ms(&h1, &h2)? / 1e3),
			interval_ms,
			trace_gflops,
		};
		tracing::debug!(?timing.total, ?timing.gemm, ?timing.generation, ?timing.hashing, ?timing.tree, "proved");
		drop((a, b));
		let stream = g.ctx.new_stream()?;
		Ok(GpuCommitment {
			ctx: g.ctx.clone(),
			stream,
			kernels: g.kernels.clone(),
			dims,
			c,
			tree,
			level_offsets,
			root,
			timing,
			samples,
		})
	}

	/// Tune the chunk GEMM of `spec`'s shape in `compute` ahead of the first proof of that shape
	/// (which otherwise does it, for up to a few seconds at a mainnet shape): returns the time it took.
	pub fn prepare(&self, spec: &ChallengeSpec, compute: Precision) -> Result<Duration, GpuError> {
		check_spec(spec)?;
		let started = Instant::now();
		let mut g = self.lock()?;
		let (m, n) = (spec.dims.m, spec.dims.n);
		let kc = sizing::chunk_len(spec.dims.k, spec.chunk_k);
		let path = g.fp8_path_for(spec, compute);
		if g.is_tuned(compute, path, m, n, kc) {
			return Ok(started.elapsed());
		}
		// the whole C and a chunk of A and B: what the proof itself holds
		let sb = storage_bytes(compute) as u64;
		Self::check_memory(
			&g.ctx,
			4 * u64::from(m) * u64::from(n) + (u64::from(m) + u64::from(n)) * u64::from(kc) * sb,
		)?;
		let a = DevBuf::<u8>::new(&g.ctx, (u64::from(m) * u64::from(kc) * sb) as usize)?;
		let b = DevBuf::<u8>::new(&g.ctx, (u64::from(n) * u64::from(kc) * sb) as usize)?;
		let c = DevBuf::<u32>::new(&g.ctx, m as usize * n as usize)?;
		g.generate(&g.mm_stream, &a, spec, compute, Matrix::A, m, 0, kc)?;
		g.generate(&g.mm_stream, &b, spec, compute, Matrix::B, n, 0, kc)?;
		let mut full = Plan::new(&g.lt, compute, m, n, kc, path)?;
		g.tune(compute, path, m, n, &mut full, a.ptr(), b.ptr(), c.ptr(), kc)?;
		g.mm_stream.synchronize()?;
		Ok(started.elapsed())
	}
}

impl Prover for GpuProver {
	fn name(&self) -> String {
		let info = self.info();
		format!("GPU {}: {} ({})", info.ordinal, info.name, info.uuid)
	}

	fn prove(&self, spec: &ChallengeSpec, progress: Progress) -> anyhow::Result<Box<dyn Committed>> {
		Ok(Box::new(self.prove_in(spec, spec.precision, progress)?))
	}

	/// Rounds to the first precision with `mantissa_bits` bits (the GPU computes in formats it has
	/// kernels for); fewer bits than fp8's are refused.
	fn prove_rounded(
		&self,
		spec: &ChallengeSpec,
		mantissa_bits: u32,
		progress: Progress,
	) -> anyhow::Result<Box<dyn Committed>> {
		let compute = Precision::ALL.into_iter().find(|p| p.mantissa_bits() == mantissa_bits).ok_or_else(|| {
			anyhow::anyhow!(
				"the GPU has no format with {mantissa_bits} mantissa bits; the CPU prover rounds to any width"
			)
		})?;
		Ok(Box::new(self.prove_in(spec, compute, progress)?))
	}

	fn prepare(&self, spec: &ChallengeSpec) -> anyhow::Result<()> {
		let took = GpuProver::prepare(self, spec, spec.precision)?;
		tracing::debug!(precision = spec.precision.name(), ?took, "GEMM tuned for this shape");
		Ok(())
	}
}

impl Committed for GpuCommitment {
	fn root(&self) -> Hash32 {
		self.root
	}

	fn timing(&self) -> &Timing {
		&self.timing
	}

	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>> {
		Ok(GpuCommitment::open(self, leaves)?)
	}
}

/// A proven challenge on the device: C, every level of the Merkle tree, the root and timings.
pub struct GpuCommitment {
	ctx: Arc<CudaContext>,
	stream: Arc<CudaStream>,
	kernels: Arc<Kernels>,
	dims: Dims,
	/// C, row-major fp32 bit patterns.
	c: DevBuf<u32>,
	/// Every level of the Merkle tree, leaves first (at `level_offsets`).
	tree: DevBuf<Hash32>,
	level_offsets: Vec<u64>,
	root: Hash32,
	timing: Timing,
	samples: Vec<GemmSample>,
}

impl GpuCommitment {
	/// The Merkle root of C.
	pub fn root(&self) -> Hash32 {
		self.root
	}

	/// Where the proof's time went.
	pub fn timing(&self) -> &Timing {
		&self.timing
	}

	/// Per-chunk GEMM samples of the proof.
	pub fn gemm_samples(&self) -> &[GemmSample] {
		&self.samples
	}

	/// The challenge's shape.
	pub fn dims(&self) -> Dims {
		self.dims
	}

	/// Open `leaves`: their values and Merkle paths, copying only those from the device.
	pub fn open(&self, leaves: &[u32]) -> Result<Vec<OpenedLeaf>, GpuError> {
		let num_leaves = self.dims.num_leaves();
		if let Some(&leaf) = leaves.iter().find(|&&l| l >= num_leaves) {
			return Err(GpuError::LeafOutOfRange { leaf, num_leaves });
		}
		if leaves.is_empty() {
			return Ok(Vec::new());
		}
		let depth = self.level_offsets.len() - 1;
		let count = leaves.len();
		let value_offsets: Vec<u64> = leaves.iter().map(|&l| u64::from(l) * LEAF_VALUES as u64).collect();
		let mut node_offsets = Vec::with_capacity(count * depth);
		for &l in leaves {
			for (level, off) in self.level_offsets[..depth].iter().enumerate() {
				node_offsets.push((off + ((u64::from(l) >> level) ^ 1)) * 8);
			}
		}
		let mut values = vec![0u32; count * LEAF_VALUES];
		let mut nodes = vec![0u32; node_offsets.len() * 8];
		self.gather(&self.c, &value_offsets, LEAF_VALUES as u32, &mut values)?;
		if !node_offsets.is_empty() {
			self.gather(&self.tree, &node_offsets, 8, &mut nodes)?;
		}
		Ok(leaves
			.iter()
			.enumerate()
			.map(|(i, &leaf)| OpenedLeaf {
				leaf,
				values: values[i * LEAF_VALUES..(i + 1) * LEAF_VALUES].to_vec(),
				proof: (0..depth)
					.map(|lv| {
						let w = &nodes[(i * depth + lv) * 8..(i * depth + lv + 1) * 8];
						let mut h = [0u8; 32];
						for (j, word) in w.iter().enumerate() {
							h[4 * j..4 * j + 4].copy_from_slice(&word.to_le_bytes());
						}
						h
					})
					.collect(),
			})
			.collect())
	}

	/// `words` u32 words of `src` from each word offset in `offsets` into `out`, one after the
	/// other, every offset checked against `src` first.
	fn gather<T: Plain>(&self, src: &DevBuf<T>, offsets: &[u64], words: u32, out: &mut [u32]) -> Result<(), GpuError> {
		let mut off_buf = DevBuf::<u64>::new(&self.ctx, offsets.len())?;
		let out_buf = DevBuf::<u32>::new(&self.ctx, out.len())?;
		self.kernels.gather(&self.stream, src.all(), offsets, &mut off_buf, words, out_buf.all())?;
		self.stream.synchronize()?;
		out_buf.copy_to_host(0, out)?;
		Ok(())
	}

	/// Rows `row0 .. row0 + rows` of C (row-major fp32 bit patterns): for checks on small dims.
	pub fn c_rows(&self, row0: u32, rows: u32) -> Result<Vec<u32>, GpuError> {
		if row0.saturating_add(rows) > self.dims.m {
			return Err(GpuError::InvalidSpec(format!("rows {row0}+{rows} beyond m = {}", self.dims.m)));
		}
		let n = self.dims.n as usize;
		let mut out = vec![0u32; rows as usize * n];
		self.c.copy_to_host(row0 as usize * n, &mut out)?;
		Ok(out)
	}

	/// Every leaf hash (level 0 of the tree): for checks on small dims.
	pub fn leaf_hashes(&self) -> Result<Vec<Hash32>, GpuError> {
		let mut out = vec![Hash32::default(); self.dims.num_leaves() as usize];
		self.tree.copy_to_host(0, &mut out)?;
		Ok(out)
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn prover_and_commitment_cross_threads() {
		fn send_sync<T: Send + Sync>() {}
		send_sync::<GpuProver>();
		send_sync::<GpuCommitment>();
	}

	#[test]
	fn h100_challenge_fits_in_80_gb() {
		let dims = pog_primitives::sizing::challenge_dims(81_559, 600_000, 30_000);
		let bytes = device_bytes(&dims, 8192, Precision::Fp32);
		assert!(bytes + MARGIN_BYTES < 78 << 30, "{}", bytes >> 20);
	}

	#[test]
	fn bad_specs_are_refused() {
		let spec = ChallengeSpec {
			seed: [0; 32],
			precision: Precision::Fp16,
			dims: Dims { m: 256, n: 256, k: 512 },
			chunk_k: 100,
		};
		assert!(check_spec(&spec).is_err());
		assert!(check_spec(&ChallengeSpec { chunk_k: 256, ..spec }).is_ok());
	}
}
