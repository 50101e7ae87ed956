//! The default GPU profile table: what the genesis presets register, what benchmarks and tests
//! size their challenges from. Figures and their sources are in `docs/profiles.md`.
//!
//! Expected throughput is what a healthy card sustains in a long cuBLAS GEMM, not the datasheet
//! peak: 65% of the dense tensor peak and 75% of the FP32 peak (an H200 through cuBLAS,
//! `docs/gpu-baseline.md`, sustained 664 of 989 bf16 TFLOPS after 5 s, 67%; fp32 51 of 67, 76%).
//! Memory is the total NVML reports.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

use crate::{memory::MemoryRules, Dims, Hash32, Precision};

/// What a GPU model must be able to do: the figures a profile's challenges are sized, timed and
/// scored at. The chain stores them in its profiles ([`Profile`]), the default table below lists
/// them, and the agent reads them back as they are.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ProfileFigures {
	/// Memory in MiB, as NVML reports the total; sets the challenge's m and n.
	pub vram_mib: u32,
	/// Expected sustained dense GEMM throughput in GFLOPS per precision, in
	/// [`Precision::ALL`]'s order (fp32, tf32, fp16, bf16, fp8-e4m3), on the precision's native
	/// path; 0 where the GPU is not challenged in it. With `int8_gops` it sets k and the deadline
	/// ([`Self::priced_gflops`]).
	pub gflops: [u32; 5],
	/// Expected sustained int8 GOPS (tensor cores, or DP4A on CUDA cores): the rate of the exact
	/// int8 aliases of each precision ([`crate::pricing`]), which price its challenges.
	#[cfg_attr(feature = "serde", serde(default))]
	pub int8_gops: u32,
	/// How much slower than `gflops` (in percent) a GPU may run and still meet the deadline.
	pub tolerance_percent: u8,
	/// Whether the figures are per CPU core: a miner claims its CPU as one unit of this profile,
	/// challenged at the figures times its declared cores ([`Self::for_cores`]).
	#[cfg_attr(feature = "serde", serde(default))]
	pub per_core: bool,
	/// Measured rate of the memory phase's walks with their commitment, in million dataset reads
	/// a second over a dataset of 0.9 × `vram_mib` (`offchain-gpu bench --memory`; the slowest of
	/// the measured runs). With `mem_parent_mps` it sizes and times the memory phase; both 0: not
	/// measured, so the profile's rounds have no memory phase and it earns no memory points. A
	/// per-core profile's phase is lanes ([`crate::lanes`]): million lane steps a second a core.
	#[cfg_attr(feature = "serde", serde(default))]
	pub mem_read_mps: u32,
	/// Measured rate of the memory phase's fill, in million cache-parent reads a second (dataset
	/// items a second × parents); a per-core profile's, million lane-pad items a second a core.
	#[cfg_attr(feature = "serde", serde(default))]
	pub mem_parent_mps: u32,
}

/// A named profile: the chain's (`Profile<BoundedVec<u8, _>>`, stored by id), a genesis config's
/// (`Profile<String>`, its figures written beside the name) and the default table's
/// (`Profile<&'static str>`). SCALE encodes it as the name followed by the figures' fields.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Profile<Name> {
	/// Model name, as NVML reports it (e.g. `NVIDIA H100 80GB HBM3`).
	pub name: Name,
	/// What the model must be able to do.
	#[cfg_attr(feature = "serde", serde(flatten))]
	pub figures: ProfileFigures,
}

impl ProfileFigures {
	/// The same figures with the memory-hard phase's measured rates.
	const fn with_memory(self, mem_read_mps: u32, mem_parent_mps: u32) -> Self {
		Self { mem_read_mps, mem_parent_mps, ..self }
	}

