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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemorySpec {
	/// Seed of the cache (and so of the dataset) and of the walks.
	pub seed: Hash32,
	/// Items of the cache (a power of two).
	pub cache_items: u32,
	/// Items of the dataset.
	pub dataset_items: u64,
	/// Cache items folded into each dataset item.
	pub parents: u32,
	/// Dataset reads of each walk.
	pub reads: u32,
}

impl MemorySpec {
	/// Whether the parameters can be used: a non-empty cache of a power-of-two size, a dataset of
	/// at least one item and at most 2^40 (64 TiB), at least one parent and one read.
	pub fn is_valid(&self) -> bool {
		self.cache_items.is_power_of_two()
			&& (1..=1u64 << 40).contains(&self.dataset_items)
			&& self.parents > 0
			&& self.reads > 0
	}

	/// Bytes of the dataset.
	pub fn dataset_bytes(&self) -> u64 {
		self.dataset_items.saturating_mul(ITEM_BYTES as u64)
	}
}

fn bytes(item: &Item) -> [u8; ITEM_BYTES] {
	let mut out = [0u8; ITEM_BYTES];
	for (chunk, w) in out.chunks_exact_mut(4).zip(item) {
		chunk.copy_from_slice(&w.to_le_bytes());
	}
	out
}

/// The expansion of `parts` (concatenated) into one item.
pub fn expand(parts: &[&[u8]]) -> Item {
	let mut item = [0u32; ITEM_WORDS];
	for half in 0..2u8 {
		let mut all: Vec<&[u8]> = parts.to_vec();
		let tag = [half];
		all.push(&tag);
		let h = keccak256_concat(&all);
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
		item = expand(&[&bytes(&item)]);
	}
	out
}

/// Dataset item `index` of `spec`, folded from `spec.parents` cache items.
pub fn dataset_item(spec: &MemorySpec, cache: &[Item], index: u64) -> Item {
	let mask = cache.len() as u64 - 1; // a power of two
	let mut mix = cache[(index & mask) as usize];
	mix[0] ^= index as u32;
	mix[1] ^= (index >> 32) as u32;
	let mut mix = expand(&[&bytes(&mix)]);
	for j in 0..spec.parents {
		let parent = u64::from(fnv(index as u32 ^ j, mix[j as usize % ITEM_WORDS])) & mask;
		let p = &cache[parent as usize];
		for (m, c) in mix.iter_mut().zip(p) {
			*m = fnv(*m, *c);
		}
	}
	expand(&[&bytes(&mix)])
}

/// The index of read `r` of a walk whose mix is `mix`: 64 bits from two of its words, reduced to
/// the dataset.
#[inline(always)]
fn read_index(spec: &MemorySpec, walk: u32, r: u32, mix: &Item) -> u64 {
	let hi = fnv(walk ^ r, mix[r as usize % ITEM_WORDS]);
	let lo = mix[(r as usize + 1) % ITEM_WORDS];
	((u64::from(hi) << 32) | u64::from(lo)) % spec.dataset_items
}

/// The result of walk `walk`, reading dataset items through `read` (a prover's memory, or
/// [`dataset_item`] on the cache).
pub fn walk(spec: &MemorySpec, walk: u32, mut read: impl FnMut(u64) -> Item) -> Hash32 {
	let mut mix = expand(&[b"pog/mem/walk", &spec.seed, &walk.to_le_bytes()]);
	for r in 0..spec.reads {
		let item = read(read_index(spec, walk, r, &mix));
		for (m, d) in mix.iter_mut().zip(&item) {
			*m = fnv(*m, *d);
		}
	}
	keccak256_concat(&[&bytes(&mix)])
}

/// A walk recomputed from the cache alone: each read regenerates its dataset item (the
/// verifier's way: `reads × parents` cache reads and `2·reads + 1` Keccaks per walk, and no
/// dataset).
pub fn walk_from_cache(spec: &MemorySpec, cache: &[Item], index: u32) -> Hash32 {
	walk(spec, index, |i| dataset_item(spec, cache, i))
}

/// The whole dataset of `spec` (tests and small specs only: it is `dataset_items` × 64 bytes).
pub fn dataset(spec: &MemorySpec, cache: &[Item]) -> Vec<Item> {
	(0..spec.dataset_items).map(|i| dataset_item(spec, cache, i)).collect()
}

#[cfg(test)]
mod tests {
	use super::*;

	fn spec() -> MemorySpec {
		MemorySpec { seed: [7; 32], cache_items: 1 << 10, dataset_items: 50_000, parents: 256, reads: 64 }
	}

	#[test]
	fn a_walk_reads_the_same_from_memory_as_from_the_cache() {
		let s = spec();
		let c = cache(&s);
		let d = dataset(&s, &c);
		for w in [0u32, 1, 77, u32::MAX] {
			assert_eq!(walk(&s, w, |i| d[i as usize]), walk_from_cache(&s, &c, w), "walk {w}");
		}
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
		assert_eq!(c[5], expand(&[&bytes(&c[4])]));
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
		for w in 0..512u32 {
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
		for w in 0..2_000u32 {
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
}
