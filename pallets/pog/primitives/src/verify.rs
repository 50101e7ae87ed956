//! Verification of opened leaves: exact recomputation of sampled entries of C and the
//! tolerance for an honest fp32-accumulated result.
//!
//! ## Exact recomputation
//! Every element is `s / 2^p` with an integer significand `s` (see [`crate::precision`]), so
//! `C[i][j]·2^(2p) = Σ_kk s_A[i][kk]·s_B[kk][j]` is an integer. The verifier sums the products
//! in `i64` (flushed into an `i128` every 1,024 Philox blocks, so nothing overflows for any
//! `k ≤ MAX_K`) and converts once to f64: the reference value is exact up to that one rounding
//! (relative 2^-53). It streams a row of A and the columns of B block by block and never holds
//! more than 16 elements of each: memory is O(entries), whatever k is.
//!
//! ## Tolerance
//! An honest GPU multiplies exactly (every product of two inputs fits fp32, except fp32×fp32,
//! which is rounded once) and accumulates in fp32 along chains of additions. With the protocol's
//! chunking (GEMMs over chunks of `chunk_k` along k, each added into C with beta = 1), no chain
//! is longer than `L = min(k, chunk_k + ⌈k / chunk_k⌉)`. Modelling each rounding as an independent
//! error of at most `u·|partial sum|` (`u = 2^-acc_bits`, see
//! [`Precision::accumulation_bits`]) on partial sums that are random walks with
//! `E[s_j²] = j·S2/k`, where `S2 = Σ (a·b)²`, the error's standard deviation is at most
//! `σ = u·sqrt(S2·(L + 2)/6)` (the `+2` covers the one rounding of each fp32 product).
//! An entry passes if `|claimed − exact| ≤ Z·σ` with `Z` = [`TOLERANCE_SIGMAS`]. The check is
//! done on squares, so no square root is taken on the way.
//!
//! Tensor cores (tf32, fp16, bf16, fp8) accumulate by truncation, not rounding to nearest: measured on
//! an H100, honest tf32 results reached 4.6× and fp16 2.4× the round-to-nearest threshold, biased
//! toward zero (`benchmarking/gpu/README.md`). [`tolerance_sq`] adds the variance of that bias for
//! those precisions (see there), which fits the measurements.
//!
//! A result computed in a lower precision with `p'` mantissa bits rounds each operand by a
//! relative error of rms `2^-(p'+1)/√3`, giving an error of rms `sqrt(S2·2/3)·2^-(p'+1)`,
//! which is `≈ 0.25·2^(23-p')/sqrt(L)` times the threshold for fp32 accumulation
//! (docs/protocol.md works the numbers out per precision).

use alloc::vec::Vec;
use codec::{Decode, Encode};

use crate::{
	commitment::{leaf_position, Hash32},
	generator::{ChallengeSeed, Generator, Matrix},
	philox::{CounterLanes, LANES},
	sampling::checked_offsets,
	sizing, Dims, Precision,
};

/// Standard deviations of the accumulation-error model an honest result may deviate by.
pub const TOLERANCE_SIGMAS: f64 = 8.0;

/// Everything that defines a challenge's C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub struct ChallengeSpec {
	/// The challenge seed.
	pub seed: ChallengeSeed,
	/// Input precision.
	pub precision: Precision,
	/// GEMM shape.
	pub dims: Dims,
	/// Chunk length along k of the protocol's accumulation (bounds the longest fp32 chain).
	pub chunk_k: u32,
}

/// The exact value of an entry of C and the sum of its squared products.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactEntry {
	/// `C[i][j]` computed exactly (rounded once to f64).
	pub value: f64,
	/// `S2 = Σ_kk (A[i][kk]·B[kk][j])²`, which sets the tolerance.
	pub sum_sq: f64,
}

/// SCALE form of an exact entry (what the node's host function returns): the two f64s' bit
/// patterns, so that nothing is rounded on the way.
impl Encode for ExactEntry {
	fn size_hint(&self) -> usize {
		16
	}

