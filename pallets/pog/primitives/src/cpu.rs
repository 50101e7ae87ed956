//! An honest reference GEMM on the CPU in fp32, with the protocol's chunked accumulation:
//! for each chunk of `chunk_k` along k, `P = A_chunk · B_chunk` is accumulated in fp32 (one
//! serial chain of at most `chunk_k` additions per entry), then added into C (beta = 1).
//! It is what the miner agent's CPU backend and the tests use; it is O(m·n·k), for small dims.

use alloc::vec::Vec;

use crate::{
	generator::{Generator, Matrix},
	sizing,
	verify::ChallengeSpec,
};

/// A `rows × cols` block of C (rows `row0..`, all n columns), row-major fp32 bit patterns.
pub fn gemm_rows(spec: &ChallengeSpec, row0: u32, rows: u32) -> Vec<u32> {
	gemm_rows_rounded(spec, row0, rows, None)
}

/// Round an f32 to `bits` mantissa bits, ties to even (what a cheaper format keeps of it).
pub fn round_mantissa(x: f32, bits: u32) -> f32 {
	if bits >= 23 {
		return x;
	}
	let drop = 23 - bits;
	let b = x.to_bits();
	let half = 1u32 << (drop - 1);
	let lsb = (b >> drop) & 1;
	f32::from_bits((b + half - 1 + lsb) & !((1u32 << drop) - 1))
}

/// Like [`gemm_rows`], but with every operand first rounded to `mantissa_bits` bits when given:
/// the result of a GEMM run in a lower precision than asked (for tests and the agent's
/// adversarial mode).
pub fn gemm_rows_rounded(spec: &ChallengeSpec, row0: u32, rows: u32, mantissa_bits: Option<u32>) -> Vec<u32> {
	let (n, k) = (spec.dims.n as usize, spec.dims.k as usize);
	let rows = rows as usize;
	let chunk = sizing::chunk_len(spec.dims.k, spec.chunk_k) as usize;
	let g = Generator::new(&spec.seed, spec.precision);
	let mut c = alloc::vec![0f32; rows * n];
	let mut p = alloc::vec![0f32; rows * n];
	let mut a = alloc::vec![0f32; rows * chunk];
	let mut b = alloc::vec![0f32; chunk * n];
	let mut col = alloc::vec![0f32; chunk];
	let mut k0 = 0usize;
	while k0 < k {
		let kc = chunk.min(k - k0);
		for r in 0..rows {
			g.fill_line_f32(Matrix::A, row0 + r as u32, k0 as u32, &mut a[r * kc..(r + 1) * kc]);
		}
		if let Some(bits) = mantissa_bits {
			a[..rows * kc].iter_mut().for_each(|v| *v = round_mantissa(*v, bits));
		}
		for j in 0..n {
			g.fill_line_f32(Matrix::B, j as u32, k0 as u32, &mut col[..kc]);
			if let Some(bits) = mantissa_bits {
				col[..kc].iter_mut().for_each(|v| *v = round_mantissa(*v, bits));
			}
			for (kk, v) in col[..kc].iter().enumerate() {
				b[kk * n + j] = *v;
			}
		}
		p.iter_mut().for_each(|v| *v = 0.0);
		for r in 0..rows {
			let prow = &mut p[r * n..(r + 1) * n];
			for kk in 0..kc {
				let av = a[r * kc + kk];
				for (pv, bv) in prow.iter_mut().zip(&b[kk * n..(kk + 1) * n]) {
					*pv += av * *bv;
				}
			}
		}
		for (cv, pv) in c.iter_mut().zip(&p) {
			*cv += *pv;
		}
		k0 += kc;
	}
	c.into_iter().map(f32::to_bits).collect()
}

/// The whole of C (row-major fp32 bit patterns).
pub fn gemm(spec: &ChallengeSpec) -> Vec<u32> {
	gemm_rows(spec, 0, spec.dims.m)
}

#[cfg(test)]
mod tests {
	use super::round_mantissa;

	#[test]
	fn rounding_to_fewer_mantissa_bits_is_to_nearest_even() {
		assert_eq!(round_mantissa(1.0 + 1.0 / 16.0, 3), 1.0); // tie, to even
		assert_eq!(round_mantissa(1.0 + 3.0 / 16.0, 3), 1.25); // tie, to even (up)
		assert_eq!(round_mantissa(1.0 + 5.0 / 32.0, 3), 1.125);
		assert_eq!(round_mantissa(-1.99, 3), -2.0); // carries into the exponent
		assert_eq!(round_mantissa(1.2345, 23), 1.2345);
	}
}
