//! Challenge precisions and how a random word becomes an element of each.
//!
//! Every element is `±(1 + f)` with `f` a uniformly random fraction that fills the format's
//! whole mantissa, built directly from integer bits (sign bit, the exponent of 1.0, random
//! mantissa bits): no float rounding happens in generation, so the CPU and a CUDA kernel make
//! bit-identical matrices. Because the mantissa is full, a GEMM run in a lower precision than
//! asked rounds every operand and lands far outside the tolerance (see [`crate::verify`]).
//!
//! An element's value is `significand / 2^p`, where `p` is the number of mantissa bits and
//! `significand = ±(2^p + mantissa)` is an integer; the verifier multiplies significands as
//! integers and therefore recomputes entries of C exactly.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

/// Mantissa bits of OCP FP4 (E2M1), the format below fp8 that a cheater would use for an fp8
/// challenge (Blackwell tensor cores run it at twice the fp8 rate).
pub const FP4_E2M1_MANTISSA_BITS: u32 = 1;

/// The precision a challenge's GEMM must run in. Inputs are in this format; accumulation
/// and the result C are fp32 in every case.
#[derive(
	Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Precision {
	/// IEEE binary32 inputs (24-bit significand), fp32 FMA (CUDA cores).
	Fp32,
	/// TensorFloat-32 inputs: fp32 storage with a 10-bit mantissa (tensor cores).
	Tf32,
	/// IEEE binary16 inputs (10-bit mantissa).
	Fp16,
	/// bfloat16 inputs (7-bit mantissa).
	Bf16,
	/// OCP FP8 E4M3 inputs (3-bit mantissa).
	#[cfg_attr(feature = "serde", serde(rename = "fp8-e4m3"))]
	Fp8E4M3,
}

impl Precision {
	/// All precisions, in the order of a profile's per-precision throughput table.
	pub const ALL: [Precision; 5] =
		[Precision::Fp32, Precision::Tf32, Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3];

	/// The precisions a challenge is drawn in. TensorFloat-32 is not one of them: a tf32 element
	/// (sign, the exponent of 1.0, 10 random mantissa bits from a 16-bit slot) is the fp16 element
	/// of the same slot, so a tf32 challenge generates the very matrices of the fp16 challenge of
	/// its seed, and fp16 tensor cores compute it exactly at the fp16 rate (2.01× the tf32 rate on
	/// an H100). Challenging fp16 proves the same tensor-core path at its own price.
	pub const CHALLENGED: [Precision; 4] = [Precision::Fp32, Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3];

	/// Whether challenges are drawn in this precision ([`Precision::CHALLENGED`]).
	pub const fn is_challenged(self) -> bool {
		!matches!(self, Precision::Tf32)
	}

	/// Position of this precision in [`Precision::ALL`] (and in a profile's throughput table).
	pub const fn index(self) -> usize {
		match self {
			Precision::Fp32 => 0,
			Precision::Tf32 => 1,
			Precision::Fp16 => 2,
			Precision::Bf16 => 3,
			Precision::Fp8E4M3 => 4,
		}
	}

