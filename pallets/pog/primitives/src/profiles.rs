//! The default GPU profile table: what the genesis presets register, what benchmarks and tests
//! size their challenges from. Figures and their sources are in `docs/profiles.md`.
//!
//! Expected throughput is what a healthy card sustains in a long cuBLAS GEMM, not the datasheet
//! peak: 65% of the dense tensor peak and 75% of the FP32 peak (an H200 through cuBLAS,
//! `docs/gpu-baseline.md`, sustained 664 of 989 bf16 TFLOPS after 5 s, 67%; fp32 51 of 67, 76%).
//! Memory is the total NVML reports.

/// One profile's figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfileFigures {
	/// Model name, as NVML reports it.
	pub name: &'static str,
	/// Memory in MiB.
	pub vram_mib: u32,
	/// Expected GFLOPS per precision, in [`crate::Precision::ALL`]'s order (0 = not challenged).
	pub gflops: [u32; 5],
	/// Expected int8 GOPS (tensor cores, or DP4A on CUDA cores): prices the int8 aliases
	/// ([`crate::pricing`]).
	pub int8_gops: u32,
	/// Throughput tolerance in percent.
	pub tolerance_percent: u8,
	/// Whether the figures are per CPU core: a miner's CPU is challenged as one unit of this
	/// profile with memory and rates times its declared cores ([`unit_figures`]).
	pub per_core: bool,
	/// The memory-hard phase's measured rates ([`crate::memory`]; 0: not measured, so no memory
	/// phase and no memory points): million dataset reads a second of the walks with their
	/// commitment, over a dataset of 0.9 × `vram_mib` (the slowest of the measured runs).
	pub mem_read_mps: u32,
	/// Million cache-parent reads a second of the fill (dataset items a second × parents).
	pub mem_parent_mps: u32,
}

impl ProfileFigures {
	/// The same figures with the memory-hard phase's measured rates.
	const fn with_memory(self, mem_read_mps: u32, mem_parent_mps: u32) -> Self {
		Self { mem_read_mps, mem_parent_mps, ..self }
	}
}

/// Name of the profile a dev chain uses for miners without a GPU.
pub const CPU_REFERENCE: &str = "cpu-reference";

const fn p(
	name: &'static str,
	vram_mib: u32,
	gflops: [u32; 5],
	int8_gops: u32,
	tolerance_percent: u8,
) -> ProfileFigures {
	ProfileFigures {
		name,
		vram_mib,
		gflops,
		int8_gops,
		tolerance_percent,
		per_core: false,
		mem_read_mps: 0,
		mem_parent_mps: 0,
	}
}

/// Name of the per-core CPU profile: how a miner's declared CPU cores are challenged and earned.
pub const CPU_CORE: &str = "cpu-core";

/// Expected GFLOPS of one CPU core in every precision, on the agent's CPU prover
/// (`pog_prover::cpu`: exact products, f32 accumulation, one row band per thread). Measured
/// 2.4 GFLOPS per core on the 2-core CI machine (`tests/shared-cpu.test.mjs`), so an honest CPU
/// has 2.4× the per-core rate before the tolerance; a card or an optimised BLAS has far more,
/// and earns no more than the claimed cores' rate.
pub const CPU_CORE_GFLOPS: u32 = 1;

/// The memory, rates and int8 rate a unit of a profile is challenged and scored at, for a miner
/// declaring `cores` CPU cores: a per-core profile's figures times `cores` (saturating), any other
/// profile's as they are. The pallet and the agent both size units through this.
pub const fn unit_figures(
	vram_mib: u32,
	gflops: &[u32; 5],
	int8_gops: u32,
	per_core: bool,
	cores: u32,
) -> (u32, [u32; 5], u32) {
	if !per_core {
		return (vram_mib, *gflops, int8_gops);
	}
	let mut scaled = [0u32; 5];
	let mut i = 0;
	while i < 5 {
		scaled[i] = gflops[i].saturating_mul(cores);
		i += 1;
	}
	(vram_mib.saturating_mul(cores), scaled, int8_gops.saturating_mul(cores))
}

/// A unit's memory-hard rates (million reads a second of the walks, and of the fill's parents)
/// for a miner declaring `cores` CPU cores: a per-core profile's rates times `cores`
/// (saturating; its dataset grows with its memory, so the phase's time does not depend on the
/// cores), any other profile's as they are.
pub const fn unit_memory_rates(read_mps: u32, parent_mps: u32, per_core: bool, cores: u32) -> (u32, u32) {
	if per_core {
		(read_mps.saturating_mul(cores), parent_mps.saturating_mul(cores))
	} else {
		(read_mps, parent_mps)
	}
}

impl ProfileFigures {
	/// Whether the memory-hard phase's rates were measured: the profile's rounds run the phase.
	pub const fn memory_measured(&self) -> bool {
		crate::memory::measured(self.mem_read_mps, self.mem_parent_mps)
	}

	/// Score points of a GPU of this profile whose round passed: compute and, where measured,
	/// memory ([`crate::pricing::proven_points`]).
	pub const fn proven_points(&self) -> u32 {
		crate::pricing::proven_points(
			&self.gflops,
			self.int8_gops,
			self.vram_mib,
			self.memory_measured(),
			self.per_core,
		)
	}

	/// Compute points of a verified GPU of this profile ([`crate::pricing::compute_points`]).
	pub const fn compute_points(&self) -> u32 {
		crate::pricing::compute_points(&self.gflops, self.int8_gops)
	}

	/// The rate a challenge in `precision` is priced at ([`crate::pricing::priced_gflops`]).
	pub const fn priced_gflops(&self, precision: crate::Precision) -> u32 {
		crate::pricing::priced_gflops(&self.gflops, self.int8_gops, precision)
	}
}

