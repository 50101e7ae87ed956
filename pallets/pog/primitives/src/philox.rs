//! Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw,
//! "Parallel Random Numbers: As Easy as 1, 2, 3" (SC'11), with the constants of the
//! reference implementation Random123 (`philox.h`). cuRAND's `curand_Philox4x32_10`
//! is the same function, so a CUDA kernel reproduces it bit for bit.
//!
//! Ten rounds; each round multiplies counter words 0 and 2 by `M0`/`M1` (32×32→64 bits),
//! swaps and XORs the halves with the other counter words and the key, then the key
//! is bumped by the Weyl constants `W0`/`W1`. The known-answer vectors in this module's
//! tests are Random123's `kat_vectors` for `philox4x32 10`.

/// Multiplier applied to counter word 0.
pub const M0: u32 = 0xD251_1F53;
/// Multiplier applied to counter word 2.
pub const M1: u32 = 0xCD9E_8D57;
/// Weyl increment of key word 0 (golden ratio).
pub const W0: u32 = 0x9E37_79B9;
/// Weyl increment of key word 1 (sqrt(3) - 1).
pub const W1: u32 = 0xBB67_AE85;

/// A 128-bit counter block.
pub type Counter = [u32; 4];
/// A 64-bit key.
pub type Key = [u32; 2];

#[inline(always)]
fn round(ctr: Counter, key: Key) -> Counter {
	let p0 = u64::from(M0) * u64::from(ctr[0]);
	let p1 = u64::from(M1) * u64::from(ctr[2]);
	[((p1 >> 32) as u32) ^ ctr[1] ^ key[0], p1 as u32, ((p0 >> 32) as u32) ^ ctr[3] ^ key[1], p0 as u32]
}

/// Philox4x32 with 10 rounds: four 32-bit random words for one (counter, key).
#[inline]
pub fn philox4x32_10(mut ctr: Counter, mut key: Key) -> [u32; 4] {
	ctr = round(ctr, key);
	for _ in 1..10 {
		key = [key[0].wrapping_add(W0), key[1].wrapping_add(W1)];
		ctr = round(ctr, key);
	}
	ctr
}

/// Counters [`philox4x32_10_lanes`] runs side by side: eight 32-bit lanes fill a 256-bit vector
/// register (AVX2), two 128-bit ones elsewhere.
pub const LANES: usize = 8;

/// Counter blocks of [`LANES`] lanes, word-major: `[w][l]` is word `w` of lane `l`.
pub type CounterLanes = [[u32; LANES]; 4];

#[inline(always)]
fn round_lanes(c: &CounterLanes, key: Key) -> CounterLanes {
	let mut out = [[0u32; LANES]; 4];
	for l in 0..LANES {
		let p0 = u64::from(M0) * u64::from(c[0][l]);
		let p1 = u64::from(M1) * u64::from(c[2][l]);
		out[0][l] = ((p1 >> 32) as u32) ^ c[1][l] ^ key[0];
		out[1][l] = p1 as u32;
		out[2][l] = ((p0 >> 32) as u32) ^ c[3][l] ^ key[1];
		out[3][l] = p0 as u32;
	}
	out
}

/// [`philox4x32_10`] of [`LANES`] counters under one key, word-major in and out: the same
/// function, laid out so that each word of the eight counters sits in one vector register and
/// every round is a few vector instructions for all of them (the verifier's hot loop).
#[inline(always)]
pub fn philox4x32_10_lanes(mut ctr: CounterLanes, mut key: Key) -> CounterLanes {
	ctr = round_lanes(&ctr, key);
	for _ in 1..10 {
		key = [key[0].wrapping_add(W0), key[1].wrapping_add(W1)];
		ctr = round_lanes(&ctr, key);
	}
	ctr
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	#[allow(clippy::needless_range_loop)] // a lane is an index into four arrays
	fn lanes_are_the_scalar_function() {
		let key = [0xa409_3822, 0x299f_31d0];
		let mut ctr = [[0u32; LANES]; 4];
		for l in 0..LANES {
			let l32 = l as u32;
			ctr[0][l] = l32.wrapping_mul(0x9E37_79B9) ^ 0x243f_6a88;
			ctr[1][l] = u32::MAX - l32;
			ctr[2][l] = 0x1319_8a2e ^ (l32 << 28);
			ctr[3][l] = l32;
		}
		let out = philox4x32_10_lanes(ctr, key);
		for l in 0..LANES {
			let scalar = philox4x32_10([ctr[0][l], ctr[1][l], ctr[2][l], ctr[3][l]], key);
			assert_eq!([out[0][l], out[1][l], out[2][l], out[3][l]], scalar, "lane {l}");
		}
	}

	/// Random123 1.14, `examples/kat_vectors`, lines `philox4x32 10 ...`.
	#[test]
	fn random123_known_answers() {
		assert_eq!(philox4x32_10([0, 0, 0, 0], [0, 0]), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]);
		assert_eq!(philox4x32_10([u32::MAX; 4], [u32::MAX; 2]), [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]);
		assert_eq!(
			philox4x32_10([0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344], [0xa409_3822, 0x299f_31d0]),
			[0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
		);
	}
}
