//! `offchain-gpu selftest`: checks the GPU against `pog_primitives` and measures it.
//!
//! 1. Known answers: generated chunks of A and B (every precision, and every lower precision a
//!    cheater would use) equal the CPU generator's; the known-answer vectors of
//!    `pallets/pog/primitives/kat/vectors.json`; leaf hashes, root and proofs of small challenges
//!    equal `pog_primitives::commitment`.
//! 2. Honest results pass `pog_primitives::verify` over many entries per precision (worst
//!    |error| / threshold); results computed in the next lower precision fail (median ratio), for
//!    every challenged precision (tf32's is reported only: it is never challenged).
//! 3. GEMM rate per precision (optionally against PyTorch's figures from `torch_ref.py`).
//! 4. Proof overhead at the profile's full size.
//! 5. `--all-gpus`: one challenge per GPU, concurrently.
//!
//! Known answers live in `known_answers.rs`, the accuracy checks in `accuracy.rs`, the rates in
//! `rates.rs`; this file runs them and reports.

use std::{
	path::PathBuf,
	sync::atomic::{AtomicUsize, Ordering},
	time::Instant,
};

use anyhow::{bail, Context};
use pog_primitives::{
	commitment::{leaf_hash, root_of_matrix, verify_opening},
	cpu,
	generator::Generator,
	sizing,
	verify::{exact_entries, tolerance_sq, ChallengeSpec},
	Dims, Hash32, Matrix, Precision,
};
use serde::Serialize;
use serde_json::{json, Value};

use crate::{
	kernels::{element_bits, storage_bytes},
	Fp8Path, GpuProver,
};

mod accuracy;
mod known_answers;
mod rates;

use accuracy::*;
use known_answers::*;
use rates::*;

/// What `selftest` checks.
#[derive(Clone, Debug, PartialEq)]
pub struct SelftestConfig {
	/// CUDA device ordinal.
	pub device: usize,
	/// Prove one challenge on every GPU concurrently and report how many succeeded.
	pub all_gpus: bool,
	/// Only the multi-GPU check (with --all-gpus).
	pub only_all_gpus: bool,
	/// Precisions to test (empty: all).
	pub precisions: Vec<Precision>,
	/// m = n of the tolerance checks.
	pub dim: u32,
	/// k of the tolerance checks.
	pub k: u32,
	/// Chunk length along k.
	pub chunk_k: u32,
	/// Entries checked per precision (whole leaves of 256).
	pub entries: u32,
	/// m = n of the GEMM-rate measurement (k = chunk_k per GEMM).
	pub rate_dim: u32,
	/// GEMMs timed per precision for the rate.
	pub rate_gemms: usize,
	/// PyTorch reference (JSON written by benchmarking/gpu/torch_ref.py) to compare rates with.
	pub torch: Option<PathBuf>,
	/// Target GEMM time in ms of the full-size proof-overhead run (0: skip).
	pub full_ms: u32,
	/// Precisions of the full-size run (empty: bf16).
	pub full_precisions: Vec<Precision>,
	/// Also prove fp8 with cuBLASLt's FAST_ACCUM on (a ~14-bit accumulator the tolerance must
	/// catch).
	pub fp8_fast_accum_check: bool,
	/// Run fp8 on the int8 path even where the GPU has fp8.
	pub fp8_int8_path: bool,
}

impl Default for SelftestConfig {
	fn default() -> Self {
		Self {
			device: 0,
			all_gpus: false,
			only_all_gpus: false,
			precisions: Vec::new(),
			dim: 8192,
			k: 65_536,
			chunk_k: sizing::DEFAULT_CHUNK_K,
			entries: 10_240,
			rate_dim: 16_384,
			rate_gemms: 20,
			torch: None,
			full_ms: 0,
			full_precisions: Vec::new(),
			fp8_fast_accum_check: false,
			fp8_int8_path: false,
		}
	}
}

/// One check of the self-test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
	/// What was checked.
	pub check: String,
	/// Whether it passed.
	pub ok: bool,
	/// The figures behind it.
	pub detail: String,
}

/// Everything `selftest` found: the checks, and the measurements behind them as JSON.
#[derive(Clone, Debug)]
pub struct SelftestReport {
	/// The GPUs found.
	pub gpus: Vec<crate::GpuInfo>,
	/// Every check, in the order run.
	pub checks: Vec<Check>,
	/// The measurements (per section), with the checks, as one JSON document.
	pub details: Value,
}

impl SelftestReport {
	/// How many checks failed.
	pub fn failed(&self) -> usize {
		self.checks.iter().filter(|c| !c.ok).count()
	}