	fn encode_to<O: codec::Output + ?Sized>(&self, dest: &mut O) {
		(self.value.to_bits(), self.sum_sq.to_bits()).encode_to(dest)
	}
}

impl Decode for ExactEntry {
	fn decode<I: codec::Input>(input: &mut I) -> Result<Self, codec::Error> {
		let (value, sum_sq) = <(u64, u64)>::decode(input)?;
		Ok(ExactEntry { value: f64::from_bits(value), sum_sq: f64::from_bits(sum_sq) })
	}
}

/// The entries of C one check needs: `(row, columns)`, one per opened leaf (the checked entries
/// of a leaf share its row of A).
pub type EntryRows = Vec<(u32, Vec<u32>)>;

/// Where a check's exact entries are computed. The rule (which entries, the tolerance, the
/// verdict) is [`check_openings_with`]'s whatever the source; a source only does the arithmetic.
pub trait EntrySource {
	/// [`exact_entries`] of each `(row, cols)` of `rows`, in order.
	fn exact_entries(&self, spec: &ChallengeSpec, rows: &[(u32, Vec<u32>)]) -> Vec<Vec<ExactEntry>>;
}

/// Computes the entries here, one row after another: natively, or inside the runtime's WASM.
pub struct InPlace;

impl EntrySource for InPlace {
	fn exact_entries(&self, spec: &ChallengeSpec, rows: &[(u32, Vec<u32>)]) -> Vec<Vec<ExactEntry>> {
		rows.iter().map(|(row, cols)| exact_entries(spec, *row, cols)).collect()
	}
}

/// Blocks summed in 64-bit integers before flushing into 128-bit ones (so no sum overflows:
/// at most 32 terms per block, each product < 2^48 and each square < 2^48). A multiple of
/// [`LANES`].
const FLUSH_BLOCKS: u32 = 1024;

/// Significands of one Philox block per lane, element-major (`[element][lane]`), specialised per
/// format so the verifier's inner loop has no branches. Must agree with
/// [`Precision::significand`] of [`Precision::element_from_random`] (tested below).
trait Format {
	/// Elements per block.
	const E: usize;
	/// Right shift applied to a product before squaring it for `S2` (keeps squares < 2^48).
	const SQ_SHIFT: u32;
	/// The significands of the blocks whose Philox words are `w` (word-major, as
	/// [`Generator::words_lanes`] gives them) into `out[..E]`.
	fn significands(w: &CounterLanes, out: &mut [[i32; LANES]; 32]);
}

#[inline(always)]
fn signed(magnitude: u32, sign_bit: u32) -> i32 {
	let s = -((sign_bit & 1) as i32);
	(magnitude as i32 ^ s) - s
}

/// A format whose element is made from a `SLOT`-bit slot: sign in the slot's top bit, `P`
/// mantissa bits at the bottom.
struct Slots<const SLOT: u32, const P: u32, const SQ_SHIFT: u32>;
impl<const SLOT: u32, const P: u32, const SHIFT: u32> Format for Slots<SLOT, P, SHIFT> {
	const E: usize = (128 / SLOT) as usize;
	const SQ_SHIFT: u32 = SHIFT;
	#[inline(always)]
	fn significands(w: &CounterLanes, out: &mut [[i32; LANES]; 32]) {
		let per_word = (32 / SLOT) as usize;
		let mask = (1u32 << P) - 1;
		for i in 0..4 {
			for s in 0..per_word {
				for l in 0..LANES {
					let slot = if SLOT == 32 { w[i][l] } else { w[i][l] >> (SLOT * s as u32) };
					out[i * per_word + s][l] = signed((1 << P) | (slot & mask), slot >> (SLOT - 1));
				}
			}
		}
	}
}

type Fp32 = Slots<32, 23, 24>;
type Tf32 = Slots<16, 10, 0>;
type Fp16 = Slots<16, 10, 0>;
type Bf16 = Slots<8, 7, 0>;
type Fp8 = Slots<4, 3, 0>;

