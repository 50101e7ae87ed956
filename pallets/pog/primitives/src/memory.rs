//! The memory-hard phase's data, on the CPU: the reference that a verifier recomputes and that
//! the GPU kernels must match bit for bit. (First step of the memory proof: rounds do not use it
//! yet; `benchmarking/gpu/memory/README.md` has the measurements it is designed from.)
//!
//! From a 32-byte seed:
//! - a **cache** of `cache_items` 64-byte items, made sequentially: item 0 is the expansion of the
//!   seed, item i that of item i − 1, so it cannot be made faster than one Keccak chain. A
//!   verifier holds it (16 MiB by default).
//! - a **dataset** of `dataset_items` items, each folded from `parents` cache items chosen by a
//!   data-dependent chain (Ethash's `calc_dataset_item`, with FNV and Keccak-256). A prover keeps
//!   it in GPU memory; an item not kept costs `parents` dependent cache reads to make again.
//! - **walks**: walk `w` makes `reads` data-dependent reads of the dataset (each index comes from
//!   the items read before) and ends in a 32-byte result. A prover commits the results; a
//!   verifier recomputes sampled walks from the cache alone ([`walk_from_cache`]).
//!
//! Every item is 16 little-endian u32 words. An expansion is `keccak256(x ‖ 0) ‖ keccak256(x ‖ 1)`
//! of the bytes `x`.

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

use crate::commitment::{keccak256_concat, Hash32};

/// Words of an item.
pub const ITEM_WORDS: usize = 16;
/// Bytes of an item.
pub const ITEM_BYTES: usize = ITEM_WORDS * 4;
/// One 64-byte item.
pub type Item = [u32; ITEM_WORDS];

/// The FNV-1 prime Ethash folds with.
pub const FNV_PRIME: u32 = 0x0100_0193;

/// Ethash's fold: `a · FNV_PRIME ⊕ b` (wrapping).
#[inline(always)]
pub const fn fnv(a: u32, b: u32) -> u32 {
	a.wrapping_mul(FNV_PRIME) ^ b
}

/// The parameters of one memory-hard phase.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct MemorySpec {
	/// Seed of the cache (and so of the dataset) and of the walks.
	pub seed: Hash32,
	/// Items of the cache (a power of two).
	pub cache_items: u32,
	/// Items of the dataset.
	pub dataset_items: u64,
	/// Cache items folded into each dataset item.
	pub parents: u32,
	/// Dataset reads of each walk (of each link, in a lane phase).
	pub reads: u32,
	/// How the phase's kind is stored: 0 a GPU's walks over one dataset, n > 0 a per-core unit's
	/// `n` lanes ([`crate::lanes`]: `dataset_items` is their pads, `reads` the steps of a link, and
	/// the cache and parents are not used). Read it through [`MemorySpec::kind`].
	pub lanes: u32,
}

/// What a memory phase runs ([`MemorySpec::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryKind {
	/// A GPU's phase: walks over one dataset made from a cache.
	Dataset,
	/// A per-core unit's phase of this many lanes, a lane a declared core ([`crate::lanes`]).
	Lanes(u32),
}

impl MemorySpec {
	/// What this phase runs: the one reading of [`MemorySpec::lanes`].
	pub fn kind(&self) -> MemoryKind {
		match self.lanes {
			0 => MemoryKind::Dataset,
			n => MemoryKind::Lanes(n),
		}
	}

	/// Whether the parameters can be used: a non-empty cache of a power-of-two size, a dataset of
	/// at least one item and at most 2^40 (64 TiB), at least one parent and one read; a lane
	/// phase's pads [`crate::lanes::LANE_ITEMS`] a lane.
	pub fn is_valid(&self) -> bool {
		match self.kind() {
			MemoryKind::Lanes(lanes) => {
				self.reads > 0
					&& self.dataset_items == u64::from(lanes) * u64::from(crate::lanes::LANE_ITEMS)
					&& self.dataset_items <= 1 << 40
			},
			MemoryKind::Dataset => {
				self.cache_items.is_power_of_two()
					&& (1..=1u64 << 40).contains(&self.dataset_items)
					&& self.parents > 0
					&& self.reads > 0
			},
		}
	}

	/// Bytes of the dataset.
	pub fn dataset_bytes(&self) -> u64 {
		self.dataset_items.saturating_mul(ITEM_BYTES as u64)
	}
}

/// The little-endian bytes of `item`.
pub fn item_bytes(item: &Item) -> [u8; ITEM_BYTES] {
	let mut out = [0u8; ITEM_BYTES];
	for (chunk, w) in out.chunks_exact_mut(4).zip(item) {
		chunk.copy_from_slice(&w.to_le_bytes());
	}
	out
}

