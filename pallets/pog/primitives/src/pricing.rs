//! What a challenge of each precision is priced at: the fastest exact method a card has.
//!
//! Every generated element is `±(1 + f)`, its value an integer significand over a power of two
//! ([`crate::precision`]), so a challenge's C can also be computed with integer tensor cores on
//! digit slices of the significands, and int8 tensor cores are the fastest math most GPUs have.
//! A precision's challenge is therefore priced at the faster of the profile's native rate in it
//! and its **int8 alias**: the profile's int8 rate divided by the int8 GEMMs the alias needs
//! ([`int8_gemms`]). Only then does a passed challenge prove the rate it is sized at: a card
//! whose int8 rate is N times a claimed precision's rate divided by that number answers N claims
//! of it, whatever its own rate in that precision.
//!
//! | precision | significand | int8 GEMMs of the alias |
//! |---|---|---|
//! | fp8-e4m3 | ±(8…15), 5 bits signed | 1: the significands are int8 values, and int32 accumulation is exact |
//! | bf16 | ±(128…255), 9 bits signed | 4: two balanced base-256 digits, every digit product needed |
//! | fp16 (and tf32) | ±(1024…2047), 12 bits signed | 4: the same |
//! | fp32 | ±(2^23…2^24−1), 25 bits signed | 6: three digits of the significand rounded to 22 bits; counting digits from the top, the products with i + j ≤ 2 |
//!
//! The counts are tested against the tolerance below ([`crate::verify`]): fp8 in one GEMM and fp32
//! in six pass it, and dropping any product of the bf16 and fp16 aliases fails it. int4 tensor
//! cores (Ampere, Ada; Hopper has none) need at least twice the GEMMs for half the cost, so they
//! are never faster than the int8 alias (`docs/protocol.md` §1).
//!
//! The agent runs one alias itself: fp8 as one int8 GEMM ([`agent_runs_int8_alias`]), so every
//! card with int8 tensor cores is challenged in fp8 at `max(native fp8, int8)`, whether it has fp8
//! (Hopper, Ada) or not (Ampere, Turing). For the other precisions a profile may list a native
//! rate only where it meets the deadline the alias sets: `native ≥ alias · (1 − tolerance)`
//! ([`alias_outruns_native`]); a card whose native path is slower would have to run a
//! multi-GEMM alias, which the agent does not. So fp32 is listed only by the V100, which has no
//! int8 tensor cores, and a GeForce card lists no native fp8: its fp8 with fp32 accumulation runs
//! at half its int8 rate, and the int8 path answers its fp8 challenges.

use crate::Precision;

/// int8 GEMMs of the `k` of a challenge that the exact int8 alias of `precision` needs (see the
/// module's table). The alias runs at the int8 rate divided by this.
pub const fn int8_gemms(precision: Precision) -> u32 {
	match precision {
		Precision::Fp8E4M3 => 1,
		Precision::Bf16 | Precision::Fp16 | Precision::Tf32 => 4,
		Precision::Fp32 => 6,
	}
}

/// GFLOPS of the int8 alias of `precision` on a card of `int8_gops` int8 GOPS.
pub const fn alias_gflops(int8_gops: u32, precision: Precision) -> u32 {
	int8_gops / int8_gemms(precision)
}

/// Whether the agent runs `precision`'s int8 alias itself: fp8, whose alias is one exact int8
/// GEMM (`pog-cuda`'s int8 path: int8 significands, int32 accumulation, one scaling into fp32).
/// A card with int8 tensor cores is challenged in fp8 on its int8 rate even without native fp8
/// (A100, RTX 3090, T4) or where int8 is the faster path (RTX 4090).
pub const fn agent_runs_int8_alias(precision: Precision) -> bool {
	matches!(precision, Precision::Fp8E4M3)
}