/// Exact entries `C[row][col]` for each `col` in `cols`, sharing one pass over row `row` of A.
///
/// [`LANES`] consecutive Philox blocks are generated and multiplied at a time, word-major, so
/// that the compiler vectorises the generator and the dot products across blocks; where the CPU
/// has AVX2 (x86-64, with `std`) the same code runs compiled for it (`benchmarking/README.md`
/// has the figures).
pub fn exact_entries(spec: &ChallengeSpec, row: u32, cols: &[u32]) -> Vec<ExactEntry> {
	#[cfg(all(feature = "std", target_arch = "x86_64"))]
	if std::is_x86_feature_detected!("avx2") {
		#[allow(unsafe_code)]
		// SAFETY: the CPU has AVX2, the one feature the function is compiled for.
		return unsafe { exact_entries_avx2(spec, row, cols) };
	}
	exact_entries_portable(spec, row, cols)
}

/// [`exact_entries_portable`] compiled for AVX2 (eight 32-bit lanes a register, 32×32→64-bit
/// multiplies four at a time).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
fn exact_entries_avx2(spec: &ChallengeSpec, row: u32, cols: &[u32]) -> Vec<ExactEntry> {
	exact_entries_portable(spec, row, cols)
}

/// [`exact_entries`] for the target's baseline instruction set (inlined into its callers, so
/// that each gets it compiled for its own target features).
#[inline(always)]
fn exact_entries_portable(spec: &ChallengeSpec, row: u32, cols: &[u32]) -> Vec<ExactEntry> {
	match spec.precision {
		Precision::Fp32 => entries::<Fp32>(spec, row, cols),
		Precision::Tf32 => entries::<Tf32>(spec, row, cols),
		Precision::Fp16 => entries::<Fp16>(spec, row, cols),
		Precision::Bf16 => entries::<Bf16>(spec, row, cols),
		Precision::Fp8E4M3 => entries::<Fp8>(spec, row, cols),
	}
}

#[inline(always)]
fn entries<F: Format>(spec: &ChallengeSpec, row: u32, cols: &[u32]) -> Vec<ExactEntry> {
	let generator = Generator::new(&spec.seed, spec.precision);
	let blocks = spec.dims.k / F::E as u32;
	let n = cols.len();
	let (mut dot_total, mut sq_total) = (alloc::vec![0i128; n], alloc::vec![0u128; n]);
	let (mut dot, mut sq) = (alloc::vec![0i64; n], alloc::vec![0u64; n]);
	let (mut a, mut b) = ([[0i32; LANES]; 32], [[0i32; LANES]; 32]);
	let mut first = 0u32;
	while first < blocks {
		F::significands(&generator.words_lanes(Matrix::A, row, first), &mut a);
		let live = (blocks - first).min(LANES as u32) as usize;
		if live < LANES {
			// blocks past k multiply by zero
			for e in a.iter_mut() {
				e[live..].fill(0);
			}
		}
		for (c, col) in cols.iter().enumerate() {
			F::significands(&generator.words_lanes(Matrix::B, *col, first), &mut b);
			let (mut d, mut s) = ([0i64; LANES], [0u64; LANES]);
			for t in 0..F::E {
				for l in 0..LANES {
					let p = i64::from(a[t][l]) * i64::from(b[t][l]);
					d[l] += p;
					let q = p >> F::SQ_SHIFT;
					s[l] += (q * q) as u64;
				}
			}
			dot[c] += d.iter().sum::<i64>();
			sq[c] += s.iter().sum::<u64>();
		}
		first += LANES as u32;
		if first.is_multiple_of(FLUSH_BLOCKS) {
			for c in 0..n {
				dot_total[c] += i128::from(dot[c]);
				sq_total[c] += u128::from(sq[c]);
				dot[c] = 0;
				sq[c] = 0;
			}
		}
	}
	let scale = (1u64 << (2 * spec.precision.mantissa_bits())) as f64;
	let sq_scale = (1u64 << (2 * F::SQ_SHIFT)) as f64 / (scale * scale);
	(0..n)
		.map(|c| ExactEntry {
			value: (dot_total[c] + i128::from(dot[c])) as f64 / scale,
			sum_sq: (sq_total[c] + u128::from(sq[c])) as f64 * sq_scale,
		})
		.collect()
}

