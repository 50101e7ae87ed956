//! The commitment to C: fixed-size leaves and a Keccak-256 binary Merkle tree.
//!
//! - C is cut row-major into leaves of [`LEAF_VALUES`] fp32 values. Since n is a power of two
//!   ≥ 256, a leaf never crosses a row: leaf `l` holds `C[row][col0 .. col0 + 256]` with
//!   `row = l / (n/256)` and `col0 = (l % (n/256))·256`.
//! - A leaf's bytes are its values' IEEE-754 bit patterns, little-endian (1,024 bytes); its hash is
//!   Keccak-256 (the original Keccak padding, as Ethereum's `keccak256`) of those bytes.
//! - Inner nodes are `keccak256(left ‖ right)`, unsorted, as the `binary-merkle-tree` crate builds
//!   them; the leaf count is a power of two, so the tree is perfect and no node is promoted.
//!   A proof lists the siblings from the leaf level up; its length is the tree depth.

use alloc::vec::Vec;

use crate::Dims;

/// fp32 values per leaf.
pub const LEAF_VALUES: usize = 256;
/// Bytes per leaf.
pub const LEAF_BYTES: usize = LEAF_VALUES * 4;

/// A 32-byte hash.
pub type Hash32 = [u8; 32];

/// Keccak-256 as a `hash_db::Hasher`, for the `binary-merkle-tree` crate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keccak256;

/// `core::hash::Hasher` for maps keyed by Keccak outputs (required by `hash_db::Hasher`).
#[derive(Default)]
pub struct Keccak256StdHasher(u64);

impl core::hash::Hasher for Keccak256StdHasher {
	fn finish(&self) -> u64 {
		self.0
	}
	fn write(&mut self, bytes: &[u8]) {
		for chunk in bytes.chunks(8) {
			let mut word = [0u8; 8];
			word[..chunk.len()].copy_from_slice(chunk);
			self.0 = self.0.rotate_left(5) ^ u64::from_le_bytes(word);
		}
	}
}

impl hash_db::Hasher for Keccak256 {
	type Out = Hash32;
	type StdHasher = Keccak256StdHasher;
	const LENGTH: usize = 32;

	fn hash(x: &[u8]) -> Hash32 {
		keccak256(x)
	}
}

/// Keccak-256 of `data`.
pub fn keccak256(data: &[u8]) -> Hash32 {
	use tiny_keccak::Hasher as _;
	let mut k = tiny_keccak::Keccak::v256();
	k.update(data);
	let mut out = [0u8; 32];
	k.finalize(&mut out);
	out
}

/// Keccak-256 of the concatenation of `parts`.
pub fn keccak256_concat(parts: &[&[u8]]) -> Hash32 {
	use tiny_keccak::Hasher as _;
	let mut k = tiny_keccak::Keccak::v256();
	for p in parts {
		k.update(p);
	}
	let mut out = [0u8; 32];
	k.finalize(&mut out);
	out
}

/// The hash of a leaf given as fp32 bit patterns (`values.len()` should be [`LEAF_VALUES`]).
pub fn leaf_hash(values: &[u32]) -> Hash32 {
	use tiny_keccak::Hasher as _;
	let mut k = tiny_keccak::Keccak::v256();
	for v in values {
		k.update(&v.to_le_bytes());
	}
	let mut out = [0u8; 32];
	k.finalize(&mut out);
	out
}

/// `(row, first column)` of C covered by `leaf`.
pub fn leaf_position(dims: &Dims, leaf: u32) -> (u32, u32) {
	let per_row = dims.leaves_per_row();
	(leaf / per_row, (leaf % per_row) * LEAF_VALUES as u32)
}

/// The leaf that holds `C[row][col]`.
pub fn leaf_of(dims: &Dims, row: u32, col: u32) -> u32 {
	row * dims.leaves_per_row() + col / LEAF_VALUES as u32
}

/// The Merkle root over leaf hashes, in leaf order.
pub fn root_from_leaf_hashes<I: IntoIterator<Item = Hash32>>(leaf_hashes: I) -> Hash32 {
	binary_merkle_tree::merkle_root_raw::<Keccak256, _>(leaf_hashes)
}

/// The Merkle root of a whole C given row-major as fp32 bit patterns.
pub fn root_of_matrix(c: &[u32]) -> Hash32 {
	root_from_leaf_hashes(c.chunks(LEAF_VALUES).map(leaf_hash))
}