/// Whether an honest card of a profile computes its fp8 challenges on the int8 path: where the
/// int8 alias is faster than the native fp8 rate (priced above it), including where there is
/// no native fp8. Elsewhere the native path is at least as fast.
pub const fn fp8_on_int8_path(gflops: &[u32; 5], int8_gops: u32) -> bool {
	alias_gflops(int8_gops, Precision::Fp8E4M3) > gflops[Precision::Fp8E4M3.index()]
}

/// The rate a challenge in `precision` is sized and timed at, for a profile with native rates
/// `gflops` (in [`Precision::ALL`]'s order) and int8 rate `int8_gops`: the faster of the native
/// rate and the int8 alias, or 0 where the profile is not challenged in the precision: neither a
/// native rate nor an alias the agent runs ([`agent_runs_int8_alias`]), or tf32 (never).
pub const fn priced_gflops(gflops: &[u32; 5], int8_gops: u32, precision: Precision) -> u32 {
	let native = gflops[precision.index()];
	let alias = alias_gflops(int8_gops, precision);
	let runnable = native > 0 || (agent_runs_int8_alias(precision) && alias > 0);
	if !runnable || !precision.is_challenged() {
		return 0;
	}
	if alias > native {
		alias
	} else {
		native
	}
}

/// The first challenged precision the profile lists whose native rate is too slow for the
/// deadline its int8 alias sets (`native < alias · (1 − tolerance)`), if any: such a profile is
/// refused. (For fp8 the agent would run the alias, but a native rate far below it is a wrong
/// figure all the same.)
pub const fn alias_outruns_native(gflops: &[u32; 5], int8_gops: u32, tolerance_percent: u8) -> Option<Precision> {
	let keep = 100u64.saturating_sub(tolerance_percent as u64);
	let challenged = Precision::CHALLENGED;
	let mut i = 0;
	while i < challenged.len() {
		let p = challenged[i];
		let native = gflops[p.index()] as u64;
		if native > 0 && native * 100 < alias_gflops(int8_gops, p) as u64 * keep {
			return Some(p);
		}
		i += 1;
	}
	None
}

/// Score points of a verified GPU of a profile: the mean over the four challenged precisions
/// ([`Precision::CHALLENGED`]) of the rate a challenge in it is priced at ([`priced_gflops`]),
/// a precision the profile does not list counting 0 (rounded down).
///
/// Points are the compute a passed challenge proves, whatever precision the round drew: a
/// challenge of any precision takes the profile's expected time at its priced rate, the fastest
/// exact method, so a card that answers N claims of a profile in every precision it can be
/// challenged in has at least N times its priced rate in each of them, and N claims' points never
/// exceed the card's own. A profile whose rates (int8 included) are all at least another's never
/// has fewer points, and equal rates give equal points: no hand-set table.
pub const fn compute_points(gflops: &[u32; 5], int8_gops: u32) -> u32 {
	let challenged = Precision::CHALLENGED;
	let mut sum = 0u64;
	let mut i = 0;
	while i < challenged.len() {
		sum += priced_gflops(gflops, int8_gops, challenged[i]) as u64;
		i += 1;
	}
	(sum / challenged.len() as u64) as u32
}

/// Points per MiB of memory a passed memory phase proves ([`memory_points`]).
pub const MEMORY_POINTS_PER_MIB: u32 = 3;