/// Longest chain of fp32 additions of an honest, chunked accumulation.
pub fn chain_length(k: u32, chunk_k: u32) -> u64 {
	let chunk = u64::from(sizing::chunk_len(k, chunk_k));
	let k = u64::from(k);
	k.min(chunk + k.div_ceil(chunk))
}

/// Products a tensor core sums exactly before each truncating fp32 accumulation, at least
/// (Ampere and Hopper MMA instructions: k = 8 for tf32, 16 for fp16/bf16).
pub const TRUNCATION_GROUP: u32 = 8;

/// Whether honest GPUs compute `precision` on tensor cores, whose fp32 accumulator truncates
/// (rounds toward zero) instead of rounding to nearest. fp32 runs on CUDA cores (round to
/// nearest).
pub const fn truncating_accumulation(precision: Precision) -> bool {
	matches!(precision, Precision::Tf32 | Precision::Fp16 | Precision::Bf16 | Precision::Fp8E4M3)
}

/// The squared tolerance `(Z·σ)²` of an entry with squared-product sum `sum_sq`.
///
/// `σ² = u²·S2·(L + 2)/6` for rounding to nearest. A truncating accumulator adds a bias of about
/// `−u·s` at each accumulation, so `−u·Σ_t s_t` over the partial sums of a chunk: with `T` =
/// `chunk / g` accumulations of `g` = [`TRUNCATION_GROUP`] products each, its variance is
/// `u²·S2·chunk²/(3·g²)` (chunks are independent), which is added for tensor-core precisions.
pub fn tolerance_sq(spec: &ChallengeSpec, sum_sq: f64) -> f64 {
	let u = 1.0 / (1u64 << spec.precision.accumulation_bits()) as f64;
	let chain = chain_length(spec.dims.k, spec.chunk_k) as f64;
	let mut variance = (chain + 2.0) / 6.0;
	if truncating_accumulation(spec.precision) {
		let chunk = f64::from(sizing::chunk_len(spec.dims.k, spec.chunk_k));
		let g = f64::from(TRUNCATION_GROUP);
		variance += chunk * chunk / (3.0 * g * g);
	}
	TOLERANCE_SIGMAS * TOLERANCE_SIGMAS * u * u * sum_sq * variance
}

/// Why an entry failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryFault {
	/// The claimed value is NaN or infinite.
	NotFinite,
	/// The claimed value is further from the exact one than the tolerance.
	OutOfTolerance,
}

/// The first failing entry of a check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Failure {
	/// The opened leaf.
	pub leaf: u32,
	/// The entry's offset inside the leaf.
	pub offset: u16,
	/// What was wrong.
	pub fault: EntryFault,
	/// The claimed value.
	pub claimed: f32,
	/// The exact value.
	pub exact: f64,
}

/// Outcome of checking entries of opened leaves.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct CheckReport {
	/// Entries recomputed.
	pub checked: u32,
	/// Largest `(error / tolerance)²` over the entries that were finite.
	pub worst_ratio_sq: f64,
	/// The first failing entry, if any.
	pub failure: Option<Failure>,
}

impl CheckReport {
	/// Whether every checked entry was within tolerance.
	pub fn passed(&self) -> bool {
		self.failure.is_none()
	}

	/// Fold another report into this one (keeps the first failure).
	pub fn merge(&mut self, other: CheckReport) {
		self.checked += other.checked;
		if other.worst_ratio_sq > self.worst_ratio_sq {
			self.worst_ratio_sq = other.worst_ratio_sq;
		}
		if self.failure.is_none() {
			self.failure = other.failure;
		}
	}
}

/// Check the entries at `offsets` of opened leaf `leaf` whose claimed fp32 bit patterns are
/// `values` (a whole leaf, already proven against the root).
pub fn check_leaf(spec: &ChallengeSpec, leaf: u32, values: &[u32], offsets: &[u16]) -> CheckReport {
	let (row, col0) = leaf_position(&spec.dims, leaf);
	let cols: Vec<u32> = offsets.iter().map(|o| col0 + u32::from(*o)).collect();
	judge_leaf(spec, leaf, values, offsets, &exact_entries(spec, row, &cols))
}

