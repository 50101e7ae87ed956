//! Which leaves are opened, and which entries of an opened leaf a verifier recomputes.
//!
//! The opened leaves follow from a *sample seed* fixed only after the root is on chain:
//! `keccak256("pog/sample" ‖ the round's selection seed ‖ challenge seed ‖ root)`. The selection
//! seed is drawn by the chain after the round's commit window has closed, so no miner knows it when
//! it commits (see docs/protocol.md for the limits: a block author can grind it). Leaf `i` of the sample is drawn from
//! `keccak256(sample seed ‖ i as u32 LE)` (first 8 bytes LE, modulo the leaf count, a power of
//! two so the draw is uniform); repeats are skipped.
//!
//! Entries inside an opened leaf follow from the sample seed as well ([`entries_entropy`]): every
//! committee member checks the same ones, so honest members reach the same verdict; the miner
//! learns them only with the sample seed, after its root binds every value of C.

use alloc::vec::Vec;

use crate::{
	commitment::{keccak256_concat, Hash32},
	ChallengeSeed, LEAF_VALUES,
};

/// Domain tag of the sample seed.
pub const SAMPLE_TAG: &[u8] = b"pog/sample";

/// The sample seed of a committed challenge.
pub fn sample_seed(selection_seed: &[u8; 32], challenge_seed: &ChallengeSeed, root: &Hash32) -> Hash32 {
	keccak256_concat(&[SAMPLE_TAG, selection_seed, challenge_seed, root])
}

fn draw(seed: &Hash32, counter: u32, modulus: u64) -> u64 {
	let h = keccak256_concat(&[seed, &counter.to_le_bytes()]);
	let mut word = [0u8; 8];
	word.copy_from_slice(&h[..8]);
	u64::from_le_bytes(word) % modulus.max(1)
}

fn distinct(seed: &Hash32, modulus: u64, count: u32) -> Vec<u64> {
	let count = u64::from(count).min(modulus) as u32;
	let mut out: Vec<u64> = Vec::with_capacity(count as usize);
	let mut counter = 0u32;
	// Rejection of repeats; the cap only matters when `count` is close to `modulus`, where the
	// remaining values are then taken in ascending order.
	let cap = count.saturating_mul(16).saturating_add(64);
	while (out.len() as u32) < count && counter < cap {
		let v = draw(seed, counter, modulus);
		counter += 1;
		if !out.contains(&v) {
			out.push(v);
		}
	}
	let mut v = 0;
	while (out.len() as u32) < count {
		if !out.contains(&v) {
			out.push(v);
		}
		v += 1;
	}
	out
}

/// The `count` distinct walks (in draw order) whose results a memory commitment over `walks`
/// results opens, drawn as leaves are (`walks` need not be a power of two: the draw's bias is
/// below walks / 2^64).
pub fn opened_walks(sample_seed: &Hash32, walks: u64, count: u32) -> Vec<u64> {
	let seed = keccak256_concat(&[b"pog/walks", sample_seed]);
	distinct(&seed, walks, count)
}

/// The `count` distinct leaves (in draw order) to open, out of `num_leaves`.
pub fn opened_leaves(sample_seed: &Hash32, num_leaves: u32, count: u32) -> Vec<u32> {
	distinct(sample_seed, u64::from(num_leaves), count).into_iter().map(|l| l as u32).collect()
}

/// The entropy every committee member of a challenge checks its entries with: drawn from the
/// challenge's sample seed, so the same for all members and public once the sample is drawn
/// (after the root landed, which binds every value of C). Every honest member then checks the
/// same entries and reaches the same verdict, so a verdict against a decided outcome is a fault
/// the chain can attribute, and a partial cheat that one member catches, every member catches.
pub fn entries_entropy(sample_seed: &Hash32) -> Hash32 {
	keccak256_concat(&[b"pog/entries-entropy", sample_seed])
}

/// The `count` distinct offsets (0..256) a verifier checks inside opened leaf `leaf`, from
/// `entropy` ([`entries_entropy`] for a committee member).
pub fn checked_offsets(entropy: &Hash32, leaf: u32, count: u32) -> Vec<u16> {
	let seed = keccak256_concat(&[b"pog/entries", entropy, &leaf.to_le_bytes()]);
	distinct(&seed, LEAF_VALUES as u64, count).into_iter().map(|v| v as u16).collect()
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn openings_are_distinct_in_range_and_depend_on_the_seed() {
		let a = opened_leaves(&[1u8; 32], 1024, 32);
		let b = opened_leaves(&[2u8; 32], 1024, 32);
		assert_eq!(a.len(), 32);
		assert!(a.iter().all(|l| *l < 1024));
		let mut s = a.clone();
		s.sort();
		s.dedup();
		assert_eq!(s.len(), 32);
		assert_ne!(a, b);
		assert_eq!(opened_leaves(&[1u8; 32], 4, 10).len(), 4, "never more than the leaves");
		let all = opened_leaves(&[3u8; 32], 256, 256);
		let mut all_sorted = all.clone();
		all_sorted.sort();
		assert_eq!(all_sorted, (0..256).collect::<Vec<_>>());
	}

	#[test]
	fn opened_walks_reach_past_two_to_the_32() {
		let w = opened_walks(&[4u8; 32], 1 << 40, 64);
		assert_eq!(w.len(), 64);
		assert!(w.iter().all(|i| *i < 1 << 40));
		assert!(w.iter().filter(|i| **i >= 1 << 32).count() > 48, "nearly all of them above 2^32");
		assert_ne!(opened_walks(&[4u8; 32], 1 << 40, 4)[0], opened_leaves(&[4u8; 32], 1 << 31, 1)[0] as u64);
	}

	#[test]
	fn sample_seed_binds_block_seed_and_root() {
		let s = sample_seed(&[1; 32], &[2; 32], &[3; 32]);
		assert_ne!(s, sample_seed(&[9; 32], &[2; 32], &[3; 32]));
		assert_ne!(s, sample_seed(&[1; 32], &[9; 32], &[3; 32]));
		assert_ne!(s, sample_seed(&[1; 32], &[2; 32], &[9; 32]));
	}

	#[test]
	fn offsets_are_distinct() {
		let o = checked_offsets(&[5; 32], 17, 8);
		let mut s = o.clone();
		s.sort();
		s.dedup();
		assert_eq!(s.len(), 8);
		assert!(o.iter().all(|v| (*v as usize) < LEAF_VALUES));
	}
}