/// The expansion of `parts` (concatenated) into one item.
pub fn expand(parts: &[&[u8]]) -> Item {
	use tiny_keccak::Hasher as _;
	let mut item = [0u32; ITEM_WORDS];
	for half in 0..2u8 {
		// `keccak256_concat(parts ‖ [half])`, without gathering the parts (the cache makes
		// 2 × 262,144 of these in a chain)
		let mut k = tiny_keccak::Keccak::v256();
		for p in parts {
			k.update(p);
		}
		k.update(&[half]);
		let mut h = [0u8; 32];
		k.finalize(&mut h);
		for (i, chunk) in h.chunks_exact(4).enumerate() {
			item[usize::from(half) * 8 + i] = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
		}
	}
	item
}

/// The cache of `spec`: `cache_items` items, each the expansion of the one before.
pub fn cache(spec: &MemorySpec) -> Vec<Item> {
	let mut out = Vec::with_capacity(spec.cache_items as usize);
	let mut item = expand(&[b"pog/mem/cache", &spec.seed]);
	for _ in 0..spec.cache_items {
		out.push(item);
		item = expand(&[&item_bytes(&item)]);
	}
	out
}

/// Dataset item `index` of `spec`, folded from `spec.parents` cache items.
pub fn dataset_item(spec: &MemorySpec, cache: &[Item], index: u64) -> Item {
	let mut item = [[0; ITEM_WORDS]];
	items_side_by_side(spec, cache, &[index], &mut item);
	item[0]
}

/// Walks, and dataset items, that one core computes side by side ([`walks_from_cache`]).
pub const LOCKSTEP: usize = 8;

/// Dataset items `indices` of `spec` (at most [`LOCKSTEP`]) into `out`, each as [`dataset_item`]
/// defines it, their parents folded side by side: an item's `parents` reads depend on each other,
/// but the items' do not, so a core has that many reads of the cache in flight at once instead
/// of one (at mainnet's 16 MiB cache a read mostly misses the core's own caches).
fn items_side_by_side(spec: &MemorySpec, cache: &[Item], indices: &[u64], out: &mut [Item]) {
	let mask = cache.len() as u64 - 1; // a power of two
	let n = indices.len().min(out.len()).min(LOCKSTEP);
	let mut mixes = [[0u32; ITEM_WORDS]; LOCKSTEP];
	for (mix, index) in mixes.iter_mut().zip(&indices[..n]) {
		let mut start = cache[(index & mask) as usize];
		start[0] ^= *index as u32;
		start[1] ^= (index >> 32) as u32;
		*mix = expand(&[&item_bytes(&start)]);
	}
	for j in 0..spec.parents {
		for (mix, index) in mixes[..n].iter_mut().zip(&indices[..n]) {
			let parent = u64::from(fnv(*index as u32 ^ j, mix[j as usize % ITEM_WORDS])) & mask;
			let p = &cache[parent as usize];
			for (m, c) in mix.iter_mut().zip(p) {
				*m = fnv(*m, *c);
			}
		}
	}
	for (item, mix) in out[..n].iter_mut().zip(&mixes[..n]) {
		*item = expand(&[&item_bytes(mix)]);
	}
}

/// The index of read `r` of a walk whose mix is `mix`: 64 bits from two of its words, reduced to
/// the dataset.
#[inline(always)]
fn read_index(spec: &MemorySpec, walk: u64, r: u32, mix: &Item) -> u64 {
	let hi = fnv(walk as u32 ^ r, mix[r as usize % ITEM_WORDS]);
	let lo = mix[(r as usize + 1) % ITEM_WORDS];
	((u64::from(hi) << 32) | u64::from(lo)) % spec.dataset_items
}

/// The result of walk `walk`, reading dataset items through `read` (a prover's memory, or
/// [`dataset_item`] on the cache).
pub fn walk(spec: &MemorySpec, walk: u64, mut read: impl FnMut(u64) -> Item) -> Hash32 {
	let mut result = [[0; 32]];
	walks_side_by_side(spec, &[walk], &mut result, |indices, items| {
		for (item, index) in items.iter_mut().zip(indices) {
			*item = read(*index);
		}
	});
	result[0]
}