/// The verdict on the entries at `offsets` of leaf `leaf` (claimed `values`) against their
/// exact values `exact`, in the same order.
fn judge_leaf(spec: &ChallengeSpec, leaf: u32, values: &[u32], offsets: &[u16], exact: &[ExactEntry]) -> CheckReport {
	let mut report = CheckReport::default();
	for (offset, entry) in offsets.iter().zip(exact) {
		report.checked += 1;
		let claimed = f32::from_bits(values.get(usize::from(*offset)).copied().unwrap_or(u32::MAX));
		let fault = if !claimed.is_finite() {
			Some(EntryFault::NotFinite)
		} else {
			let err = f64::from(claimed) - entry.value;
			let ratio_sq = err * err / tolerance_sq(spec, entry.sum_sq);
			if ratio_sq > report.worst_ratio_sq {
				report.worst_ratio_sq = ratio_sq;
			}
			(ratio_sq > 1.0).then_some(EntryFault::OutOfTolerance)
		};
		if let (Some(fault), None) = (fault, report.failure) {
			report.failure = Some(Failure { leaf, offset: *offset, fault, claimed, exact: entry.value });
		}
	}
	report
}

/// Check `entries_per_leaf` entries (chosen from the verifier's `entropy`) of every opened leaf.
pub fn check_openings<'a, I>(spec: &ChallengeSpec, openings: I, entries_per_leaf: u32, entropy: &Hash32) -> CheckReport
where
	I: IntoIterator<Item = (u32, &'a [u32])>,
{
	check_openings_with(&InPlace, spec, openings, entries_per_leaf, entropy)
}

/// [`check_openings`] with the exact entries of every leaf computed by `source` in one request
/// (the node's host function computes them natively, on several cores). A source that answers
/// with another shape than asked is not trusted: the entries are then computed here.
pub fn check_openings_with<'a, I>(
	source: &impl EntrySource,
	spec: &ChallengeSpec,
	openings: I,
	entries_per_leaf: u32,
	entropy: &Hash32,
) -> CheckReport
where
	I: IntoIterator<Item = (u32, &'a [u32])>,
{
	let leaves: Vec<(u32, &[u32], Vec<u16>)> = openings
		.into_iter()
		.map(|(leaf, values)| (leaf, values, checked_offsets(entropy, leaf, entries_per_leaf)))
		.collect();
	let rows: EntryRows = leaves
		.iter()
		.map(|(leaf, _, offsets)| {
			let (row, col0) = leaf_position(&spec.dims, *leaf);
			(row, offsets.iter().map(|o| col0 + u32::from(*o)).collect())
		})
		.collect();
	let mut exact = source.exact_entries(spec, &rows);
	let same_shape = exact.len() == rows.len() && exact.iter().zip(&rows).all(|(e, (_, cols))| e.len() == cols.len());
	if !same_shape {
		exact = InPlace.exact_entries(spec, &rows);
	}
	let mut report = CheckReport::default();
	for ((leaf, values, offsets), exact) in leaves.iter().zip(&exact) {
		report.merge(judge_leaf(spec, *leaf, values, offsets, exact));
	}
	report
}

/// Multiply-adds the verifier spends per challenge: one pass of k over each opened row of A and
/// each checked column of B (generation), plus one multiply-add per term of each checked entry.
pub fn verifier_cost(dims: &Dims, openings: u32, entries_per_leaf: u32) -> VerifierCost {
	let k = u64::from(dims.k);
	let entries = u64::from(openings) * u64::from(entries_per_leaf);
	VerifierCost { elements_generated: k * (u64::from(openings) + entries), multiply_adds: k * entries }
}

/// See [`verifier_cost`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifierCost {
	/// Operand elements generated (each 1/4 to 1/16 of a Philox4x32-10 call).
	pub elements_generated: u64,
	/// Integer multiply-adds of the dot products.
	pub multiply_adds: u64,
}

