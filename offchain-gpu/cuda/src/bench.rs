//! The GPU benchmark (`offchain-gpu bench`): what this GPU does per precision.
//!
//! Per precision: burst TFLOPS (GEMMs of the first second), sustained TFLOPS (the last half of
//! a `--seconds` run of back-to-back chunk GEMMs) with its throughput-over-time trace (throttling
//! shows as a falling line), and the proof overhead of a challenge of the profile's output size
//! (generation + hashing + tree over the pure GEMM time of the same challenge). Once per device:
//! memory bandwidth of a device-to-device copy. `--memory` measures the memory-hard phase
//! instead, and `--lanes` a per-core CPU unit's lanes run on this GPU.

use std::fmt::Write as _;

use anyhow::Context;
use pog_primitives::{sizing, verify::ChallengeSpec, Dims, Precision};
use serde::Serialize;

use pog_prover::trace::{resample, GemmSample};

use crate::{kernels::WalkShape, GpuInfo, GpuProver, Residency};

/// What `bench` measures.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchConfig {
	/// CUDA device ordinal.
	pub device: usize,
	/// Precisions (empty: all).
	pub precisions: Vec<Precision>,
	/// Seconds of the sustained run per precision.
	pub seconds: f64,
	/// m = n of the benchmark GEMM (k = `chunk_k` per GEMM).
	pub dim: u32,
	/// Chunk length along k.
	pub chunk_k: u32,
	/// GEMM time in ms of the proof-overhead challenge (output size from the GPU's memory; 0
	/// skips it).
	pub overhead_ms: u32,
	/// Run fp8 on the int8 path even where the GPU has fp8.
	pub fp8_int8_path: bool,
	/// Measure the memory-hard phase instead of the GEMMs.
	pub memory: Option<MemoryBenchConfig>,
	/// Measure a per-core CPU unit's lanes on this GPU instead of the GEMMs.
	pub lanes: Option<LanesBenchConfig>,
}

/// What `bench --lanes` runs: a per-core CPU unit (`cpu-core` of the default table) of `cores`
/// cores under mainnet's memory rules, its lanes a thread each on this GPU
/// (`pog_primitives::lanes`).
#[derive(Clone, Debug, PartialEq)]
pub struct LanesBenchConfig {
	/// Declared cores: the unit's lanes.
	pub cores: u32,
	/// Links run of each lane (the rest of the phase is projected from their time).
	pub links: u64,
	/// The chain's `slack_ms` the deadline is set with (mainnet's: 30,000).
	pub slack_ms: u32,
}

/// What `bench --memory` runs.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryBenchConfig {
	/// Dataset size in GiB (0: 0.9 × the GPU's memory, bounded by what is free).
	pub gib: f64,
	/// Parent counts to run, one phase each.
	pub parents: Vec<u32>,
	/// Share of the dataset kept in memory (a cheater's: the rest is made again from the cache
	/// when read); `None` keeps all of it.
	pub resident: Option<f64>,
	/// log₂ of the walks per phase.
	pub walks_log2: u32,
	/// Phases per parent count (the spread of the rates).
	pub runs: u32,
	/// The walks' shape over a whole dataset; `None`: the agent's for the dataset's size
	/// ([`WalkShape::for_dataset`]).
	pub shape: Option<WalkShape>,
}

impl Default for MemoryBenchConfig {
	fn default() -> Self {
		Self { gib: 0.0, parents: vec![256, 512], resident: None, walks_log2: 26, runs: 1, shape: None }
	}
}

impl Default for BenchConfig {
	fn default() -> Self {
		Self {
			device: 0,
			precisions: Vec::new(),
			seconds: 10.0,
			dim: 16_384,
			chunk_k: sizing::DEFAULT_CHUNK_K,
			overhead_ms: 5000,
			fp8_int8_path: false,
			memory: None,
			lanes: None,
		}
	}
}

