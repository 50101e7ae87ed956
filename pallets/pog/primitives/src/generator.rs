//! The seeded challenge matrices A (m×k) and B (k×n).
//!
//! Element `A[row][kk]` is element `kk % E` of Philox block `kk / E` of *line* `row` of A, and
//! `B[kk][col]` is element `kk % E` of block `kk / E` of line `col` of B, where `E` is
//! [`Precision::elements_per_block`] (4 for fp32, 8 for tf32 and fp16, 16 for bf16, 32 for fp8). Both matrices run along k inside a line, so the verifier
//! makes one row of A or one column of B on its own, in `k / E` Philox calls, with no memory.
//!
//! A block is `philox4x32_10(counter, key)` with
//! - `key = [s0, s1]`,
//! - `counter = [block, line, s2 ^ matrix, s3]` (`matrix` = 0 for A, 1 for B),
//!
//! where `s0..s3` are the first 16 bytes of the challenge seed read as little-endian u32 words.
//! Within a block, element `e` takes the `w`-bit slot `e` of the 128-bit output read as words
//! 0..3, low bits first (`w` = [`Precision::slot_bits`]: bits `[w*e mod 32, ...)` of word
//! `w*e / 32`), and [`Precision::element_from_random`] makes the element from it.

use crate::{
	philox::{philox4x32_10, philox4x32_10_lanes, CounterLanes, Key, LANES},
	Precision,
};

/// The 32-byte seed a challenge is generated from (drawn on chain when it is issued).
pub type ChallengeSeed = [u8; 32];

/// Which operand of `C = A·B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matrix {
	/// The m×k left operand; its lines are rows.
	A,
	/// The k×n right operand; its lines are columns.
	B,
}

impl Matrix {
	/// The value XORed into the counter's third word: 0 for A, 1 for B.
	pub const fn tag(self) -> u32 {
		match self {
			Matrix::A => 0,
			Matrix::B => 1,
		}
	}
}

/// Generates elements of one challenge's A and B.
#[derive(Clone, Copy, Debug)]
pub struct Generator {
	key: Key,
	s2: u32,
	s3: u32,
	precision: Precision,
}

fn word(seed: &ChallengeSeed, i: usize) -> u32 {
	u32::from_le_bytes([seed[4 * i], seed[4 * i + 1], seed[4 * i + 2], seed[4 * i + 3]])
}

impl Generator {
	/// The generator of the challenge with `seed` in `precision`.
	pub fn new(seed: &ChallengeSeed, precision: Precision) -> Self {
		Self { key: [word(seed, 0), word(seed, 1)], s2: word(seed, 2), s3: word(seed, 3), precision }
	}

	/// The precision elements are made in.
	pub fn precision(&self) -> Precision {
		self.precision
	}

	/// The Philox counter of `block` (along k) of `line` (row of A, column of B).
	#[inline(always)]
	pub fn counter(&self, matrix: Matrix, line: u32, block: u32) -> [u32; 4] {
		[block, line, self.s2 ^ matrix.tag(), self.s3]
	}

	/// The Philox key of this challenge.
	pub fn key(&self) -> Key {
		self.key
	}

	/// The counter words that are the same for every block of `matrix`: `[s2 ^ tag, s3]`
	/// (words 2 and 3 of [`Self::counter`]), for a device kernel that builds counters itself.
	pub fn counter_tail(&self, matrix: Matrix) -> [u32; 2] {
		let c = self.counter(matrix, 0, 0);
		[c[2], c[3]]
	}

	/// The raw Philox output of block `block` of `line`.
	#[inline(always)]
	pub fn words(&self, matrix: Matrix, line: u32, block: u32) -> [u32; 4] {
		philox4x32_10(self.counter(matrix, line, block), self.key)
	}

	/// The raw Philox output of blocks `first .. first + LANES` of `line`, word-major (word `w`
	/// of block `first + l` at `[w][l]`; blocks past `u32::MAX` wrap and are the caller's to
	/// ignore).
	#[inline(always)]
	pub fn words_lanes(&self, matrix: Matrix, line: u32, first: u32) -> CounterLanes {
		let mut ctr = [[0u32; LANES], [line; LANES], [self.s2 ^ matrix.tag(); LANES], [self.s3; LANES]];
		for (l, block) in ctr[0].iter_mut().enumerate() {
			*block = first.wrapping_add(l as u32);
		}
		philox4x32_10_lanes(ctr, self.key)
	}

