//! Challenge dimensions and deadlines, in integer arithmetic (the runtime decides with them).
//!
//! - **m, n** follow the claimed GPU's memory: C (fp32, `4·m·n` bytes) takes at most half of
//!   VRAM, leaving room for double-buffered chunks of A and B and the leaf hashes. Both are powers
//!   of two in `[MIN_DIM, MAX_DIM]`, `n` the largest with `n² ≤ VRAM/8 bytes` and `m` = `2n` when
//!   that still fits, else `n`. A larger C means a shorter k for the same work, and the
//!   verifier's cost per entry is proportional to k. The leaf count `m·n/256` is then a power of two and the Merkle tree
//!   perfect.
//! - **k** makes the GEMM take the configured target time at the profile's expected throughput
//!   for the precision: `k = ⌈target · rate / (2·m·n)⌉`, rounded up to a multiple of [`K_ALIGN`].

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

use crate::LEAF_VALUES;

/// Smallest m and n.
pub const MIN_DIM: u32 = 256;
/// Largest m and n (2^17).
pub const MAX_DIM: u32 = 1 << 17;
/// k is a multiple of this (and so of every precision's elements per Philox block).
pub const K_ALIGN: u32 = 256;
/// Largest k (2^28); with |elements| < 2 no fp32 partial sum overflows.
pub const MAX_K: u32 = 1 << 28;

/// The chunk length along k that the protocol's accumulation uses by default (mainnet and dev
/// presets, the agent's benchmarks).
pub const DEFAULT_CHUNK_K: u32 = 8192;

/// Whether `chunk_k` is a valid accumulation chunk: a positive multiple of [`K_ALIGN`].
pub const fn is_valid_chunk_k(chunk_k: u32) -> bool {
	chunk_k >= K_ALIGN && chunk_k.is_multiple_of(K_ALIGN)
}

/// The length of a full chunk of the accumulation along `k`: `chunk_k`, at least 1 and at most `k`.
pub const fn chunk_len(k: u32, chunk_k: u32) -> u32 {
	let c = if chunk_k == 0 { 1 } else { chunk_k };
	if k == 0 {
		1
	} else if c < k {
		c
	} else {
		k
	}
}

/// The chunks `(k0, kc)` of the protocol's accumulation along `k`: `C = Σ A[:, k0..k0+kc]·B[k0..k0+kc, :]`,
/// each chunk's partial product summed on its own and then added into C. Every chunk has
/// [`chunk_len`] columns but the last, which has the rest.
pub fn chunks(k: u32, chunk_k: u32) -> impl Iterator<Item = (u32, u32)> {
	let step = chunk_len(k, chunk_k);
	(0..k).step_by(step as usize).map(move |k0| (k0, step.min(k - k0)))
}

/// The shape of a challenge GEMM: `C (m×n) = A (m×k) · B (k×n)`.
#[derive(
	Clone, Copy, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo, Default,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dims {
	/// Rows of A and C.
	pub m: u32,
	/// Columns of B and C.
	pub n: u32,
	/// Columns of A, rows of B: the summation length.
	pub k: u32,
}

impl Dims {
	/// Whether the dimensions obey the protocol's shape rules.
	pub fn is_valid(&self) -> bool {
		let dim_ok = |d: u32| d.is_power_of_two() && (MIN_DIM..=MAX_DIM).contains(&d);
		dim_ok(self.m) && dim_ok(self.n) && self.k >= K_ALIGN && self.k <= MAX_K && self.k.is_multiple_of(K_ALIGN)
	}

	/// Floating-point operations of the GEMM (`2·m·n·k`).
	pub fn flops(&self) -> u128 {
		2 * u128::from(self.m) * u128::from(self.n) * u128::from(self.k)
	}

	/// Number of Merkle leaves of C (`m·n / 256`, a power of two for valid dims).
	pub fn num_leaves(&self) -> u32 {
		((u64::from(self.m) * u64::from(self.n)) / LEAF_VALUES as u64) as u32
	}

	/// Leaves per row of C.
	pub fn leaves_per_row(&self) -> u32 {
		self.n / LEAF_VALUES as u32
	}

	/// Depth of the Merkle tree (length of every proof).
	pub fn tree_depth(&self) -> u32 {
		self.num_leaves().trailing_zeros()
	}
}

/// Output dimensions `(m, n)` for a GPU with `vram_mib` MiB of memory.
pub fn output_dims(vram_mib: u32) -> (u32, u32) {
	let budget = u64::from(vram_mib) * (1 << 20) / 8; // fp32 entries of C in half of VRAM
	let mut n = MIN_DIM;
	while n < MAX_DIM && u64::from(n * 2) * u64::from(n * 2) <= budget {
		n *= 2;
	}
	let m = if n < MAX_DIM && 2 * u64::from(n) * u64::from(n) <= budget { n * 2 } else { n };
	(m, n)
}

/// Summation length `k` so that `2·m·n·k` flops take `target_ms` at `gflops`.
pub fn inner_dim(m: u32, n: u32, gflops: u32, target_ms: u32) -> u32 {
	let flops = u128::from(target_ms) * u128::from(gflops) * 1_000_000;
	let per_k = 2 * u128::from(m) * u128::from(n);
	let k = flops.div_ceil(per_k.max(1));
	let aligned = k.div_ceil(u128::from(K_ALIGN)) * u128::from(K_ALIGN);
	aligned.clamp(u128::from(K_ALIGN), u128::from(MAX_K)) as u32
}