/// Results of one precision.
#[derive(Clone, Debug, Serialize)]
pub struct PrecisionBench {
	/// Precision name.
	pub precision: String,
	/// TFLOPS of the GEMMs that started in the first second.
	pub burst_tflops: f64,
	/// TFLOPS over the second half of the run.
	pub sustained_tflops: f64,
	/// Trace interval in ms.
	pub interval_ms: u32,
	/// GFLOPS per interval.
	pub trace_gflops: Vec<u32>,
	/// Proof overhead: (proof wall time − pure GEMM wall time) / pure GEMM wall time.
	pub proof_overhead: Option<f64>,
	/// Generation + hashing + tree over GEMM time, from the proof's own timing.
	pub gen_hash_tree_over_gemm: Option<f64>,
	/// Dims of the overhead challenge.
	pub overhead_dims: Option<Dims>,
}

/// The memory-hard phase at one parent count (`pog_primitives::memory`).
#[derive(Clone, Debug, Serialize)]
pub struct MemoryBench {
	/// Dataset size in GiB.
	pub dataset_gib: f64,
	/// Cache size in MiB.
	pub cache_mib: f64,
	/// Cache items folded into each dataset item.
	pub parents: u32,
	/// Reads per walk.
	pub reads: u32,
	/// Share of the dataset kept in memory (1: all of it).
	pub resident: f64,
	/// The walks' shape over the whole dataset (`None` with part of it kept).
	pub walk_shape: Option<WalkShape>,
	/// Walks run.
	pub walks: u64,
	/// Fill time of the whole dataset (s).
	pub fill_s: f64,
	/// Dataset items made per second (G), i.e. the regeneration rate.
	pub fill_g_items_per_s: f64,
	/// Walk time (s).
	pub walk_s: f64,
	/// Data-dependent 64-byte reads per second (G).
	pub walk_g_reads_per_s: f64,
	/// The same in GB/s.
	pub walk_read_gbps: f64,
	/// Reads per second over items made per second.
	pub read_over_regenerate: f64,
}

/// A per-core CPU unit's lanes run on the GPU (`bench --lanes`): the GPU's time a step, the
/// whole phase's time projected from it, and the deadline it is held to.
#[derive(Clone, Debug, Serialize)]
pub struct LanesBench {
	/// Declared cores (lanes).
	pub cores: u32,
	/// Links of each lane in the phase.
	pub links_per_lane: u64,
	/// Steps of each link.
	pub steps_per_link: u32,
	/// Links run of each lane.
	pub links_run: u64,
	/// Time of every lane's pad (s).
	pub pad_s: f64,
	/// Time of the links run, every lane side by side (s).
	pub links_s: f64,
	/// The GPU's time of one dependent step of a lane (ns).
	pub ns_per_step: f64,
	/// The CPU profile's expected time of a step (ns).
	pub expected_ns_per_step: f64,
	/// The whole phase on this GPU: the pads and every link at the measured step time (s).
	pub phase_s: f64,
	/// The phase's expected time at the profile's rates (s).
	pub expected_s: f64,
	/// The time the chain allows (mainnet's tolerance and the given slack) (s).
	pub allowed_s: f64,
	/// `phase_s` over `allowed_s`: above 1 the GPU misses the deadline.
	pub over_allowed: f64,
	/// The links run of the first and last lane are the CPU's (`pog_primitives::lanes`).
	pub cpu_agrees: bool,
}

/// Everything `bench` measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
	/// The device.
	pub gpu: GpuInfo,
	/// Device-to-device copy bandwidth in GB/s (read + write).
	pub copy_gbps: f64,
	/// Per precision.
	pub precisions: Vec<PrecisionBench>,
	/// The memory-hard phase (`bench --memory`).
	pub memory: Vec<MemoryBench>,
	/// A CPU unit's lanes on this GPU (`bench --lanes`).
	pub lanes: Option<LanesBench>,
	/// The device after the run (clocks, temperature, power).
	pub gpu_after: GpuInfo,
}

fn tflops_of(samples: &[&GemmSample]) -> f64 {
	let flops: f64 = samples.iter().map(|s| s.flops).sum();
	let ms: f64 = samples.iter().map(|s| s.ms).sum();
	if ms > 0.0 {
		flops / (ms * 1e-3) / 1e12
	} else {
		0.0
	}
}

