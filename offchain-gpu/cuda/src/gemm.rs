//! The chunk GEMM through cuBLASLt.
//!
//! A chunk of A is stored `[m][kc]` and one of B `[n][kc]` (both contiguous along k). Row-major
//! `C` (m×n) is column-major `Cᵀ` (n×m) = `B_bufᵀ · A_buf`: a "TN" matmul with the B buffer as
//! cuBLASLt's operand A (kc×n, ld kc, transposed), the A buffer as operand B (kc×m, ld kc) and
//! D = C (n×m, ld n), fp32 output and accumulation; `beta` = 0 for the first chunk, 1 after.
//! On the int8 path ([`Fp8Path::Int8`]) inputs are int8 and C is int32 (exact accumulation).

use std::{ffi::c_void, mem::size_of, sync::Arc};

use cudarc::{
	cublaslt::{result as lt, sys as ltsys},
	driver::{sys, CudaContext, CudaStream},
};
use pog_primitives::Precision;

use crate::{device::DevBuf, GpuError};

/// Workspace cuBLASLt may use (NVIDIA's recommendation for Hopper).
pub(crate) const WORKSPACE_BYTES: usize = 32 << 20;
/// Heuristic candidates asked for (and timed by the prover's tuning).
pub(crate) const CANDIDATES: usize = 8;

/// A cuBLASLt handle with its workspace.
pub(crate) struct Lt {
	handle: ltsys::cublasLtHandle_t,
	/// [`WORKSPACE_BYTES`] for cuBLASLt.
	workspace: DevBuf<u8>,
}

// SAFETY: the handle is used by one thread at a time (the prover's mutex) and cuBLASLt handles
// may move between threads.
unsafe impl Send for Lt {}

impl Lt {
	pub fn new(ctx: &Arc<CudaContext>) -> Result<Self, GpuError> {
		ctx.bind_to_thread()?;
		let handle = lt::create_handle()?;
		let workspace = DevBuf::new(ctx, WORKSPACE_BYTES)?;
		Ok(Self { handle, workspace })
	}
}

impl Drop for Lt {
	fn drop(&mut self) {
		// SAFETY: created in `new`, destroyed once.
		if let Err(e) = unsafe { lt::destroy_handle(self.handle) } {
			tracing::warn!("cublasLtDestroy failed: {e:?}");
		}
	}
}

/// How an fp8 challenge's GEMM runs (other precisions ignore it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fp8Path {
	/// fp8 tensor cores, partial sums promoted to fp32 (cuBLASLt's default; sm_89 and later).
	Native,
	/// fp8 tensor cores with cuBLASLt's FAST_ACCUM: no promotion, Hopper's ~14-bit accumulator.
	/// Faster by nothing measurable, and outside the tolerance: for the self-test only.
	NativeFastAccum,
	/// The int8 path: the elements' int8 significands, one int8 GEMM with exact int32
	/// accumulation, C scaled into fp32 once at the end (`pog_primitives::pricing`). For cards
	/// without fp8 (Ampere, Turing) or whose int8 is faster (GeForce Ada).
	Int8,
}

/// Which of cuBLASLt's candidates a shape runs, from `times[candidate][pass]` (ms, candidate 0
/// the heuristic's first): the one with the lowest median, if that median is lower than the
/// first's by more than `margin` (a fraction), else the first. The heuristic's first is
/// cuBLAS's own choice for the full shape, the one PyTorch runs; the candidates are timed on a
/// sub-shape, under a power limit that moves each timing by a percent or so, so a smaller win
/// is noise. Candidates without timings never win.
pub(crate) fn choose_algorithm(times: &[Vec<f64>], margin: f64) -> usize {
	let median = |t: &[f64]| -> Option<f64> {
		let mut t: Vec<f64> = t.iter().copied().filter(|x| x.is_finite()).collect();
		t.sort_by(f64::total_cmp);
		match t.len() {
			0 => None,
			l if l % 2 == 1 => Some(t[l / 2]),
			l => Some((t[l / 2 - 1] + t[l / 2]) / 2.0),
		}
	};
	let Some(first) = times.first().and_then(|t| median(t)) else { return 0 };
	let best =
		times.iter().enumerate().filter_map(|(i, t)| median(t).map(|m| (i, m))).min_by(|a, b| a.1.total_cmp(&b.1));
	match best {
		Some((i, m)) if m < first * (1.0 - margin) => i,
		_ => 0,
	}
}

