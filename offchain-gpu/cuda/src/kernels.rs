//! The CUDA C source of the device kernels (compiled at run time with NVRTC) and host mirrors
//! of their arithmetic, which the unit tests hold against `pog_primitives` without a GPU.
//!
//! Kernels:
//! - `gen_<gen>_<store>`: one Philox4x32-10 block per thread; the elements of precision `<gen>`
//!   are rounded (ties to even) to the mantissa of `<store>` when it has fewer bits, and written
//!   in `<store>`'s storage format. A chunk of `kc` columns along k of `lines` lines is stored
//!   line-major: `[lines][kc]`, contiguous along k.
//! - `gen_fp8_int8`: fp8 elements as their int8 significands `±(8 + m)`, for the int8 path (one
//!   exact int8 GEMM with int32 accumulation; `pog_primitives::pricing`).
//! - `int32_to_f32`: the int8 path's int32 C scaled into fp32 in place (`/ 64`).
//! - `mem_fill`: the memory-hard phase's dataset items, four lanes (a quad) to an item.
//! - `mem_walk_start`, `mem_walk`, `mem_walk_end`: walks in three stages, the first mixes, the
//!   reads (a quad to four walks) and the results; `mem_walk_partial` reads only part of the
//!   dataset and makes the rest from the cache: a cheater's instrument, and, with listed groups
//!   and nothing resident, how walks are opened once the dataset is gone (`pog_primitives::memory`,
//!   bit for bit).
//! - `hash_leaves`: Keccak-256 of each 1,024-byte leaf of C.
//! - `hash_nodes`: Keccak-256 of each pair of 32-byte children.
//! - `gather_words`: copies `count` runs of `words` u32 from given offsets into one buffer.

use pog_primitives::Precision;

/// CUDA C source of every kernel of the crate (`kernels.cu`).
pub const SOURCE: &str = include_str!("kernels.cu");

/// Lanes to a memory-phase item or walk (a quad: `kernels.cu` says why).
pub const QUAD_LANES: u64 = 4;

/// How `mem_walk` runs the walks of a whole dataset: walks a quad (side by side, their reads in
/// flight together) and blocks of 128 threads a multiprocessor. Measured on both cards
/// (benchmarking/gpu/memory/README.md, "Walks in flight"; the phase with its commitment, 1,024
/// parents): an H100 at 71.3 GiB reads 20.0–21.8 G/s narrow and 17.1–18.2 wide (the wide shape's
/// registers leave the commitment's kernels on the other stream too little); an H200 at 125.8 GiB,
/// where reads are bound by address translation, 5.79–5.82 narrow and 5.94–5.97 wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WalkShape {
	/// Four walks a quad, four blocks a multiprocessor (a quarter of its threads, half its
	/// registers).
	Narrow,
	/// Sixteen walks a quad, eight blocks a multiprocessor (three fit, by registers).
	Wide,
}

impl WalkShape {
	/// Datasets larger than this walk wide: above an H100's 71.3 GiB, below an H200's 125.8.
	pub const WIDE_ABOVE_BYTES: u64 = 96 << 30;

	/// The shape for a dataset of `bytes`.
	pub fn for_dataset(bytes: u64) -> Self {
		if bytes > Self::WIDE_ABOVE_BYTES {
			Self::Wide
		} else {
			Self::Narrow
		}
	}

	/// Walks a quad runs side by side.
	pub const fn quad_walks(self) -> u64 {
		match self {
			Self::Narrow => 4,
			Self::Wide => 16,
		}
	}

	/// Blocks of 128 threads a multiprocessor.
	pub const fn blocks_per_sm(self) -> u32 {
		match self {
			Self::Narrow => 4,
			Self::Wide => 8,
		}
	}
}

/// Walks a quad runs side by side in `mem_walk_partial` (opening from the cache, where each
/// item may be made again from 1,024 parents: registers matter more than reads in flight), at
/// the narrow shape's blocks.
pub const PARTIAL_QUAD_WALKS: u64 = 4;

