//! The memory phase of a per-core CPU unit: **lanes** of dependent reads, one lane a claimed core.
//!
//! The GPU phase ([`crate::memory`]) is bandwidth-bound: billions of short walks, as many in
//! flight as the memory system holds. A GPU's memory system is built for that, so a GPU would
//! answer a CPU unit's phase of that shape in its idle time. A lane is the opposite: one long
//! sequence of reads, each read's index taken from the items read before it, over the lane's own
//! 1 MiB **pad**. A CPU core keeps its pad in its L2 cache and takes nanoseconds a read; a GPU
//! thread keeps it in HBM (1 MiB is more than an SM's shared memory, and a 4,096-lane unit's
//! 4 GiB is 80 times its L2) and waits a memory latency a read, however many lanes it runs side by
//! side. `docs/protocol.md` ("The per-core memory phase") has the measured rates.
//!
//! From the phase's seed (a [`MemorySpec`] with `lanes` > 0):
//! - **pad** item `j` of lane `l` is the expansion of `PAD_TAG ‖ seed ‖ l ‖ j` (two Keccaks, so
//!   a prover cannot make an item faster than it reads one);
//! - a lane is `2^d` **links** of `spec.reads` steps each, and its links are the leaves of a
//!   Merkle tree of depth `d` (inner nodes `keccak(left ‖ right)`, as every tree of this crate).
//!   Link `i` starts from the expansion of `LINK_TAG ‖ seed ‖ l ‖ i ‖ p`, where `p` is the Keccak
//!   of its **parents**: the left siblings on its path to the lane's root (the roots of every
//!   subtree of links before it). This is the graph of Cohen and Pietrzak's *Simple Proofs of
//!   Sequential Work* (2018) with a link for each leaf's hash: link `i` cannot start before every
//!   link before it has ended.
//! - a step reads the pad item indexed by the top bits of `fnv(mix[s mod 16], s)` and folds it
//!   into the mix, Ethash's way; a link's result is the Keccak of its final mix.
//! - link `i` of lane `l` is walk `l · 2^d + i` of the phase's commitment: one Merkle tree over
//!   every lane's links, the same tree as the GPU phase's ([`memory::walk_root`]), so a walk's
//!   opening is the same too.
//!
//! A verifier checks an opened link from its path alone: the path's left siblings inside the lane
//! are its parents ([`parents_digest`]); it runs the link's steps, making the pad items it reads
//! ([`link_is_right`]). Links that a prover did not make one after the other in order are wrong
//! where it started them from made-up parents: a prover that made a share α of a lane's links
//! otherwise is caught by each opened link with probability α (Cohen and Pietrzak's bound).

use alloc::vec::Vec;

use crate::{
	commitment::{keccak256_concat, Hash32},
	memory::{self, expand, fnv, Item, MemoryChallenge, MemoryRules, MemorySpec, ITEM_WORDS},
};

/// Items of a lane's pad: 1 MiB of 64-byte items.
pub const LANE_ITEMS: u32 = 1 << 14;
/// Memory of a lane (MiB): a per-core unit declares this much a core ([`lanes_of`]).
pub const LANE_MIB: u32 = 1;
/// Fewest steps of a link: a link's own Keccaks (its start and result, and one inner node of the
/// tree) are then under a tenth of its time on a CPU.
pub const MIN_LINK_STEPS: u32 = 1 << 10;

/// Domain tag of a pad item.
pub const PAD_TAG: &[u8] = b"pog/lane/pad";
/// Domain tag of a link's starting mix.
pub const LINK_TAG: &[u8] = b"pog/lane/link";

const INDEX_SHIFT: u32 = 32 - LANE_ITEMS.trailing_zeros();

/// The lanes of a per-core unit with `vram_mib` MiB: one a [`LANE_MIB`].
pub const fn lanes_of(vram_mib: u32) -> u32 {
	vram_mib / LANE_MIB
}

/// Item `j` of lane `lane`'s pad.
pub fn pad_item(seed: &Hash32, lane: u32, j: u32) -> Item {
	expand(&[PAD_TAG, seed, &lane.to_le_bytes(), &j.to_le_bytes()])
}

/// The whole pad of lane `lane` ([`LANE_ITEMS`] items).
pub fn pad(seed: &Hash32, lane: u32) -> Vec<Item> {
	(0..LANE_ITEMS).map(|j| pad_item(seed, lane, j)).collect()
}