/// The time a GEMM challenge is sized to (ms): the round's `target_ms`, and for a profile without
/// a memory phase also the walks' time (`walk_ms`), so that its claim ends with the claims that
/// have one and takes as much of a card's time as its points say: no claim fits in the slack of
/// another (`docs/protocol.md` §6, "One clock").
pub fn gemm_target_ms(target_ms: u32, walk_ms: u32, memory_phase: bool) -> u32 {
	if memory_phase {
		target_ms
	} else {
		target_ms.saturating_add(walk_ms)
	}
}

/// The dimensions of a challenge for a GPU with `vram_mib` and `gflops` in the challenge's
/// precision, sized to take `target_ms`.
pub fn challenge_dims(vram_mib: u32, gflops: u32, target_ms: u32) -> Dims {
	let (m, n) = output_dims(vram_mib);
	Dims { m, n, k: inner_dim(m, n, gflops, target_ms) }
}

/// Milliseconds the GEMM takes at `gflops` (rounded up); `u64::MAX` if `gflops` is zero.
pub fn expected_ms(dims: &Dims, gflops: u32) -> u64 {
	if gflops == 0 {
		return u64::MAX;
	}
	let ms = dims.flops().div_ceil(u128::from(gflops) * 1_000_000);
	ms.min(u128::from(u64::MAX)) as u64
}

/// Time allowed from issue to commitment: the expected time stretched by the profile's
/// throughput tolerance (a GPU may run up to `tolerance_percent` % slower than expected) plus
/// a fixed slack for seeing the challenge and getting the root into a block.
pub fn allowed_ms(expected_ms: u64, tolerance_percent: u8, slack_ms: u64) -> u64 {
	let tolerance = u64::from(tolerance_percent.min(99));
	let stretched = u128::from(expected_ms) * 100 / u128::from(100 - tolerance);
	(stretched.min(u128::from(u64::MAX)) as u64).saturating_add(slack_ms)
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn chunks_cover_k_once_in_order() {
		let all: alloc::vec::Vec<_> = chunks(20_480, 8192).collect();
		assert_eq!(all, [(0, 8192), (8192, 8192), (16_384, 4096)]);
		assert_eq!(chunks(4096, 8192).collect::<alloc::vec::Vec<_>>(), [(0, 4096)]);
		assert_eq!(chunks(512, 0).count(), 512, "a zero chunk length is read as 1");
		assert_eq!(chunks(0, 256).count(), 0);
		assert_eq!(chunk_len(4096, 8192), 4096);
		assert!(is_valid_chunk_k(K_ALIGN) && is_valid_chunk_k(DEFAULT_CHUNK_K));
		assert!(!is_valid_chunk_k(0) && !is_valid_chunk_k(K_ALIGN + 1));
	}

	#[test]
	fn output_dims_follow_vram() {
		assert_eq!(output_dims(81_559), (131_072, 65_536)); // H100 80 GB: C is 32 GiB
		assert_eq!(output_dims(143_771), (131_072, 131_072)); // H200 141 GB: 64 GiB
		assert_eq!(output_dims(40_960), (65_536, 65_536)); // A100 40 GB: 16 GiB
		assert_eq!(output_dims(24_564), (65_536, 32_768)); // RTX 4090: 8 GiB
		assert_eq!(output_dims(15_360), (32_768, 32_768)); // T4: 4 GiB
		assert_eq!(output_dims(4), (1_024, 512)); // cpu-reference
		assert_eq!(output_dims(0), (256, 256));
		assert_eq!(output_dims(u32::MAX), (MAX_DIM, MAX_DIM));
	}

	#[test]
	fn inner_dim_hits_the_target_time() {
		// H100, fp16 at 640 TFLOPS, two minutes
		let d = challenge_dims(81_559, 640_000, 120_000);
		assert!(d.is_valid());
		let ms = expected_ms(&d, 640_000);
		assert!((120_000..120_100).contains(&ms), "{ms}");
		assert_eq!(inner_dim(256, 256, 0, 1000), K_ALIGN);
		assert_eq!(inner_dim(256, 256, u32::MAX, u32::MAX), MAX_K);
	}

	#[test]
	fn deadline_stretches_by_tolerance_and_slack() {
		assert_eq!(allowed_ms(90_000, 10, 12_000), 112_000);
		assert_eq!(allowed_ms(1_000, 0, 0), 1_000);
		assert_eq!(allowed_ms(u64::MAX, 99, 5), u64::MAX);
	}

	#[test]
	fn dims_validity() {
		assert!(Dims { m: 256, n: 512, k: 256 }.is_valid());
		assert!(!Dims { m: 300, n: 512, k: 256 }.is_valid());
		assert!(!Dims { m: 256, n: 512, k: 100 }.is_valid());
		assert!(!Dims { m: 128, n: 512, k: 256 }.is_valid());
		assert_eq!(Dims { m: 256, n: 512, k: 256 }.num_leaves(), 512);
		assert_eq!(Dims { m: 256, n: 512, k: 256 }.tree_depth(), 9);
	}
}
