//! The memory-hard phase on a device (`pog_primitives::memory`): a [`MemoryProver`] fills the
//! dataset, runs the walks and commits to their results, keeping one node per group of
//! [`GROUP_WALKS`] walks. The [`MemoryCommitment`] it returns opens a walk by recomputing its
//! group from the cache, so nothing of the dataset need outlive the phase: the same GPU's memory
//! then holds the GEMM.
//!
//! A per-core CPU unit's phase is lanes instead (`pog_primitives::lanes`): [`prove_lanes`] runs
//! them on the CPU's cores, and its commitment keeps every link's result (a link cannot be run
//! again without the ones before it).

use std::time::{Duration, Instant};

use anyhow::{bail, ensure};
use pog_primitives::{
	lanes,
	memory::{self, levels_from, proof_from, Item, MemoryChallenge, MemoryKind, MemorySpec, GROUP_WALKS},
	Hash32,
};

/// One opened walk with its path (siblings from the leaf level up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedWalk {
	/// Walk index.
	pub walk: u64,
	/// Its result.
	pub result: Hash32,
	/// Sibling hashes, leaf level first.
	pub proof: Vec<Hash32>,
}

/// A device that runs memory-hard phases.
pub trait MemoryProver: Send + Sync {
	/// Runs `challenge`'s phase: the dataset, every walk, and the commitment to their results.
	fn prove_memory(&self, challenge: &MemoryChallenge) -> anyhow::Result<MemoryCommitment>;

	/// The results of every walk of each group in `groups` (one `Vec` of [`GROUP_WALKS`] a group,
	/// in the order asked), from `spec`'s `cache` alone: what opening a walk needs once the
	/// dataset is gone. The default runs `memory::group_results` on all cores; a GPU runs them
	/// on the device.
	fn group_results(&self, spec: &MemorySpec, cache: &[Item], groups: &[u64]) -> anyhow::Result<Vec<Vec<Hash32>>> {
		Ok(groups_on_cpu(spec, cache, groups))
	}
}

/// `memory::group_results` of each of `groups`, spread over the machine's cores.
pub fn groups_on_cpu(spec: &MemorySpec, cache: &[Item], groups: &[u64]) -> Vec<Vec<Hash32>> {
	let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(groups.len().max(1));
	let mut done: Vec<(usize, Vec<Hash32>)> = std::thread::scope(|s| {
		let handles: Vec<_> = (0..threads)
			.map(|t| {
				s.spawn(move || {
					groups
						.iter()
						.enumerate()
						.skip(t)
						.step_by(threads)
						.map(|(i, g)| (i, memory::group_results(spec, cache, *g)))
						.collect::<Vec<_>>()
				})
			})
			.collect();
		handles.into_iter().flat_map(|h| h.join().expect("a group's thread")).collect()
	});
	done.sort_unstable_by_key(|(i, _)| *i);
	done.into_iter().map(|(_, r)| r).collect()
}

/// Runs `challenge`'s lane phase on `threads` CPU threads: each thread takes lanes in turn, makes
/// the lane's pad and runs its links in order. The fill's time is the longest a thread spent on
/// pads.
pub fn prove_lanes(challenge: &MemoryChallenge, threads: usize) -> anyhow::Result<MemoryCommitment> {
	let spec = &challenge.spec;
	let MemoryKind::Lanes(lane_count) = spec.kind() else { bail!("not a lane phase: {spec:?}") };
	ensure!(spec.is_valid(), "invalid lane phase {spec:?}");
	let links = lanes::links_per_lane(challenge);
	let threads = threads.clamp(1, lane_count as usize);
	let started = Instant::now();
	let mut done: Vec<(u32, Vec<Hash32>, Duration)> = std::thread::scope(|s| {
		let handles: Vec<_> = (0..threads as u32)
			.map(|t| {
				s.spawn(move || {
					(t..lane_count)
						.step_by(threads)
						.map(|lane| {
							let at = Instant::now();
							let pad = lanes::pad(&spec.seed, lane);
							let pad_time = at.elapsed();
							(lane, lanes::lane_results(spec, lane, links, &pad), pad_time)
						})
						.collect::<Vec<_>>()
				})
			})
			.collect();
		handles.into_iter().flat_map(|h| h.join().expect("a lane's thread")).collect()
	});
	let elapsed = started.elapsed();
	let mut fill = vec![Duration::ZERO; threads];
	for (lane, _, pad_time) in &done {
		fill[*lane as usize % threads] += *pad_time;
	}
	let fill = fill.into_iter().max().unwrap_or_default();
	done.sort_unstable_by_key(|(lane, ..)| *lane);
	let results = done.into_iter().flat_map(|(_, r, _)| r).collect();
	MemoryCommitment::of_results(*challenge, results, fill, elapsed.saturating_sub(fill))
}