/// The starting mix of link `link` of lane `lane`, whose parents hash to `parents`
/// ([`parents_digest`]).
pub fn link_start(seed: &Hash32, lane: u32, link: u64, parents: &Hash32) -> Item {
	expand(&[LINK_TAG, seed, &lane.to_le_bytes(), &link.to_le_bytes(), parents])
}

/// The pad item step `step` of a link reads, from the mix so far.
#[inline(always)]
pub fn step_index(mix: &Item, step: u32) -> u32 {
	fnv(mix[step as usize % ITEM_WORDS], step) >> INDEX_SHIFT
}

/// The mix after `steps` steps from `mix`, reading pad items through `read` (a prover's pad in
/// memory, or [`pad_item`] for a verifier).
pub fn run_steps(mut mix: Item, steps: u32, mut read: impl FnMut(u32) -> Item) -> Item {
	for s in 0..steps {
		let item = read(step_index(&mix, s));
		for (m, d) in mix.iter_mut().zip(&item) {
			*m = fnv(*m, *d);
		}
	}
	mix
}

/// The result of a link: the Keccak of its final mix.
pub fn link_result(mix: &Item) -> Hash32 {
	keccak256_concat(&[&memory::item_bytes(mix)])
}

/// The hash of a link's parents, bottom-up: what its start follows from.
pub fn digest(parents: &[Hash32]) -> Hash32 {
	let parts: Vec<&[u8]> = parents.iter().map(|p| p.as_slice()).collect();
	keccak256_concat(&parts)
}

/// Links of each lane of `challenge`'s phase (a power of two).
pub fn links_per_lane(challenge: &MemoryChallenge) -> u64 {
	challenge.walks / u64::from(challenge.spec.lanes.max(1))
}

/// What a prover making a lane's links in order keeps to start the next one: the root of the last
/// complete subtree at each height, which are the next link's parents where it is a right child.
#[derive(Clone, Debug, Default)]
pub struct Frontier(Vec<Hash32>);

impl Frontier {
	/// The parents of link `link`, bottom-up, once links `0..link` were pushed.
	pub fn parents(&self, link: u64) -> Vec<Hash32> {
		self.0.iter().enumerate().filter(|(h, _)| link >> h & 1 == 1).map(|(_, r)| *r).collect()
	}

	/// Takes in link `link`'s result: it closes every subtree it completes.
	pub fn push(&mut self, link: u64, result: Hash32) {
		let (mut node, mut h) = (result, 0);
		while link >> h & 1 == 1 {
			node = keccak256_concat(&[&self.0[h], &node]);
			h += 1;
		}
		if self.0.len() <= h {
			self.0.resize(h + 1, [0; 32]);
		}
		self.0[h] = node;
	}
}

/// Every link's result of lane `lane`, in order, over its `pad` (a prover's way: the links one
/// after the other, each from the roots of the subtrees before it).
pub fn lane_results(spec: &MemorySpec, lane: u32, links: u64, pad: &[Item]) -> Vec<Hash32> {
	let mut frontier = Frontier::default();
	(0..links)
		.map(|link| {
			let start = link_start(&spec.seed, lane, link, &digest(&frontier.parents(link)));
			let result = link_result(&run_steps(start, spec.reads, |i| pad[i as usize]));
			frontier.push(link, result);
			result
		})
		.collect()
}

/// The lane and link of walk `walk` of a lane phase with `links` links a lane.
pub const fn lane_and_link(walk: u64, links: u64) -> (u32, u64) {
	((walk / links) as u32, walk % links)
}

/// The digest of the parents of walk `walk` of `challenge`'s lane phase, from its path `proof`
/// (siblings from the leaf level up): the siblings at the levels inside the lane where the link
/// is a right child.
pub fn parents_digest(challenge: &MemoryChallenge, walk: u64, proof: &[Hash32]) -> Hash32 {
	let links = links_per_lane(challenge);
	let (_, link) = lane_and_link(walk, links);
	let depth = links.trailing_zeros() as usize;
	let parents: Vec<Hash32> =
		proof.iter().take(depth).enumerate().filter(|(h, _)| link >> h & 1 == 1).map(|(_, s)| *s).collect();
	digest(&parents)
}