/// The results of `walks` (at most [`LOCKSTEP`]) into `out`, read `r` of every walk made at once
/// through `read` (given the walks' indices, it fills their items): a walk's reads depend on each
/// other, the walks' do not. The definition of a walk: its mix starts as the expansion of
/// `WALK_TAG ‖ seed ‖ walk`, each read folds a dataset item into it, and its result is the
/// mix's Keccak.
fn walks_side_by_side(spec: &MemorySpec, walks: &[u64], out: &mut [Hash32], mut read: impl FnMut(&[u64], &mut [Item])) {
	let n = walks.len().min(out.len()).min(LOCKSTEP);
	let mut mixes = [[0u32; ITEM_WORDS]; LOCKSTEP];
	for (mix, walk) in mixes.iter_mut().zip(&walks[..n]) {
		*mix = expand(&[WALK_TAG, &spec.seed, &walk.to_le_bytes()]);
	}
	let mut indices = [0u64; LOCKSTEP];
	let mut items = [[0u32; ITEM_WORDS]; LOCKSTEP];
	for r in 0..spec.reads {
		for ((index, walk), mix) in indices.iter_mut().zip(&walks[..n]).zip(&mixes) {
			*index = read_index(spec, *walk, r, mix);
		}
		read(&indices[..n], &mut items[..n]);
		for (mix, item) in mixes[..n].iter_mut().zip(&items) {
			for (m, d) in mix.iter_mut().zip(item) {
				*m = fnv(*m, *d);
			}
		}
	}
	for (result, mix) in out[..n].iter_mut().zip(&mixes) {
		*result = keccak256_concat(&[&item_bytes(mix)]);
	}
}

/// A walk recomputed from the cache alone: each read regenerates its dataset item (the
/// verifier's way: `reads × parents` cache reads and `2·reads + 1` Keccaks per walk, and no
/// dataset).
pub fn walk_from_cache(spec: &MemorySpec, cache: &[Item], index: u64) -> Hash32 {
	walk(spec, index, |i| dataset_item(spec, cache, i))
}

/// Walks recomputed from the cache alone, each as [`walk_from_cache`], [`LOCKSTEP`] at a time side
/// by side on one core (their cache reads overlap: at mainnet's 1,024 parents a walk is 65,536
/// dependent reads of a 16 MiB cache).
pub fn walks_from_cache(spec: &MemorySpec, cache: &[Item], walks: &[u64]) -> Vec<Hash32> {
	let mut results = alloc::vec![[0u8; 32]; walks.len()];
	for (chunk, out) in walks.chunks(LOCKSTEP).zip(results.chunks_mut(LOCKSTEP)) {
		walks_side_by_side(spec, chunk, out, |indices, items| items_side_by_side(spec, cache, indices, items));
	}
	results
}

/// The whole dataset of `spec` (tests and small specs only: it is `dataset_items` × 64 bytes).
pub fn dataset(spec: &MemorySpec, cache: &[Item]) -> Vec<Item> {
	(0..spec.dataset_items).map(|i| dataset_item(spec, cache, i)).collect()
}

// ---- The commitment to the walks' results ----

/// Walks in a group: a prover keeps one node of the commitment per group (the root over the
/// group's results) and opens a walk by recomputing its group ([`group_results`]).
pub const GROUP_WALKS: u64 = 1 << 10;

/// Domain tag of a walk's starting mix: it hashes `WALK_TAG ‖ seed ‖ walk` (a GPU kernel is given
/// `WALK_TAG ‖ seed` and appends the walk).
pub const WALK_TAG: &[u8] = b"pog/mem/walk";

/// The hash standing for an absent subtree of `height` (height 0: a leaf): padding takes the
/// leaf count up to a power of two with zero leaves.
pub fn empty_node(height: u32) -> Hash32 {
	let mut node = [0u8; 32];
	for _ in 0..height {
		node = keccak256_concat(&[&node, &node]);
	}
	node
}

/// Height of the commitment over `walks` results: ⌈log₂ walks⌉ (a proof has this many siblings).
pub fn tree_height(walks: u64) -> u32 {
	walks.max(1).next_power_of_two().trailing_zeros()
}

/// Every level of the commitment from nodes at `height` (the walks' results at height 0, or group
/// roots at `GROUP_WALKS.trailing_zeros()`) up to the root: inner nodes are `keccak256(left ‖
/// right)`, and a level of odd length is padded with [`empty_node`] of its height (the same tree
/// as padding the leaves with zeros to a power of two).
pub fn levels_from(nodes: Vec<Hash32>, height: u32) -> Vec<Vec<Hash32>> {
	let mut levels = alloc::vec![nodes];
	let mut h = height;
	while levels.last().is_some_and(|l| l.len() > 1) {
		let below = levels.last().expect("non-empty");
		let pad = empty_node(h);
		let up = below.chunks(2).map(|pair| keccak256_concat(&[&pair[0], pair.get(1).unwrap_or(&pad)])).collect();
		levels.push(up);
		h += 1;
	}
	levels
}

/// The root of the commitment over `results` (walk order).
pub fn walk_root(results: &[Hash32]) -> Hash32 {
	levels_from(results.to_vec(), 0).last().and_then(|l| l.first().copied()).unwrap_or(empty_node(0))
}

