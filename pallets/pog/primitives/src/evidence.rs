//! Evidence that a committee member fetched what it voted on (`docs/protocol.md` §8, "Evidence
//! of a fetch").
//!
//! Every member checks the same entries of a served GPU, and the check itself needs nothing the
//! chain does not show, so a member could vote without fetching: copy the failing votes others
//! put on chain and pass the rest. What only a fetch gives is the served bytes. So for each served
//! GPU it votes on with a result (a pass, or a failure naming a leaf or a walk), a member takes the
//! hash of the GPU's **first sampled leaf** of C, which the openings carry with its Merkle path,
//! and commits it, keyed to itself, as a leaf of its **evidence tree** ([`evidence_leaf`]); the
//! tree's root ([`evidence_root`]) goes with every attestation. After the round's votes have
//! closed, the chain audits a few decided served GPUs, and each member that voted on one with a
//! result must open its evidence leaf ([`evidence_path`], [`verify_evidence`]) with the leaf hash
//! and its path to the GPU's committed root ([`crate::commitment::verify_leaf_hash`]). A member
//! that fetched has both; one that did not cannot make them up (the leaf hash is bound by the
//! miner's root), and the chain checks the opening alone, against no other member's word.
//!
//! The tree is Keccak-256 binary Merkle (the `binary-merkle-tree` crate, as C's commitment), over
//! the member's leaves in any order: each leaf names its round, member, miner and GPU.

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

use crate::commitment::{keccak256, root_from_leaf_hashes, verify_path, Hash32, Keccak256};

/// Longest path of an evidence tree: 2³² leaves.
pub const MAX_EVIDENCE_DEPTH: u32 = 32;

/// The root of an evidence tree without leaves.
pub const EMPTY_EVIDENCE: Hash32 = [0; 32];

/// A member's evidence tree as its attestation commits it: the root and how many leaves it has.
#[derive(
	Clone, Copy, Default, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen,
)]
pub struct EvidenceRoot {
	/// The root ([`evidence_root`]).
	pub root: Hash32,
	/// Its leaves.
	pub leaves: u32,
}

impl EvidenceRoot {
	/// The tree over `leaves`.
	pub fn of(leaves: &[Hash32]) -> Self {
		EvidenceRoot { root: evidence_root(leaves), leaves: leaves.len() as u32 }
	}
}

/// The leaf `member` commits for `miner`'s GPU `gpu` of round `round` whose first sampled leaf
/// of C hashes to `leaf_hash`.
pub fn evidence_leaf<A: Encode>(round: u32, member: &A, miner: &A, gpu: u32, leaf_hash: &Hash32) -> Hash32 {
	keccak256(&(b"pog/evidence", round, member, miner, gpu, leaf_hash).encode())
}

/// The root of the evidence tree over `leaves` ([`EMPTY_EVIDENCE`] for none).
pub fn evidence_root(leaves: &[Hash32]) -> Hash32 {
	if leaves.is_empty() {
		return EMPTY_EVIDENCE;
	}
	root_from_leaf_hashes(leaves.iter().copied())
}

/// The path of leaf `index` in the evidence tree over `leaves` (empty when out of range).
pub fn evidence_path(leaves: &[Hash32], index: u32) -> Vec<Hash32> {
	if index as usize >= leaves.len() {
		return Vec::new();
	}
	binary_merkle_tree::merkle_proof_raw::<Keccak256, _>(leaves.iter().copied(), index).proof
}

/// Whether `path` shows `leaf` at `index` of an evidence tree of `count` leaves whose root is
/// `root`.
pub fn verify_evidence(root: &Hash32, leaf: &Hash32, index: u32, count: u32, path: &[Hash32]) -> bool {
	path.len() <= MAX_EVIDENCE_DEPTH as usize && verify_path(root, leaf, index, count, path)
}

#[cfg(test)]
mod tests {
	use super::*;

	fn leaves(n: u32) -> Vec<Hash32> {
		(0..n).map(|i| evidence_leaf(7, &[1u8; 32], &[2u8; 32], i, &keccak256(&i.to_le_bytes()))).collect()
	}

	#[test]
	fn every_leaf_opens_and_nothing_else_does() {
		for n in [1u32, 2, 3, 5, 8, 13, 100] {
			let leaves = leaves(n);
			let root = evidence_root(&leaves);
			for (i, leaf) in leaves.iter().enumerate() {
				let path = evidence_path(&leaves, i as u32);
				assert!(verify_evidence(&root, leaf, i as u32, n, &path), "leaf {i} of {n}");
				if n > 1 {
					let other = (i as u32 + 1) % n;
					assert!(!verify_evidence(&root, leaf, other, n, &path), "leaf {i} at {other} of {n}");
				}
				let forged = evidence_leaf(7, &[1u8; 32], &[2u8; 32], i as u32, &[0; 32]);
				assert!(!verify_evidence(&root, &forged, i as u32, n, &path), "a made-up leaf hash");
				assert!(!verify_evidence(&root, leaf, n, n, &path), "out of range");
			}
		}
	}

	#[test]
	fn a_leaf_is_keyed_to_its_member() {
		let hash = keccak256(b"leaf");
		assert_ne!(
			evidence_leaf(1, &[1u8; 32], &[2u8; 32], 0, &hash),
			evidence_leaf(1, &[3u8; 32], &[2u8; 32], 0, &hash)
		);
		assert_ne!(
			evidence_leaf(1, &[1u8; 32], &[2u8; 32], 0, &hash),
			evidence_leaf(2, &[1u8; 32], &[2u8; 32], 0, &hash)
		);
		assert_eq!(evidence_root(&[]), EMPTY_EVIDENCE);
	}
}