	/// The figures a unit of this profile is challenged and scored at, for a miner declaring
	/// `cores` CPU cores: a per-core profile's memory and rates times `cores` (saturating), any
	/// other profile's as they are. The pallet and the agent both size units through this.
	pub const fn for_cores(&self, cores: u32) -> Self {
		if !self.per_core {
			return *self;
		}
		let mut gflops = [0u32; 5];
		let mut i = 0;
		while i < 5 {
			gflops[i] = self.gflops[i].saturating_mul(cores);
			i += 1;
		}
		// the dataset grows with the memory, so the memory phase's time does not depend on the
		// cores
		Self {
			vram_mib: self.vram_mib.saturating_mul(cores),
			gflops,
			int8_gops: self.int8_gops.saturating_mul(cores),
			mem_read_mps: self.mem_read_mps.saturating_mul(cores),
			mem_parent_mps: self.mem_parent_mps.saturating_mul(cores),
			..*self
		}
	}

	/// Whether the memory-hard phase's rates were measured: the profile's rounds run the phase.
	pub const fn memory_measured(&self) -> bool {
		crate::memory::measured(self.mem_read_mps, self.mem_parent_mps)
	}

	/// The memory phase of a GPU of this profile whose challenge seed is `seed`, under `rules`
	/// (`None`: no measured memory rates, so no memory phase).
	/// A per-core unit's phase is its lanes, one a core ([`crate::lanes`]).
	pub fn memory_challenge(&self, seed: &Hash32, rules: &MemoryRules) -> Option<crate::memory::MemoryChallenge> {
		if self.per_core {
			let lanes = crate::lanes::lanes_of(self.vram_mib);
			return crate::lanes::challenge(seed, lanes, self.mem_read_mps, self.mem_parent_mps, rules);
		}
		crate::memory::challenge(seed, self.vram_mib, self.mem_read_mps, self.mem_parent_mps, rules)
	}

	/// The rate a challenge in `precision` is sized and timed at: the faster of the native rate
	/// and the int8 alias ([`crate::pricing::priced_gflops`]); 0 if not challenged in it.
	pub const fn priced_gflops(&self, precision: Precision) -> u32 {
		crate::pricing::priced_gflops(&self.gflops, self.int8_gops, precision)
	}

	/// A challenge's GEMM in `precision`: its shape and its expected time (ms) at the priced
	/// rate, sized to `target_ms` of GEMM, and for a profile without a memory phase
	/// (`memory_phase` false) to the walks' `walk_ms` as well ([`crate::sizing::gemm_target_ms`]).
	/// The pallet sizes challenges and the agent prepares its shapes through this.
	pub fn gemm(&self, precision: Precision, target_ms: u32, walk_ms: u32, memory_phase: bool) -> (Dims, u64) {
		let gflops = self.priced_gflops(precision);
		let target_ms = crate::sizing::gemm_target_ms(target_ms, walk_ms, memory_phase);
		let dims = crate::sizing::challenge_dims(self.vram_mib, gflops, target_ms);
		(dims, crate::sizing::expected_ms(&dims, gflops))
	}

	/// Whether a challenge may be drawn in `precision`: the profile lists a rate for it and it is
	/// a challenged precision (never tf32).
	pub const fn challenged_in(&self, precision: Precision) -> bool {
		self.priced_gflops(precision) > 0
	}

	/// The points a verified GEMM of this profile proves ([`crate::pricing::compute_points`]).
	pub const fn compute_points(&self) -> u32 {
		crate::pricing::compute_points(&self.gflops, self.int8_gops)
	}

	/// The points a passed memory phase of this profile proves: 0 without a memory phase, and
	/// for a per-core unit, whose host memory is not the GPU memory they price
	/// ([`crate::pricing::memory_points`]).
	pub const fn memory_points(&self) -> u32 {
		crate::pricing::memory_points(self.vram_mib, self.memory_measured() && !self.per_core)
	}

	/// Score points of a GPU of this profile whose round passed: its compute points plus its
	/// memory points.
	pub const fn points(&self) -> u32 {
		self.compute_points().saturating_add(self.memory_points())
	}
}

/// Name of the profile a dev chain uses for miners without a GPU.
pub const CPU_REFERENCE: &str = "cpu-reference";