/// Burst, sustained, trace and overhead of one precision.
pub fn bench_precision(prover: &GpuProver, args: &BenchConfig, p: Precision) -> anyhow::Result<PrecisionBench> {
	let dims = Dims { m: args.dim, n: args.dim, k: args.chunk_k };
	let spec = ChallengeSpec { seed: [0xB0 ^ p.index() as u8; 32], precision: p, dims, chunk_k: args.chunk_k };
	let samples = prover.sustained(&spec, p, args.seconds)?;
	let end = samples.last().map(|s| s.start_ms + s.ms).unwrap_or(0.0);
	let burst: Vec<&GemmSample> = samples.iter().filter(|s| s.start_ms < 1000.0).collect();
	let late: Vec<&GemmSample> = samples.iter().filter(|s| s.start_ms >= end / 2.0).collect();
	let (interval_ms, trace_gflops) = resample(&samples, Some(100.0));
	let sustained = tflops_of(&late);
	let mut out = PrecisionBench {
		precision: if p == Precision::Fp8E4M3 && prover.fp8_path() == crate::Fp8Path::Int8 {
			"fp8-e4m3 (int8 path)".into()
		} else {
			p.name().into()
		},
		burst_tflops: tflops_of(&burst),
		sustained_tflops: sustained,
		interval_ms,
		trace_gflops,
		proof_overhead: None,
		gen_hash_tree_over_gemm: None,
		overhead_dims: None,
	};
	if args.overhead_ms > 0 {
		let info = prover.info();
		let dims = sizing::challenge_dims(info.vram_mib, (sustained * 1000.0) as u32, args.overhead_ms);
		let spec = ChallengeSpec { seed: [0xC0 ^ p.index() as u8; 32], precision: p, dims, chunk_k: args.chunk_k };
		let com = prover.prove_in(&spec, p, &|_| {})?;
		let t = com.timing().clone();
		drop(com);
		let wall = prover.gemm_only(&spec, p, None, true)?.ms;
		out.proof_overhead = Some(t.total.as_secs_f64() * 1e3 / wall - 1.0);
		out.gen_hash_tree_over_gemm = Some((t.generation + t.hashing + t.tree).as_secs_f64() / t.gemm.as_secs_f64());
		out.overhead_dims = Some(dims);
	}
	Ok(out)
}

