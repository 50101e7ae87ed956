//! The CPU backend: the protocol's reference GEMM from `pog-primitives` on all cores, the tree in
//! memory. It answers the same challenges as the GPU, only slowly: it is what CI and the dev
//! chain's `cpu-reference` profile use, and the fallback when no GPU is found.

use std::{
	sync::atomic::{AtomicU64, Ordering},
	time::{Duration, Instant},
};

use anyhow::ensure;
use pog_primitives::{
	commitment::{leaf_hash, leaf_position, proof_from_levels, tree_levels, Hash32},
	cpu::gemm_rows_rounded,
	verify::ChallengeSpec,
	LEAF_VALUES,
};

use super::{computed_precision, Committed, Mode, OpenedLeaf, Progress, Prover, Timing};

/// Rows of C computed per work item (one progress step).
const ROWS_PER_ITEM: u32 = 16;

/// The CPU prover.
pub struct CpuProver {
	threads: usize,
}

impl CpuProver {
	/// A prover on `threads` threads (0: all cores).
	pub fn new(threads: usize) -> Self {
		let all = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
		Self { threads: if threads == 0 { all } else { threads } }
	}
}

/// A C held in memory with all levels of its tree.
struct CpuCommitted {
	spec: ChallengeSpec,
	c: Vec<u32>,
	levels: Vec<Vec<Hash32>>,
	timing: Timing,
}

impl Prover for CpuProver {
	fn name(&self) -> String {
		format!("CPU ({} threads)", self.threads)
	}

	fn prove(&self, spec: &ChallengeSpec, mode: Mode, progress: Progress) -> anyhow::Result<Box<dyn Committed>> {
		ensure!(spec.dims.is_valid(), "invalid challenge dims {:?}", spec.dims);
		if mode == Mode::Constant {
			return Ok(Box::new(ConstantCommitted::new(spec)));
		}
		let (m, n) = (spec.dims.m, spec.dims.n as usize);
		// 4 GiB of C is far beyond what a CPU finishes in time; refuse rather than thrash.
		ensure!(
			u64::from(m) * n as u64 <= 1 << 28,
			"C of {}×{} is too large for the CPU backend; this challenge needs a GPU",
			m,
			n
		);
		let start = Instant::now();
		let lower = computed_precision(spec.precision, mode);
		let mantissa = (lower != spec.precision).then(|| lower.mantissa_bits());
		let mut c = vec![0u32; m as usize * n];
		let items = m.div_ceil(ROWS_PER_ITEM);
		let threads = self.threads.min(items as usize).max(1);
		// Deal the row blocks out round-robin, so every thread gets a share of the whole of C.
		let mut shares: Vec<Vec<(u32, &mut [u32])>> = (0..threads).map(|_| Vec::new()).collect();
		for (item, block) in c.chunks_mut(ROWS_PER_ITEM as usize * n).enumerate() {
			shares[item % threads].push((item as u32, block));
		}
		let done = AtomicU64::new(0);
		let gemm_start = Instant::now();
		let item_times = std::sync::Mutex::new(Vec::with_capacity(items as usize));
		std::thread::scope(|scope| {
			for share in shares {
				let (done, item_times) = (&done, &item_times);
				scope.spawn(move || {
					for (item, out) in share {
						let row0 = item * ROWS_PER_ITEM;
						out.copy_from_slice(&gemm_rows_rounded(spec, row0, ROWS_PER_ITEM.min(m - row0), mantissa));
						item_times.lock().expect("no panics while held").push(gemm_start.elapsed());
						let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
						progress(finished as f64 / f64::from(items));
					}
				});
			}
		});
		let gemm = gemm_start.elapsed();
		if let Mode::CorruptPermille(permille) = mode {
			corrupt(&mut c, permille, &spec.seed);
		}
		let hash_start = Instant::now();
		let hashes: Vec<Hash32> = c.chunks(LEAF_VALUES).map(leaf_hash).collect();
		let hashing = hash_start.elapsed();
		let tree_start = Instant::now();
		let levels = tree_levels(hashes);
		let tree = tree_start.elapsed();
		let mut times = item_times.into_inner().expect("threads joined");
		times.sort();
		let timing = Timing {
			total: start.elapsed(),
			gemm,
			generation: Duration::ZERO, // generated inside the GEMM loop, counted in `gemm`
			hashing,
			tree,
			interval_ms: 1000,
			trace_gflops: trace(&times, spec.dims.flops() / u128::from(items), 1000),
		};
		Ok(Box::new(CpuCommitted { spec: *spec, c, levels, timing }))
	}
}

/// GFLOPS per `interval_ms` interval from the completion times of equal work items.
pub fn trace(done_at: &[Duration], flops_per_item: u128, interval_ms: u32) -> Vec<u32> {
	let Some(last) = done_at.last() else { return Vec::new() };
	let buckets = (last.as_millis() / u128::from(interval_ms)) as usize + 1;
	let mut count = vec![0u128; buckets];
	for t in done_at {
		count[(t.as_millis() / u128::from(interval_ms)) as usize] += 1;
	}
	count
		.into_iter()
		.map(|c| (c * flops_per_item * 1000 / u128::from(interval_ms) / 1_000_000_000).min(u128::from(u32::MAX)) as u32)
		.collect()
}

/// Adds a large error to about `permille`/1000 of C's entries (at least one), chosen from `seed`.
fn corrupt(c: &mut [u32], permille: u16, seed: &[u8; 32]) {
	use rand::{Rng, SeedableRng};
	let mut rng = rand::rngs::StdRng::from_seed(*seed);
	let count = (c.len() as u64 * u64::from(permille) / 1000).max(1);
	for _ in 0..count {
		let i = rng.random_range(0..c.len());
		c[i] = (f32::from_bits(c[i]) + 1000.0).to_bits();
	}
}

