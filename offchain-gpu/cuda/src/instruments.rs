//! The measuring instruments of [`GpuProver`], apart from the proof path: pure GEMM timings,
//! the sustained run of the benchmark, copy bandwidth, and generated chunks for the known-answer
//! checks. They share the prover's context, streams, kernels and tuned GEMMs.

use std::time::{Duration, Instant};

use cudarc::driver::CudaEvent;
use pog_primitives::{sizing, verify::ChallengeSpec, Matrix, Precision};
use pog_prover::trace::GemmSample;

use crate::{
	device::DevBuf,
	gemm::Plan,
	kernels::storage_bytes,
	prover::{check_spec, ms, timing_event, Inner},
	GpuError, GpuProver,
};

impl GpuProver {
	/// Elements of one generated chunk as the GEMM gets them (`[lines][kc]` in `compute`'s
	/// storage format, or int8 significands on the int8 path; little-endian bytes): for the
	/// known-answer checks.
	pub fn generated_chunk(
		&self,
		spec: &ChallengeSpec,
		compute: Precision,
		matrix: Matrix,
		k0: u32,
		kc: u32,
	) -> Result<Vec<u8>, GpuError> {
		let g = self.lock()?;
		let lines = match matrix {
			Matrix::A => spec.dims.m,
			Matrix::B => spec.dims.n,
		};
		let e = 32; // every precision's elements per block divides 32
		if !k0.is_multiple_of(e) || !kc.is_multiple_of(e) || kc == 0 {
			return Err(GpuError::InvalidSpec(format!("chunk {k0}+{kc} is not aligned to 32")));
		}
		let bytes = lines as usize * kc as usize * storage_bytes(compute);
		let buf = DevBuf::new(&g.ctx, bytes)?;
		g.generate(&g.gen_stream, &buf, spec, compute, matrix, lines, k0, kc)?;
		g.gen_stream.synchronize()?;
		let mut out = vec![0u8; bytes];
		buf.copy_to_host(0, &mut out)?;
		Ok(out)
	}