/// A CPU core's memory-hard rates: a fifth of what one core of this repository's 2-core build
/// machine does (42 M reads/s over a 4 MiB dataset, 41 M parent reads/s at 64 parents: `cargo
/// bench -p pog-benchmarking --bench memory`), since CI shares its cores with a node.
pub const CPU_MEM_READ_MPS: u32 = 8;
/// See [`CPU_MEM_READ_MPS`].
pub const CPU_MEM_PARENT_MPS: u32 = 8;

/// The default table: datacenter and consumer GPUs, the CPU reference for dev chains, and the
/// per-core CPU profile.
/// Genesis gives them ids 0, 1, … in this order. fp32 is listed only where no int8 alias outruns
/// it (the V100), and the RTX 4090 lists no native fp8, whose rate with fp32 accumulation is half
/// its int8 rate: its fp8 challenges, like those of the A100, RTX 3090 and T4 (no fp8 at all), run
/// on the int8 path at the int8 rate ([`crate::pricing`]).
pub const DEFAULT_PROFILES: [ProfileFigures; 11] = [
	//                                  fp32    tf32     fp16     bf16     fp8        int8
	p("NVIDIA H200", 143_771, [0, 320_000, 640_000, 640_000, 1_280_000], 1_280_000, 15).with_memory(5_600, 88_800),
	p("NVIDIA H100 80GB HBM3", 81_559, [0, 320_000, 640_000, 640_000, 1_280_000], 1_280_000, 15)
		.with_memory(19_600, 88_400),
	p("NVIDIA A100-SXM4-80GB", 81_920, [0, 101_000, 203_000, 203_000, 0], 406_000, 15),
	p("NVIDIA A100-SXM4-40GB", 40_960, [0, 101_000, 203_000, 203_000, 0], 406_000, 15),
	p("NVIDIA L40S", 46_068, [0, 119_000, 235_000, 235_000, 476_000], 476_000, 15),
	p("NVIDIA GeForce RTX 4090", 24_564, [0, 53_700, 107_000, 107_000, 0], 428_000, 15),
	p("NVIDIA GeForce RTX 3090", 24_576, [0, 23_100, 46_000, 46_000, 0], 184_000, 15),
	p("Tesla V100-SXM2-32GB", 32_768, [11_800, 0, 81_000, 0, 0], 0, 15),
	p("Tesla T4", 15_360, [0, 0, 42_000, 0, 0], 84_000, 20),
	p(CPU_REFERENCE, 4, [2, 2, 2, 2, 2], 0, 50).with_memory(CPU_MEM_READ_MPS, CPU_MEM_PARENT_MPS),
	ProfileFigures {
		name: CPU_CORE,
		vram_mib: 4,
		gflops: [CPU_CORE_GFLOPS; 5],
		int8_gops: 0,
		tolerance_percent: 50,
		per_core: true,
		mem_read_mps: CPU_MEM_READ_MPS,
		mem_parent_mps: CPU_MEM_PARENT_MPS,
	},
];

/// The default profile named `name`.
pub fn default_profile(name: &str) -> Option<&'static ProfileFigures> {
	DEFAULT_PROFILES.iter().find(|p| p.name == name)
}

/// The default H100 80GB's figures (the reference card of benchmarks and docs).
pub const H100: ProfileFigures = DEFAULT_PROFILES[1];
/// The default H200's figures (the largest card of the table).
pub const H200: ProfileFigures = DEFAULT_PROFILES[0];
/// The CPU reference's figures.
pub const CPU: ProfileFigures = DEFAULT_PROFILES[9];
/// The per-core CPU profile's figures.
pub const CPU_PER_CORE: ProfileFigures = DEFAULT_PROFILES[10];

#[cfg(test)]
mod tests {
	use super::*;
	use alloc::{format, string::String, vec::Vec};

	/// `n` with thousands separators, as the docs write it.
	fn grouped(n: u32) -> String {
		let digits = format!("{n}");
		let mut out = String::new();
		for (i, c) in digits.chars().enumerate() {
			if i > 0 && (digits.len() - i).is_multiple_of(3) {
				out.push(',');
			}
			out.push(c);
		}
		out
	}

	#[test]
	fn the_docs_table_carries_the_same_figures() {
		let doc = include_str!("../../../../docs/profiles.md");
		for p in DEFAULT_PROFILES.iter().filter(|p| p.name != CPU_REFERENCE) {
			let row = doc
				.lines()
				.find(|l| l.starts_with(&format!("| {} |", p.name)))
				.unwrap_or_else(|| panic!("docs/profiles.md has no row for {}", p.name));
			let cells: Vec<&str> = row.split('|').map(str::trim).collect();
			assert_eq!(cells[2], grouped(p.vram_mib), "{}: memory", p.name);
			let expected: Vec<String> = p.gflops.iter().map(|g| grouped(*g)).collect();
			assert_eq!(cells[4], expected.join(" / "), "{}: expected GFLOPS", p.name);
			assert_eq!(cells[5], grouped(p.int8_gops), "{}: expected int8 GOPS", p.name);
			assert_eq!(cells[6], grouped(p.compute_points()), "{}: points", p.name);
		}
	}

	#[test]
	fn names_are_unique_and_the_named_constants_are_theirs() {
		for (i, a) in DEFAULT_PROFILES.iter().enumerate() {
			assert!(DEFAULT_PROFILES[i + 1..].iter().all(|b| b.name != a.name), "{} twice", a.name);
		}
		assert_eq!(default_profile("NVIDIA H100 80GB HBM3"), Some(&H100));
		assert_eq!(default_profile("NVIDIA H200"), Some(&H200));
		assert_eq!(default_profile(CPU_REFERENCE), Some(&CPU));
	}
}