/// The turns of a sustained duel between the heuristic's first (0) and the screened winner (1):
/// the Thue-Morse order, in which both duellists' turns have the same mean position and the same
/// mean squared position (0, 3, 5, 6 against 1, 2, 4, 7), so that a clock drifting linearly or
/// quadratically over the duel adds as much to one as to the other. Alternating turns (1, 0, 1,
/// 0, ...) let a drift of 2-4% over the duel decide it: on an H100 every turn ran faster than the
/// one before, and the duellist that ran second won (`benchmarking/gpu/gemm/tuning/h100-duel/`).
pub(crate) const DUEL_ORDER: [usize; 8] = [0, 1, 1, 0, 1, 0, 0, 1];

/// Whether the challenger wins a sustained duel, from its `turns` (duellist, ms per GEMM): its
/// mean turn must be lower than the first's by more than `margin` (a fraction). Means, not
/// medians: the order cancels a drift in the means only. A duellist without a finite timing in
/// every turn loses.
pub(crate) fn challenger_wins(turns: &[(usize, f64)], margin: f64) -> bool {
	let mean = |d: usize| -> Option<f64> {
		let t: Vec<f64> = turns.iter().filter(|(who, _)| *who == d).map(|(_, ms)| *ms).collect();
		(!t.is_empty() && t.iter().all(|x| x.is_finite())).then(|| t.iter().sum::<f64>() / t.len() as f64)
	};
	match (mean(0), mean(1)) {
		(Some(first), Some(challenger)) => challenger < first * (1.0 - margin),
		_ => false,
	}
}

/// cuBLASLt types of a compute precision: (input type, compute type).
fn types(compute: Precision, fp8: Fp8Path) -> (ltsys::cudaDataType, ltsys::cublasComputeType_t) {
	use ltsys::{cublasComputeType_t as C, cudaDataType_t as D};
	if compute == Precision::Fp8E4M3 && fp8 == Fp8Path::Int8 {
		return (D::CUDA_R_8I, C::CUBLAS_COMPUTE_32I);
	}
	match compute {
		Precision::Fp32 => (D::CUDA_R_32F, C::CUBLAS_COMPUTE_32F),
		Precision::Tf32 => (D::CUDA_R_32F, C::CUBLAS_COMPUTE_32F_FAST_TF32),
		Precision::Fp16 => (D::CUDA_R_16F, C::CUBLAS_COMPUTE_32F),
		Precision::Bf16 => (D::CUDA_R_16BF, C::CUBLAS_COMPUTE_32F),
		Precision::Fp8E4M3 => (D::CUDA_R_8F_E4M3, C::CUBLAS_COMPUTE_32F),
	}
}

/// A ready matmul of one shape: descriptors and the chosen algorithm.
pub(crate) struct Plan {
	desc: ltsys::cublasLtMatmulDesc_t,
	a: ltsys::cublasLtMatrixLayout_t,
	b: ltsys::cublasLtMatrixLayout_t,
	d: ltsys::cublasLtMatrixLayout_t,
	/// The algorithm the plan runs.
	pub algo: ltsys::cublasLtMatmulAlgo_t,
	/// cuBLASLt's heuristic candidates, best guess first.
	pub candidates: Vec<ltsys::cublasLtMatmulAlgo_t>,
	/// Floating-point operations of one call.
	pub flops: f64,
	/// Whether it is the int8 path's GEMM (int32 scalars and output).
	int8: bool,
}

// SAFETY: descriptors are plain host objects, used by one thread at a time.
unsafe impl Send for Plan {}