/// The points a passed memory phase adds for `vram_mib` MiB (0 for a profile with no measured
/// memory rates, which has no memory phase). Three points a MiB make equal-compute profiles
/// differ as their memory does in price: an H200 (141 GB) scores 21% above an H100 (80 GB), an
/// A100 80 GB 38% above an A100 40 GB.
pub const fn memory_points(vram_mib: u32, measured: bool) -> u32 {
	if measured {
		vram_mib.saturating_mul(MEMORY_POINTS_PER_MIB)
	} else {
		0
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::{
		generator::{Generator, Matrix},
		profiles::DEFAULT_PROFILES,
		sizing,
		verify::{exact_entries, tolerance_sq, ChallengeSpec},
		Dims,
	};
	use alloc::vec::Vec;

	/// A challenge of `precision` with k = 65,536 in the protocol's chunks of 8,192.
	fn spec(precision: Precision) -> ChallengeSpec {
		ChallengeSpec { seed: [5; 32], precision, dims: Dims { m: 256, n: 256, k: 65_536 }, chunk_k: 8192 }
	}

	/// The integer significands of row `line` of A or column `line` of B.
	fn significands(s: &ChallengeSpec, matrix: Matrix, line: u32) -> Vec<i64> {
		let mut v = alloc::vec![0f32; s.dims.k as usize];
		Generator::new(&s.seed, s.precision).fill_line_f32(matrix, line, 0, &mut v);
		let scale = (1u64 << s.precision.mantissa_bits()) as f32;
		v.iter().map(|x| (x * scale) as i64).collect()
	}

	/// `x` as balanced base-256 digits, least significant first: each in -128..=127 but the last.
	fn digits(mut x: i64, count: usize) -> Vec<i64> {
		let mut d = Vec::with_capacity(count);
		for _ in 0..count - 1 {
			let low = ((x + 128).rem_euclid(256)) - 128;
			d.push(low);
			x = (x - low) / 256;
		}
		d.push(x);
		d
	}

	/// Worst |error| / tolerance over 32 entries of row 3, where `entry(a, b)` computes one entry of
	/// a chunk from the significands of that chunk's part of the row of A and the column of B, and
	/// chunks are added into an fp32 C rounding to nearest (as cuBLASLt's beta = 1 epilogue does).
	fn worst_ratio(s: &ChallengeSpec, entry: impl Fn(&[i64], &[i64]) -> f64) -> f64 {
		let a = significands(s, Matrix::A, 3);
		let mut worst = 0f64;
		for col in 0..32 {
			let b = significands(s, Matrix::B, col);
			let mut c = 0f32;
			for (k0, kc) in sizing::chunks(s.dims.k, s.chunk_k) {
				let range = k0 as usize..(k0 + kc) as usize;
				c += entry(&a[range.clone()], &b[range]) as f32;
			}
			let exact = exact_entries(s, 3, &[col])[0];
			let err = f64::from(c) - exact.value;
			worst = worst.max((err * err / tolerance_sq(s, exact.sum_sq)).sqrt());
		}
		worst
	}

	/// The int8 alias: `count` balanced base-256 digits of each significand (after dropping
	/// `shift` low bits, rounding), an exact integer GEMM (int32 accumulation) per kept pair of
	/// digits `(i, j)`, and each GEMM's result scaled into fp32 once.
	fn int8_alias(
		s: &ChallengeSpec,
		shift: u32,
		count: usize,
		keep: impl Fn(usize, usize) -> bool + Copy,
	) -> (f64, usize) {
		let p = s.precision.mantissa_bits();
		let mut gemms = 0;
		for i in 0..count {
			for j in 0..count {
				gemms += usize::from(keep(i, j));
			}
		}
		let ratio = worst_ratio(s, |a, b| {
			let split = |v: &[i64]| -> Vec<Vec<i64>> {
				v.iter().map(|x| digits((x + (1 << shift >> 1)) >> shift, count)).collect()
			};
			let (da, db) = (split(a), split(b));
			for d in da.iter().chain(&db) {
				assert!(d.iter().all(|x| (-128..=127).contains(x)), "digits fit int8: {d:?}");
			}
			let mut sum = 0f64;
			for i in 0..count {
				for j in 0..count {
					if keep(i, j) {
						let gemm: i64 = da.iter().zip(&db).map(|(x, y)| x[i] * y[j]).sum();
						assert!(i32::try_from(gemm).is_ok(), "int32 accumulation does not overflow");
						let weight = 2f64.powi((8 * (i + j) as u32 + 2 * shift) as i32 - 2 * p as i32);
						sum += (gemm as f64 * weight) as f32 as f64;
					}
				}
			}
			sum
		});
		(ratio, gemms)
	}

	/// fp32 in six int8 GEMMs (three digits of the significand rounded to 22 bits; counting
	/// digits from the top, the products with i + j ≤ 2) passes the tolerance, so fp32 must be
	/// priced at least at int8 / 6; with the fewest products kept (three) it fails, so six is what
	/// the alias needs.
	#[test]
	fn fp32_from_six_int8_gemms_passes_so_it_is_priced_at_int8_over_six() {
		let s = spec(Precision::Fp32);
		let top = |i: usize, j: usize| i + j >= 2; // digits are least significant first: 2 = top
		let (ratio, gemms) = int8_alias(&s, 2, 3, top);
		std::eprintln!("fp32 via {gemms} int8 GEMMs: worst {ratio:.3} of the tolerance");
		assert_eq!(gemms, int8_gemms(Precision::Fp32) as usize);
		assert!(ratio < 0.5, "the alias is an honest-looking result: {ratio:.3}");
		let (fewer, three) = int8_alias(&s, 2, 3, |i, j| i + j >= 3);
		assert_eq!(three, 3);
		assert!(fewer > 1.0, "three products are caught: {fewer:.3}");
	}

	/// fp8 significands are int8 values: one int8 GEMM is exact, so fp8 is priced at least at the
	/// int8 rate.
	#[test]
	fn fp8_from_one_int8_gemm_is_exact_so_it_is_priced_at_int8() {
		let s =
			ChallengeSpec { dims: Dims { k: 2_097_152, ..spec(Precision::Fp8E4M3).dims }, ..spec(Precision::Fp8E4M3) };
		let (ratio, gemms) = int8_alias(&s, 0, 1, |_, _| true);
		std::eprintln!("fp8 via {gemms} int8 GEMM at k = {}: worst {ratio:.4} of the tolerance", s.dims.k);
		assert_eq!(gemms, int8_gemms(Precision::Fp8E4M3) as usize);
		assert!(ratio < 0.1, "{ratio}");
	}

	/// bf16 and fp16 significands take two int8 digits, and all four digit products are needed:
	/// dropping the smallest is caught. So their alias costs four int8 GEMMs.
	#[test]
	fn bf16_and_fp16_aliases_need_all_four_digit_products() {
		for p in [Precision::Bf16, Precision::Fp16] {
			let s = spec(p);
			let (all, four) = int8_alias(&s, 0, 2, |_, _| true);
			assert_eq!(four, int8_gemms(p) as usize);
			assert!(all < 0.1, "{p:?}: four products are exact up to the scaling: {all}");
			let (three, _) = int8_alias(&s, 0, 2, |i, j| i + j >= 1);
			std::eprintln!("{p:?}: four products {all:.4}, three {three:.1} of the tolerance");
			assert!(three > 1.0, "{p:?}: dropping low × low is caught: {three}");
		}
	}

	/// `x` rounded to nearest even with `bits` mantissa bits (fp16: 10); normal numbers only.
	fn round_mantissa(x: f32, bits: u32) -> f32 {
		let drop = 23 - bits;
		let b = x.to_bits();
		let lsb = (b >> drop) & 1;
		f32::from_bits((b + (1 << (drop - 1)) - 1 + lsb) >> drop << drop)
	}

	/// fp8 with an fp16 accumulator (the GeForce fp8 path at twice the fp32-accumulate rate),
	/// flushed into fp32 every 256 products, is caught: 21× the tolerance, where the 14-bit
	/// accumulator model accepted it at 0.13 of its threshold. Flushed every 32 products (after
	/// each MMA instruction) it sits at the tolerance (1.0×); it gains nothing there, because
	/// fp8 is priced at least at the int8 rate, which no card's fp16-accumulating fp8 path beats
	/// (on the RTX 4090, where it runs at twice fp8 with fp32 accumulation, it equals int8).
	#[test]
	fn fp8_with_an_fp16_accumulator_is_caught() {
		let s = spec(Precision::Fp8E4M3);
		let fp16_accumulator = |group: usize| {
			worst_ratio(&s, |a, b| {
				let mut chunk = 0f32;
				for (ga, gb) in a.chunks(group).zip(b.chunks(group)) {
					let mut acc16 = 0f32;
					for (x, y) in ga.iter().zip(gb) {
						acc16 = round_mantissa(acc16 + (x * y) as f32 / 64.0, 10);
					}
					chunk += acc16;
				}
				f64::from(chunk)
			})
		};
		let (every_256, every_32) = (fp16_accumulator(256), fp16_accumulator(32));
		std::eprintln!("fp8 with an fp16 accumulator: worst {every_256:.2} (flushed every 256), {every_32:.2} (every 32) of the tolerance");
		assert!(every_256 > 1.0, "flushed every 256 products: {every_256:.3}");
		let rtx4090 = crate::profiles::DEFAULT_PROFILES[5].figures;
		assert_eq!(rtx4090.priced_gflops(Precision::Fp8E4M3), rtx4090.int8_gops, "an RTX 4090's fp8 is priced at int8");
	}

	/// Every genesis profile lists only precisions whose native rate meets the alias's deadline,
	/// and its challenges are priced at least at the alias.
	#[test]
	fn the_genesis_table_lists_no_precision_an_alias_outruns() {
		for crate::profiles::Profile { name, figures: f } in &DEFAULT_PROFILES {
			assert_eq!(alias_outruns_native(&f.gflops, f.int8_gops, f.tolerance_percent), None, "{name}");
			for p in Precision::CHALLENGED {
				let priced = priced_gflops(&f.gflops, f.int8_gops, p);
				if f.gflops[p.index()] > 0 || (agent_runs_int8_alias(p) && f.int8_gops > 0) {
					assert!(priced >= alias_gflops(f.int8_gops, p) && priced >= f.gflops[p.index()], "{name} {p:?}");
				} else {
					assert_eq!(priced, 0);
				}
			}
			assert_eq!(priced_gflops(&f.gflops, f.int8_gops, Precision::Tf32), 0, "tf32 is never priced");
		}
		// The int8 path where int8 tensor cores beat (or replace) native fp8; not on Hopper or the L40S.
		let on_int8: alloc::vec::Vec<&str> = DEFAULT_PROFILES
			.iter()
			.filter(|p| fp8_on_int8_path(&p.figures.gflops, p.figures.int8_gops))
			.map(|p| p.name)
			.collect();
		assert_eq!(
			on_int8,
			[
				"NVIDIA A100-SXM4-80GB",
				"NVIDIA A100-SXM4-40GB",
				"NVIDIA GeForce RTX 4090",
				"NVIDIA GeForce RTX 3090",
				"Tesla T4"
			]
		);
		// An H100 listing fp32 at its native 50 TFLOPS is refused: six int8 GEMMs run at 213.
		let h100 = crate::profiles::H100;
		let mut with_fp32 = h100.gflops;
		with_fp32[Precision::Fp32.index()] = 50_000;
		assert_eq!(alias_outruns_native(&with_fp32, h100.int8_gops, 15), Some(Precision::Fp32));
	}

	#[test]
	fn memory_points_separate_equal_compute_profiles() {
		let (h100, h200) = (crate::profiles::H100, crate::profiles::H200);
		assert_eq!(h100.compute_points(), h200.compute_points(), "the same compute");
		// H200 over H100: 21% (to the percent)
		assert_eq!(u64::from(h200.points()) * 100 / u64::from(h100.points()), 121);
		let (a80, a40) = (DEFAULT_PROFILES[2].figures, DEFAULT_PROFILES[3].figures);
		let with = |p: &crate::profiles::ProfileFigures| {
			u64::from(p.compute_points()) + u64::from(memory_points(p.vram_mib, true))
		};
		assert_eq!(with(&a80) * 100 / with(&a40), 137, "once the A100s' rates are measured");
		assert_eq!(memory_points(1_000, false), 0, "nothing proven, nothing scored");
	}
}