/// The siblings of node `index` of `levels` (built by [`levels_from`] from height `height`) up to
/// the root, padding included.
pub fn proof_from(levels: &[Vec<Hash32>], height: u32, index: u64) -> Vec<Hash32> {
	let mut proof = Vec::with_capacity(levels.len().saturating_sub(1));
	let mut i = index;
	for (h, level) in levels[..levels.len().saturating_sub(1)].iter().enumerate() {
		proof.push(level.get((i ^ 1) as usize).copied().unwrap_or_else(|| empty_node(height + h as u32)));
		i /= 2;
	}
	proof
}

/// The results of group `group` of `walks` walks, recomputed from the cache (how a prover whose
/// dataset is gone opens a walk: [`GROUP_WALKS`] walks from the cache).
pub fn group_results(spec: &MemorySpec, cache: &[Item], group: u64) -> Vec<Hash32> {
	let first = group.saturating_mul(GROUP_WALKS);
	let walks: Vec<u64> = (first..first.saturating_add(GROUP_WALKS)).collect();
	walks_from_cache(spec, cache, &walks)
}

/// Whether `result` is walk `index` of a commitment with `root` over `walks` results, as shown by
/// `proof` (siblings from the leaf level up).
pub fn verify_walk(root: &Hash32, walks: u64, index: u64, result: &Hash32, proof: &[Hash32]) -> bool {
	if index >= walks || proof.len() != tree_height(walks) as usize {
		return false;
	}
	let mut node = *result;
	let mut i = index;
	for sibling in proof {
		node = if i & 1 == 0 { keccak256_concat(&[&node, sibling]) } else { keccak256_concat(&[sibling, &node]) };
		i >>= 1;
	}
	node == *root
}

// ---- Sizing from a profile's measured rates ----

/// Share of the claimed memory the dataset fills (%).
pub const DATASET_PERCENT: u64 = 90;

/// Items of the dataset of a GPU with `vram_mib` MiB: [`DATASET_PERCENT`] of its memory.
pub fn dataset_items(vram_mib: u32) -> u64 {
	u64::from(vram_mib) * (1 << 20) / 100 * DATASET_PERCENT / ITEM_BYTES as u64
}

/// Walks of `reads` reads that take about `walk_ms` at `read_mps` million dataset reads a second:
/// a whole number of groups, at least one.
pub fn walks_for(read_mps: u32, reads: u32, walk_ms: u32) -> u64 {
	let total = u64::from(read_mps) * 1_000 * u64::from(walk_ms);
	let walks = total / u64::from(reads.max(1));
	walks.div_ceil(GROUP_WALKS).max(1) * GROUP_WALKS
}

/// Expected time of `spec`'s phase with `walks` walks (ms): the fill at `parent_mps` million
/// parent reads a second plus the walks at `read_mps` million dataset reads a second (rounded up).
pub fn expected_ms(spec: &MemorySpec, walks: u64, parent_mps: u32, read_mps: u32) -> u64 {
	let fill = u128::from(spec.dataset_items) * u128::from(spec.parents);
	let reads = u128::from(walks) * u128::from(spec.reads);
	let ms = |work: u128, mps: u32| work.div_ceil(u128::from(mps.max(1)) * 1_000);
	(ms(fill, parent_mps) + ms(reads, read_mps)).min(u128::from(u64::MAX)) as u64
}

// ---- One GPU's memory challenge ----

/// The protocol's memory-hard parameters (part of the chain's configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct MemoryRules {
	/// Items of the cache (a power of two).
	pub cache_items: u32,
	/// Cache items folded into each dataset item.
	pub parents: u32,
	/// Dataset reads of each walk.
	pub reads: u32,
	/// Target time of the walks at the profile's measured read rate (ms).
	pub walk_ms: u32,
	/// Target time of a per-core unit's lanes at its profile's measured step rate (ms):
	/// [`crate::lanes`].
	#[cfg_attr(feature = "serde", serde(default = "default_lane_ms"))]
	pub lane_ms: u32,
	/// Walks opened per selected GPU.
	pub openings: u32,
	/// How much slower than its profile's measured rates a GPU may be (%).
	pub tolerance_percent: u8,
}

#[cfg(feature = "serde")]
fn default_lane_ms() -> u32 {
	MemoryRules::mainnet().lane_ms
}