/// A constant C: every leaf is the same, so every level of the tree is one hash.
struct ConstantCommitted {
	/// The entries' value (fp32 bits).
	value: u32,
	/// The node hash of each level, leaves first, root last.
	levels: Vec<Hash32>,
	timing: Timing,
}

impl ConstantCommitted {
	fn new(spec: &ChallengeSpec) -> Self {
		let word = u32::from_le_bytes([spec.seed[0], spec.seed[1], spec.seed[2], spec.seed[3]]);
		let value = 0x3f80_0000 | (word & 0x007f_ffff); // in [1, 2)
		let mut levels = vec![leaf_hash(&[value; LEAF_VALUES])];
		for _ in 0..spec.dims.tree_depth() {
			let below = *levels.last().expect("non-empty");
			levels.push(pog_primitives::commitment::keccak256_concat(&[&below, &below]));
		}
		Self { value, levels, timing: Timing::default() }
	}
}

impl Committed for ConstantCommitted {
	fn root(&self) -> Hash32 {
		*self.levels.last().expect("non-empty")
	}

	fn timing(&self) -> &Timing {
		&self.timing
	}

	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>> {
		let depth = self.levels.len() - 1;
		Ok(leaves
			.iter()
			.map(|&leaf| OpenedLeaf {
				leaf,
				values: vec![self.value; LEAF_VALUES],
				proof: self.levels[..depth].to_vec(),
			})
			.collect())
	}
}

impl Committed for CpuCommitted {
	fn root(&self) -> Hash32 {
		self.levels.last().expect("a tree has a root level")[0]
	}

	fn timing(&self) -> &Timing {
		&self.timing
	}

	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>> {
		leaves
			.iter()
			.map(|&leaf| {
				ensure!(leaf < self.spec.dims.num_leaves(), "leaf {leaf} is outside C");
				let (row, col0) = leaf_position(&self.spec.dims, leaf);
				let start = (row * self.spec.dims.n + col0) as usize;
				Ok(OpenedLeaf {
					leaf,
					values: self.c[start..start + LEAF_VALUES].to_vec(),
					proof: proof_from_levels(&self.levels, leaf),
				})
			})
			.collect()
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use pog_primitives::{
		commitment::{root_of_matrix, verify_opening},
		cpu::gemm,
		sampling::opened_leaves,
		verify::check_openings,
		Dims, Precision,
	};

	fn spec(precision: Precision) -> ChallengeSpec {
		ChallengeSpec { seed: [3u8; 32], precision, dims: Dims { m: 256, n: 512, k: 1024 }, chunk_k: 512 }
	}

	#[test]
	fn honest_cpu_result_is_the_reference_and_passes_verification() {
		let prover = CpuProver::new(2);
		for p in Precision::ALL {
			let s = spec(p);
			let committed = prover.prove(&s, Mode::Honest, &|_| {}).unwrap();
			assert_eq!(committed.root(), root_of_matrix(&gemm(&s)), "{p:?}");
			let leaves = opened_leaves(&[9u8; 32], s.dims.num_leaves(), 16);
			let opened = committed.open(&leaves).unwrap();
			for o in &opened {
				assert!(verify_opening(&committed.root(), &s.dims, o.leaf, &o.values, &o.proof));
			}
			let report = check_openings(&s, opened.iter().map(|o| (o.leaf, o.values.as_slice())), 4, &[5u8; 32]);
			assert!(report.passed(), "{p:?}: {report:?}");
		}
	}

	#[test]
	fn cheating_cpu_results_fail_verification() {
		let prover = CpuProver::new(2);
		for (p, mode) in [
			(Precision::Fp32, Mode::LowerPrecision),
			(Precision::Fp16, Mode::LowerPrecision),
			(Precision::Bf16, Mode::CorruptPermille(1000)),
		] {
			let s = spec(p);
			let committed = prover.prove(&s, mode, &|_| {}).unwrap();
			let leaves = opened_leaves(&[9u8; 32], s.dims.num_leaves(), 16);
			let opened = committed.open(&leaves).unwrap();
			let report = check_openings(&s, opened.iter().map(|o| (o.leaf, o.values.as_slice())), 4, &[5u8; 32]);
			assert!(!report.passed(), "{p:?} {mode:?} was accepted");
		}
	}

	#[test]
	fn a_constant_commitment_opens_consistently_and_fails_verification() {
		let prover = CpuProver::new(1);
		let s = spec(Precision::Fp32);
		let zero = prover.prove(&s, Mode::Constant, &|_| {}).unwrap();
		let value = zero.open(&[0]).unwrap()[0].values[0];
		assert_eq!(zero.root(), root_of_matrix(&vec![value; (s.dims.m * s.dims.n) as usize]));
		let opened = zero.open(&[0, 5, 77]).unwrap();
		for o in &opened {
			assert!(verify_opening(&zero.root(), &s.dims, o.leaf, &o.values, &o.proof));
		}
		let report = check_openings(&s, opened.iter().map(|o| (o.leaf, o.values.as_slice())), 4, &[5u8; 32]);
		assert!(!report.passed());
	}

	#[test]
	fn trace_buckets_work_by_completion_time() {
		let t = |ms| Duration::from_millis(ms);
		// 4 items of 1 GFLOP: 3 in the first second, 1 in the third.
		assert_eq!(trace(&[t(100), t(500), t(900), t(2500)], 1_000_000_000, 1000), vec![3, 0, 1]);
	}
}
