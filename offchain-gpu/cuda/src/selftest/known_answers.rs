//! Known answers: generation, the memory phase, commitments and KAT vectors equal the CPU's bit for bit.

use super::*;

pub(super) fn hex(h: &[u8]) -> String {
	h.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn unhex(s: &str) -> anyhow::Result<Hash32> {
	let mut out = [0u8; 32];
	if s.len() != 64 {
		bail!("bad hash {s}");
	}
	for (i, o) in out.iter_mut().enumerate() {
		*o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)?;
	}
	Ok(out)
}

pub(super) fn seed_from(s: &str) -> anyhow::Result<[u8; 32]> {
	unhex(s)
}

/// Element bits of stored bytes (`width` bytes each, little-endian).
pub(super) fn words(bytes: &[u8], width: usize) -> Vec<u32> {
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
pub(super) fn cpu_chunk(spec: &ChallengeSpec, compute: Precision, matrix: Matrix, k0: u32, kc: u32) -> Vec<u32> {
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
pub(super) fn int8_chunk(spec: &ChallengeSpec, matrix: Matrix, k0: u32, kc: u32) -> Vec<u8> {
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

/// Known answers: generation, the KAT file, and small commitments.
pub(super) fn known_answers(
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
	let kat: Value = serde_json::from_str(include_str!("../../../../pallets/pog/primitives/kat/vectors.json"))?;
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
	use crate::{
		kernels::WalkShape,
		memory::Residency::{Whole, WholeIn},
	};
	use pog_primitives::memory::GROUP_WALKS;
	let m = &kat["memory"];
	let mspec = pog_primitives::memory::MemorySpec {
		seed: seed_from(m["seed"].as_str().context("memory seed")?)?,
		cache_items: m["cache_items"].as_u64().context("cache_items")? as u32,
		dataset_items: m["dataset_items"].as_u64().context("dataset_items")?,
		parents: m["parents"].as_u64().context("parents")? as u32,
		reads: m["reads"].as_u64().context("reads")? as u32,
		lanes: 0,
	};
	let cache = pog_primitives::memory::cache(&mspec);
	let last = mspec.dataset_items - 1;
	let run = prover.memory_phase(&mspec, &cache, 0..1 << 20, &[0, 1, 2, 3, 999_999], &[0, 12_345, last], Whole)?;
	// the commitment over 2^16 walks, and a walk index past 2^32
	let rooted = prover.memory_phase(&mspec, &cache, 0..1 << 16, &[], &[], Whole)?;
	// the same walks in the wide shape (sixteen a quad), which large datasets are walked in
	let wide = prover.memory_phase(&mspec, &cache, 0..1 << 16, &[0, 1, 2, 3], &[], WholeIn(WalkShape::Wide))?;
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
		serde_json::to_value(wide.kept.iter().map(|h| hex(h)).collect::<Vec<_>>())? == m["walks_0_3"],
		hex(&wide.root) == m["walk_root_65536"].as_str().unwrap_or(""),
	];
	let mem_ok = mem_checks.iter().filter(|c| **c).count();
	if mem_ok != mem_checks.len() {
		tracing::error!(?mem_checks, "memory-hard phase known answers differ");
	}
	out.push((
		"memory phase = CPU (items, walks, both walk shapes)".into(),
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
pub(super) struct WalkOpening {
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
pub(super) fn open_walk_groups(prover: &GpuProver) -> anyhow::Result<WalkOpening> {
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