impl MemoryRules {
	/// Mainnet: a 16 MiB cache, 1,024 parents, 64 reads a walk, 50 s of walks, 20 s of lanes, 64
	/// opened walks, 10% tolerance (`docs/protocol.md`, "Memory", argues each).
	pub const fn mainnet() -> Self {
		Self {
			cache_items: 1 << 18,
			parents: 1024,
			reads: 64,
			walk_ms: 50_000,
			lane_ms: 20_000,
			openings: 64,
			tolerance_percent: 10,
		}
	}

	/// Dev chains: a 256 KiB cache, 64 parents, two seconds of walks and of lanes, 16 opened
	/// walks, 50%.
	pub const fn dev() -> Self {
		Self {
			cache_items: 1 << 12,
			parents: 64,
			reads: 64,
			walk_ms: 2_000,
			lane_ms: 2_000,
			openings: 16,
			tolerance_percent: 50,
		}
	}
}

/// One GPU's memory challenge: its phase, its walks and its expected time.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct MemoryChallenge {
	/// The phase (its seed from the GPU's challenge seed: [`memory_seed`]).
	pub spec: MemorySpec,
	/// Walks to run and commit to.
	pub walks: u64,
	/// Expected time at the profile's measured rates (ms).
	pub expected_ms: u64,
}

/// The memory phase's seed, from a GPU's challenge seed.
pub fn memory_seed(gpu_seed: &Hash32) -> Hash32 {
	keccak256_concat(&[b"pog/mem/seed", gpu_seed])
}

/// The GEMM's seed: from the GPU's challenge seed and its committed memory root, so that no GEMM
/// can start before the walks are done (each phase is timed on its own).
pub fn gemm_seed(gpu_seed: &Hash32, memory_root: &Hash32) -> Hash32 {
	keccak256_concat(&[b"pog/gemm", gpu_seed, memory_root])
}

/// Whether a profile with these rates (million reads a second of the walks, and of the fill's
/// parents) was measured, so that its rounds run the memory phase: both are.
pub const fn measured(read_mps: u32, parent_mps: u32) -> bool {
	read_mps > 0 && parent_mps > 0
}

/// The memory challenge of a GPU with `vram_mib` MiB whose profile reads `read_mps` and fills at
/// `parent_mps` million a second, under `rules`; `None` when the profile has no measured rates.
pub fn challenge(
	gpu_seed: &Hash32,
	vram_mib: u32,
	read_mps: u32,
	parent_mps: u32,
	rules: &MemoryRules,
) -> Option<MemoryChallenge> {
	if !measured(read_mps, parent_mps) {
		return None;
	}
	let spec = MemorySpec {
		seed: memory_seed(gpu_seed),
		cache_items: rules.cache_items,
		dataset_items: dataset_items(vram_mib),
		parents: rules.parents,
		reads: rules.reads,
		lanes: 0,
	};
	if !spec.is_valid() {
		return None;
	}
	let walks = walks_for(read_mps, rules.reads, rules.walk_ms);
	Some(MemoryChallenge { spec, walks, expected_ms: expected_ms(&spec, walks, parent_mps, read_mps) })
}

/// What checking opened walks found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkReport {
	/// Walks checked.
	pub checked: u32,
	/// Walks whose path does not lead to the root.
	pub bad_paths: u32,
	/// Walks whose result differs from the one recomputed from the cache.
	pub wrong_results: u32,
}

impl WalkReport {
	/// Every checked walk is on the root and right.
	pub fn passed(&self) -> bool {
		self.checked > 0 && self.bad_paths == 0 && self.wrong_results == 0
	}
}

/// Checks opened walks `(walk, result, proof)` of `challenge` against `root`: each path must lead
/// to the root and each result must be the walk recomputed from `cache` (the verifier's work:
/// per walk, `reads` dataset items made from the cache).
pub fn check_walks<'a>(
	challenge: &MemoryChallenge,
	cache: &[Item],
	root: &Hash32,
	openings: impl IntoIterator<Item = (u64, &'a Hash32, &'a [Hash32])>,
) -> WalkReport {
	let mut report = WalkReport::default();
	for (walk, result, proof) in openings {
		report.checked += 1;
		if !verify_walk(root, challenge.walks, walk, result, proof) {
			report.bad_paths += 1;
		} else if !walk_is_right(challenge, cache, walk, result) {
			report.wrong_results += 1;
		}
	}
	report
}

/// Whether `result` is walk `walk` of `challenge` recomputed from `cache` (its path to the root
/// checked elsewhere: on PoG chain, when the walk is revealed). Returns the first wrong walk of
/// `results`, in order, or `None` when every one is right.
pub fn first_wrong_walk<'a>(
	challenge: &MemoryChallenge,
	cache: &[Item],
	results: impl IntoIterator<Item = (u64, &'a Hash32)>,
) -> Option<u64> {
	results.into_iter().find(|(walk, result)| !walk_is_right(challenge, cache, *walk, result)).map(|(walk, _)| walk)
}