/// Whether `result` is walk `walk` of `challenge`'s lane phase run from parents hashing to
/// `parents` (its path checked elsewhere): the verifier's work, the link's steps with the pad
/// items they read made on the way (two Keccaks a step).
pub fn link_is_right(challenge: &MemoryChallenge, walk: u64, result: &Hash32, parents: &Hash32) -> bool {
	let spec = &challenge.spec;
	let (lane, link) = lane_and_link(walk, links_per_lane(challenge));
	let start = link_start(&spec.seed, lane, link, parents);
	walk < challenge.walks && link_result(&run_steps(start, spec.reads, |i| pad_item(&spec.seed, lane, i))) == *result
}

/// The per-core unit's phase with `lanes` lanes reading `read_mps` million steps a second in all
/// and making `item_mps` million pad items a second in all, under `rules`: every lane's steps take
/// about `rules.lane_ms` at those rates, in a power of two of links of at least
/// [`MIN_LINK_STEPS`] steps. `None` when the rates were not measured or the unit has no lane.
pub fn challenge(
	gpu_seed: &Hash32,
	lanes: u32,
	read_mps: u32,
	item_mps: u32,
	rules: &MemoryRules,
) -> Option<MemoryChallenge> {
	if !memory::measured(read_mps, item_mps) || lanes == 0 {
		return None;
	}
	let per_lane = u64::from(read_mps) * 1_000 * u64::from(rules.lane_ms) / u64::from(lanes);
	// the most links (a power of two) of at least MIN_LINK_STEPS steps
	let depth = (per_lane / u64::from(MIN_LINK_STEPS)).max(1).ilog2().min(40);
	let links = 1u64 << depth;
	let reads = u32::try_from(per_lane.div_ceil(links).max(1)).ok()?;
	let spec = MemorySpec {
		seed: memory::memory_seed(gpu_seed),
		cache_items: rules.cache_items,
		dataset_items: u64::from(lanes) * u64::from(LANE_ITEMS),
		parents: rules.parents,
		reads,
		lanes,
	};
	if !spec.is_valid() {
		return None;
	}
	let walks = u64::from(lanes).checked_mul(links)?;
	let ms = |work: u128, mps: u32| work.div_ceil(u128::from(mps) * 1_000);
	let pad_ms = ms(u128::from(spec.dataset_items), item_mps);
	let steps_ms = ms(u128::from(walks) * u128::from(reads), read_mps);
	let expected_ms = (pad_ms + steps_ms).min(u128::from(u64::MAX)) as u64;
	Some(MemoryChallenge { spec, walks, expected_ms })
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::memory::{levels_from, proof_from, verify_walk, walk_root};

	fn rules() -> MemoryRules {
		MemoryRules { lane_ms: 10, ..MemoryRules::dev() }
	}

	/// A 3-lane unit reading 3 M steps a second in all: 10 ms of steps a lane is 10,000 steps, in
	/// eight links of 1,250.
	fn small() -> MemoryChallenge {
		challenge(&[5; 32], 3, 3, 3, &rules()).expect("a lane phase")
	}

	fn honest(c: &MemoryChallenge) -> Vec<Hash32> {
		let links = links_per_lane(c);
		(0..c.spec.lanes).flat_map(|l| lane_results(&c.spec, l, links, &pad(&c.spec.seed, l))).collect()
	}

	/// `results` opened at `walk` as a verifier sees it: the result and its parents' digest from
	/// the path.
	fn opened(c: &MemoryChallenge, results: &[Hash32], walk: u64) -> (u64, Hash32, Hash32) {
		let levels = levels_from(results.to_vec(), 0);
		let proof = proof_from(&levels, 0, walk);
		assert!(verify_walk(&walk_root(results), c.walks, walk, &results[walk as usize], &proof));
		(walk, results[walk as usize], parents_digest(c, walk, &proof))
	}

	#[test]
	fn a_unit_is_sized_from_its_lanes_and_rates() {
		let c = small();
		assert_eq!((c.spec.lanes, links_per_lane(&c), c.spec.reads), (3, 8, 1_250));
		assert_eq!(c.walks, 24);
		assert_eq!(c.spec.dataset_items, 3 * u64::from(LANE_ITEMS));
		assert_eq!(c.spec.seed, memory::memory_seed(&[5; 32]));
		// 49,152 pad items at 3 M/s (17 ms) and 30,000 steps at 3 M/s (10 ms)
		assert_eq!(c.expected_ms, 17 + 10);
		// the time does not depend on the cores: twice the lanes at twice the rates
		assert_eq!(challenge(&[5; 32], 6, 6, 6, &rules()).unwrap().expected_ms, c.expected_ms);
		// a mainnet lane of a core at 20 M steps/s: 400 M steps in 2^18 links of 1,526
		let m = challenge(&[5; 32], 16, 320, 16, &MemoryRules::mainnet()).unwrap();
		assert_eq!((links_per_lane(&m), m.spec.reads), (1 << 18, 1_526));
		assert!(challenge(&[5; 32], 0, 3, 3, &rules()).is_none(), "no lane");
		assert!(challenge(&[5; 32], 3, 0, 3, &rules()).is_none(), "unmeasured");
		assert_eq!(lanes_of(16), 16);
	}

	#[test]
	fn honest_links_pass_from_their_paths() {
		let c = small();
		let results = honest(&c);
		for walk in 0..c.walks {
			let o = opened(&c, &results, walk);
			assert_eq!(crate::memory::first_wrong(&c, &[o]), None, "link {walk}");
		}
		// a verifier's pad items on demand are the prover's pad
		let p = pad(&c.spec.seed, 2);
		assert_eq!(p[77], pad_item(&c.spec.seed, 2, 77));
	}

	#[test]
	fn every_input_changes_a_link() {
		let c = small();
		let links = links_per_lane(&c);
		let p = pad(&c.spec.seed, 1);
		let base = lane_results(&c.spec, 1, links, &p);
		assert_ne!(base, lane_results(&c.spec, 2, links, &pad(&c.spec.seed, 2)), "the lane");
		let longer = MemorySpec { reads: c.spec.reads + 1, ..c.spec };
		assert_ne!(base, lane_results(&longer, 1, links, &p), "the steps");
		let other = MemorySpec { seed: [6; 32], ..c.spec };
		assert_ne!(base, lane_results(&other, 1, links, &pad(&other.seed, 1)), "the seed");
		// one pad item the first link reads, changed: that link and every later one change
		let mut mix = link_start(&c.spec.seed, 1, 0, &digest(&[]));
		let mut read = Vec::new();
		for s in 0..c.spec.reads {
			let i = step_index(&mix, s);
			read.push(i);
			for (m, d) in mix.iter_mut().zip(&p[i as usize]) {
				*m = fnv(*m, *d);
			}
		}
		assert_eq!(link_result(&mix), base[0], "the steps as written above");
		let mut wrong = p.clone();
		wrong[read[100] as usize][3] ^= 1;
		let changed = lane_results(&c.spec, 1, links, &wrong);
		assert!(changed.iter().zip(&base).all(|(a, b)| a != b), "every link follows the first");
	}

	/// A prover that runs a lane's second half beside its first, from made-up parents, commits
	/// links that are wrong from their paths: every link of the second half has the first half's
	/// root as a parent.
	#[test]
	fn links_run_out_of_order_are_caught() {
		let c = small();
		let links = links_per_lane(&c);
		let mut results = honest(&c);
		let (lane, p) = (1u32, pad(&c.spec.seed, 1));
		let first = u64::from(lane) * links;
		// the second half's links, each started from its true parents inside the second half but
		// from a guess of the first half's root
		let guess = [0xEE; 32];
		let mut frontier = Frontier::default();
		for link in links / 2..links {
			let local = link - links / 2;
			let mut parents = frontier.parents(local);
			parents.push(guess);
			let start = link_start(&c.spec.seed, lane, link, &digest(&parents));
			let r = link_result(&run_steps(start, c.spec.reads, |i| p[i as usize]));
			results[(first + link) as usize] = r;
			frontier.push(local, r);
		}
		for link in 0..links {
			let o = opened(&c, &results, first + link);
			let caught = crate::memory::first_wrong(&c, &[o]).is_some();
			assert_eq!(caught, link >= links / 2, "link {link} of lane {lane}");
		}
		// other lanes are untouched
		assert_eq!(crate::memory::first_wrong(&c, &[opened(&c, &results, 0)]), None);
		// a result beyond the phase is never right
		assert!(!link_is_right(&c, c.walks, &results[0], &digest(&[])));
	}
}