	/// The GPUs and the checks as a text table.
	pub fn table(&self) -> String {
		let mut s = String::new();
		for g in &self.gpus {
			s += &format!(
				"GPU {}: {} {} ({} MiB, SM {} MHz, {} °C, {:.0}/{:.0} W)\n",
				g.ordinal, g.name, g.uuid, g.vram_mib, g.sm_clock_mhz, g.temperature_c, g.power_w, g.power_limit_w
			);
		}
		let w = self.checks.iter().map(|c| c.check.len()).max().unwrap_or(10);
		s += &format!("\n{:<w$}  {:<4}  detail\n", "check", "ok");
		for c in &self.checks {
			s += &format!("{:<w$}  {:<4}  {}\n", c.check, if c.ok { "PASS" } else { "FAIL" }, c.detail);
		}
		s += &format!("{} checks, {} failed\n", self.checks.len(), self.failed());
		s
	}
}

fn precisions(list: &[Precision]) -> Vec<Precision> {
	if list.is_empty() {
		Precision::ALL.to_vec()
	} else {
		list.to_vec()
	}
}

/// One challenge per GPU, all at once; returns (GPUs that passed, report).
fn all_gpus(args: &SelftestConfig, out: &mut Vec<(String, bool, String)>) -> anyhow::Result<Value> {
	let gpus = crate::detect()?;
	let started = Instant::now();
	let results: Vec<anyhow::Result<Value>> = std::thread::scope(|s| {
		let handles: Vec<_> = gpus
			.iter()
			.map(|g| {
				let ordinal = g.ordinal as usize;
				let uuid = g.uuid.clone();
				let chunk_k = args.chunk_k;
				s.spawn(move || -> anyhow::Result<Value> {
					let prover = GpuProver::new(ordinal)?;
					let dims = Dims { m: 32768, n: 32768, k: 262144 };
					let spec =
						ChallengeSpec { seed: [ordinal as u8 + 1; 32], precision: Precision::Bf16, dims, chunk_k };
					let t = Instant::now();
					let com = prover.prove_in(&spec, Precision::Bf16, &|_| {})?;
					let secs = t.elapsed().as_secs_f64();
					let leaves = pick_leaves(dims.num_leaves(), 2);
					let opened = com.open(&leaves)?;
					let proofs = opened.iter().all(|o| verify_opening(&com.root(), &dims, o.leaf, &o.values, &o.proof));
					let r = ratios(&spec, &opened.iter().map(|o| (o.leaf, o.values.clone())).collect::<Vec<_>>());
					let worst = r.iter().copied().fold(0.0, f64::max);
					Ok(json!({"ordinal": ordinal, "uuid": uuid, "seconds": secs, "proofs_verify": proofs,
						"worst_ratio": worst, "ok": proofs && worst <= 1.0,
						"tflops": dims.flops() as f64 / com.timing().gemm.as_secs_f64() / 1e12}))
				})
			})
			.collect();
		handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("thread panicked")))).collect()
	});
	let wall = started.elapsed().as_secs_f64();
	let mut ok = 0;
	let mut per = Vec::new();
	for r in results {
		match r {
			Ok(v) => {
				if v["ok"].as_bool() == Some(true) {
					ok += 1;
				}
				per.push(v);
			},
			Err(e) => per.push(json!({"error": e.to_string()})),
		}
	}
	out.push((
		"all GPUs concurrently".into(),
		ok == gpus.len(),
		format!("{ok}/{} GPUs proved, wall {wall:.1} s", gpus.len()),
	));
	Ok(json!({"gpus": gpus.len(), "ok": ok, "wall_s": wall, "per_gpu": per}))
}

/// Runs the self-test. The report says which checks failed; the caller decides what that means.
pub fn run(args: &SelftestConfig) -> anyhow::Result<SelftestReport> {
	let mut rows: Vec<(String, bool, String)> = Vec::new();
	let mut report = serde_json::Map::new();
	let gpus = crate::detect()?;
	report.insert("gpus".into(), serde_json::to_value(&gpus)?);
	if !args.only_all_gpus {
		let list = precisions(&args.precisions);
		let prover = GpuProver::new(args.device)?;
		if args.fp8_int8_path {
			prover.set_fp8_path(Fp8Path::Int8);
		}
		let t = Instant::now();
		report.insert("known_answers".into(), known_answers(&prover, &list, &mut rows)?);
		tracing::info!(s = t.elapsed().as_secs_f64(), "known answers done");
		let t = Instant::now();
		report.insert("tolerance".into(), tolerance_checks(&prover, args, &list, &mut rows)?);
		tracing::info!(s = t.elapsed().as_secs_f64(), "tolerance checks done");
		let (rates_json, rates) = gemm_rates(&prover, args, &list, &mut rows)?;
		report.insert("gemm_rates".into(), rates_json);
		if args.full_ms > 0 {
			report.insert("full_size".into(), full_size(&prover, args, &rates, &mut rows)?);
		}
	}
	if args.all_gpus {
		report.insert("all_gpus".into(), all_gpus(args, &mut rows)?);
	}
	let checks: Vec<Check> = rows.into_iter().map(|(check, ok, detail)| Check { check, ok, detail }).collect();
	report.insert("rows".into(), serde_json::to_value(&checks)?);
	Ok(SelftestReport { gpus, checks, details: Value::Object(report) })
}