	/// Pure GEMM time of `spec`'s chunked GEMM in `compute`, generation and hashing left out
	/// (chunk 0 is generated once and reused by every chunk's GEMM, shapes as in [`Self::prove`]):
	/// one sample for the whole run, timed as PyTorch times a run, by two events around all its
	/// GEMMs (an event between GEMMs costs each a few microseconds: 0.2–0.3% of a 16384² × 8192
	/// fp8 GEMM on an H100, `benchmarking/gpu/README.md` §3). `max_chunks` cuts it short; without
	/// `accumulate` every GEMM overwrites C (beta = 0, as a plain library GEMM), else chunks after
	/// the first add (beta = 1).
	pub fn gemm_only(
		&self,
		spec: &ChallengeSpec,
		compute: Precision,
		max_chunks: Option<usize>,
		accumulate: bool,
	) -> Result<GemmSample, GpuError> {
		check_spec(spec)?;
		let mut g = self.lock()?;
		let dims = spec.dims;
		let (m, n) = (dims.m, dims.n);
		let ChunkOperands { a, b, c, kc: kc_max } = chunk_operands(&g, spec, compute)?;
		let mut parts: Vec<(u32, u32)> = sizing::chunks(dims.k, spec.chunk_k).collect();
		if let Some(max) = max_chunks {
			parts.truncate(max.max(1));
		}
		let path = g.fp8_path_for(spec, compute);
		let mut full = Plan::new(&g.lt, compute, m, n, kc_max, path)?;
		g.tune(compute, path, m, n, &mut full, a.ptr(), b.ptr(), c.ptr(), kc_max)?;
		let last_kc = parts.last().map(|p| p.1).unwrap_or(kc_max);
		let short = if last_kc != kc_max { Some(Plan::new(&g.lt, compute, m, n, last_kc, path)?) } else { None };
		let (start, end) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?);
		let mut flops = 0.0;
		start.record(&g.mm_stream)?;
		for (i, &(_, kc)) in parts.iter().enumerate() {
			let plan = if kc == kc_max { &full } else { short.as_ref().unwrap_or(&full) };
			let beta = if i > 0 && accumulate { 1.0 } else { 0.0 };
			plan.run(&g.lt, &g.mm_stream, a.ptr(), b.ptr(), c.ptr(), beta)?;
			flops += plan.flops;
		}
		end.record(&g.mm_stream)?;
		g.mm_stream.synchronize()?;
		Ok(GemmSample { start_ms: 0.0, ms: ms(&start, &end)?, flops })
	}

	/// Repeated chunk GEMMs (`m×kc · kc×n`, accumulating into one C) for `seconds` of wall time:
	/// per-GEMM samples, for the burst/sustained benchmark.
	pub fn sustained(
		&self,
		spec: &ChallengeSpec,
		compute: Precision,
		seconds: f64,
	) -> Result<Vec<GemmSample>, GpuError> {
		check_spec(spec)?;
		let mut g = self.lock()?;
		let (m, n) = (spec.dims.m, spec.dims.n);
		let ChunkOperands { a, b, c, kc } = chunk_operands(&g, spec, compute)?;
		let path = g.fp8_path_for(spec, compute);
		let mut plan = Plan::new(&g.lt, compute, m, n, kc, path)?;
		g.tune(compute, path, m, n, &mut plan, a.ptr(), b.ptr(), c.ptr(), kc)?;
		let phase_start = timing_event(&g.ctx)?;
		phase_start.record(&g.mm_stream)?;
		let started = Instant::now();
		let mut evs: Vec<(CudaEvent, CudaEvent)> = Vec::new();
		let mut i = 0usize;
		while started.elapsed().as_secs_f64() < seconds {
			// keep at most 3 GEMMs queued so the wall clock follows the GPU
			if i >= 3 {
				while !evs[i - 3].1.try_is_complete()? {
					std::thread::sleep(Duration::from_micros(200));
				}
			}
			let (s, e) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?);
			s.record(&g.mm_stream)?;
			plan.run(&g.lt, &g.mm_stream, a.ptr(), b.ptr(), c.ptr(), if i == 0 { 0.0 } else { 1.0 })?;
			e.record(&g.mm_stream)?;
			evs.push((s, e));
			i += 1;
		}
		g.mm_stream.synchronize()?;
		evs.iter()
			.map(|(s, e)| Ok(GemmSample { start_ms: ms(&phase_start, s)?, ms: ms(s, e)?, flops: plan.flops }))
			.collect()
	}

	/// Device-to-device copy bandwidth in GB/s (bytes read plus bytes written), over `reps`
	/// copies of `bytes`.
	pub fn copy_bandwidth(&self, bytes: usize, reps: u32) -> Result<f64, GpuError> {
		let g = self.lock()?;
		Self::check_memory(&g.ctx, 2 * bytes as u64)?;
		let mut src = DevBuf::<u8>::new(&g.ctx, bytes)?;
		let mut dst = DevBuf::<u8>::new(&g.ctx, bytes)?;
		let st = &g.mm_stream;
		// the stream is synchronised before the buffers drop
		src.fill_bytes(st, 0x5A)?;
		dst.copy_from_device(st, 0, &src, 0, bytes)?;
		let (e0, e1) = (timing_event(&g.ctx)?, timing_event(&g.ctx)?);
		e0.record(&g.mm_stream)?;
		for _ in 0..reps {
			dst.copy_from_device(st, 0, &src, 0, bytes)?;
		}
		e1.record(&g.mm_stream)?;
		g.mm_stream.synchronize()?;
		let t = ms(&e0, &e1)? / 1e3;
		Ok(2.0 * bytes as f64 * f64::from(reps) / t / 1e9)
	}
}

/// A whole C and one generated chunk of A and B on the device: what the measuring GEMMs run on.
struct ChunkOperands {
	/// Chunk 0 of A (bytes of `compute`'s storage).
	a: DevBuf<u8>,
	/// Chunk 0 of B (bytes of `compute`'s storage).
	b: DevBuf<u8>,
	/// C (fp32 or, on the int8 path, int32).
	c: DevBuf<u32>,
	/// The chunk's length along k.
	kc: u32,
}

/// Allocates C and chunk 0 of A and B of `spec` (in `compute`'s storage) and generates the
/// chunk on the GEMM stream, after checking that the device has the memory.
fn chunk_operands(g: &Inner, spec: &ChallengeSpec, compute: Precision) -> Result<ChunkOperands, GpuError> {
	let (m, n) = (spec.dims.m, spec.dims.n);
	let sb = storage_bytes(compute) as u64;
	let kc = sizing::chunk_len(spec.dims.k, spec.chunk_k);
	let needed = 4 * u64::from(m) * u64::from(n) + (u64::from(m) + u64::from(n)) * u64::from(kc) * sb;
	GpuProver::check_memory(&g.ctx, needed)?;
	let c = DevBuf::new(&g.ctx, m as usize * n as usize)?;
	let a = DevBuf::new(&g.ctx, (u64::from(m) * u64::from(kc) * sb) as usize)?;
	let b = DevBuf::new(&g.ctx, (u64::from(n) * u64::from(kc) * sb) as usize)?;
	g.generate(&g.mm_stream, &a, spec, compute, Matrix::A, m, 0, kc)?;
	g.generate(&g.mm_stream, &b, spec, compute, Matrix::B, n, 0, kc)?;
	Ok(ChunkOperands { a, b, c, kc })
}