/// Host mirror of the walks' `mod_by_inverse`: `x mod d` from `inv = ⌊(2^64 − 1) / d⌋`.
pub fn mod_by_inverse(x: u64, d: u64, inv: u64) -> u64 {
	let r = x.wrapping_sub((((x as u128) * (inv as u128)) >> 64) as u64 * d);
	let r = if r >= d { r - d } else { r };
	if r >= d {
		r - d
	} else {
		r
	}
}

/// Short name of a precision inside kernel names.
pub fn short_name(p: Precision) -> &'static str {
	match p {
		Precision::Fp32 => "fp32",
		Precision::Tf32 => "tf32",
		Precision::Fp16 => "fp16",
		Precision::Bf16 => "bf16",
		Precision::Fp8E4M3 => "fp8",
	}
}

/// Name of the kernel generating `generated`-precision elements stored as `stored`.
pub fn gen_kernel_name(generated: Precision, stored: Precision) -> String {
	format!("gen_{}_{}", short_name(generated), short_name(stored))
}

/// Name of the kernel generating fp8 elements as int8 significands (the int8 path).
pub const INT8_GEN_KERNEL: &str = "gen_fp8_int8";

/// Names of every generation kernel (5 × 5, and the int8 path's).
pub fn gen_kernel_names() -> Vec<String> {
	let mut out = Vec::new();
	for g in Precision::ALL {
		for s in Precision::ALL {
			out.push(gen_kernel_name(g, s));
		}
	}
	out.push(INT8_GEN_KERNEL.into());
	out
}

/// Host mirror of the int8 path's `element_bits` (storage 4): the int8 significand of the fp8
/// element made from `slot`, as a byte.
pub fn int8_significand_byte(slot: u32) -> u8 {
	let p = Precision::Fp8E4M3;
	p.significand(p.element_from_random(slot)) as i8 as u8
}

/// Bytes one element takes in `stored`'s storage format (tf32 is stored as fp32).
pub fn storage_bytes(stored: Precision) -> usize {
	stored.storage_bits() as usize / 8
}

/// Host mirror of the kernel's `element_bits`: the element of precision `generated` made from
/// `slot`, rounded to `stored`'s mantissa (ties to even) when that has fewer bits, in `stored`'s
/// storage format.
pub fn element_bits(generated: Precision, stored: Precision, slot: u32) -> u32 {
	let (w, p) = (generated.slot_bits(), generated.mantissa_bits());
	let q = stored.mantissa_bits();
	let sign = (slot >> (w - 1)) & 1;
	let mant = slot & ((1u32 << p) - 1);
	let mut x = (sign << 31) | (127 << 23) | (mant << (23 - p));
	if q < p {
		let drop = 23 - q;
		let half = 1u32 << (drop - 1);
		let lsb = (x >> drop) & 1;
		x = (x + half - 1 + lsb) & !((1u32 << drop) - 1);
	}
	let e = (x >> 23) & 0xFF;
	match stored {
		Precision::Fp32 | Precision::Tf32 => x,
		Precision::Fp16 => (sign << 15) | ((e - 112) << 10) | ((x >> 13) & 0x3FF),
		Precision::Bf16 => x >> 16,
		Precision::Fp8E4M3 => (sign << 7) | ((e - 120) << 3) | ((x >> 20) & 7),
	}
}

/// The exact value of element bits in `stored`'s storage format (for host-side comparisons).
pub fn stored_value(stored: Precision, bits: u32) -> f32 {
	match stored {
		Precision::Fp32 | Precision::Tf32 => f32::from_bits(bits),
		Precision::Bf16 => f32::from_bits(bits << 16),
		Precision::Fp16 => {
			let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
			let e = ((bits >> 10) & 0x1F) as i32 - 15;
			sign * (1.0 + (bits & 0x3FF) as f32 / 1024.0) * 2f32.powi(e)
		},
		Precision::Fp8E4M3 => {
			let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
			let e = ((bits >> 3) & 0xF) as i32 - 7;
			sign * (1.0 + (bits & 7) as f32 / 8.0) * 2f32.powi(e)
		},
	}
}