	/// Element bits of block `block` of `line`, written to `out[..E]`; returns `E`.
	#[inline(always)]
	pub fn block_bits(&self, matrix: Matrix, line: u32, block: u32, out: &mut [u32; 32]) -> usize {
		let words = self.words(matrix, line, block);
		let p = self.precision;
		let w = p.slot_bits();
		let per_word = (32 / w) as usize;
		let mask = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
		for (i, word) in words.into_iter().enumerate() {
			for s in 0..per_word {
				out[i * per_word + s] = p.element_from_random((word >> (w * s as u32)) & mask);
			}
		}
		4 * per_word
	}

	/// Element bits of `A[line][kk]` (matrix A) or `B[kk][line]` (matrix B).
	pub fn element(&self, matrix: Matrix, line: u32, kk: u32) -> u32 {
		let e = self.precision.elements_per_block();
		let mut bits = [0u32; 32];
		self.block_bits(matrix, line, kk / e, &mut bits);
		bits[(kk % e) as usize]
	}

	/// Element bits of `line` for `kk` in `k0 .. k0 + out.len()`.
	pub fn fill_line(&self, matrix: Matrix, line: u32, k0: u32, out: &mut [u32]) {
		let e = self.precision.elements_per_block();
		let mut bits = [0u32; 32];
		let mut cached = u32::MAX;
		for (i, o) in out.iter_mut().enumerate() {
			let kk = k0 + i as u32;
			if kk / e != cached {
				cached = kk / e;
				self.block_bits(matrix, line, cached, &mut bits);
			}
			*o = bits[(kk % e) as usize];
		}
	}

	/// Values of `line` for `kk` in `k0 .. k0 + out.len()`, as f32 (exact).
	pub fn fill_line_f32(&self, matrix: Matrix, line: u32, k0: u32, out: &mut [f32]) {
		let mut bits = alloc::vec![0u32; out.len()];
		self.fill_line(matrix, line, k0, &mut bits);
		for (o, b) in out.iter_mut().zip(bits) {
			*o = self.precision.to_f32(b);
		}
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn single_elements_agree_with_whole_lines() {
		let seed = [7u8; 32];
		for p in Precision::ALL {
			let g = Generator::new(&seed, p);
			let mut line = [0u32; 100];
			g.fill_line(Matrix::B, 3, 5, &mut line);
			for (i, bits) in line.iter().enumerate() {
				assert_eq!(*bits, g.element(Matrix::B, 3, 5 + i as u32));
			}
		}
	}

	#[test]
	#[allow(clippy::needless_range_loop)] // a lane is an index into four arrays
	fn lanes_are_consecutive_blocks() {
		let g = Generator::new(&[5u8; 32], Precision::Fp8E4M3);
		let lanes = g.words_lanes(Matrix::B, 11, 1000);
		for l in 0..LANES {
			let w = g.words(Matrix::B, 11, 1000 + l as u32);
			assert_eq!([lanes[0][l], lanes[1][l], lanes[2][l], lanes[3][l]], w, "lane {l}");
		}
	}

	#[test]
	fn a_and_b_and_seeds_differ() {
		let g = Generator::new(&[1u8; 32], Precision::Fp32);
		let h = Generator::new(&[2u8; 32], Precision::Fp32);
		let mut a = [0u32; 64];
		let mut b = [0u32; 64];
		let mut c = [0u32; 64];
		g.fill_line(Matrix::A, 0, 0, &mut a);
		g.fill_line(Matrix::B, 0, 0, &mut b);
		h.fill_line(Matrix::A, 0, 0, &mut c);
		assert_ne!(a, b);
		assert_ne!(a, c);
	}

	#[test]
	fn every_mantissa_bit_and_the_sign_vary() {
		for p in Precision::ALL {
			let g = Generator::new(&[9u8; 32], p);
			let mut bits = [0u32; 4096];
			g.fill_line(Matrix::A, 1, 0, &mut bits);
			let (mut ones, mut zeros) = (0u32, 0u32);
			for b in bits {
				ones |= b;
				zeros |= !b;
			}
			let sign = 1u32 << (p.storage_bits() - 1);
			let mantissa = ((1u32 << p.mantissa_bits()) - 1) << (if p == Precision::Tf32 { 13 } else { 0 });
			let sign = if p == Precision::Tf32 { 1u32 << 31 } else { sign };
			assert_eq!(ones & zeros & (sign | mantissa), sign | mantissa, "{p:?}");
		}
	}
}
