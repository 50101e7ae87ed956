//! The CPU prover: the protocol's reference GEMM from `pog-primitives` on all cores, C and its
//! tree in memory. It answers the same challenges as a GPU, only slowly: it is what CI and the
//! dev chain's `cpu-reference` profile use, and the fallback when no GPU is found.

use std::{
	sync::{
		atomic::{AtomicU64, Ordering},
		Mutex,
	},
	time::{Duration, Instant},
};

use anyhow::ensure;
use pog_primitives::{
	commitment::CommittedMatrix,
	cpu::gemm_rows_rounded,
	memory::{self, MemoryChallenge, MemoryKind, GROUP_WALKS},
	verify::ChallengeSpec,
	Hash32,
};

use crate::{
	memory::{MemoryCommitment, MemoryProver},
	trace::{resample, GemmSample},
	Committed, OpenedLeaf, Progress, Prover, Timing,
};

/// Rows of C computed per work item (one progress step, one sample of the trace).
const ROWS_PER_ITEM: u32 = 16;
/// Interval of the CPU's throughput trace.
const TRACE_INTERVAL_MS: f64 = 1000.0;
/// Largest C the CPU prover accepts (entries): 1 GiB of fp32. A CPU finishes nothing larger in
/// time, so it refuses rather than thrash.
pub const MAX_ENTRIES: u64 = 1 << 28;

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

	/// C of `spec` with operands rounded to `mantissa_bits` when given, on all threads, with the
	/// GEMM's time and trace.
	fn compute(
		&self,
		spec: &ChallengeSpec,
		mantissa_bits: Option<u32>,
		progress: Progress,
	) -> anyhow::Result<(Vec<u32>, Duration, Vec<GemmSample>)> {
		ensure!(spec.dims.is_valid(), "invalid challenge dims {:?}", spec.dims);
		let (m, n) = (spec.dims.m, spec.dims.n as usize);
		ensure!(
			u64::from(m) * n as u64 <= MAX_ENTRIES,
			"C of {}×{} is too large for the CPU backend; this challenge needs a GPU",
			m,
			n
		);
		let mut c = vec![0u32; m as usize * n];
		let items = m.div_ceil(ROWS_PER_ITEM);
		let threads = self.threads.min(items as usize).max(1);
		// Deal the row blocks out round-robin, so every thread gets a share of the whole of C.
		let mut shares: Vec<Vec<(u32, &mut [u32])>> = (0..threads).map(|_| Vec::new()).collect();
		for (item, block) in c.chunks_mut(ROWS_PER_ITEM as usize * n).enumerate() {
			shares[item % threads].push((item as u32, block));
		}
		let done = AtomicU64::new(0);
		let started = Instant::now();
		let samples = Mutex::new(Vec::with_capacity(items as usize));
		let ms_since = |t: Instant| t.duration_since(started).as_secs_f64() * 1e3;
		std::thread::scope(|scope| {
			for share in shares {
				let (done, samples) = (&done, &samples);
				scope.spawn(move || {
					for (item, out) in share {
						let item_start = Instant::now();
						let row0 = item * ROWS_PER_ITEM;
						let rows = ROWS_PER_ITEM.min(m - row0);
						out.copy_from_slice(&gemm_rows_rounded(spec, row0, rows, mantissa_bits));
						let sample = GemmSample {
							start_ms: ms_since(item_start),
							ms: item_start.elapsed().as_secs_f64() * 1e3,
							flops: (2 * u64::from(rows) * n as u64 * u64::from(spec.dims.k)) as f64,
						};
						samples.lock().unwrap_or_else(|p| p.into_inner()).push(sample);
						let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
						progress(finished as f64 / f64::from(items));
					}
				});
			}
		});
		Ok((c, started.elapsed(), samples.into_inner().unwrap_or_else(|p| p.into_inner())))
	}

	fn commit(
		spec: &ChallengeSpec,
		c: Vec<u32>,
		gemm: Duration,
		samples: &[GemmSample],
		started: Instant,
	) -> Box<dyn Committed> {
		let hash_start = Instant::now();
		let committed = CommittedMatrix::new(c);
		let hashing = hash_start.elapsed();
		let (interval_ms, trace_gflops) = resample(samples, Some(TRACE_INTERVAL_MS));
		let timing = Timing {
			total: started.elapsed(),
			gemm,
			generation: Duration::ZERO, // generated inside the GEMM loop, counted in `gemm`
			hashing,
			tree: Duration::ZERO, // the tree is built with the leaf hashes, counted in `hashing`
			interval_ms,
			trace_gflops,
		};
		Box::new(CpuCommitted { spec: *spec, committed, timing })
	}
}