/// All levels of the tree: `levels[0]` are the leaf hashes, the last level is `[root]`.
/// Needs a power-of-two number of leaves.
pub fn tree_levels(leaf_hashes: Vec<Hash32>) -> Vec<Vec<Hash32>> {
	let mut levels = alloc::vec![leaf_hashes];
	while levels.last().is_some_and(|l| l.len() > 1) {
		let below = levels.last().expect("non-empty");
		let up = below.chunks(2).map(|pair| keccak256_concat(&[&pair[0], &pair[1]])).collect();
		levels.push(up);
	}
	levels
}

/// The proof (siblings from the leaf level up) of `leaf` in a tree built by [`tree_levels`].
pub fn proof_from_levels(levels: &[Vec<Hash32>], leaf: u32) -> Vec<Hash32> {
	let mut idx = leaf as usize;
	let mut proof = Vec::with_capacity(levels.len().saturating_sub(1));
	for level in &levels[..levels.len().saturating_sub(1)] {
		proof.push(level[idx ^ 1]);
		idx /= 2;
	}
	proof
}

/// A miner's committed result: the whole of C (row-major fp32 bit patterns) with every level of
/// its Merkle tree, so that any leaf opens without recomputing anything. The one implementation
/// the CPU prover, the pallet's tests and its benchmarks share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommittedMatrix {
	c: Vec<u32>,
	levels: Vec<Vec<Hash32>>,
}

impl CommittedMatrix {
	/// Hashes the leaves of `c` and builds its tree. `c.len()` must be a power-of-two multiple
	/// of [`LEAF_VALUES`] (as every valid challenge's C is).
	pub fn new(c: Vec<u32>) -> Self {
		let levels = tree_levels(c.chunks(LEAF_VALUES).map(leaf_hash).collect());
		Self { c, levels }
	}

	/// The Merkle root.
	pub fn root(&self) -> Hash32 {
		self.levels.last().and_then(|l| l.first()).copied().unwrap_or_default()
	}

	/// The entries of C.
	pub fn entries(&self) -> &[u32] {
		&self.c
	}

	/// The values of `leaf` and its proof, or `None` when `leaf` is outside C.
	pub fn open(&self, leaf: u32) -> Option<(&[u32], Vec<Hash32>)> {
		let start = (leaf as usize).checked_mul(LEAF_VALUES)?;
		let values = self.c.get(start..start + LEAF_VALUES)?;
		Some((values, proof_from_levels(&self.levels, leaf)))
	}
}

/// The commitment to a C whose entries all equal one value: every leaf is the same, so each
/// level of the tree is one hash and every proof is the same path. What a miner that computes
/// nothing would commit (the adversarial tests), and the cheapest valid commitment for the
/// pallet's benchmarks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantCommitment {
	value: u32,
	/// The node hash of each level, leaves first, root last.
	levels: Vec<Hash32>,
}

impl ConstantCommitment {
	/// The commitment to a C of `dims` whose entries are all `value` (fp32 bits).
	pub fn new(value: u32, dims: &Dims) -> Self {
		let mut levels = alloc::vec![leaf_hash(&[value; LEAF_VALUES])];
		for _ in 0..dims.tree_depth() {
			let below = *levels.last().expect("non-empty");
			levels.push(keccak256_concat(&[&below, &below]));
		}
		Self { value, levels }
	}

	/// The entries' value.
	pub fn value(&self) -> u32 {
		self.value
	}

	/// The Merkle root.
	pub fn root(&self) -> Hash32 {
		*self.levels.last().expect("non-empty")
	}

	/// The proof of any leaf (siblings from the leaf level up).
	pub fn proof(&self) -> Vec<Hash32> {
		self.levels[..self.levels.len() - 1].to_vec()
	}
}

/// Whether `values` (fp32 bit patterns) are leaf `leaf` of the tree with `root` for a challenge
/// of shape `dims`, as shown by `proof`.
pub fn verify_opening(root: &Hash32, dims: &Dims, leaf: u32, values: &[u32], proof: &[Hash32]) -> bool {
	values.len() == LEAF_VALUES && verify_leaf_hash(root, dims, leaf, &leaf_hash(values), proof)
}

/// Whether `proof` shows a leaf whose hash is `hash` at index `leaf` of the tree of C (`dims`)
/// whose root is `root`: what [`verify_opening`] checks once the values are hashed.
pub fn verify_leaf_hash(root: &Hash32, dims: &Dims, leaf: u32, hash: &Hash32, proof: &[Hash32]) -> bool {
	proof.len() == dims.tree_depth() as usize && verify_path(root, hash, leaf, dims.num_leaves(), proof)
}