/// A row of the default table.
pub type DefaultProfile = Profile<&'static str>;

/// A GPU row without a memory phase (its rates measured on no card here).
const fn p(
	name: &'static str,
	vram_mib: u32,
	gflops: [u32; 5],
	int8_gops: u32,
	tolerance_percent: u8,
) -> DefaultProfile {
	Profile {
		name,
		figures: ProfileFigures {
			vram_mib,
			gflops,
			int8_gops,
			tolerance_percent,
			per_core: false,
			mem_read_mps: 0,
			mem_parent_mps: 0,
		},
	}
}

impl DefaultProfile {
	/// The same row with the memory-hard phase's measured rates.
	const fn with_memory(self, mem_read_mps: u32, mem_parent_mps: u32) -> Self {
		Profile { name: self.name, figures: self.figures.with_memory(mem_read_mps, mem_parent_mps) }
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

/// A CPU core's memory-hard rates (the `cpu-reference` profile's walks): a fifth of what one core
/// of this repository's 2-core build machine does (42 M reads/s over a 4 MiB dataset, 41 M parent
/// reads/s at 64 parents: `cargo bench -p pog-benchmarking --bench memory`), since CI shares its
/// cores with a node.
pub const CPU_MEM_READ_MPS: u32 = 8;
/// See [`CPU_MEM_READ_MPS`].
pub const CPU_MEM_PARENT_MPS: u32 = 8;

/// A CPU core's lane rates (the per-core profile's memory phase, [`crate::lanes`]): million
/// dependent steps a second, a third of what one core of the build machine does (16.8 ns a step
/// over a 1 MiB pad, 60 M/s: `cargo bench -p pog-benchmarking --bench memory -- lane`), since CI
/// runs its lanes beside a node.
pub const CPU_LANE_STEP_MPS: u32 = 20;
/// Million pad items a CPU core makes a second for its lanes: the build machine makes 0.47 M
/// (34.6 ms a 1 MiB pad); 1 M is the smallest figure, and the pad is under 2% of a lane's time.
pub const CPU_LANE_ITEM_MPS: u32 = 1;

/// The default table: datacenter and consumer GPUs, the CPU reference for dev chains, and the
/// per-core CPU profile.
/// Genesis gives them ids 0, 1, … in this order. fp32 is listed only where no int8 alias outruns
/// it (the V100), and the RTX 4090 lists no native fp8, whose rate with fp32 accumulation is half
/// its int8 rate: its fp8 challenges, like those of the A100, RTX 3090 and T4 (no fp8 at all), run
/// on the int8 path at the int8 rate ([`crate::pricing`]).
pub const DEFAULT_PROFILES: [DefaultProfile; 11] = [
	//                                  fp32    tf32     fp16     bf16     fp8        int8
	p("NVIDIA H200", 143_771, [0, 320_000, 640_000, 640_000, 1_280_000], 1_280_000, 15).with_memory(5_700, 89_100),
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
	Profile {
		name: CPU_CORE,
		figures: ProfileFigures {
			vram_mib: crate::lanes::LANE_MIB,
			gflops: [CPU_CORE_GFLOPS; 5],
			int8_gops: 0,
			tolerance_percent: 50,
			per_core: true,
			mem_read_mps: CPU_LANE_STEP_MPS,
			mem_parent_mps: CPU_LANE_ITEM_MPS,
		},
	},
];

/// The default profile named `name`.
pub fn default_profile(name: &str) -> Option<&'static DefaultProfile> {
	DEFAULT_PROFILES.iter().find(|p| p.name == name)
}

/// The default H100 80GB's figures (the reference card of benchmarks and docs).
pub const H100: ProfileFigures = DEFAULT_PROFILES[1].figures;
/// The default H200's figures (the largest card of the table).
pub const H200: ProfileFigures = DEFAULT_PROFILES[0].figures;
/// The CPU reference's figures.
pub const CPU: ProfileFigures = DEFAULT_PROFILES[9].figures;
/// The per-core CPU profile's figures.
pub const CPU_PER_CORE: ProfileFigures = DEFAULT_PROFILES[10].figures;

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
			let f = &p.figures;
			assert_eq!(cells[2], grouped(f.vram_mib), "{}: memory", p.name);
			let expected: Vec<String> = f.gflops.iter().map(|g| grouped(*g)).collect();
			assert_eq!(cells[4], expected.join(" / "), "{}: expected GFLOPS", p.name);
			assert_eq!(cells[5], grouped(f.int8_gops), "{}: expected int8 GOPS", p.name);
			assert_eq!(cells[6], grouped(f.compute_points()), "{}: points", p.name);
		}
	}

	#[test]
	fn a_unit_of_a_per_core_profile_scales_with_its_cores_and_scores_no_memory() {
		let unit = CPU_PER_CORE.for_cores(16);
		assert_eq!((unit.vram_mib, unit.gflops, unit.int8_gops), (16 * crate::lanes::LANE_MIB, [16; 5], 0));
		assert_eq!((unit.mem_read_mps, unit.mem_parent_mps), (16 * CPU_LANE_STEP_MPS, 16 * CPU_LANE_ITEM_MPS));
		// its memory phase is a lane a core, each as long as one core's alone
		let rules = MemoryRules::mainnet();
		let phase = unit.memory_challenge(&[1; 32], &rules).expect("a lane phase");
		let one = CPU_PER_CORE.for_cores(1).memory_challenge(&[1; 32], &rules).expect("one lane");
		assert_eq!((phase.spec.lanes, one.spec.lanes, phase.spec.reads), (16, 1, one.spec.reads));
		assert_eq!(phase.expected_ms, one.expected_ms);
		assert_eq!(unit.tolerance_percent, CPU_PER_CORE.tolerance_percent);
		assert!(unit.memory_measured(), "its memory phase runs");
		assert_eq!((unit.memory_points(), unit.points()), (0, 16), "1 point per core and GFLOPS, no memory points");
		// a GPU profile is its own unit, whatever the miner declares
		assert_eq!(H100.for_cores(16), H100);
		assert_eq!(H100.points(), H100.compute_points() + 3 * H100.vram_mib);
		// saturating, not wrapping
		assert_eq!(CPU_PER_CORE.for_cores(u32::MAX).vram_mib, u32::MAX);
	}

	#[test]
	fn a_gemm_without_a_memory_phase_is_sized_to_the_walks_time_too() {
		use crate::sizing::{challenge_dims, expected_ms};
		let (dims, ms) = H100.gemm(Precision::Fp16, 120_000, 50_000, true);
		assert_eq!(dims, challenge_dims(H100.vram_mib, 640_000, 120_000));
		assert_eq!(ms, expected_ms(&dims, 640_000));
		let a100 = DEFAULT_PROFILES[2].figures;
		let (dims, ms) = a100.gemm(Precision::Fp8E4M3, 120_000, 50_000, a100.memory_measured());
		assert_eq!(dims, challenge_dims(a100.vram_mib, a100.int8_gops, 170_000), "priced at the int8 alias, 170 s");
		assert!((169_000..=171_000).contains(&ms), "{ms}");
	}

	#[test]
	fn names_are_unique_and_the_named_constants_are_theirs() {
		for (i, a) in DEFAULT_PROFILES.iter().enumerate() {
			assert!(DEFAULT_PROFILES[i + 1..].iter().all(|b| b.name != a.name), "{} twice", a.name);
		}
		assert_eq!(default_profile("NVIDIA H100 80GB HBM3").map(|p| p.figures), Some(H100));
		assert_eq!(default_profile("NVIDIA H200").map(|p| p.figures), Some(H200));
		assert_eq!(default_profile(CPU_REFERENCE).map(|p| p.figures), Some(CPU));
		assert_eq!(default_profile(CPU_CORE).map(|p| p.figures), Some(CPU_PER_CORE));
	}
}