/// Nanoseconds one core spends on one term of a checked entry from scratch (its elements of A and
/// of B generated, and the multiply-add), by precision (in [`Precision::ALL`]'s order): the
/// scalar verifier's per-entry medians of `benchmarking/README.md` (2026-11-22, a 2-core x86-64
/// VM, one core: fp32 3.4 ms at k = 349,440, tf32 17 ms at 2,235,392, fp16 35 ms and bf16 29 ms
/// at 4,470,528, fp8 40 ms at 8,940,800) divided by k, plus the 25% they vary run to run,
/// rounded up. The scalar build is what a validator's CPU without AVX2 runs (the vectorised one
/// is several times faster), and a leaf's row of A is generated once for all its entries: an
/// estimate from above.
pub const NS_PER_TERM: [u64; 5] = [13, 10, 10, 9, 6];

/// The longest a chain may ask one core of a committee member to spend checking one challenge's
/// entries ([`verify_ns`]): 10 s, the verifier's goal (`benchmarking/README.md`).
pub const MAX_VERIFY_NS: u64 = 10_000_000_000;

/// One core's time to check `entries` entries of a challenge of `dims` in `precision` (ns),
/// estimated from above at [`NS_PER_TERM`].
pub fn verify_ns(dims: &Dims, precision: Precision, entries: u64) -> u64 {
	entries.saturating_mul(u64::from(dims.k)).saturating_mul(NS_PER_TERM[precision.index()])
}

#[cfg(test)]
mod tests {
	use super::*;

	fn spec(precision: Precision, k: u32) -> ChallengeSpec {
		ChallengeSpec { seed: [42; 32], precision, dims: Dims { m: 256, n: 256, k }, chunk_k: 4096 }
	}

	/// `x` rounded to f32 toward zero (what a truncating accumulator keeps).
	fn f32_toward_zero(x: f64) -> f32 {
		let r = x as f32;
		if f64::from(r).abs() > x.abs() {
			f32::from_bits(r.to_bits() - 1)
		} else {
			r
		}
	}

	/// A tensor core as modelled: groups of `TRUNCATION_GROUP` exact products added into an fp32
	/// accumulator that truncates, per chunk; chunks added into C rounding to nearest.
	fn truncating_entry(s: &ChallengeSpec, row: u32, col: u32) -> f32 {
		let g = Generator::new(&s.seed, s.precision);
		let k = s.dims.k as usize;
		let (mut a, mut b) = (alloc::vec![0f32; k], alloc::vec![0f32; k]);
		g.fill_line_f32(Matrix::A, row, 0, &mut a);
		g.fill_line_f32(Matrix::B, col, 0, &mut b);
		let mut c = 0f32;
		for (k0, kc) in sizing::chunks(s.dims.k, s.chunk_k) {
			let mut acc = 0f32;
			let (chunk, end) = (k0 as usize, (k0 + kc) as usize);
			for group in (chunk..end).step_by(TRUNCATION_GROUP as usize) {
				let exact: f64 =
					(group..group + TRUNCATION_GROUP as usize).map(|i| f64::from(a[i]) * f64::from(b[i])).sum();
				acc = f32_toward_zero(f64::from(acc) + exact);
			}
			c += acc;
		}
		c
	}

	#[test]
	fn truncating_tensor_core_accumulation_is_within_tolerance() {
		// Long chains (k = 65,536 in chunks of 8,192), where the round-to-nearest model alone is
		// too tight for a truncating accumulator, as measured on an H100.
		for p in [Precision::Tf32, Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3] {
			let s =
				ChallengeSpec { seed: [9; 32], precision: p, dims: Dims { m: 256, n: 256, k: 65_536 }, chunk_k: 8192 };
			let (mut worst, mut worst_rn) = (0f64, 0f64);
			for col in 0..48 {
				let exact = exact_entries(&s, 7, &[col])[0];
				let err = f64::from(truncating_entry(&s, 7, col)) - exact.value;
				worst = worst.max(err * err / tolerance_sq(&s, exact.sum_sq));
				let rn_only = tolerance_sq(&ChallengeSpec { precision: Precision::Fp32, ..s }, exact.sum_sq);
				worst_rn = worst_rn.max(err * err / rn_only);
			}
			std::eprintln!(
				"{p:?}: worst {:.3} of the tolerance, {:.2} of round-to-nearest alone",
				worst.sqrt(),
				worst_rn.sqrt()
			);
			assert!(worst.sqrt() < 0.5, "{p:?}: truncation error at {:.2} of the tolerance", worst.sqrt());
			// bf16 and fp8 products are short: their partial sums stay exact in fp32 here.
			assert!(
				matches!(p, Precision::Bf16 | Precision::Fp8E4M3) || worst_rn.sqrt() > 1.0,
				"{p:?}: the model is needed ({:.2} of the round-to-nearest one)",
				worst_rn.sqrt()
			);
		}
	}

