//! Shapes of the challenges the verifier benchmarks measure (see `benches/verifier.rs` and
//! this crate's README).

use pog_primitives::{sizing, verify::ChallengeSpec, Dims, Precision};

/// Expected GFLOPS of the genesis H100 profile per precision (fp32, tf32, fp16, bf16, fp8).
pub const H100_GFLOPS: [u32; 5] = [50_000, 320_000, 640_000, 640_000, 1_280_000];
/// NVML memory of an H100 80GB in MiB.
pub const H100_VRAM_MIB: u32 = 81_559;
/// The cpu-reference profile: 4 MiB, 2 GFLOPS in every precision.
pub const CPU_REFERENCE: (u32, u32) = (4, 2);
/// Dev preset target time (ms) and mainnet target (two minutes).
pub const DEV_TARGET_MS: u32 = 5_000;
/// Mainnet target time (ms).
pub const MAINNET_TARGET_MS: u32 = 120_000;
/// The protocol's chunk along k.
pub const CHUNK_K: u32 = 8_192;

/// A two-minute challenge for an H100 in `precision`.
pub fn h100_two_minutes(precision: Precision) -> ChallengeSpec {
	spec(sizing::challenge_dims(H100_VRAM_MIB, H100_GFLOPS[precision.index()], MAINNET_TARGET_MS), precision)
}

/// A dev-preset challenge for the cpu-reference profile in `precision`.
pub fn dev_cpu_reference(precision: Precision) -> ChallengeSpec {
	spec(sizing::challenge_dims(CPU_REFERENCE.0, CPU_REFERENCE.1, DEV_TARGET_MS), precision)
}

fn spec(dims: Dims, precision: Precision) -> ChallengeSpec {
	ChallengeSpec { seed: [0x5a; 32], precision, dims, chunk_k: CHUNK_K }
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn benchmarked_shapes_are_valid_protocol_challenges() {
		for p in Precision::ALL {
			let h = h100_two_minutes(p);
			assert!(h.dims.is_valid());
			let ms = sizing::expected_ms(&h.dims, H100_GFLOPS[p.index()]);
			assert!((MAINNET_TARGET_MS as u64..MAINNET_TARGET_MS as u64 + 1_000).contains(&ms), "{p:?}: {ms} ms");
			assert!(dev_cpu_reference(p).dims.is_valid());
		}
	}
}
