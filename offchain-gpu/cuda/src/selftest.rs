//! `offchain-gpu selftest`: checks the GPU against `pog_primitives` and measures it.
//!
//! 1. Known answers: generated chunks of A and B (every precision, and every lower precision a
//!    cheater would use) equal the CPU generator's; the known-answer vectors of
//!    `pallets/pog/primitives/kat/vectors.json`; leaf hashes, root and proofs of small challenges
//!    equal `pog_primitives::commitment`.
//! 2. Honest results pass `pog_primitives::verify` over many entries per precision (worst
//!    |error| / threshold); results computed in the next lower precision fail (median ratio).
//! 3. GEMM rate per precision (optionally against PyTorch's figures from `torch_ref.py`).
//! 4. Proof overhead at the profile's full size.
//! 5. `--all-gpus`: one challenge per GPU, concurrently.

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

fn hex(h: &[u8]) -> String {
	h.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> anyhow::Result<Hash32> {
	let mut out = [0u8; 32];
	if s.len() != 64 {
		bail!("bad hash {s}");
	}
	for (i, o) in out.iter_mut().enumerate() {
		*o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)?;
	}
	Ok(out)
}

fn seed_from(s: &str) -> anyhow::Result<[u8; 32]> {
	unhex(s)
}

/// Element bits of stored bytes (`width` bytes each, little-endian).
fn words(bytes: &[u8], width: usize) -> Vec<u32> {
	bytes
		.chunks(width)
		.map(|c| {
			let mut w = [0u8; 4];
			w[..width].copy_from_slice(c);
			u32::from_le_bytes(w)
		})
		.collect()
}

/// The CPU's expected chunk `[lines][kc]` of `matrix` generated in `spec.precision`, stored as
/// `compute`.
fn cpu_chunk(spec: &ChallengeSpec, compute: Precision, matrix: Matrix, k0: u32, kc: u32) -> Vec<u32> {
	let g = Generator::new(&spec.seed, spec.precision);
	let lines = if matrix == Matrix::A { spec.dims.m } else { spec.dims.n };
	let p = spec.precision;
	let w = p.slot_bits();
	let mut out = Vec::with_capacity((lines * kc) as usize);
	for line in 0..lines {
		for kk in k0..k0 + kc {
			let e = p.elements_per_block();
			let words = g.words(matrix, line, kk / e);
			let i = kk % e;
			let word = words[(i * w / 32) as usize];
			let slot = if w == 32 { word } else { (word >> ((i * w) % 32)) & ((1 << w) - 1) };
			out.push(element_bits(p, compute, slot));
		}
	}
	out
}

/// The int8 path's chunk of an fp8 challenge on the CPU: each element's significand as a byte.
fn int8_chunk(spec: &ChallengeSpec, matrix: Matrix, k0: u32, kc: u32) -> Vec<u8> {
	let g = Generator::new(&spec.seed, Precision::Fp8E4M3);
	let lines = if matrix == Matrix::A { spec.dims.m } else { spec.dims.n };
	let mut out = Vec::with_capacity((lines * kc) as usize);
	let mut bits = vec![0u32; kc as usize];
	for line in 0..lines {
		g.fill_line(matrix, line, k0, &mut bits);
		out.extend(bits.iter().map(|b| Precision::Fp8E4M3.significand(*b) as i8 as u8));
	}
	out
}

fn precisions(list: &[Precision]) -> Vec<Precision> {
	if list.is_empty() {
		Precision::ALL.to_vec()
	} else {
		list.to_vec()
	}
}