	/// Short lower-case name (`fp32`, `tf32`, `fp16`, `bf16`, `fp8-e4m3`).
	pub const fn name(self) -> &'static str {
		match self {
			Precision::Fp32 => "fp32",
			Precision::Tf32 => "tf32",
			Precision::Fp16 => "fp16",
			Precision::Bf16 => "bf16",
			Precision::Fp8E4M3 => "fp8-e4m3",
		}
	}

	/// Storage width of one element in bits (tf32 is stored as fp32).
	pub const fn storage_bits(self) -> u32 {
		match self {
			Precision::Fp32 | Precision::Tf32 => 32,
			Precision::Fp16 | Precision::Bf16 => 16,
			Precision::Fp8E4M3 => 8,
		}
	}

	/// Number of random mantissa bits `p` in an element.
	pub const fn mantissa_bits(self) -> u32 {
		match self {
			Precision::Fp32 => 23,
			Precision::Tf32 | Precision::Fp16 => 10,
			Precision::Bf16 => 7,
			Precision::Fp8E4M3 => 3,
		}
	}

	/// Random bits an element is made from (its sign and mantissa, rounded up to a power of
	/// two): 32 for fp32, 16 for tf32 and fp16, 8 for bf16, 4 for fp8-e4m3.
	pub const fn slot_bits(self) -> u32 {
		match self {
			Precision::Fp32 => 32,
			Precision::Tf32 | Precision::Fp16 => 16,
			Precision::Bf16 => 8,
			Precision::Fp8E4M3 => 4,
		}
	}

	/// Elements made from one Philox4x32 output (128 bits): 4, 8, 16 or 32.
	pub const fn elements_per_block(self) -> u32 {
		128 / self.slot_bits()
	}

	/// Unit roundoff of the honest accumulation the tolerance assumes, as a power of two:
	/// `u = 2^-acc_bits`. Every precision accumulates in fp32, which rounds to 24 bits. For fp8
	/// that holds on Hopper with cuBLASLt's default (FAST_ACCUM off, partial sums promoted to fp32
	/// registers; measured on an H100: `benchmarking/gpu/README.md`); Hopper's raw FP8 accumulator
	/// keeps about 14 bits (DeepSeek-V3 technical report, §3.3.2), and so does an fp16 accumulator
	/// (11 bits) flushed into fp32 often, both of which the tolerance therefore rejects.
	pub const fn accumulation_bits(self) -> u32 {
		24
	}

	/// The precision a cheater would most plausibly substitute (the next cheaper one), if any.
	/// Its mantissa has fewer bits, so its results are detectably wrong.
	pub const fn next_lower(self) -> Option<Precision> {
		match self {
			Precision::Fp32 => Some(Precision::Tf32),
			Precision::Tf32 => Some(Precision::Bf16),
			Precision::Fp16 | Precision::Bf16 => Some(Precision::Fp8E4M3),
			Precision::Fp8E4M3 => None,
		}
	}

	/// Mantissa bits of the cheaper format a cheater substitutes for this one: the next lower
	/// precision's, and below fp8 (which has no cheaper format in the protocol) FP4 E2M1's
	/// ([`FP4_E2M1_MANTISSA_BITS`]). Always fewer bits than [`Self::mantissa_bits`], so a result
	/// computed with operands rounded to it is a real cheat for every precision.
	pub const fn substitute_mantissa_bits(self) -> u32 {
		match self.next_lower() {
			Some(lower) => lower.mantissa_bits(),
			None => FP4_E2M1_MANTISSA_BITS,
		}
	}

	/// Element bits from `r`, a random value of [`Self::slot_bits`] bits (higher bits ignored):
	/// the slot's top bit is the sign, its low `p` bits the mantissa.
	#[inline(always)]
	pub const fn element_from_random(self, r: u32) -> u32 {
		match self {
			// sign | exponent of 1.0 (127) | 23 random mantissa bits
			Precision::Fp32 => (r & 0x8000_0000) | (127 << 23) | (r & 0x007F_FFFF),
			// fp32 storage: sign | exponent 127 | 10 random mantissa bits | 13 zero bits
			Precision::Tf32 => ((r & 0x8000) << 16) | (127 << 23) | ((r & 0x03FF) << 13),
			// sign | exponent of 1.0 (15) | 10 random mantissa bits
			Precision::Fp16 => (r & 0x8000) | (15 << 10) | (r & 0x03FF),
			// sign | exponent of 1.0 (127) | 7 random mantissa bits
			Precision::Bf16 => ((r & 0x80) << 8) | (127 << 7) | (r & 0x007F),
			// sign | exponent of 1.0 (bias 7) | 3 random mantissa bits
			Precision::Fp8E4M3 => ((r & 0x8) << 4) | (7 << 3) | (r & 0x07),
		}
	}

	/// The signed integer significand `±(2^p + mantissa)` of generated element bits.
	/// The element's value is `significand / 2^p` with `p` = [`Self::mantissa_bits`].
	#[inline(always)]
	pub const fn significand(self, bits: u32) -> i32 {
		let (negative, mantissa) = match self {
			Precision::Fp32 => (bits >> 31 != 0, bits & 0x007F_FFFF),
			Precision::Tf32 => (bits >> 31 != 0, (bits & 0x007F_FFFF) >> 13),
			Precision::Fp16 => (bits & 0x8000 != 0, bits & 0x03FF),
			Precision::Bf16 => (bits & 0x8000 != 0, bits & 0x007F),
			Precision::Fp8E4M3 => (bits & 0x80 != 0, bits & 0x07),
		};
		let magnitude = ((1u32 << self.mantissa_bits()) | mantissa) as i32;
		if negative {
			-magnitude
		} else {
			magnitude
		}
	}

	/// The exact value of generated element bits as f32 (every element is representable).
	#[inline(always)]
	pub fn to_f32(self, bits: u32) -> f32 {
		self.significand(bits) as f32 / (1u32 << self.mantissa_bits()) as f32
	}
}

impl core::str::FromStr for Precision {
	type Err = UnknownPrecision;