	#[test]
	fn exact_entries_equal_a_direct_f64_sum() {
		for p in Precision::ALL {
			let s = spec(p, 512);
			let g = Generator::new(&s.seed, p);
			let mut a = alloc::vec![0f32; 512];
			g.fill_line_f32(Matrix::A, 5, 0, &mut a);
			let cols = [0u32, 17, 255];
			let exact = exact_entries(&s, 5, &cols);
			for (col, e) in cols.iter().zip(exact) {
				let mut b = alloc::vec![0f32; 512];
				g.fill_line_f32(Matrix::B, *col, 0, &mut b);
				let direct: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
				let sq: f64 = a.iter().zip(&b).map(|(x, y)| (f64::from(*x) * f64::from(*y)).powi(2)).sum();
				assert_eq!(e.value, direct, "{p:?}: products are exact and so is this short f64 sum");
				// fp32 squares are taken of products truncated to 24 bits: relative error < 2^-22.
				assert!((e.sum_sq - sq).abs() <= 1e-6 * sq, "{p:?}: {} vs {sq}", e.sum_sq);
			}
		}
	}

	#[test]
	fn specialised_significands_match_the_reference() {
		let g = Generator::new(&[3u8; 32], Precision::Fp32);
		let words = g.words_lanes(Matrix::A, 1, 0);
		let check = |p: Precision, got: [[i32; LANES]; 32], e: usize| {
			for l in 0..LANES {
				let lane = [words[0][l], words[1][l], words[2][l], words[3][l]];
				// Reproduce block_bits on the lane's words through the reference path.
				let w = p.slot_bits();
				for i in 0..e {
					let word = lane[(i as u32 * w / 32) as usize];
					let r = if w == 32 { word } else { (word >> ((i as u32 * w) % 32)) & ((1 << w) - 1) };
					assert_eq!(got[i][l], p.significand(p.element_from_random(r)), "{p:?} element {i} lane {l}");
				}
			}
		};
		let mut out = [[0i32; LANES]; 32];
		Fp32::significands(&words, &mut out);
		check(Precision::Fp32, out, 4);
		Tf32::significands(&words, &mut out);
		check(Precision::Tf32, out, 8);
		Fp16::significands(&words, &mut out);
		check(Precision::Fp16, out, 8);
		Bf16::significands(&words, &mut out);
		check(Precision::Bf16, out, 16);
		Fp8::significands(&words, &mut out);
		check(Precision::Fp8E4M3, out, 32);
	}

	/// One block at a time from the generator's own elements, summed in i128: the definition the
	/// vectorised [`exact_entries`] must equal bit for bit, at k that are and are not multiples
	/// of [`LANES`] blocks and past a flush.
	#[test]
	fn exact_entries_equal_the_definition_at_every_length() {
		for p in Precision::ALL {
			let e = p.elements_per_block();
			for blocks in [1u32, 7, 8, 9, 1023, 1024, 1025, 2051] {
				let s = spec(p, blocks * e);
				let g = Generator::new(&s.seed, p);
				let cols = [3u32, 200];
				let exact = exact_entries(&s, 9, &cols);
				for (col, got) in cols.iter().zip(exact) {
					let (mut dot, mut sq) = (0i128, 0u128);
					for kk in 0..s.dims.k {
						let a = i128::from(p.significand(g.element(Matrix::A, 9, kk)));
						let b = i128::from(p.significand(g.element(Matrix::B, *col, kk)));
						dot += a * b;
						let q = (a * b) >> (if p == Precision::Fp32 { 24 } else { 0 });
						sq += (q * q) as u128;
					}
					let scale = (1u64 << (2 * p.mantissa_bits())) as f64;
					let shift = if p == Precision::Fp32 { 48 } else { 0 };
					assert_eq!(got.value, dot as f64 / scale, "{p:?} {blocks} blocks");
					assert_eq!(
						got.sum_sq,
						sq as f64 * (1u64 << shift) as f64 / (scale * scale),
						"{p:?} {blocks} blocks"
					);
				}
			}
		}
	}