/// What a commitment keeps to open a walk.
enum Kept {
	/// The cache, to recompute an opened walk's group: the tree is kept from the group nodes up.
	Cache(Vec<Item>),
	/// Nothing more: the tree is kept whole, every result included (a lane phase's).
	Results,
}

/// A committed memory phase: the group nodes and the tree above them, and the cache to recompute
/// a group when one of its walks is opened (a lane phase's: the whole tree).
pub struct MemoryCommitment {
	challenge: MemoryChallenge,
	kept: Kept,
	/// Levels of the tree from the group nodes (a lane phase's: the results) up to the root.
	top: Vec<Vec<Hash32>>,
	/// Time of the fill.
	pub fill: Duration,
	/// Time of the walks and the commitment.
	pub walks: Duration,
}

impl MemoryCommitment {
	/// The commitment of `challenge` given its cache and the root over each group's results.
	pub fn new(
		challenge: MemoryChallenge,
		cache: Vec<Item>,
		group_roots: Vec<Hash32>,
		fill: Duration,
		walks: Duration,
	) -> anyhow::Result<Self> {
		ensure!(
			group_roots.len() as u64 == challenge.walks.div_ceil(GROUP_WALKS),
			"{} group nodes for {} walks",
			group_roots.len(),
			challenge.walks
		);
		let top = levels_from(group_roots, GROUP_WALKS.trailing_zeros());
		Ok(Self { challenge, kept: Kept::Cache(cache), top, fill, walks })
	}

	/// The commitment of `challenge` given every walk's result (a lane phase's links).
	pub fn of_results(
		challenge: MemoryChallenge,
		results: Vec<Hash32>,
		fill: Duration,
		walks: Duration,
	) -> anyhow::Result<Self> {
		ensure!(results.len() as u64 == challenge.walks, "{} results for {} walks", results.len(), challenge.walks);
		Ok(Self { challenge, kept: Kept::Results, top: levels_from(results, 0), fill, walks })
	}

	/// The root over every walk's result.
	pub fn root(&self) -> Hash32 {
		self.top.last().and_then(|l| l.first().copied()).unwrap_or_default()
	}

	/// The challenge this commits to.
	pub fn challenge(&self) -> &MemoryChallenge {
		&self.challenge
	}

	/// Opens `walks` (in the order asked), each one's group of results recomputed from the cache
	/// by `device` (the GPU that ran the phase: ≈ 1,000× what the CPU does).
	pub fn open(&self, walks: &[u64], device: &dyn MemoryProver) -> anyhow::Result<Vec<OpenedWalk>> {
		ensure!(walks.iter().all(|w| *w < self.challenge.walks), "a walk beyond {}", self.challenge.walks);
		let cache = match &self.kept {
			Kept::Cache(cache) => cache,
			Kept::Results => {
				let result = |w: u64| self.top[0][w as usize];
				return Ok(walks
					.iter()
					.map(|w| OpenedWalk { walk: *w, result: result(*w), proof: proof_from(&self.top, 0, *w) })
					.collect());
			},
		};
		let mut groups: Vec<u64> = walks.iter().map(|w| w / GROUP_WALKS).collect();
		groups.sort_unstable();
		groups.dedup();
		let results = device.group_results(&self.challenge.spec, cache, &groups)?;
		ensure!(results.len() == groups.len(), "{} groups recomputed of {}", results.len(), groups.len());
		let recomputed: Vec<(u64, Vec<Vec<Hash32>>)> =
			groups.into_iter().zip(results).map(|(g, r)| (g, levels_from(r, 0))).collect();
		walks
			.iter()
			.map(|w| {
				let (g, low) = recomputed.iter().find(|(g, _)| *g == w / GROUP_WALKS).expect("recomputed");
				ensure!(low.last().map(|l| l[0]) == self.top[0].get(*g as usize).copied(), "group {g} differs");
				let mut proof = proof_from(low, 0, w % GROUP_WALKS);
				proof.extend(proof_from(&self.top, GROUP_WALKS.trailing_zeros(), *g));
				Ok(OpenedWalk { walk: *w, result: low[0][(w % GROUP_WALKS) as usize], proof })
			})
			.collect()
	}
}
