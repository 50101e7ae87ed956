//! Known-answer vectors for the generator, the leaf layout, the Merkle root and the memory-hard
//! phase's cache, dataset items and walks, kept in
//! `kat/vectors.json` so that the CUDA side reproduces exactly the same bits.
//! Regenerate (only when the protocol changes on purpose) with `POG_BLESS_KAT=1 cargo test -p
//! pog-primitives --test known_answers`.

use pog_primitives::{
	commitment::{keccak256, leaf_hash, proof_from_levels, tree_levels, Hash32},
	cpu,
	generator::{Generator, Matrix},
	memory::{self, MemorySpec},
	philox::philox4x32_10,
	verify::ChallengeSpec,
	Dims, Precision,
};
use serde_json::{json, Value};

/// `kat/vectors.json` of the checkout the test runs in. Cargo sets `CARGO_MANIFEST_DIR` for the
/// test process too; the compile-time path would be stale when one target directory serves
/// several checkouts (scripts/env.sh) and the binary was last built in another, deleted, one.
fn file() -> std::path::PathBuf {
	let dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
	std::path::PathBuf::from(dir).join("kat/vectors.json")
}

fn hex32(h: &Hash32) -> String {
	hex::encode(h)
}

fn seed_for(p: Precision) -> [u8; 32] {
	keccak256(format!("pog-kat/{}", p.name()).as_bytes())
}

/// The whole of A (row-major m×k) or B (row-major k×n) as native-width little-endian bytes.
fn matrix_bytes(g: &Generator, dims: &Dims, matrix: Matrix) -> Vec<u8> {
	let width = (g.precision().storage_bits() / 8) as usize;
	let push = |out: &mut Vec<u8>, bits: u32| out.extend_from_slice(&bits.to_le_bytes()[..width]);
	let mut out = Vec::new();
	match matrix {
		Matrix::A => {
			for row in 0..dims.m {
				let mut line = vec![0u32; dims.k as usize];
				g.fill_line(Matrix::A, row, 0, &mut line);
				line.into_iter().for_each(|b| push(&mut out, b));
			}
		},
		Matrix::B => {
			let cols: Vec<Vec<u32>> = (0..dims.n)
				.map(|c| {
					let mut line = vec![0u32; dims.k as usize];
					g.fill_line(Matrix::B, c, 0, &mut line);
					line
				})
				.collect();
			for kk in 0..dims.k as usize {
				for col in &cols {
					push(&mut out, col[kk]);
				}
			}
		},
	}
	out
}

