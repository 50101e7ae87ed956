//! The memory-hard phase on a device (`pog_primitives::memory`): a [`MemoryProver`] fills the
//! dataset, runs the walks and commits to their results, keeping one node per group of
//! [`GROUP_WALKS`] walks. The [`MemoryCommitment`] it returns opens a walk by recomputing its
//! group from the cache, so nothing of the dataset need outlive the phase: the same GPU's memory
//! then holds the GEMM.

use std::time::Duration;

use anyhow::ensure;
use pog_primitives::{
	memory::{self, levels_from, proof_from, Item, MemoryChallenge, MemorySpec, GROUP_WALKS},
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

/// A committed memory phase: the group nodes and the tree above them, and the cache to recompute
/// a group when one of its walks is opened.
pub struct MemoryCommitment {
	challenge: MemoryChallenge,
	cache: Vec<Item>,
	/// Levels of the tree from the group nodes up to the root.
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
		Ok(Self { challenge, cache, top, fill, walks })
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
		let mut groups: Vec<u64> = walks.iter().map(|w| w / GROUP_WALKS).collect();
		groups.sort_unstable();
		groups.dedup();
		let results = device.group_results(&self.challenge.spec, &self.cache, &groups)?;
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