/// The first wrong one of `opened` (walks of `challenge` with their committed results and, for a
/// lane phase, their parents' digests from their paths), or `None` when every one is right: a
/// GPU phase's walks recomputed from its cache, a lane phase's links from their parents
/// ([`OpeningCheck`]). What a verifier runs on a reveal.
pub fn first_wrong(challenge: &MemoryChallenge, opened: &[(u64, Hash32, Hash32)]) -> Option<u64> {
	OpeningCheck::new(challenge).first_wrong_in(opened).map(|i| opened[i].0)
}

/// The check of a memory phase's opened walks, with what it needs made once: a GPU phase's cache
/// (16 MiB at mainnet settings), nothing for a lane phase (a link is checked from its parents'
/// digest alone, [`crate::lanes::link_is_right`]). Openings are checked in runs of their own
/// ([`OpeningCheck::first_wrong_in`]), so a verifier may check runs on several threads and take
/// the first wrong one in order, as [`first_wrong`] does on one.
pub struct OpeningCheck<'a> {
	challenge: &'a MemoryChallenge,
	cache: Vec<Item>,
}

impl<'a> OpeningCheck<'a> {
	/// Makes what checking `challenge`'s openings needs.
	pub fn new(challenge: &'a MemoryChallenge) -> Self {
		let cache = match challenge.spec.kind() {
			MemoryKind::Lanes(_) => Vec::new(),
			MemoryKind::Dataset => cache(&challenge.spec),
		};
		Self { challenge, cache }
	}

	/// The position in `opened` of the first wrong one of its walks `(walk, committed result,
	/// parents' digest)`, or `None` when every one is right. A GPU phase's walks are recomputed
	/// [`LOCKSTEP`] at a time ([`walks_from_cache`]), so a verifier that splits openings between
	/// threads gives each a run of them.
	pub fn first_wrong_in(&self, opened: &[(u64, Hash32, Hash32)]) -> Option<usize> {
		if let MemoryKind::Lanes(_) = self.challenge.spec.kind() {
			return opened.iter().position(|(walk, result, parents)| {
				!crate::lanes::link_is_right(self.challenge, *walk, result, parents)
			});
		}
		// a run of LOCKSTEP at a time, stopping at the first run with a wrong one (a cheat's
		// first wrong walk costs one run, not every walk)
		opened.chunks(LOCKSTEP).enumerate().find_map(|(run, openings)| {
			let walks: Vec<u64> = openings.iter().map(|o| o.0).collect();
			let results = walks_from_cache(&self.challenge.spec, &self.cache, &walks);
			openings
				.iter()
				.zip(results)
				.position(|((walk, committed, _), result)| *walk >= self.challenge.walks || result != *committed)
				.map(|i| run * LOCKSTEP + i)
		})
	}
}

fn walk_is_right(challenge: &MemoryChallenge, cache: &[Item], walk: u64, result: &Hash32) -> bool {
	walk < challenge.walks && walk_from_cache(&challenge.spec, cache, walk) == *result
}

#[cfg(test)]
mod tests {
	use super::*;

	fn spec() -> MemorySpec {
		MemorySpec { seed: [7; 32], cache_items: 1 << 10, dataset_items: 50_000, parents: 256, reads: 64, lanes: 0 }
	}

	#[test]
	fn a_walk_reads_the_same_from_memory_as_from_the_cache() {
		let s = spec();
		let c = cache(&s);
		let d = dataset(&s, &c);
		for w in [0u64, 1, 77, u64::from(u32::MAX), 1 << 40] {
			assert_eq!(walk(&s, w, |i| d[i as usize]), walk_from_cache(&s, &c, w), "walk {w}");
		}
	}

	/// Walks side by side are each the walk alone, whatever their number (a run of one, a run
	/// that is not a multiple of `LOCKSTEP`, indices beyond the dataset wrapping as always), and
	/// a dataset item made beside others is the item alone.
	#[test]
	fn walks_side_by_side_are_the_walks_alone() {
		let s = spec();
		let c = cache(&s);
		for count in [0usize, 1, 7, 8, 9, 21] {
			let walks: Vec<u64> = (0..count as u64).map(|i| i * 7_919 + (i % 3) * (1 << 40)).collect();
			let alone: Vec<Hash32> = walks.iter().map(|w| walk_from_cache(&s, &c, *w)).collect();
			assert_eq!(walks_from_cache(&s, &c, &walks), alone, "{count} walks");
		}
		let indices = [3u64, 49_999, 1 << 33, 0, 12_345];
		let mut items = [[0u32; ITEM_WORDS]; 5];
		items_side_by_side(&s, &c, &indices, &mut items);
		let d = dataset(&s, &c);
		for (index, item) in indices.iter().zip(items) {
			assert_eq!(item, dataset_item(&s, &c, *index));
			if *index < s.dataset_items {
				assert_eq!(item, d[*index as usize]);
			}
		}
	}