impl Plan {
	/// The matmul `C(m×n) (+)= A_chunk(m×kc) · B_chunk(kc×n)` with inputs in `compute`; for fp8,
	/// `fp8` says which path (on the int8 path C is int32).
	pub fn new(lt_: &Lt, compute: Precision, m: u32, n: u32, kc: u32, fp8: Fp8Path) -> Result<Self, GpuError> {
		let (input, compute_type) = types(compute, fp8);
		let int8 = compute == Precision::Fp8E4M3 && fp8 == Fp8Path::Int8;
		let out = if int8 { ltsys::cudaDataType_t::CUDA_R_32I } else { ltsys::cudaDataType_t::CUDA_R_32F };
		let desc = lt::create_matmul_desc(compute_type, out)?;
		let mut plan = Plan {
			desc,
			a: std::ptr::null_mut(),
			b: std::ptr::null_mut(),
			d: std::ptr::null_mut(),
			algo: unsafe { std::mem::zeroed() },
			candidates: Vec::new(),
			flops: 2.0 * f64::from(m) * f64::from(n) * f64::from(kc),
			int8,
		};
		let set = |attr: ltsys::cublasLtMatmulDescAttributes_t, v: &i32| -> Result<(), GpuError> {
			// SAFETY: the attribute takes an int32 value.
			unsafe { lt::set_matmul_desc_attribute(desc, attr, v as *const i32 as *const c_void, size_of::<i32>()) }?;
			Ok(())
		};
		// cublasOperation_t: N = 0, T = 1
		set(ltsys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA, &1)?;
		set(ltsys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSB, &0)?;
		if compute == Precision::Fp8E4M3 && !int8 {
			let v: i8 = i8::from(fp8 == Fp8Path::NativeFastAccum);
			// SAFETY: FAST_ACCUM takes an int8 value.
			unsafe {
				lt::set_matmul_desc_attribute(
					desc,
					ltsys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_FAST_ACCUM,
					&v as *const i8 as *const c_void,
					1,
				)
			}?;
		}
		plan.a = lt::create_matrix_layout(input, u64::from(kc), u64::from(n), i64::from(kc))?;
		plan.b = lt::create_matrix_layout(input, u64::from(kc), u64::from(m), i64::from(kc))?;
		plan.d = lt::create_matrix_layout(out, u64::from(n), u64::from(m), i64::from(n))?;
		let pref = lt::create_matmul_pref()?;
		let ws = WORKSPACE_BYTES as u64;
		let mut results: Vec<ltsys::cublasLtMatmulHeuristicResult_t> = vec![unsafe { std::mem::zeroed() }; CANDIDATES];
		let mut found: i32 = 0;
		// SAFETY: the preference takes a uint64 workspace size; all descriptors are live and
		// `results` has room for CANDIDATES entries.
		let status = unsafe {
			lt::set_matmul_pref_attribute(
				pref,
				ltsys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
				&ws as *const u64 as *const c_void,
				size_of::<u64>(),
			)
			.and_then(|_| {
				ltsys::cublasLtMatmulAlgoGetHeuristic(
					lt_.handle,
					desc,
					plan.a,
					plan.b,
					plan.d,
					plan.d,
					pref,
					CANDIDATES as i32,
					results.as_mut_ptr(),
					&mut found,
				)
				.result()
			})
		};
		// SAFETY: created above.
		unsafe { lt::destroy_matmul_pref(pref) }?;
		status.map_err(|e| GpuError::Cublas(format!("no cuBLASLt algorithm for {compute:?} {m}x{n}x{kc}: {e:?}")))?;
		plan.candidates = results
			.into_iter()
			.take(found.max(0) as usize)
			.filter(|r| r.state == ltsys::cublasStatus_t::CUBLAS_STATUS_SUCCESS)
			.map(|r| r.algo)
			.collect();
		plan.algo = *plan
			.candidates
			.first()
			.ok_or_else(|| GpuError::Cublas(format!("no cuBLASLt algorithm for {compute:?} {m}x{n}x{kc}")))?;
		Ok(plan)
	}