/// Known answers: generation, the KAT file, and small commitments.
fn known_answers(
	prover: &GpuProver,
	list: &[Precision],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<Value> {
	let mut report = serde_json::Map::new();
	// Generated chunks, honest and every lower-precision rounding, two chunks (k0 = 0, 256).
	let mut gen_ok = 0;
	let mut gen_total = 0;
	for &p in list {
		for &compute in &Precision::ALL {
			if compute.mantissa_bits() > p.mantissa_bits() {
				continue;
			}
			let spec =
				ChallengeSpec { seed: [0x3C; 32], precision: p, dims: Dims { m: 256, n: 512, k: 1024 }, chunk_k: 512 };
			for matrix in [Matrix::A, Matrix::B] {
				for k0 in [0u32, 512] {
					let gpu = prover.generated_chunk(&spec, compute, matrix, k0, 512)?;
					let gpu = words(&gpu, storage_bytes(compute));
					let cpu = if p == Precision::Fp8E4M3 && prover.fp8_path() == Fp8Path::Int8 {
						// a device without fp8: its fp8 chunks are the int8 path's
						words(&int8_chunk(&spec, matrix, k0, 512), 1)
					} else {
						cpu_chunk(&spec, compute, matrix, k0, 512)
					};
					gen_total += 1;
					if gpu == cpu {
						gen_ok += 1;
					} else {
						let bad = gpu.iter().zip(&cpu).position(|(a, b)| a != b).unwrap_or(0);
						tracing::error!(
							?p,
							?compute,
							?matrix,
							k0,
							bad,
							gpu = gpu[bad],
							cpu = cpu[bad],
							"generated chunk differs"
						);
					}
				}
			}
		}
	}
	out.push(("generation = CPU (chunks)".into(), gen_ok == gen_total, format!("{gen_ok}/{gen_total}")));
	report.insert("generation_chunks_equal".into(), json!({"equal": gen_ok, "total": gen_total}));

	// The int8 path's chunks: every fp8 element as its int8 significand.
	if list.contains(&Precision::Fp8E4M3) {
		let before = prover.fp8_path();
		prover.set_fp8_path(Fp8Path::Int8);
		let spec = ChallengeSpec {
			seed: [0x3D; 32],
			precision: Precision::Fp8E4M3,
			dims: Dims { m: 256, n: 512, k: 1024 },
			chunk_k: 512,
		};
		let (mut equal, mut total) = (0, 0);
		for matrix in [Matrix::A, Matrix::B] {
			for k0 in [0u32, 512] {
				let gpu = prover.generated_chunk(&spec, Precision::Fp8E4M3, matrix, k0, 512);
				total += 1;
				equal += usize::from(gpu.ok().as_deref() == Some(&int8_chunk(&spec, matrix, k0, 512)[..]));
			}
		}
		prover.set_fp8_path(before);
		out.push(("int8 path generation = CPU significands".into(), equal == total, format!("{equal}/{total}")));
		report.insert("int8_chunks_equal".into(), json!({"equal": equal, "total": total}));
	}

	// The KAT file.
	let kat: Value = serde_json::from_str(include_str!("../../../pallets/pog/primitives/kat/vectors.json"))?;
	let mut kat_ok = 0;
	let mut kat_total = 0;
	for v in kat["generator"].as_array().context("generator vectors")? {
		let p: Precision = serde_json::from_value(v["precision"].clone())?;
		// On the int8 path fp8 chunks are significands, checked above against the CPU.
		if !list.contains(&p) || (p == Precision::Fp8E4M3 && prover.fp8_path() == Fp8Path::Int8) {
			continue;
		}
		let dims: Dims = serde_json::from_value(v["dims"].clone())?;
		let spec = ChallengeSpec {
			seed: seed_from(v["seed"].as_str().context("seed")?)?,
			precision: p,
			dims,
			chunk_k: dims.k,
		};
		let width = storage_bytes(p);
		let a = prover.generated_chunk(&spec, p, Matrix::A, 0, dims.k)?;
		let b = prover.generated_chunk(&spec, p, Matrix::B, 0, dims.k)?;
		// B row-major ([k][n]) from the GPU's [n][k]
		let mut b_rm = vec![0u8; b.len()];
		for col in 0..dims.n as usize {
			for kk in 0..dims.k as usize {
				let src = (col * dims.k as usize + kk) * width;
				let dst = (kk * dims.n as usize + col) * width;
				b_rm[dst..dst + width].copy_from_slice(&b[src..src + width]);
			}
		}
		let a_words = words(&a, width);
		let b_words = words(&b, width);
		let row3: Vec<u32> = a_words[3 * dims.k as usize..3 * dims.k as usize + 32].to_vec();
		let col5: Vec<u32> = b_words[5 * dims.k as usize + 480..5 * dims.k as usize + 512].to_vec();
		let checks = [
			hex(&pog_primitives::commitment::keccak256(&a)) == v["keccak_a_row_major"].as_str().unwrap_or(""),
			hex(&pog_primitives::commitment::keccak256(&b_rm)) == v["keccak_b_row_major"].as_str().unwrap_or(""),
			serde_json::to_value(&row3)? == v["a_row3_k0_32"],
			serde_json::to_value(&col5)? == v["b_col5_k480_32"],
		];
		kat_total += checks.len();
		kat_ok += checks.iter().filter(|c| **c).count();
		if !checks.iter().all(|c| *c) {
			tracing::error!(?p, ?checks, "generator known answers differ");
		}
	}
	let c = &kat["commitment"];
	let p: Precision = serde_json::from_value(c["precision"].clone())?;
	let dims: Dims = serde_json::from_value(c["dims"].clone())?;
	let spec =
		ChallengeSpec { seed: seed_from(c["seed"].as_str().context("seed")?)?, precision: p, dims, chunk_k: dims.k };
	let com = prover.prove_in(&spec, p, &|_| {})?;
	let opened = com.open(&[5])?;
	let hashes = com.leaf_hashes()?;
	let c_gpu = com.c_rows(0, dims.m)?;
	let proof: Vec<String> = opened[0].proof.iter().map(|h| hex(h)).collect();
	let first8: Vec<u32> = c_gpu[..8].to_vec();
	let checks = [
		("root", hex(&com.root()) == c["root"].as_str().unwrap_or("")),
		("proof_leaf_5", serde_json::to_value(&proof)? == c["proof_leaf_5"]),
		(
			"leaf_hashes_0_4",
			serde_json::to_value(hashes[..4].iter().map(|h| hex(h)).collect::<Vec<_>>())? == c["leaf_hashes_0_4"],
		),
		("leaf_hash_last", hex(hashes.last().expect("leaves")) == c["leaf_hash_last"].as_str().unwrap_or("")),
		("c_row0_first8_bits", serde_json::to_value(&first8)? == c["c_row0_first8_bits"]),
		("c_row1_col300_bits", json!(c_gpu[dims.n as usize + 300]) == c["c_row1_col300_bits"]),
	];
	kat_total += checks.len();
	kat_ok += checks.iter().filter(|c| c.1).count();
	for (name, ok) in checks {
		if !ok {
			tracing::error!(name, "commitment known answer differs");
		}
	}
	out.push(("KAT vectors.json".into(), kat_ok == kat_total, format!("{kat_ok}/{kat_total}")));
	report.insert("kat_vectors".into(), json!({"equal": kat_ok, "total": kat_total}));

	// The memory-hard phase's known answers: dataset items, walks and the commitment made on the GPU.
	use crate::memory::Residency::Whole;
	use pog_primitives::memory::GROUP_WALKS;
	let m = &kat["memory"];
	let mspec = pog_primitives::memory::MemorySpec {
		seed: seed_from(m["seed"].as_str().context("memory seed")?)?,
		cache_items: m["cache_items"].as_u64().context("cache_items")? as u32,
		dataset_items: m["dataset_items"].as_u64().context("dataset_items")?,
		parents: m["parents"].as_u64().context("parents")? as u32,
		reads: m["reads"].as_u64().context("reads")? as u32,
	};
	let cache = pog_primitives::memory::cache(&mspec);
	let last = mspec.dataset_items - 1;
	let run = prover.memory_phase(&mspec, &cache, 0..1 << 20, &[0, 1, 2, 3, 999_999], &[0, 12_345, last], Whole)?;
	// the commitment over 2^16 walks, and a walk index past 2^32
	let rooted = prover.memory_phase(&mspec, &cache, 0..1 << 16, &[], &[], Whole)?;
	let far = 5_000_000_000u64;
	let far_start = far - far % GROUP_WALKS;
	let far_run = prover.memory_phase(&mspec, &cache, far_start..far_start + GROUP_WALKS, &[far], &[], Whole)?;
	let mem_checks = [
		serde_json::to_value(run.items[0])? == m["dataset_0"],
		serde_json::to_value(run.items[1])? == m["dataset_12345"],
		serde_json::to_value(run.items[2])? == m["dataset_last"],
		serde_json::to_value(run.kept[..4].iter().map(|h| hex(h)).collect::<Vec<_>>())? == m["walks_0_3"],
		hex(&run.kept[4]) == m["walk_999999"].as_str().unwrap_or(""),
		hex(&far_run.kept[0]) == m["walk_5000000000"].as_str().unwrap_or(""),
		hex(&rooted.root) == m["walk_root_65536"].as_str().unwrap_or(""),
	];
	let mem_ok = mem_checks.iter().filter(|c| **c).count();
	if mem_ok != mem_checks.len() {
		tracing::error!(?mem_checks, "memory-hard phase known answers differ");
	}
	out.push((
		"memory phase = CPU (items, walks)".into(),
		mem_ok == mem_checks.len(),
		format!(
			"{mem_ok}/{} (1,048,576 walks and their commitment in {:.1} ms, fill {:.2} ms)",
			mem_checks.len(),
			run.walk_ms,
			run.fill_ms
		),
	));
	report.insert("memory_kat".into(), json!({"equal": mem_ok, "total": mem_checks.len()}));
	// The commitment as the agent keeps it: walks opened later from the cache pass the chain's check.
	let mc = pog_primitives::memory::MemoryChallenge { spec: mspec, walks: 1 << 16, expected_ms: 0 };
	let committed = pog_prover::memory::MemoryProver::prove_memory(prover, &mc)?;
	let opened = committed.open(&[0, 777, (1 << 16) - 1], prover)?;
	let walks_report = pog_primitives::memory::check_walks(
		&mc,
		&cache,
		&committed.root(),
		opened.iter().map(|o| (o.walk, &o.result, o.proof.as_slice())),
	);
	out.push(("memory openings pass the check".into(), walks_report.passed(), format!("{walks_report:?}")));
	let opening = open_walk_groups(prover)?;
	out.push((
		"walk groups opened on the GPU = CPU".into(),
		opening.equal,
		format!(
			"{} groups at mainnet rules (H100): GPU {:.0} ms, CPU {:.1} core-s a group (≈ {:.0} core-s for all)",
			opening.groups,
			opening.gpu_ms,
			opening.cpu_core_s_per_group,
			opening.cpu_core_s_per_group * opening.groups as f64
		),
	));
	report.insert("walk_opening".into(), serde_json::to_value(&opening)?);

	// Small commitments: hashes, root and proofs from the GPU's own C, all precisions, several
	// chunks (so beta = 1 accumulation is exercised).
	let mut com_ok = 0;
	let mut com_total = 0;
	for &p in list {
		let spec =
			ChallengeSpec { seed: [0x5A; 32], precision: p, dims: Dims { m: 256, n: 1024, k: 2048 }, chunk_k: 512 };
		let com = prover.prove_in(&spec, p, &|_| {})?;
		let c_gpu = com.c_rows(0, spec.dims.m)?;
		let hashes = com.leaf_hashes()?;
		let cpu_hashes: Vec<Hash32> = c_gpu.chunks(256).map(leaf_hash).collect();
		let leaves = [0u32, 1, 2, 511, 777, spec.dims.num_leaves() - 1];
		let opened = com.open(&leaves)?;
		let proofs_ok = opened.iter().all(|o| {
			let start = o.leaf as usize * 256;
			o.values == c_gpu[start..start + 256]
				&& verify_opening(&com.root(), &spec.dims, o.leaf, &o.values, &o.proof)
		});
		// values against the CPU reference GEMM within tolerance
		let reference = cpu::gemm_rows(&spec, 0, 4);
		let close = reference.iter().zip(&c_gpu).all(|(r, g)| {
			let (r, g) = (f64::from(f32::from_bits(*r)), f64::from(f32::from_bits(*g)));
			(r - g).abs() <= 1e-3 * r.abs().max(16.0)
		});
		let ok = hashes == cpu_hashes && root_of_matrix(&c_gpu) == com.root() && proofs_ok && close;
		com_total += 1;
		if ok {
			com_ok += 1;
		} else {
			tracing::error!(
				?p,
				hashes = hashes == cpu_hashes,
				root = root_of_matrix(&c_gpu) == com.root(),
				proofs_ok,
				close,
				"small commitment differs"
			);
		}
	}
	out.push(("leaf hashes/root/proofs = CPU".into(), com_ok == com_total, format!("{com_ok}/{com_total}")));
	report.insert("small_commitments_equal".into(), json!({"equal": com_ok, "total": com_total}));
	Ok(Value::Object(report))
}

/// |claimed − exact| / threshold for every entry of `leaves` (all 256 offsets), CPU-parallel.
/// Opening the walks of a selected GPU, on the GPU and on the CPU.
#[derive(Debug, serde::Serialize)]
struct WalkOpening {
	/// Groups opened (one a sampled walk: mainnet opens 64).
	groups: usize,
	/// Whether the GPU's results of the groups checked on the CPU equal the CPU's.
	equal: bool,
	/// Wall time of every group on the GPU (ms).
	gpu_ms: f64,
	/// CPU time of one group on one core (s).
	cpu_core_s_per_group: f64,
}

/// The 64 groups of a selected H100's walks at mainnet rules (16 MiB cache, 1,024 parents, 64
/// reads) recomputed on the GPU, two of them again on the CPU: equal results, and the time of each.
fn open_walk_groups(prover: &GpuProver) -> anyhow::Result<WalkOpening> {
	use pog_primitives::{memory, profiles::H100};
	let rules = memory::MemoryRules::mainnet();
	let c = memory::challenge(&[0x0B; 32], H100.vram_mib, H100.mem_read_mps, H100.mem_parent_mps, &rules)
		.context("the H100's memory challenge")?;
	let cache = memory::cache(&c.spec);
	let walks = pog_primitives::sampling::opened_walks(&[0x0C; 32], c.walks, rules.openings);
	let mut groups: Vec<u64> = walks.iter().map(|w| w / memory::GROUP_WALKS).collect();
	groups.sort_unstable();
	groups.dedup();
	prover.walk_groups(&c.spec, &cache, &groups[..1])?; // warm-up
	let started = std::time::Instant::now();
	let on_gpu = prover.walk_groups(&c.spec, &cache, &groups)?;
	let gpu_ms = started.elapsed().as_secs_f64() * 1e3;
	let checked = [0, groups.len() - 1];
	let started = std::time::Instant::now();
	let on_cpu: Vec<Vec<Hash32>> = checked.iter().map(|i| memory::group_results(&c.spec, &cache, groups[*i])).collect();
	let cpu_core_s_per_group = started.elapsed().as_secs_f64() / checked.len() as f64;
	let equal = checked.iter().zip(&on_cpu).all(|(i, cpu)| on_gpu[*i] == *cpu);
	Ok(WalkOpening { groups: groups.len(), equal, gpu_ms, cpu_core_s_per_group })
}

fn ratios(spec: &ChallengeSpec, opened: &[(u32, Vec<u32>)]) -> Vec<f64> {
	signed_ratios(spec, opened).into_iter().map(f64::abs).collect()
}

/// (claimed − exact)·sign(exact) / threshold: negative when the error is toward zero.
fn signed_ratios(spec: &ChallengeSpec, opened: &[(u32, Vec<u32>)]) -> Vec<f64> {
	let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(4);
	let next = AtomicUsize::new(0);
	let mut all: Vec<Vec<f64>> = vec![Vec::new(); opened.len()];
	let slots: Vec<std::sync::Mutex<Vec<f64>>> = (0..opened.len()).map(|_| std::sync::Mutex::new(Vec::new())).collect();
	std::thread::scope(|s| {
		for _ in 0..threads {
			s.spawn(|| loop {
				let i = next.fetch_add(1, Ordering::Relaxed);
				if i >= opened.len() {
					break;
				}
				let (leaf, values) = &opened[i];
				let (row, col0) = pog_primitives::commitment::leaf_position(&spec.dims, *leaf);
				let cols: Vec<u32> = (col0..col0 + 256).collect();
				let exact = exact_entries(spec, row, &cols);
				let r: Vec<f64> = exact
					.iter()
					.zip(values)
					.map(|(e, v)| {
						let claimed = f64::from(f32::from_bits(*v));
						if !claimed.is_finite() {
							return f64::INFINITY;
						}
						(claimed - e.value) * e.value.signum() / tolerance_sq(spec, e.sum_sq).sqrt()
					})
					.collect();
				*slots[i].lock().expect("slot") = r;
			});
		}
	});
	for (a, s) in all.iter_mut().zip(slots) {
		*a = s.into_inner().expect("slot");
	}
	all.concat()
}

fn median(v: &mut [f64]) -> f64 {
	v.sort_by(|a, b| a.total_cmp(b));
	if v.is_empty() {
		0.0
	} else {
		v[v.len() / 2]
	}
}

fn pick_leaves(num_leaves: u32, count: usize) -> Vec<u32> {
	let mut x = 0x9E37_79B9_7F4A_7C15u64;
	let mut out = Vec::with_capacity(count);
	while out.len() < count.min(num_leaves as usize) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		let l = (x % u64::from(num_leaves)) as u32;
		if !out.contains(&l) {
			out.push(l);
		}
	}
	out
}