/// A C held in memory with all levels of its tree.
pub struct CpuCommitted {
	spec: ChallengeSpec,
	committed: CommittedMatrix,
	timing: Timing,
}

impl CpuCommitted {
	/// C committed as it is (whoever computed it), with `timing`.
	pub fn new(spec: &ChallengeSpec, c: Vec<u32>, timing: Timing) -> Self {
		Self { spec: *spec, committed: CommittedMatrix::new(c), timing }
	}
}

impl Prover for CpuProver {
	fn name(&self) -> String {
		format!("CPU ({} threads)", self.threads)
	}

	fn prove(&self, spec: &ChallengeSpec, progress: Progress) -> anyhow::Result<Box<dyn Committed>> {
		let started = Instant::now();
		let (c, gemm, samples) = self.compute(spec, None, progress)?;
		Ok(Self::commit(spec, c, gemm, &samples, started))
	}

	fn prove_rounded(
		&self,
		spec: &ChallengeSpec,
		mantissa_bits: u32,
		progress: Progress,
	) -> anyhow::Result<Box<dyn Committed>> {
		let started = Instant::now();
		let (c, gemm, samples) = self.compute(spec, Some(mantissa_bits), progress)?;
		Ok(Self::commit(spec, c, gemm, &samples, started))
	}
}

impl Committed for CpuCommitted {
	fn root(&self) -> pog_primitives::Hash32 {
		self.committed.root()
	}

	fn timing(&self) -> &Timing {
		&self.timing
	}

	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>> {
		leaves
			.iter()
			.map(|&leaf| {
				let (values, proof) = self
					.committed
					.open(leaf)
					.ok_or_else(|| anyhow::anyhow!("leaf {leaf} is outside C of {:?}", self.spec.dims))?;
				Ok(OpenedLeaf { leaf, values: values.to_vec(), proof })
			})
			.collect()
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::test_support::passes_verification;
	use pog_primitives::{commitment::root_of_matrix, cpu::gemm, Dims, Precision};

	fn spec(precision: Precision) -> ChallengeSpec {
		ChallengeSpec { seed: [3u8; 32], precision, dims: Dims { m: 256, n: 512, k: 1024 }, chunk_k: 512 }
	}

	#[test]
	fn honest_cpu_result_is_the_reference_and_passes_verification() {
		let prover = CpuProver::new(2);
		for p in Precision::ALL {
			let s = spec(p);
			let committed = prover.prove(&s, &|_| {}).unwrap();
			assert_eq!(committed.root(), root_of_matrix(&gemm(&s)), "{p:?}");
			assert!(passes_verification(&s, committed.as_ref()), "{p:?}");
			let t = committed.timing();
			assert_eq!(t.interval_ms, TRACE_INTERVAL_MS as u32);
			assert!(!t.trace_gflops.is_empty());
		}
	}

	#[test]
	fn results_with_rounded_operands_fail_verification_in_every_precision() {
		let prover = CpuProver::new(2);
		for p in Precision::ALL {
			let s = spec(p);
			let committed = prover.prove_rounded(&s, p.substitute_mantissa_bits(), &|_| {}).unwrap();
			assert!(
				!passes_verification(&s, committed.as_ref()),
				"{p:?} with {} mantissa bits was accepted",
				p.substitute_mantissa_bits()
			);
		}
	}

	#[test]
	fn a_c_too_large_for_a_cpu_is_refused() {
		let s = ChallengeSpec { dims: Dims { m: 1 << 15, n: 1 << 14, k: 256 }, ..spec(Precision::Fp16) };
		let err = CpuProver::new(1).prove(&s, &|_| {}).err().expect("refused").to_string();
		assert!(err.contains("too large for the CPU backend"), "{err}");
	}
}

impl MemoryProver for CpuProver {
	/// The dataset in host memory (filled on all threads), then the walks group by group on all
	/// threads, each group reduced to its node; a per-core unit's lanes on all threads.
	fn prove_memory(&self, challenge: &MemoryChallenge) -> anyhow::Result<MemoryCommitment> {
		let spec = &challenge.spec;
		if let MemoryKind::Lanes(_) = spec.kind() {
			return crate::memory::prove_lanes(challenge, self.threads);
		}
		ensure!(spec.is_valid(), "invalid memory spec {spec:?}");
		ensure!(
			spec.dataset_bytes() <= MAX_ENTRIES * 4,
			"a dataset of {} MiB is too large for the CPU backend; this challenge needs a GPU",
			spec.dataset_bytes() >> 20
		);
		let threads = self.threads.max(1);
		let started = Instant::now();
		let cache = memory::cache(spec);
		let items = spec.dataset_items as usize;
		let mut dataset = vec![[0u32; memory::ITEM_WORDS]; items];
		let per = items.div_ceil(threads).max(1);
		std::thread::scope(|s| {
			for (t, chunk) in dataset.chunks_mut(per).enumerate() {
				let cache = &cache;
				s.spawn(move || {
					for (i, item) in chunk.iter_mut().enumerate() {
						*item = memory::dataset_item(spec, cache, (t * per + i) as u64);
					}
				});
			}
		});
		let fill = started.elapsed();
		let groups = challenge.walks.div_ceil(GROUP_WALKS);
		let dataset = &dataset;
		let mut roots: Vec<(u64, Hash32)> = std::thread::scope(|s| {
			let handles: Vec<_> = (0..threads as u64)
				.map(|t| {
					s.spawn(move || {
						(t..groups)
							.step_by(threads)
							.map(|g| {
								let results: Vec<Hash32> = (g * GROUP_WALKS..(g + 1) * GROUP_WALKS)
									.map(|w| memory::walk(spec, w, |i| dataset[i as usize]))
									.collect();
								(g, memory::walk_root(&results))
							})
							.collect::<Vec<_>>()
					})
				})
				.collect();
			handles.into_iter().flat_map(|h| h.join().expect("a walk thread")).collect()
		});
		roots.sort_unstable_by_key(|(g, _)| *g);
		let walks = started.elapsed() - fill;
		MemoryCommitment::new(*challenge, cache, roots.into_iter().map(|(_, r)| r).collect(), fill, walks)
	}
}

#[cfg(test)]
mod memory_tests {
	use pog_primitives::{
		memory::{challenge, check_walks, MemoryRules},
		sampling::opened_walks,
	};