	/// The first wrong opening is found in a run of them as one by one.
	#[test]
	fn a_run_of_openings_finds_the_first_wrong_one() {
		let s = spec();
		let challenge = MemoryChallenge { spec: s, walks: 1 << 12, expected_ms: 1 };
		let c = cache(&s);
		let mut opened: Vec<(u64, Hash32, Hash32)> =
			(0..20u64).map(|i| (i * 191, walk_from_cache(&s, &c, i * 191), [0; 32])).collect();
		let check = OpeningCheck::new(&challenge);
		assert_eq!(check.first_wrong_in(&opened), None);
		opened[13].1[0] ^= 1;
		opened[17].1[5] ^= 1;
		assert_eq!(check.first_wrong_in(&opened), Some(13));
		assert_eq!(first_wrong(&challenge, &opened), Some(13 * 191));
		opened[2].0 = challenge.walks; // beyond the commitment
		opened[2].1 = walk_from_cache(&s, &c, challenge.walks);
		assert_eq!(check.first_wrong_in(&opened), Some(2));
	}

	#[test]
	fn every_input_changes_the_result() {
		let s = spec();
		let c = cache(&s);
		let base = walk_from_cache(&s, &c, 3);
		assert_ne!(base, walk_from_cache(&s, &c, 4), "walk index");
		for other in [
			MemorySpec { seed: [8; 32], ..s },
			MemorySpec { parents: 255, ..s },
			MemorySpec { reads: 63, ..s },
			MemorySpec { dataset_items: 50_001, ..s },
		] {
			assert_ne!(base, walk_from_cache(&other, &cache(&other), 3), "{other:?}");
		}
		// The cache is a chain: each item is the expansion of the one before.
		assert_eq!(c[5], expand(&[&item_bytes(&c[4])]));
	}

	/// A prover that lost one item of the dataset (or made it up) gets a different result from
	/// every walk that reads it.
	#[test]
	fn a_wrong_item_changes_every_walk_that_reads_it() {
		let s = MemorySpec { dataset_items: 4_096, reads: 64, ..spec() };
		let c = cache(&s);
		let d = dataset(&s, &c);
		let lost = 1_234u64;
		let (mut reading, mut changed) = (0, 0);
		for w in 0..512u64 {
			let mut read_it = false;
			let honest = walk(&s, w, |i| {
				read_it |= i == lost;
				d[i as usize]
			});
			let wrong = walk(&s, w, |i| if i == lost { [0; ITEM_WORDS] } else { d[i as usize] });
			reading += usize::from(read_it);
			changed += usize::from(honest != wrong);
			assert_eq!(read_it, honest != wrong, "walk {w}");
		}
		assert!(reading > 0 && changed == reading, "{reading} walks read item {lost}, {changed} changed");
	}

	#[test]
	fn reads_spread_over_the_whole_dataset() {
		let s = MemorySpec { dataset_items: 1_000, reads: 64, ..spec() };
		let c = cache(&s);
		let mut hits = alloc::vec![0u32; s.dataset_items as usize];
		for w in 0..2_000u64 {
			walk(&s, w, |i| {
				hits[i as usize] += 1;
				dataset_item(&s, &c, i)
			});
		}
		// 128,000 reads over 1,000 items: 128 each on average; none is left out, none dominates.
		assert!(hits.iter().all(|h| (60..220).contains(h)), "min {:?} max {:?}", hits.iter().min(), hits.iter().max());
	}

	#[test]
	fn specs_are_checked() {
		assert!(spec().is_valid());
		assert!(!MemorySpec { cache_items: 1000, ..spec() }.is_valid());
		assert!(!MemorySpec { dataset_items: 0, ..spec() }.is_valid());
		assert!(!MemorySpec { parents: 0, ..spec() }.is_valid());
		assert_eq!(spec().dataset_bytes(), 50_000 * 64);
	}