fn vectors() -> Value {
	let philox: Vec<Value> = [
		([0u32; 4], [0u32; 2]),
		([u32::MAX; 4], [u32::MAX; 2]),
		([0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344], [0xa409_3822, 0x299f_31d0]),
		([3, 1, 4, 1], [5, 9]),
	]
	.iter()
	.map(|(c, k)| json!({ "counter": c, "key": k, "output": philox4x32_10(*c, *k) }))
	.collect();

	let dims = Dims { m: 256, n: 256, k: 512 };
	let generator: Vec<Value> = Precision::ALL
		.iter()
		.map(|p| {
			let seed = seed_for(*p);
			let g = Generator::new(&seed, *p);
			let mut a_row3 = vec![0u32; 32];
			g.fill_line(Matrix::A, 3, 0, &mut a_row3);
			let mut b_col5 = vec![0u32; 32];
			g.fill_line(Matrix::B, 5, 480, &mut b_col5);
			json!({
				"precision": p.name(),
				"seed": hex::encode(seed),
				"dims": dims,
				"philox_key": g.key(),
				"a_row3_k0_32": a_row3,
				"b_col5_k480_32": b_col5,
				"keccak_a_row_major": hex32(&keccak256(&matrix_bytes(&g, &dims, Matrix::A))),
				"keccak_b_row_major": hex32(&keccak256(&matrix_bytes(&g, &dims, Matrix::B))),
			})
		})
		.collect();

	// fp8 with k = 256: every partial sum is a multiple of 2^-6 below 2^10, so fp32 holds it
	// exactly and C is the same bits in every summation order; its tree is fully pinned.
	let spec = ChallengeSpec {
		seed: seed_for(Precision::Fp8E4M3),
		precision: Precision::Fp8E4M3,
		dims: Dims { m: 256, n: 512, k: 256 },
		chunk_k: 256,
	};
	let c = cpu::gemm(&spec);
	let hashes: Vec<Hash32> = c.chunks(256).map(leaf_hash).collect();
	let levels = tree_levels(hashes.clone());
	let root = levels.last().unwrap()[0];
	let commitment = json!({
		"precision": spec.precision.name(),
		"seed": hex::encode(spec.seed),
		"dims": spec.dims,
		"c_row0_first8_bits": &c[..8],
		"c_row1_col300_bits": c[512 + 300],
		"keccak_c_le": hex32(&keccak256(&c.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>())),
		"leaf_hashes_0_4": hashes[..4].iter().map(hex32).collect::<Vec<_>>(),
		"leaf_hash_last": hex32(hashes.last().unwrap()),
		"root": hex32(&root),
		"proof_leaf_5": proof_from_levels(&levels, 5).iter().map(hex32).collect::<Vec<_>>(),
	});
	// The memory-hard phase's cache, dataset items and walks (pog_primitives::memory).
	let mspec = MemorySpec {
		seed: keccak256(b"pog-kat/memory"),
		cache_items: 1 << 12,
		dataset_items: 100_003,
		parents: 256,
		reads: 64,
		lanes: 0,
	};
	let cache = memory::cache(&mspec);
	let dataset = memory::dataset(&mspec, &cache);
	let walks_root: Vec<Hash32> = (0..1u64 << 16).map(|w| memory::walk(&mspec, w, |i| dataset[i as usize])).collect();
	let memory = json!({
		"seed": hex::encode(mspec.seed),
		"cache_items": mspec.cache_items,
		"dataset_items": mspec.dataset_items,
		"parents": mspec.parents,
		"reads": mspec.reads,
		"cache_0": cache[0],
		"cache_last": cache[cache.len() - 1],
		"dataset_0": memory::dataset_item(&mspec, &cache, 0),
		"dataset_12345": memory::dataset_item(&mspec, &cache, 12_345),
		"dataset_last": memory::dataset_item(&mspec, &cache, mspec.dataset_items - 1),
		"walks_0_3": (0..4).map(|w| hex32(&memory::walk_from_cache(&mspec, &cache, w))).collect::<Vec<_>>(),
		"walk_999999": hex32(&memory::walk_from_cache(&mspec, &cache, 999_999)),
		"walk_5000000000": hex32(&memory::walk_from_cache(&mspec, &cache, 5_000_000_000)),
		"walk_root_65536": hex32(&memory::walk_root(&walks_root)),
	});
	json!({
		"about": "PoG chain known-answer vectors (docs/protocol.md). Element bits are the generated format's bit patterns as integers; hashes are Keccak-256 hex; memory items are 16 little-endian u32 words.",
		"philox4x32_10": philox,
		"generator": generator,
		"commitment": commitment,
		"memory": memory,
	})
}

#[test]
fn known_answer_vectors_match_the_file() {
	let now = vectors();
	if std::env::var("POG_BLESS_KAT").is_ok() {
		std::fs::write(file(), serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
	}
	let text = std::fs::read_to_string(file()).expect("kat/vectors.json is committed");
	let pinned: Value = serde_json::from_str(&text).unwrap();
	assert_eq!(now, pinned, "generation, leaf layout or Merkle tree changed; see the module docs");
}

#[test]
fn the_pinned_c_is_order_independent() {
	let spec = ChallengeSpec {
		seed: seed_for(Precision::Fp8E4M3),
		precision: Precision::Fp8E4M3,
		dims: Dims { m: 256, n: 512, k: 256 },
		chunk_k: 256,
	};
	let one_chunk = cpu::gemm_rows(&spec, 0, 4);
	let small_chunks = cpu::gemm_rows(&ChallengeSpec { chunk_k: 16, ..spec }, 0, 4);
	assert_eq!(one_chunk, small_chunks);
}
