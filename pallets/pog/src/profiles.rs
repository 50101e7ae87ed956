//! The genesis GPU profile table. Figures and sources are in `docs/profiles.md`.
//!
//! Expected throughput is what a healthy card sustains in a long cuBLAS GEMM, not the
//! datasheet peak: 65% of the dense tensor peak and 75% of the FP32 peak (the lent H200
//! sustained 664 of 989 bf16 TFLOPS after 5 s, 67%; fp32 51 of 67, 76%). Memory is the total
//! NVML reports.

use alloc::{string::String, vec, vec::Vec};

use crate::types::GpuProfile;

/// A profile as written in a genesis config (name as text).
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenesisProfile {
	/// Model name.
	pub name: String,
	/// Memory in MiB.
	pub vram_mib: u32,
	/// Expected GFLOPS: fp32, tf32, fp16, bf16, fp8-e4m3 (0 = unsupported).
	pub gflops: [u32; 5],
	/// Score points of a verified GPU (1000 = 1 point).
	pub base_score: u32,
	/// Throughput tolerance in percent.
	pub tolerance_percent: u8,
}

impl GenesisProfile {
	/// The on-chain form; `None` if the name is too long.
	pub fn to_profile(&self) -> Option<GpuProfile> {
		Some(GpuProfile {
			name: self.name.as_bytes().to_vec().try_into().ok()?,
			vram_mib: self.vram_mib,
			gflops: self.gflops,
			base_score: self.base_score,
			tolerance_percent: self.tolerance_percent,
		})
	}
}

fn p(name: &str, vram_mib: u32, gflops: [u32; 5], base_score: u32, tolerance_percent: u8) -> GenesisProfile {
	GenesisProfile { name: name.into(), vram_mib, gflops, base_score, tolerance_percent }
}

/// Name of the profile a dev chain uses for miners without a GPU.
pub const CPU_REFERENCE: &str = "cpu-reference";

/// The default table: datacenter and consumer GPUs, plus the CPU reference for dev chains.
pub fn default_profiles() -> Vec<GenesisProfile> {
	vec![
		//                                  fp32    tf32     fp16     bf16     fp8
		p("NVIDIA H200", 143_771, [50_000, 320_000, 640_000, 640_000, 1_280_000], 4_000, 15),
		p("NVIDIA H100 80GB HBM3", 81_559, [50_000, 320_000, 640_000, 640_000, 1_280_000], 3_300, 15),
		p("NVIDIA A100-SXM4-80GB", 81_920, [14_600, 101_000, 203_000, 203_000, 0], 1_900, 15),
		p("NVIDIA A100-SXM4-40GB", 40_960, [14_600, 101_000, 203_000, 203_000, 0], 1_300, 15),
		p("NVIDIA L40S", 46_068, [59_500, 119_000, 235_000, 235_000, 476_000], 900, 15),
		p("NVIDIA GeForce RTX 4090", 24_564, [53_700, 53_700, 107_000, 107_000, 214_000], 680, 15),
		p("NVIDIA GeForce RTX 3090", 24_576, [23_100, 23_100, 46_000, 46_000, 0], 430, 15),
		p("Tesla V100-SXM2-32GB", 32_768, [11_800, 0, 81_000, 0, 0], 500, 15),
		p("Tesla T4", 15_360, [5_300, 0, 42_000, 0, 0], 150, 20),
		p(CPU_REFERENCE, 4, [2, 2, 2, 2, 2], 10, 50),
	]
}