	/// Parses a precision's [`Precision::name`] in any case; `fp8` also names `fp8-e4m3`.
	fn from_str(s: &str) -> Result<Self, Self::Err> {
		Precision::ALL
			.into_iter()
			.find(|p| p.name().eq_ignore_ascii_case(s) || (s.eq_ignore_ascii_case("fp8") && *p == Precision::Fp8E4M3))
			.ok_or(UnknownPrecision)
	}
}

/// A name that is not a precision's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownPrecision;

impl core::fmt::Display for UnknownPrecision {
	fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
		f.write_str("unknown precision (expected one of fp32, tf32, fp16, bf16, fp8-e4m3)")
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn elements_decode_to_the_ieee_value_of_their_bits() {
		for r in [0u32, 1, 0x1234_5678, 0xDEAD_BEEF, u32::MAX, 0x8000_0000, 0x7FFF_FFFF] {
			let f = Precision::Fp32.element_from_random(r);
			assert_eq!(f32::from_bits(f), Precision::Fp32.to_f32(f));
			let t = Precision::Tf32.element_from_random(r);
			assert_eq!(f32::from_bits(t), Precision::Tf32.to_f32(t));
			assert_eq!(t & 0x1FFF, 0, "tf32 keeps 10 mantissa bits");
			assert_eq!(t >> 31, (r >> 15) & 1, "tf32 sign from the slot's top bit");
			// bf16 is the top half of an fp32
			let b = Precision::Bf16.element_from_random(r);
			assert_eq!(b >> 15, (r >> 7) & 1);
			assert_eq!(f32::from_bits(b << 16), Precision::Bf16.to_f32(b));
			// fp16: 1.m × 2^0, sign in bit 15
			let h = Precision::Fp16.element_from_random(r);
			let expect = (1.0 + (h & 0x3FF) as f32 / 1024.0) * if h & 0x8000 != 0 { -1.0 } else { 1.0 };
			assert_eq!(expect, Precision::Fp16.to_f32(h));
			let e = Precision::Fp8E4M3.element_from_random(r);
			assert_eq!((e >> 3) & 0xF, 7, "e4m3 exponent of 1.0");
			assert_eq!(e >> 7, (r >> 3) & 1, "fp8 sign from the 4-bit slot's top bit");
			let expect = (1.0 + (e & 7) as f32 / 8.0) * if e & 0x80 != 0 { -1.0 } else { 1.0 };
			assert_eq!(expect, Precision::Fp8E4M3.to_f32(e));
		}
	}

	/// The alias behind [`Precision::CHALLENGED`]: every tf32 element is the fp16 element of the
	/// same random slot, and both take 16-bit slots, so a tf32 challenge is an fp16 challenge.
	#[test]
	fn a_tf32_challenge_is_the_fp16_challenge_of_its_seed() {
		assert_eq!(Precision::Tf32.slot_bits(), Precision::Fp16.slot_bits());
		assert_eq!(Precision::Tf32.elements_per_block(), Precision::Fp16.elements_per_block());
		for r in 0..=0xFFFFu32 {
			let t = Precision::Tf32.to_f32(Precision::Tf32.element_from_random(r));
			let h = Precision::Fp16.to_f32(Precision::Fp16.element_from_random(r));
			assert_eq!(t.to_bits(), h.to_bits(), "slot {r:#06x}");
		}
		assert!(!Precision::Tf32.is_challenged());
		assert_eq!(Precision::CHALLENGED.len(), Precision::ALL.iter().filter(|p| p.is_challenged()).count());
	}

	#[test]
	fn names_parse_back() {
		for p in Precision::ALL {
			assert_eq!(p.name().parse(), Ok(p));
			assert_eq!(p.name().to_uppercase().parse(), Ok(p));
		}
		assert_eq!("fp8".parse(), Ok(Precision::Fp8E4M3));
		assert_eq!("fp64".parse::<Precision>(), Err(UnknownPrecision));
	}

	#[test]
	fn every_precision_has_a_strictly_cheaper_substitute() {
		for p in Precision::ALL {
			assert!(p.substitute_mantissa_bits() < p.mantissa_bits(), "{p:?}");
		}
		assert_eq!(Precision::Fp8E4M3.substitute_mantissa_bits(), FP4_E2M1_MANTISSA_BITS);
	}

	#[test]
	fn magnitudes_lie_in_one_to_two() {
		for p in Precision::ALL {
			for r in [0u32, u32::MAX, 0x5555_5555, 0xAAAA_AAAA] {
				let v = p.to_f32(p.element_from_random(r)).abs();
				assert!((1.0..2.0).contains(&v), "{p:?} {r:#x} -> {v}");
			}
		}
	}
}