impl BenchReport {
	/// The throughput-over-time traces as an SVG plot.
	pub fn svg(&self) -> String {
		let report = self;
		let (w, h, pad) = (900.0, 420.0, 60.0);
		let max_t = report
			.precisions
			.iter()
			.map(|p| p.trace_gflops.len() as f64 * f64::from(p.interval_ms) / 1e3)
			.fold(1.0, f64::max);
		let max_g = report.precisions.iter().flat_map(|p| p.trace_gflops.iter()).copied().max().unwrap_or(1).max(1)
			as f64 * 1.1
			/ 1e3;
		let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"];
		let mut s = String::new();
		let _ = writeln!(
			s,
			r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
		);
		let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
		let _ = writeln!(
			s,
			r#"<text x="{pad}" y="20">{} ({}): achieved TFLOPS over time</text>"#,
			report.gpu.name, report.gpu.uuid
		);
		let (x0, y0, x1, y1) = (pad, h - pad, w - 20.0, 40.0);
		let _ = writeln!(
			s,
			r#"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="black"/><line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="black"/>"#
		);
		for i in 0..=5 {
			let v = max_g * f64::from(i) / 5.0;
			let y = y0 - (y0 - y1) * f64::from(i) / 5.0;
			let _ = writeln!(
				s,
				r##"<text x="5" y="{y:.1}">{v:.0}</text><line x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="#eeeeee"/>"##
			);
			let t = max_t * f64::from(i) / 5.0;
			let x = x0 + (x1 - x0) * f64::from(i) / 5.0;
			let _ = writeln!(s, r#"<text x="{x:.1}" y="{:.1}">{t:.1} s</text>"#, y0 + 18.0);
		}
		for (i, p) in report.precisions.iter().enumerate() {
			let c = colors[i % colors.len()];
			let pts: Vec<String> = p
				.trace_gflops
				.iter()
				.enumerate()
				.map(|(j, g)| {
					let t = (j as f64 + 0.5) * f64::from(p.interval_ms) / 1e3;
					let x = x0 + (x1 - x0) * t / max_t;
					let y = y0 - (y0 - y1) * (f64::from(*g) / 1e3) / max_g;
					format!("{x:.1},{y:.1}")
				})
				.collect();
			let _ = writeln!(s, r#"<polyline fill="none" stroke="{c}" stroke-width="2" points="{}"/>"#, pts.join(" "));
			let _ = writeln!(
				s,
				r#"<text x="{:.1}" y="{:.1}" fill="{c}">{} (sustained {:.0})</text>"#,
				x1 - 200.0,
				y1 + 16.0 * (i as f64 + 1.0),
				p.precision,
				p.sustained_tflops
			);
		}
		s.push_str("</svg>\n");
		s
	}

	/// The results as a text table.
	pub fn table(&self) -> String {
		let mut s = String::new();
		let _ = writeln!(
			s,
			"{} ({}), {} MiB; device copy {:.0} GB/s",
			self.gpu.name, self.gpu.uuid, self.gpu.vram_mib, self.copy_gbps
		);
		let _ = writeln!(
			s,
			"{:<9} {:>12} {:>16} {:>15} {:>26}",
			"precision", "burst TFLOPS", "sustained TFLOPS", "proof overhead", "overhead challenge m×n×k"
		);
		for p in &self.precisions {
			let pct = |v: Option<f64>| v.map(|x| format!("{:.2}%", x * 100.0)).unwrap_or_else(|| "-".into());
			let d = p.overhead_dims.map(|d| format!("{}×{}×{}", d.m, d.n, d.k)).unwrap_or_else(|| "-".into());
			let _ = writeln!(
				s,
				"{:<9} {:>12.1} {:>16.1} {:>15} {:>26}",
				p.precision,
				p.burst_tflops,
				p.sustained_tflops,
				pct(p.proof_overhead),
				d
			);
		}
		for m in &self.memory {
			let _ = writeln!(
				s,
				"memory: {:.1} GiB dataset ({:.0}% resident), {} parents: fill {:.2} s ({:.3} G items/s); {} walks × {} reads and their commitment in {:.2} s ({:.2} G reads/s, {:.0} GB/s); read ÷ regenerate {:.1}",
				m.dataset_gib, m.resident * 100.0, m.parents, m.fill_s, m.fill_g_items_per_s, m.walks, m.reads, m.walk_s,
				m.walk_g_reads_per_s, m.walk_read_gbps, m.read_over_regenerate
			);
		}
		if let Some(l) = &self.lanes {
			let _ = writeln!(
				s,
				"lanes: a {}-core CPU unit on this GPU, {} links × {} steps a lane: pads {:.2} s; {} links of every lane in {:.2} s, {:.0} ns a step ({:.0} expected of a CPU core); the phase {:.1} s against {:.1} s allowed ({:.1} expected): {:.2}× the deadline; the CPU's results {}",
				l.cores, l.links_per_lane, l.steps_per_link, l.pad_s, l.links_run, l.links_s, l.ns_per_step,
				l.expected_ns_per_step, l.phase_s, l.allowed_s, l.expected_s, l.over_allowed,
				if l.cpu_agrees { "agree" } else { "DIFFER" }
			);
		}
		if let Some((read, parent)) = profile_memory_rates(&self.memory) {
			let _ = writeln!(
				s,
				"a profile's memory rates from these runs (the slowest whole-dataset run of each): mem_read_mps {read}, mem_parent_mps {parent}"
			);
		}
		let a = &self.gpu_after;
		let _ = writeln!(
			s,
			"after: SM {} MHz, {} °C, {:.0} W of {:.0} W",
			a.sm_clock_mhz, a.temperature_c, a.power_w, a.power_limit_w
		);
		s
	}
}

/// The figures a profile's `mem_read_mps` and `mem_parent_mps` take from memory runs: the slowest
/// run that kept the whole dataset, in million reads (parent reads) a second, rounded down to a
/// hundred; `None` without such a run.
pub fn profile_memory_rates(runs: &[MemoryBench]) -> Option<(u32, u32)> {
	let whole: Vec<&MemoryBench> = runs.iter().filter(|m| m.resident >= 1.0).collect();
	let slowest = |rate: fn(&MemoryBench) -> f64| {
		let mps = whole.iter().map(|m| rate(m) * 1e3).fold(f64::INFINITY, f64::min);
		((mps / 100.0).floor() * 100.0) as u32
	};
	(!whole.is_empty())
		.then(|| (slowest(|m| m.walk_g_reads_per_s), slowest(|m| m.fill_g_items_per_s * f64::from(m.parents))))
}

/// Runs the benchmark on `config.device`.
pub fn run(config: &BenchConfig) -> anyhow::Result<BenchReport> {
	let prover = GpuProver::new(config.device).context("opening the GPU")?;
	if config.fp8_int8_path {
		prover.set_fp8_path(crate::Fp8Path::Int8);
	}
	let gpu = prover.info();
	let copy_gbps = prover.copy_bandwidth(2 << 30, 20)?;
	if let Some(m) = &config.memory {
		let mut memory = Vec::new();
		for parents in &m.parents {
			for _ in 0..m.runs.max(1) {
				memory.push(bench_memory(&prover, m, *parents)?);
			}
		}
		return Ok(BenchReport {
			gpu,
			copy_gbps,
			precisions: Vec::new(),
			memory,
			lanes: None,
			gpu_after: prover.info(),
		});
	}
	if let Some(l) = &config.lanes {
		let lanes = Some(bench_lanes(&prover, l)?);
		return Ok(BenchReport {
			gpu,
			copy_gbps,
			precisions: Vec::new(),
			memory: Vec::new(),
			lanes,
			gpu_after: prover.info(),
		});
	}
	let list = if config.precisions.is_empty() { Precision::ALL.to_vec() } else { config.precisions.clone() };
	let mut precisions = Vec::new();
	for p in list {
		tracing::info!(precision = p.name(), "benchmarking");
		precisions.push(bench_precision(&prover, config, p)?);
	}
	Ok(BenchReport { gpu, copy_gbps, precisions, memory: Vec::new(), lanes: None, gpu_after: prover.info() })
}

/// A `cpu-core` unit of `l.cores` cores under mainnet's memory rules, answered by this GPU: every
/// lane's pad, then the first `l.links` links of every lane side by side (a thread a lane), checked
/// against the CPU's for the first and last lane; the whole phase projected from the time a step.
pub fn bench_lanes(prover: &GpuProver, l: &LanesBenchConfig) -> anyhow::Result<LanesBench> {
	use pog_primitives::{
		lanes,
		memory::MemoryRules,
		profiles::{self, CPU_CORE},
	};
	let unit = profiles::default_profile(CPU_CORE).context("the default table's cpu-core")?.figures.for_cores(l.cores);
	let rules = MemoryRules::mainnet();
	let phase = unit.memory_challenge(&[0x1A; 32], &rules).context("the unit has no lane phase")?;
	let links = lanes::links_per_lane(&phase);
	let links_run = l.links.clamp(1, links);
	tracing::info!(cores = l.cores, links, steps = phase.spec.reads, links_run, "lanes on the GPU");
	let run = prover.lanes(&phase, links_run)?;
	let cpu_agrees = [0, phase.spec.lanes - 1].iter().all(|&lane| {
		let pad = lanes::pad(&phase.spec.seed, lane);
		let cpu = lanes::lane_results(&phase.spec, lane, links_run, &pad);
		let at = lane as usize * links_run as usize;
		cpu[..] == run.results[at..at + links_run as usize]
	});
	let steps_run = links_run as f64 * f64::from(phase.spec.reads);
	let ns_per_step = run.links_ms * 1e6 / steps_run;
	let steps = links as f64 * f64::from(phase.spec.reads);
	let phase_s = run.pad_ms / 1e3 + steps * ns_per_step / 1e9;
	let expected_s = phase.expected_ms as f64 / 1e3;
	let allowed_s = sizing::allowed_ms(phase.expected_ms, rules.tolerance_percent, u64::from(l.slack_ms)) as f64 / 1e3;
	Ok(LanesBench {
		cores: l.cores,
		links_per_lane: links,
		steps_per_link: phase.spec.reads,
		links_run,
		pad_s: run.pad_ms / 1e3,
		links_s: run.links_ms / 1e3,
		ns_per_step,
		expected_ns_per_step: 1e3 / f64::from(profiles::CPU_LANE_STEP_MPS),
		phase_s,
		expected_s,
		allowed_s,
		over_allowed: phase_s / allowed_s,
		cpu_agrees,
	})
}

/// The memory-hard phase with a 16 MiB cache and 64 reads per walk: fill a dataset of `m.gib`
/// GiB (0: 0.9 × the GPU's memory, bounded by what is free), keeping `m.resident` of it, then
/// 2^`m.walks_log2` walks and their commitment.
pub fn bench_memory(prover: &GpuProver, m: &MemoryBenchConfig, parents: u32) -> anyhow::Result<MemoryBench> {
	use pog_primitives::memory::{self, MemorySpec, ITEM_BYTES};
	let (free, total) = prover.memory()?;
	let bytes = if m.gib > 0.0 {
		(m.gib * f64::from(1u32 << 30)) as u64
	} else {
		(total / 10 * 9).min(free.saturating_sub(2 << 30))
	};
	let spec = MemorySpec {
		seed: [0x4D; 32],
		cache_items: 1 << 18,
		dataset_items: bytes / ITEM_BYTES as u64,
		parents,
		reads: 64,
		lanes: 0,
	};
	let resident = m.resident.map_or(spec.dataset_items, |f| (spec.dataset_items as f64 * f.clamp(0.0, 1.0)) as u64);
	let cache = memory::cache(&spec);
	let walks = 1u64 << m.walks_log2.clamp(10, 40);
	let gib = |items: u64| (items * ITEM_BYTES as u64) as f64 / f64::from(1u32 << 30);
	tracing::info!(gib = gib(spec.dataset_items), resident = gib(resident), parents, "memory-hard phase");
	let shape =
		(resident == spec.dataset_items).then(|| m.shape.unwrap_or(WalkShape::for_dataset(spec.dataset_bytes())));
	let residency = match shape {
		Some(shape) => Residency::WholeIn(shape),
		None => Residency::First(resident),
	};
	let run = prover.memory_phase(&spec, &cache, 0..walks, &[], &[], residency)?;
	let reads = walks as f64 * f64::from(spec.reads);
	let fill_rate = resident as f64 / (run.fill_ms / 1e3) / 1e9;
	let read_rate = reads / (run.walk_ms / 1e3) / 1e9;
	Ok(MemoryBench {
		dataset_gib: spec.dataset_bytes() as f64 / f64::from(1u32 << 30),
		cache_mib: (cache.len() * ITEM_BYTES) as f64 / f64::from(1u32 << 20),
		parents,
		reads: spec.reads,
		resident: resident as f64 / spec.dataset_items as f64,
		walk_shape: shape,
		walks,
		fill_s: run.fill_ms / 1e3,
		fill_g_items_per_s: fill_rate,
		walk_s: run.walk_ms / 1e3,
		walk_g_reads_per_s: read_rate,
		walk_read_gbps: read_rate * ITEM_BYTES as f64,
		read_over_regenerate: read_rate / fill_rate,
	})
}

#[cfg(test)]
mod tests {
	use super::*;

	fn run(parents: u32, resident: f64, reads_g: f64, items_g: f64) -> MemoryBench {
		MemoryBench {
			dataset_gib: 125.8,
			cache_mib: 16.0,
			parents,
			reads: 64,
			resident,
			walk_shape: None,
			walks: 1 << 32,
			fill_s: 47.7,
			fill_g_items_per_s: items_g,
			walk_s: 46.9,
			walk_g_reads_per_s: reads_g,
			walk_read_gbps: reads_g * 64.0,
			read_over_regenerate: reads_g / items_g,
		}
	}

	#[test]
	fn profile_rates_are_the_slowest_whole_dataset_runs() {
		// the H200's two runs at 1,024 parents, and a 95%-resident run that must not count
		let runs = [run(1024, 1.0, 5.860, 0.04427), run(1024, 1.0, 5.891, 0.04430), run(1024, 0.95, 0.107, 0.04427)];
		assert_eq!(profile_memory_rates(&runs), Some((5_800, 45_300)));
		assert_eq!(profile_memory_rates(&runs[2..]), None, "no whole-dataset run");
	}
}