fn tolerance_checks(
	prover: &GpuProver,
	args: &SelftestConfig,
	list: &[Precision],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<Value> {
	let mut report = Vec::new();
	let dims = Dims { m: args.dim, n: args.dim, k: args.k };
	let leaves = pick_leaves(dims.num_leaves(), (args.entries as usize).div_ceil(256));
	// (precision, computed in, fp8 path): honest, fp8 also on the int8 path (and with FAST_ACCUM,
	// which must be caught), and in the next lower precision (must be caught).
	let default_path = prover.fp8_path();
	let has_fp8 = default_path != Fp8Path::Int8;
	let mut modes: Vec<(Precision, Precision, Fp8Path)> = Vec::new();
	for &p in list {
		modes.push((p, p, default_path));
		if p == Precision::Fp8E4M3 && has_fp8 {
			modes.push((p, p, Fp8Path::Int8));
			if args.fp8_fast_accum_check {
				modes.push((p, p, Fp8Path::NativeFastAccum));
			}
		}
		if let Some(lower) = p.next_lower().filter(|l| *l != Precision::Fp8E4M3 || has_fp8) {
			modes.push((p, lower, default_path));
		}
	}
	for (p, compute, path) in modes {
		let spec = ChallengeSpec { seed: [p.index() as u8 + 0x41; 32], precision: p, dims, chunk_k: args.chunk_k };
		prover.set_fp8_path(path);
		let t = Instant::now();
		let com = prover.prove_in(&spec, compute, &|_| {});
		prover.set_fp8_path(default_path);
		let com = com?;
		let prove_s = t.elapsed().as_secs_f64();
		let fast = path == Fp8Path::NativeFastAccum;
		let int8 = p == Precision::Fp8E4M3 && path == Fp8Path::Int8;
		let opened = com.open(&leaves)?;
		let proofs_ok = opened.iter().all(|o| verify_opening(&com.root(), &dims, o.leaf, &o.values, &o.proof));
		drop(com);
		let t = Instant::now();
		let signed = signed_ratios(&spec, &opened.into_iter().map(|o| (o.leaf, o.values)).collect::<Vec<_>>());
		let bias = signed.iter().sum::<f64>() / signed.len().max(1) as f64;
		let rms = (signed.iter().map(|x| x * x).sum::<f64>() / signed.len().max(1) as f64).sqrt();
		let mut r: Vec<f64> = signed.iter().map(|x| x.abs()).collect();
		let verify_s = t.elapsed().as_secs_f64();
		let n = r.len();
		let failing = r.iter().filter(|x| **x > 1.0).count();
		let worst = r.iter().copied().fold(0.0, f64::max);
		let med = median(&mut r);
		let honest = compute == p && !fast;
		let label = if fast {
			format!("{} with FAST_ACCUM (14-bit accumulator: caught)", p.name())
		} else if int8 {
			format!("{} honest, int8 path", p.name())
		} else if honest {
			format!("{} honest", p.name())
		} else {
			format!("{} computed in {}", p.name(), compute.name())
		};
		let (ok, detail) = if fast {
			(failing > 0 && proofs_ok, format!("worst {worst:.1} of threshold, {failing}/{n} fail (median {med:.2})"))
		} else if honest {
			(
				failing == 0 && proofs_ok,
				format!(
					"worst {worst:.3} of threshold, {failing}/{n} fail (mean toward-zero {bias:+.3}, rms {rms:.3})"
				),
			)
		} else {
			(med >= 5.0 && proofs_ok, format!("median {med:.1}x threshold, {failing}/{n} fail"))
		};
		tracing::info!(label, ok, detail, prove_s, verify_s, "tolerance check");
		out.push((label.clone(), ok, detail));
		report.push(json!({
			"precision": p.name(), "compute": compute.name(), "fp8_path": format!("{path:?}"), "dims": dims,
			"chunk_k": args.chunk_k, "entries": n, "failing": failing, "worst_ratio": worst, "median_ratio": med, "mean_signed_ratio": bias, "rms_ratio": rms,
			"proofs_verify": proofs_ok, "prove_s": prove_s, "verify_s": verify_s,
		}));
	}
	Ok(Value::Array(report))
}

/// Rate of the chunk GEMM in TFLOPS: (sum of flops) / (sum of GEMM times).
fn rate(samples: &[pog_prover::trace::GemmSample]) -> f64 {
	let flops: f64 = samples.iter().map(|s| s.flops).sum();
	let ms: f64 = samples.iter().map(|s| s.ms).sum();
	flops / (ms * 1e-3) / 1e12
}

fn gemm_rates(
	prover: &GpuProver,
	args: &SelftestConfig,
	list: &[Precision],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<(Value, Vec<(Precision, f64)>)> {
	let torch: Option<Value> = match &args.torch {
		Some(path) => Some(serde_json::from_str(&std::fs::read_to_string(path)?)?),
		None => None,
	};
	let mut report = Vec::new();
	let mut rates = Vec::new();
	for &p in list {
		let dims = Dims { m: args.rate_dim, n: args.rate_dim, k: args.chunk_k * args.rate_gemms as u32 };
		let spec = ChallengeSpec { seed: [7; 32], precision: p, dims, chunk_k: args.chunk_k };
		let _ = prover.gemm_only(&spec, p, Some(3), false)?; // warm-up
		let plain = rate(&prover.gemm_only(&spec, p, None, false)?);
		let samples = prover.gemm_only(&spec, p, None, true)?;
		let tflops = rate(&samples);
		rates.push((p, tflops));
		let reference = torch.as_ref().and_then(|t| t["gemm_tflops"][p.name()].as_f64());
		let ratio = reference.map(|r| plain / r);
		let detail = match (reference, ratio) {
			(Some(r), Some(q)) => format!("{plain:.1} TFLOPS vs PyTorch {r:.1} ({q:.3}x); accumulating {tflops:.1}"),
			_ => format!("{plain:.1} TFLOPS; accumulating {tflops:.1}"),
		};
		out.push((
			format!("GEMM {} {}x{}x{}", p.name(), args.rate_dim, args.rate_dim, args.chunk_k),
			ratio.is_none_or(|q| q >= 0.97),
			detail,
		));
		report.push(json!({"precision": p.name(), "tflops_beta0": plain, "tflops_accumulating": tflops,
			"torch_tflops": reference, "ratio_beta0": ratio, "m": args.rate_dim, "n": args.rate_dim, "kc": args.chunk_k,
			"gemms": samples.len(), "fp8_path": format!("{:?}", prover.fp8_path())}));
		if p == Precision::Fp8E4M3 && prover.fp8_path() != Fp8Path::Int8 {
			// The int8 path's rate (int8 tensor cores): every int8 alias's rate follows from it.
			let before = prover.fp8_path();
			prover.set_fp8_path(Fp8Path::Int8);
			let measured = (|| -> anyhow::Result<(f64, f64)> {
				let _ = prover.gemm_only(&spec, p, Some(3), false)?;
				Ok((rate(&prover.gemm_only(&spec, p, None, false)?), rate(&prover.gemm_only(&spec, p, None, true)?)))
			})();
			prover.set_fp8_path(before);
			let (plain8, acc8) = measured?;
			out.push((
				format!("GEMM int8 (fp8's int8 path) {}x{}x{}", args.rate_dim, args.rate_dim, args.chunk_k),
				true,
				format!("{plain8:.1} TOPS; accumulating {acc8:.1}; fp8 native {tflops:.1} ({:.3}x)", acc8 / tflops),
			));
			report.push(json!({"precision": "int8", "tflops_beta0": plain8, "tflops_accumulating": acc8,
				"m": args.rate_dim, "n": args.rate_dim, "kc": args.chunk_k}));
		}
	}
	let copy = prover.copy_bandwidth(2 << 30, 20)?;
	let torch_copy = torch.as_ref().and_then(|t| t["copy_gbps"].as_f64());
	out.push((
		"device copy bandwidth".into(),
		true,
		match torch_copy {
			Some(t) => format!("{copy:.0} GB/s (read + write), PyTorch {t:.0}"),
			None => format!("{copy:.0} GB/s (read + write)"),
		},
	));
	report.push(json!({"copy_gbps": copy, "torch_copy_gbps": torch_copy}));
	Ok((Value::Array(report), rates))
}

fn full_size(
	prover: &GpuProver,
	args: &SelftestConfig,
	rates: &[(Precision, f64)],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<Value> {
	let info = prover.info();
	let list = if args.full_precisions.is_empty() { vec![Precision::Bf16] } else { args.full_precisions.clone() };
	let mut report = Vec::new();
	for p in list {
		let tflops = rates.iter().find(|r| r.0 == p).map(|r| r.1).unwrap_or(100.0);
		let dims = sizing::challenge_dims(info.vram_mib, (tflops * 1000.0) as u32, args.full_ms);
		let spec = ChallengeSpec { seed: [0xF0 ^ p.index() as u8; 32], precision: p, dims, chunk_k: args.chunk_k };
		let prepare_s = prover.prepare(&spec, p)?.as_secs_f64();
		tracing::info!(?dims, precision = p.name(), prepare_s, "full-size proof");
		let com = prover.prove_in(&spec, p, &|_| {})?;
		let timing = com.timing().clone();
		let leaves = pick_leaves(dims.num_leaves(), 4);
		let opened = com.open(&leaves)?;
		let proofs_ok = opened.iter().all(|o| verify_opening(&com.root(), &dims, o.leaf, &o.values, &o.proof));
		drop(com);
		let mut r = ratios(&spec, &opened.iter().map(|o| (o.leaf, o.values.clone())).collect::<Vec<_>>()[..1]);
		let worst = r.iter().copied().fold(0.0, f64::max);
		let _ = median(&mut r);
		let samples = prover.gemm_only(&spec, p, None, true)?;
		let gemm_wall = samples.last().map(|s| s.start_ms + s.ms).unwrap_or(0.0)
			- samples.first().map(|s| s.start_ms).unwrap_or(0.0);
		let total_ms = timing.total.as_secs_f64() * 1e3;
		let overhead = total_ms / gemm_wall - 1.0;
		let parts_ms = (timing.generation + timing.hashing + timing.tree).as_secs_f64() * 1e3;
		let detail = format!(
			"{}x{}x{} total {:.2} s vs pure GEMM {:.2} s: +{:.2}% (gen {:.0} ms, hash {:.0} ms, tree {:.1} ms; {:.1} TFLOPS; tuning before: {:.2} s)",
			dims.m, dims.n, dims.k, total_ms / 1e3, gemm_wall / 1e3, overhead * 100.0,
			timing.generation.as_secs_f64() * 1e3, timing.hashing.as_secs_f64() * 1e3, timing.tree.as_secs_f64() * 1e3,
			dims.flops() as f64 / (timing.gemm.as_secs_f64()) / 1e12,
			prepare_s,
		);
		out.push((format!("overhead full size {}", p.name()), overhead <= 0.03 && proofs_ok && worst <= 1.0, detail));
		report.push(json!({"precision": p.name(), "dims": dims, "timing": timing, "pure_gemm_ms": gemm_wall,
			"total_ms": total_ms, "overhead": overhead, "gen_hash_tree_ms": parts_ms,
			"gen_hash_tree_over_gemm": parts_ms / (timing.gemm.as_secs_f64() * 1e3),
			"proofs_verify": proofs_ok, "worst_ratio_256_entries": worst, "prepare_s": prepare_s}));
	}
	Ok(Value::Array(report))
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