	use super::*;

	#[test]
	fn the_cpu_prover_commits_to_the_walks_and_opens_any_of_them() {
		let rules = MemoryRules { walk_ms: 3, ..MemoryRules::dev() };
		// a 4 MiB unit reading 200 M/s for 3 ms: 600,000 reads, 9,375 walks, in 10 groups
		let c = challenge(&[8; 32], 4, 200, 16, &rules).unwrap();
		assert_eq!(c.walks, 10 * GROUP_WALKS);
		let prover = CpuProver::new(2);
		let committed = prover.prove_memory(&c).unwrap();
		let cache = memory::cache(&c.spec);
		let results: Vec<Hash32> = (0..c.walks).map(|w| memory::walk_from_cache(&c.spec, &cache, w)).collect();
		assert_eq!(committed.root(), memory::walk_root(&results), "the root over every walk");
		let asked = opened_walks(&[1; 32], c.walks, 16);
		let opened = committed.open(&asked, &prover).unwrap();
		assert_eq!(opened.iter().map(|o| o.walk).collect::<Vec<_>>(), asked);
		let report =
			check_walks(&c, &cache, &committed.root(), opened.iter().map(|o| (o.walk, &o.result, o.proof.as_slice())));
		assert!(report.passed(), "{report:?}");
		assert!(committed.open(&[c.walks], &prover).is_err(), "no walk past the last");
	}

	/// A per-core unit of 3 cores: its lanes on two threads, every opened link right from the
	/// parents its path shows.
	#[test]
	fn the_cpu_prover_runs_a_units_lanes_and_opens_any_link() {
		use pog_primitives::lanes;
		let rules = MemoryRules { lane_ms: 2, ..MemoryRules::dev() };
		// 3 lanes at 20 M steps a second each for 2 ms: 40,000 steps a lane, 32 links of 1,250
		let c = lanes::challenge(&[8; 32], 3, 60, 3, &rules).unwrap();
		assert_eq!((c.walks, c.spec.reads), (3 * 32, 1_250));
		let prover = CpuProver::new(2);
		let committed = prover.prove_memory(&c).unwrap();
		let results: Vec<Hash32> =
			(0..3).flat_map(|l| lanes::lane_results(&c.spec, l, 32, &lanes::pad(&c.spec.seed, l))).collect();
		assert_eq!(committed.root(), memory::walk_root(&results), "the root over every link");
		let asked = opened_walks(&[1; 32], c.walks, 16);
		for o in committed.open(&asked, &prover).unwrap() {
			assert!(memory::verify_walk(&committed.root(), c.walks, o.walk, &o.result, &o.proof), "{}", o.walk);
			let parents = lanes::parents_digest(&c, o.walk, &o.proof);
			assert!(lanes::link_is_right(&c, o.walk, &o.result, &parents), "link {}", o.walk);
		}
		assert!(committed.open(&[c.walks], &prover).is_err(), "no link past the last");
	}
}