/// The constants of an integer array named `name` in [`SOURCE`] (`name[..] = { a, b, ... }`),
/// for the tests that rebuild the kernels' Keccak on the host.
pub fn source_array(name: &str) -> Vec<u64> {
	let start = SOURCE.find(&format!("{name}[")).expect("array in the kernel source");
	let open = start + SOURCE[start..].find('{').expect("{");
	let close = open + SOURCE[open..].find('}').expect("}");
	SOURCE[open + 1..close]
		.split(',')
		.map(|t| {
			let t = t.trim().trim_end_matches("ull").trim_end_matches('u');
			match t.strip_prefix("0x") {
				Some(hex) => u64::from_str_radix(hex, 16).expect("hex"),
				None => t.parse().expect("decimal"),
			}
		})
		.collect()
}

#[cfg(test)]
mod tests {
	use super::*;
	use pog_primitives::{
		commitment::{keccak256_concat, leaf_hash},
		cpu::round_mantissa,
	};

	#[test]
	fn the_measured_cards_walk_in_their_measured_shapes() {
		let gib = |g: f64| (g * f64::from(1u32 << 30)) as u64;
		assert_eq!(WalkShape::for_dataset(gib(71.3)), WalkShape::Narrow, "an H100 at 0.9 of its memory");
		assert_eq!(WalkShape::for_dataset(gib(125.8)), WalkShape::Wide, "an H200 at 0.9 of its memory");
		assert_eq!(WalkShape::for_dataset(4 << 20), WalkShape::Narrow, "the self-test's dataset");
	}

	fn slots(p: Precision) -> Vec<u32> {
		let w = p.slot_bits();
		if w <= 16 {
			(0..1u32 << w).collect()
		} else {
			let mut x = 0x1234_5678u32;
			(0..100_000)
				.map(|_| {
					x ^= x << 13;
					x ^= x >> 17;
					x ^= x << 5;
					x
				})
				.chain([0, u32::MAX, 0x8000_0000, 0x7FFF_FFFF, 0x0000_1000, 0x0000_0FFF])
				.collect()
		}
	}

	#[test]
	fn honest_elements_equal_the_protocol() {
		for p in Precision::ALL {
			for r in slots(p) {
				assert_eq!(element_bits(p, p, r), p.element_from_random(r), "{p:?} {r:#x}");
			}
		}
	}

	/// The int8 path's bytes, as the kernel makes them (magnitude 8 + the 3 mantissa bits, negated
	/// in two's complement for a set sign bit), are 8 × the fp8 element's value: the significand.
	#[test]
	fn int8_path_bytes_are_the_fp8_significands() {
		for slot in 0..16u32 {
			let mag = 8 | (slot & 7);
			let kernel = if slot & 8 != 0 { (256 - mag) & 0xFF } else { mag } as u8;
			assert_eq!(kernel, int8_significand_byte(slot), "slot {slot}");
			let value = Precision::Fp8E4M3.to_f32(Precision::Fp8E4M3.element_from_random(slot));
			assert_eq!(f32::from(kernel as i8), value * 8.0, "slot {slot}");
		}
		assert!(SOURCE.contains("GEN(gen_fp8_int8, 4, 3, 3, 4, 1)"));
		assert!(gen_kernel_names().iter().any(|n| n == INT8_GEN_KERNEL));
	}

	#[test]
	fn lower_precision_elements_are_the_rounded_values() {
		for g in Precision::ALL {
			for s in Precision::ALL {
				for r in slots(g) {
					let value = g.to_f32(g.element_from_random(r));
					let expect = round_mantissa(value, s.mantissa_bits());
					let got = stored_value(s, element_bits(g, s, r));
					assert_eq!(got, expect, "{g:?} -> {s:?} slot {r:#x}");
				}
			}
		}
	}