	/// Whether `algo` (found for another shape) runs this plan's shape within the workspace.
	pub fn supports(&self, lt_: &Lt, algo: &ltsys::cublasLtMatmulAlgo_t) -> bool {
		let mut r: ltsys::cublasLtMatmulHeuristicResult_t = unsafe { std::mem::zeroed() };
		// SAFETY: descriptors are live; `r` is written by the call.
		let status = unsafe {
			ltsys::cublasLtMatmulAlgoCheck(lt_.handle, self.desc, self.a, self.b, self.d, self.d, algo, &mut r)
		};
		status == ltsys::cublasStatus_t::CUBLAS_STATUS_SUCCESS && r.workspaceSize <= WORKSPACE_BYTES
	}

	/// Enqueue `D = A_chunk·B_chunk + beta·D` on `stream`.
	pub fn run(
		&self,
		lt_: &Lt,
		stream: &CudaStream,
		a_chunk: sys::CUdeviceptr,
		b_chunk: sys::CUdeviceptr,
		c: sys::CUdeviceptr,
		beta: f32,
	) -> Result<(), GpuError> {
		self.run_with(lt_, &self.algo, stream, a_chunk, b_chunk, c, beta)
	}

	/// Like [`Self::run`] with another algorithm.
	#[allow(clippy::too_many_arguments)]
	pub fn run_with(
		&self,
		lt_: &Lt,
		algo: &ltsys::cublasLtMatmulAlgo_t,
		stream: &CudaStream,
		a_chunk: sys::CUdeviceptr,
		b_chunk: sys::CUdeviceptr,
		c: sys::CUdeviceptr,
		beta: f32,
	) -> Result<(), GpuError> {
		// The int8 path's scalars are int32 (its scale type), the others' fp32.
		let (alpha, beta_f32) = (1.0f32, beta);
		let (alpha_i, beta_i) = (1i32, beta as i32);
		let (alpha_ptr, beta_ptr) = if self.int8 {
			(&alpha_i as *const i32 as *const c_void, &beta_i as *const i32 as *const c_void)
		} else {
			(&alpha as *const f32 as *const c_void, &beta_f32 as *const f32 as *const c_void)
		};
		// SAFETY: the buffers have the plan's shapes (the caller allocated them from the same
		// dims); alpha/beta are host scalars of the plan's scale type, read before the call returns.
		unsafe {
			lt::matmul(
				lt_.handle,
				self.desc,
				alpha_ptr,
				beta_ptr,
				b_chunk as *const c_void,
				self.a,
				a_chunk as *const c_void,
				self.b,
				c as *const c_void,
				self.d,
				c as *mut c_void,
				self.d,
				algo,
				lt_.workspace.ptr() as *mut c_void,
				lt_.workspace.len(),
				stream.cu_stream() as ltsys::cudaStream_t,
			)
		}?;
		Ok(())
	}
}

impl Drop for Plan {
	fn drop(&mut self) {
		// SAFETY: each descriptor was created once and is destroyed once.
		unsafe {
			for l in [self.a, self.b, self.d] {
				if !l.is_null() {
					let _ = lt::destroy_matrix_layout(l);
				}
			}
			let _ = lt::destroy_matmul_desc(self.desc);
		}
	}
}

#[cfg(test)]
mod tests {
	use super::{challenger_wins, choose_algorithm, DUEL_ORDER};

	#[test]
	fn the_heuristics_first_stays_unless_clearly_beaten() {
		// within the margin: noise, the first stays
		assert_eq!(choose_algorithm(&[vec![1.00, 1.01, 1.00], vec![0.99, 0.99, 0.995]], 0.02), 0);
		// clearly faster in the median: it wins
		assert_eq!(choose_algorithm(&[vec![1.00, 1.00, 1.00], vec![0.95, 0.96, 0.94], vec![0.97; 3]], 0.02), 1);
	}