	/// A source that answers with the wrong shape, or computes (say) in parallel.
	type Compute = fn(&ChallengeSpec, &[(u32, Vec<u32>)]) -> Vec<Vec<ExactEntry>>;
	struct Source(Compute);
	impl EntrySource for Source {
		fn exact_entries(&self, spec: &ChallengeSpec, rows: &[(u32, Vec<u32>)]) -> Vec<Vec<ExactEntry>> {
			(self.0)(spec, rows)
		}
	}

	/// The runtime's WASM runs the portable build; a native verifier with AVX2 runs the other.
	#[test]
	fn the_portable_build_is_the_dispatched_one() {
		for p in Precision::ALL {
			let s = spec(p, 1027 * p.elements_per_block());
			assert_eq!(exact_entries_portable(&s, 5, &[0, 9, 200]), exact_entries(&s, 5, &[0, 9, 200]), "{p:?}");
		}
	}

	#[test]
	fn every_source_gives_the_same_report_and_a_short_answer_is_not_trusted() {
		let s = ChallengeSpec {
			seed: [4; 32],
			precision: Precision::Bf16,
			dims: Dims { m: 256, n: 256, k: 2048 },
			chunk_k: 512,
		};
		let leaves: Vec<(u32, Vec<u32>)> = (0..4u32)
			.map(|leaf| {
				let (row, col0) = leaf_position(&s.dims, leaf);
				let cols: Vec<u32> = (0..crate::LEAF_VALUES as u32).map(|o| col0 + o).collect();
				let mut values: Vec<u32> =
					exact_entries(&s, row, &cols).iter().map(|e| (e.value as f32).to_bits()).collect();
				if leaf == 2 {
					values.iter_mut().for_each(|v| *v = (f32::from_bits(*v) * 1.01).to_bits());
				}
				(leaf, values)
			})
			.collect();
		let openings = || leaves.iter().map(|(l, v)| (*l, &v[..]));
		let here = check_openings(&s, openings(), 2, &[8; 32]);
		assert_eq!(here.failure.map(|f| f.leaf), Some(2), "the wrong leaf is caught");
		assert_eq!(here.checked, 8);
		let reversed = Source(|spec, rows| rows.iter().rev().map(|(r, c)| exact_entries(spec, *r, c)).rev().collect());
		assert_eq!(check_openings_with(&reversed, &s, openings(), 2, &[8; 32]), here);
		// nothing, or one entry short: recomputed here, the same report
		let empty = Source(|_, _| Vec::new());
		assert_eq!(check_openings_with(&empty, &s, openings(), 2, &[8; 32]), here);
		let short = Source(|spec, rows| rows.iter().map(|(r, c)| exact_entries(spec, *r, &c[1..])).collect());
		assert_eq!(check_openings_with(&short, &s, openings(), 2, &[8; 32]), here);
	}

	#[test]
	fn exact_entries_survive_scale_bit_for_bit() {
		let e = ExactEntry { value: -1.0e300 / 3.0, sum_sq: f64::MIN_POSITIVE };
		assert_eq!(ExactEntry::decode(&mut &e.encode()[..]).unwrap(), e);
		let s = spec(Precision::Fp8E4M3, 4096);
		assert_eq!(ChallengeSpec::decode(&mut &s.encode()[..]).unwrap(), s);
	}

	#[test]
	fn chain_length_model() {
		assert_eq!(chain_length(1000, 4096), 1000);
		assert_eq!(chain_length(9_830_400, 8192), 8192 + 1200);
		assert_eq!(chain_length(10, 0), 10);
	}
}