	#[test]
	fn the_walks_reduction_is_the_remainder() {
		// dataset sizes from one item to past 2^32 (an H200's is 2^31), and indices at both ends
		let sizes = [1u64, 2, 3, 7, 1 << 20, 1_168_893_583, 2_367_617_330, (1 << 32) + 15, u64::MAX / 3];
		let mut x = 0x9E37_79B9_7F4A_7C15u64;
		for d in sizes {
			let inv = u64::MAX / d;
			for _ in 0..20_000 {
				x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
				assert_eq!(mod_by_inverse(x, d, inv), x % d, "{x} mod {d}");
			}
			for x in [0, 1, d - 1, d, d.wrapping_mul(2), u64::MAX, u64::MAX - 1, u64::MAX - d] {
				assert_eq!(mod_by_inverse(x, d, inv), x % d, "{x} mod {d}");
			}
		}
	}

	#[test]
	fn every_generation_kernel_is_in_the_source() {
		// GEN_ALL expands gen_<g>_<s> for every stored format; every generated precision is listed.
		for g in Precision::ALL {
			assert!(SOURCE.contains(&format!("GEN_ALL({},", short_name(g))), "{g:?}");
		}
		assert_eq!(gen_kernel_names().len(), 25 + 1, "and the int8 path's");
		for s in ["fp32", "tf32", "fp16", "bf16", "fp8"] {
			assert!(SOURCE.contains(&format!("GEN(gen_##G##_{s},")), "{s}");
		}
	}

	fn keccak_f(s: &mut [u64; 25], rc: &[u64], rotc: &[u64], piln: &[u64]) {
		for round_constant in rc {
			let mut c = [0u64; 5];
			for x in 0..5 {
				c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
			}
			for x in 0..5 {
				let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
				for y in (0..25).step_by(5) {
					s[y + x] ^= d;
				}
			}
			let mut t = s[1];
			for i in 0..24 {
				let j = piln[i] as usize;
				let tmp = s[j];
				s[j] = t.rotate_left(rotc[i] as u32);
				t = tmp;
			}
			for y in (0..25).step_by(5) {
				let b = [s[y], s[y + 1], s[y + 2], s[y + 3], s[y + 4]];
				for x in 0..5 {
					s[y + x] = b[x] ^ (!b[(x + 1) % 5] & b[(x + 2) % 5]);
				}
			}
			s[0] ^= round_constant;
		}
	}

	fn out(s: &[u64; 25]) -> [u8; 32] {
		let mut h = [0u8; 32];
		for i in 0..4 {
			h[8 * i..8 * i + 8].copy_from_slice(&s[i].to_le_bytes());
		}
		h
	}

	/// The kernels' constants and block layout, run on the host, give the protocol's hashes.
	#[test]
	fn kernel_keccak_layout_matches_the_protocol() {
		let (rc, rotc, piln) = (source_array("KECCAK_RC"), source_array("ROTC"), source_array("PILN"));
		assert_eq!((rc.len(), rotc.len(), piln.len()), (24, 24, 24));
		let values: Vec<u32> = (0..256u32).map(|i| i.wrapping_mul(0x9E37_79B9) ^ 0x5555).collect();
		let lanes: Vec<u64> = values.chunks(2).map(|p| u64::from(p[0]) | (u64::from(p[1]) << 32)).collect();
		let mut s = [0u64; 25];
		for blk in 0..7 {
			for j in 0..17 {
				s[j] ^= lanes[blk * 17 + j];
			}
			keccak_f(&mut s, &rc, &rotc, &piln);
		}
		for j in 0..9 {
			s[j] ^= lanes[119 + j];
		}
		s[9] ^= 1;
		s[16] ^= 1 << 63;
		keccak_f(&mut s, &rc, &rotc, &piln);
		assert_eq!(out(&s), leaf_hash(&values));

		let (l, r) = ([7u8; 32], [0xA5u8; 32]);
		let mut s = [0u64; 25];
		for j in 0..4 {
			s[j] = u64::from_le_bytes(l[8 * j..8 * j + 8].try_into().unwrap());
			s[4 + j] = u64::from_le_bytes(r[8 * j..8 * j + 8].try_into().unwrap());
		}
		s[8] ^= 1;
		s[16] ^= 1 << 63;
		keccak_f(&mut s, &rc, &rotc, &piln);
		assert_eq!(out(&s), keccak256_concat(&[&l, &r]));
	}
}