	#[test]
	fn one_fast_timing_does_not_decide() {
		// the old rule (the fastest single timing) took candidate 1 for its one cool-card timing
		let times = [vec![1.00, 1.00, 1.00], vec![0.80, 1.10, 1.12], vec![1.05, 1.04, 1.06]];
		assert_eq!(choose_algorithm(&times, 0.02), 0);
	}

	#[test]
	fn missing_or_broken_timings_never_win() {
		assert_eq!(choose_algorithm(&[], 0.02), 0);
		assert_eq!(choose_algorithm(&[vec![1.0], vec![], vec![f64::NAN, f64::NAN]], 0.02), 0);
		assert_eq!(choose_algorithm(&[vec![], vec![0.5]], 0.02), 0);
	}

	/// A duel's turns in [`DUEL_ORDER`], each kernel at `rates[d]` ms a GEMM, under a clock that
	/// makes turn `t` take `drift(t)` times as long.
	fn duel(rates: [f64; 2], drift: impl Fn(f64) -> f64) -> Vec<(usize, f64)> {
		DUEL_ORDER.iter().enumerate().map(|(t, &d)| (d, rates[d] * drift(t as f64))).collect()
	}

	#[test]
	fn a_drifting_clock_does_not_decide_a_duel() {
		// the H100's duels: every turn 0.5-0.7% faster than the one before
		let drifts: [fn(f64) -> f64; 3] =
			[|t| 1.0 - 0.006 * t, |t| 1.0 + 0.006 * t, |t| 1.0 - 0.004 * t + 0.0004 * t * t];
		for drift in drifts {
			// equal kernels: the first stays, whichever way the clock drifts
			assert!(!challenger_wins(&duel([6.80, 6.80], drift), 0.005));
			// a challenger 1.5% faster (the H100's fp16 candidate) wins, whichever way it drifts
			assert!(challenger_wins(&duel([6.80, 6.70], drift), 0.005));
			// a challenger 0.8% slower (the H200's fp8 candidate, sustained) loses
			assert!(!challenger_wins(&duel([3.50, 3.53], drift), 0.005));
		}
		// alternating turns, the challenger second: one 0.3% slower won under the same drift
		let alternating: Vec<(usize, f64)> =
			(0..8).map(|t| (t % 2, [6.80, 6.82][t % 2] * (1.0 - 0.006 * t as f64))).collect();
		assert!(challenger_wins(&alternating, 0.001));
		assert!(!challenger_wins(&duel([6.80, 6.82], |t| 1.0 - 0.006 * t), 0.001));
	}

	#[test]
	fn the_duels_measured_on_an_h200_keep_fp16s_faster_kernel_and_fp8s_first() {
		use crate::prover::DUEL_MARGIN;
		// `benchmarking/gpu/gemm/tuning/h200-abba/`, 16384 x 16384 x 8192, ms a GEMM, turns in order
		let fp16 = [6.8016, 6.7747, 6.6392, 6.8552, 6.6630, 6.8113, 6.8077, 6.7002];
		let bf16 = [6.5465, 6.3088, 6.4468, 6.4328, 6.3941, 6.4647, 6.4485, 6.4306];
		// a 0.7% win here that 1,000 GEMMs did not keep
		let fp8 = [3.5755, 3.5435, 3.5407, 3.5661, 3.5373, 3.5902, 3.5422, 3.5528];
		let turns = |t: [f64; 8]| -> Vec<(usize, f64)> { DUEL_ORDER.iter().copied().zip(t).collect() };
		assert!(challenger_wins(&turns(fp16), DUEL_MARGIN));
		assert!(challenger_wins(&turns(bf16), DUEL_MARGIN));
		assert!(!challenger_wins(&turns(fp8), DUEL_MARGIN));
	}

	#[test]
	fn a_duellist_without_every_turn_loses() {
		assert!(!challenger_wins(&[], 0.005));
		assert!(!challenger_wins(&[(0, 1.0), (0, 1.0)], 0.005));
		assert!(!challenger_wins(&[(0, 1.0), (1, 0.5), (1, f64::NAN)], 0.005));
	}
}