/// Whether `proof` shows the leaf hash `hash` at index `leaf` of a Keccak-256 binary Merkle tree
/// of `count` leaves (the `binary-merkle-tree` crate's) whose root is `root`.
pub fn verify_path(root: &Hash32, hash: &Hash32, leaf: u32, count: u32, proof: &[Hash32]) -> bool {
	leaf < count
		&& binary_merkle_tree::verify_proof::<Keccak256, _, _>(
			root,
			proof.iter().copied(),
			count,
			leaf,
			binary_merkle_tree::Leaf::Hash(*hash),
		)
}

#[cfg(test)]
mod tests {
	use super::*;

	fn sample_matrix(dims: &Dims) -> Vec<u32> {
		(0..dims.m * dims.n).map(|i| (i as f32 * 0.25).to_bits()).collect()
	}

	#[test]
	fn own_tree_matches_the_crate_and_proofs_verify() {
		let dims = Dims { m: 256, n: 512, k: 256 };
		let c = sample_matrix(&dims);
		let hashes: Vec<Hash32> = c.chunks(LEAF_VALUES).map(leaf_hash).collect();
		let levels = tree_levels(hashes.clone());
		let root = levels.last().unwrap()[0];
		assert_eq!(root, root_of_matrix(&c));
		assert_eq!(
			root,
			binary_merkle_tree::merkle_root::<Keccak256, _>(
				c.chunks(LEAF_VALUES).map(|l| { l.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>() })
			)
		);
		for leaf in [0u32, 1, 2, 255, 511] {
			let proof = proof_from_levels(&levels, leaf);
			let crate_proof = binary_merkle_tree::merkle_proof_raw::<Keccak256, _>(hashes.clone(), leaf);
			assert_eq!(proof, crate_proof.proof);
			let (row, col0) = leaf_position(&dims, leaf);
			let start = (row * dims.n + col0) as usize;
			let values = &c[start..start + LEAF_VALUES];
			assert!(verify_opening(&root, &dims, leaf, values, &proof));
			assert!(!verify_opening(&root, &dims, leaf ^ 1, values, &proof), "wrong index");
			let mut bad = values.to_vec();
			bad[7] ^= 1;
			assert!(!verify_opening(&root, &dims, leaf, &bad, &proof), "corrupted value");
			let mut forged = proof.clone();
			forged[3][0] ^= 1;
			assert!(!verify_opening(&root, &dims, leaf, values, &forged), "forged path");
			assert!(!verify_opening(&root, &dims, leaf, values, &proof[1..]), "short path");
		}
	}

	#[test]
	fn committed_and_constant_matrices_open_what_they_commit() {
		let dims = Dims { m: 256, n: 512, k: 256 };
		let c = sample_matrix(&dims);
		let committed = CommittedMatrix::new(c.clone());
		assert_eq!(committed.root(), root_of_matrix(&c));
		for leaf in [0, 17, dims.num_leaves() - 1] {
			let (values, proof) = committed.open(leaf).unwrap();
			assert!(verify_opening(&committed.root(), &dims, leaf, values, &proof));
		}
		assert!(committed.open(dims.num_leaves()).is_none());

		let value = 1.5f32.to_bits();
		let constant = ConstantCommitment::new(value, &dims);
		let full = alloc::vec![value; (dims.m * dims.n) as usize];
		assert_eq!(constant.root(), root_of_matrix(&full));
		assert!(verify_opening(&constant.root(), &dims, 5, &[value; LEAF_VALUES], &constant.proof()));
	}

	#[test]
	fn keccak_is_the_original_keccak() {
		// keccak256("") as used by Ethereum
		assert_eq!(
			keccak256(b""),
			[
				0xc5, 0xd2, 0x46, 0x01, 0x86, 0xf7, 0x23, 0x3c, 0x92, 0x7e, 0x7d, 0xb2, 0xdc, 0xc7, 0x03, 0xc0, 0xe5,
				0x00, 0xb6, 0x53, 0xca, 0x82, 0x27, 0x3b, 0x7b, 0xfa, 0xd8, 0x04, 0x5d, 0x85, 0xa4, 0x70
			]
		);
	}

	#[test]
	fn leaf_layout_is_row_major() {
		let dims = Dims { m: 512, n: 1024, k: 256 };
		assert_eq!(leaf_position(&dims, 0), (0, 0));
		assert_eq!(leaf_position(&dims, 3), (0, 768));
		assert_eq!(leaf_position(&dims, 4), (1, 0));
		assert_eq!(leaf_of(&dims, 1, 300), 5);
	}
}