	#[test]
	fn walk_commitments_open_and_pad() {
		let s = MemorySpec { dataset_items: 2_000, ..spec() };
		let c = cache(&s);
		let d = dataset(&s, &c);
		// three groups: the group level is padded to four with the empty group
		let walks = 3 * GROUP_WALKS;
		let results: Vec<Hash32> = (0..walks).map(|w| walk(&s, w, |i| d[i as usize])).collect();
		let mut padded = results.clone();
		padded.resize(4 * GROUP_WALKS as usize, [0; 32]);
		let root = walk_root(&results);
		assert_eq!(root, crate::commitment::tree_levels(padded).last().unwrap()[0], "padding is zero leaves");
		// a prover that kept only the group roots opens a walk by recomputing its group
		let group_roots: Vec<Hash32> = (0..3).map(|g| walk_root(&group_results(&s, &c, g))).collect();
		let top = levels_from(group_roots, GROUP_WALKS.trailing_zeros());
		assert_eq!(top.last().unwrap()[0], root);
		for w in [0, 1, GROUP_WALKS + 5, walks - 1] {
			let group = group_results(&s, &c, w / GROUP_WALKS);
			let low = levels_from(group, 0);
			let mut proof = proof_from(&low, 0, w % GROUP_WALKS);
			proof.extend(proof_from(&top, GROUP_WALKS.trailing_zeros(), w / GROUP_WALKS));
			assert!(verify_walk(&root, walks, w, &results[w as usize], &proof), "walk {w}");
			assert!(!verify_walk(&root, walks, w, &[1; 32], &proof), "a wrong result");
			assert!(!verify_walk(&root, walks, w ^ 1, &results[w as usize], &proof), "another walk");
		}
		assert!(!verify_walk(&root, walks, walks, &[0; 32], &alloc::vec![[0; 32]; 12]), "a padding leaf");
	}

	#[test]
	fn sizing_follows_the_measured_rates() {
		// an H100's 81,559 MiB: 0.9 of it in 64-byte items
		assert_eq!(dataset_items(81_559), 81_559 * (1 << 20) / 100 * 90 / 64);
		// 21.4 G reads/s for 60 s of 64-read walks, in whole groups
		let walks = walks_for(21_400, 64, 60_000);
		assert_eq!(walks % GROUP_WALKS, 0);
		let exact = 21_400_000_000 * 60 / 64;
		assert!((exact..exact + GROUP_WALKS).contains(&walks), "{walks}");
		assert_eq!(walks_for(1, 64, 1), GROUP_WALKS, "at least one group");
		let s = MemorySpec { dataset_items: 1_000_000_000, parents: 512, ..spec() };
		// fill: 512 G parent reads at 40 G/s = 12.8 s; walks: 64 G reads at 20 G/s = 3.2 s
		assert_eq!(expected_ms(&s, 1_000_000_000, 40_000, 20_000), 12_800 + 3_200);
	}

	#[test]
	fn a_challenge_is_sized_from_the_profile_and_checked_walk_by_walk() {
		let rules = MemoryRules { walk_ms: 1, ..MemoryRules::dev() };
		// a 4 MiB card reading 2 M/s: 2,000 reads in a millisecond → 31 walks → one group
		let c = challenge(&[3; 32], 4, 2, 16, &rules).unwrap();
		assert_eq!(c.spec.dataset_items, 4 * (1 << 20) / 100 * 90 / 64);
		assert_eq!(c.walks, GROUP_WALKS);
		assert_eq!(c.spec.seed, memory_seed(&[3; 32]));
		assert!(challenge(&[3; 32], 4, 0, 16, &rules).is_none(), "unmeasured profile");
		assert_ne!(gemm_seed(&[3; 32], &[1; 32]), gemm_seed(&[3; 32], &[2; 32]), "the GEMM follows the memory root");
		let cache = cache(&c.spec);
		let results: Vec<Hash32> = (0..c.walks).map(|w| walk_from_cache(&c.spec, &cache, w)).collect();
		let levels = levels_from(results.clone(), 0);
		let root = walk_root(&results);
		let open = |w: u64, r: Hash32| (w, r, proof_from(&levels, 0, w));
		let honest: Vec<_> = [5u64, 700].iter().map(|w| open(*w, results[*w as usize])).collect();
		let report = check_walks(&c, &cache, &root, honest.iter().map(|(w, r, p)| (*w, r, p.as_slice())));
		assert!(report.passed(), "{report:?}");
		// a made-up result committed in the tree (its path is right, its result is not)
		let mut faked = results.clone();
		faked[9] = [0xAB; 32];
		let (flevels, froot) = (levels_from(faked.clone(), 0), walk_root(&faked));
		let fp = proof_from(&flevels, 0, 9);
		let report = check_walks(&c, &cache, &froot, [(9u64, &faked[9], fp.as_slice())]);
		assert_eq!((report.bad_paths, report.wrong_results), (0, 1));
		// a right result with another walk's path
		let report = check_walks(&c, &cache, &root, [(5u64, &results[5], honest[1].2.as_slice())]);
		assert_eq!(report.bad_paths, 1);
		assert!(!WalkReport::default().passed(), "nothing checked is no pass");
	}
}
