//! Shapes of the challenges the verifier benchmarks measure (see `benches/verifier.rs` and
//! this crate's README).

#![warn(missing_docs)]

use pog_primitives::{
	pricing::alias_gflops,
	profiles::{CPU, H100},
	sizing,
	verify::ChallengeSpec,
	Dims, Precision,
};

/// Dev preset target time (ms) and mainnet target (two minutes).
pub const DEV_TARGET_MS: u32 = 5_000;
/// Mainnet target time (ms).
pub const MAINNET_TARGET_MS: u32 = 120_000;

/// The H100's fastest exact method in `precision`, native or int8 alias: what a challenge in it
/// would be priced at, also in the precisions the H100 profile is not challenged in (fp32, tf32),
/// so that every precision's verifier cost is measured at an H100's size.
pub fn h100_gflops(precision: Precision) -> u32 {
	H100.gflops[precision.index()].max(alias_gflops(H100.int8_gops, precision))
}

/// A two-minute challenge for an H100 in `precision` (at [`h100_gflops`]).
pub fn h100_two_minutes(precision: Precision) -> ChallengeSpec {
	spec(sizing::challenge_dims(H100.vram_mib, h100_gflops(precision), MAINNET_TARGET_MS), precision)
}

/// A dev-preset challenge for the cpu-reference profile in `precision`.
pub fn dev_cpu_reference(precision: Precision) -> ChallengeSpec {
	spec(sizing::challenge_dims(CPU.vram_mib, CPU.gflops[precision.index()], DEV_TARGET_MS), precision)
}

fn spec(dims: Dims, precision: Precision) -> ChallengeSpec {
	ChallengeSpec { seed: [0x5a; 32], precision, dims, chunk_k: sizing::DEFAULT_CHUNK_K }
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn benchmarked_shapes_are_valid_protocol_challenges() {
		for p in Precision::ALL {
			let h = h100_two_minutes(p);
			assert!(h.dims.is_valid());
			let ms = sizing::expected_ms(&h.dims, h100_gflops(p));
			assert!((MAINNET_TARGET_MS as u64..MAINNET_TARGET_MS as u64 + 1_000).contains(&ms), "{p:?}: {ms} ms");
			assert!(dev_cpu_reference(p).dims.is_valid());
		}
	}
}
