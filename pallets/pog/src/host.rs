//! The verifier's arithmetic as host functions: the off-chain worker decides, the node computes.
//!
//! A validator's off-chain worker runs inside the runtime's WASM on one core. The exact
//! recomputation of sampled entries of C (`pog_primitives::verify::exact_entries`) and the
//! memory phase's walks (`pog_primitives::memory::first_wrong`) are its whole cost, so the node
//! runs them natively instead, through the runtime interface [`pog_verifier`]: the entries with
//! the verifier's AVX2 build where the CPU has it and every opened leaf's row on its own core (a
//! pool of all cores but one, which is left to block production and import), the walks from one
//! cache made once and checked on the same pool. Which entries are
//! checked, the tolerance and the verdict stay in the runtime
//! (`pog_primitives::verify::check_openings_with`); the host only returns numbers, bit for bit
//! the ones the runtime would compute itself.
//!
//! The node registers [`pog_verifier::HostFunctions`] beside `sp_io`'s (`pog-node`'s
//! `service.rs`); a runtime with this interface runs only on a node that provides it. Off-chain
//! workers are not consensus: the host functions are never called while importing a block.

use alloc::vec::Vec;
use pog_primitives::{
	memory::MemoryChallenge,
	verify::{ChallengeSpec, EntrySource, ExactEntry},
	Hash32,
};
use sp_runtime_interface::{
	pass_by::{AllocateAndReturnByCodec, PassFatPointerAndDecode, PassFatPointerAndDecodeSlice},
	runtime_interface,
};

/// Host functions of PoG's verifier, version 1.
#[runtime_interface]
pub trait PogVerifier {
	/// `pog_primitives::verify::exact_entries` of each `(row, cols)` of `rows`, in order, computed
	/// natively on the verifier's thread pool.
	fn exact_entries(
		spec: PassFatPointerAndDecode<ChallengeSpec>,
		rows: PassFatPointerAndDecodeSlice<&[(u32, Vec<u32>)]>,
	) -> AllocateAndReturnByCodec<Vec<Vec<ExactEntry>>> {
		native::exact_entries(&spec, rows)
	}

	/// `pog_primitives::memory::first_wrong`, computed natively: the first wrong one of the
	/// `opened` walks (or lane links) of `challenge`, or `None`; the openings checked on the
	/// verifier's thread pool.
	fn first_wrong_walk(
		challenge: PassFatPointerAndDecode<MemoryChallenge>,
		opened: PassFatPointerAndDecodeSlice<&[(u64, Hash32, Hash32)]>,
	) -> AllocateAndReturnByCodec<Option<u64>> {
		native::first_wrong_walk(&challenge, opened)
	}
}

/// The off-chain worker's [`EntrySource`]: the node's host function.
pub struct Host;

impl EntrySource for Host {
	fn exact_entries(&self, spec: &ChallengeSpec, rows: &[(u32, Vec<u32>)]) -> Vec<Vec<ExactEntry>> {
		pog_verifier::exact_entries(*spec, rows)
	}
}

#[cfg(feature = "std")]
mod native {
	use super::*;
	use rayon::prelude::*;
	use std::sync::LazyLock;

	/// The verifier's threads: every core but one (at least one thread).
	static POOL: LazyLock<Option<rayon::ThreadPool>> = LazyLock::new(|| {
		let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
		rayon::ThreadPoolBuilder::new()
			.num_threads(cores.saturating_sub(1).max(1))
			.thread_name(|i| format!("pog-verifier-{i}"))
			.build()
			.ok()
	});

	/// Each row's entries on its own thread of [`POOL`] (on the calling thread where no pool
	/// could be made).
	pub fn exact_entries(spec: &ChallengeSpec, rows: &[(u32, Vec<u32>)]) -> Vec<Vec<ExactEntry>> {
		let one = |(row, cols): &(u32, Vec<u32>)| pog_primitives::verify::exact_entries(spec, *row, cols);
		match POOL.as_ref() {
			Some(pool) => pool.install(|| rows.par_iter().map(one).collect()),
			None => rows.iter().map(one).collect(),
		}
	}

	/// `memory::first_wrong`: the cache made once, then the openings checked in runs spread over
	/// the threads of [`POOL`] (a run's walks side by side on one core, at most
	/// `memory::LOCKSTEP`; runs short enough that every thread has one), the first wrong one in
	/// order kept.
	pub fn first_wrong_walk(challenge: &MemoryChallenge, opened: &[(u64, Hash32, Hash32)]) -> Option<u64> {
		let check = pog_primitives::memory::OpeningCheck::new(challenge);
		let first = match POOL.as_ref() {
			Some(pool) => {
				let run = opened.len().div_ceil(pool.current_num_threads()).clamp(1, pog_primitives::memory::LOCKSTEP);
				pool.install(|| {
					opened
						.par_chunks(run)
						.enumerate()
						.filter_map(|(i, openings)| check.first_wrong_in(openings).map(|j| i * run + j))
						.min()
				})
			},
			None => check.first_wrong_in(opened),
		};
		first.map(|i| opened[i].0)
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use pog_primitives::{verify::InPlace, Dims, Precision};

	#[test]
	fn the_host_finds_the_first_wrong_walk_the_runtime_would() {
		use pog_primitives::memory::{self, MemoryChallenge, MemorySpec};
		let spec =
			MemorySpec { seed: [7; 32], cache_items: 1 << 10, dataset_items: 50_000, parents: 64, reads: 64, lanes: 0 };
		let challenge = MemoryChallenge { spec, walks: 1 << 12, expected_ms: 1 };
		let cache = memory::cache(&spec);
		let mut opened: Vec<(u64, Hash32, Hash32)> =
			(0..24u64).map(|i| (i * 157, memory::walk_from_cache(&spec, &cache, i * 157), [0; 32])).collect();
		assert_eq!(pog_verifier::first_wrong_walk(challenge, &opened), None);
		for bad in [17usize, 5] {
			opened[bad].1[0] ^= 1;
		}
		// two wrong walks: the first in the opened order, as the runtime finds it
		assert_eq!(pog_verifier::first_wrong_walk(challenge, &opened), Some(5 * 157));
		assert_eq!(pog_verifier::first_wrong_walk(challenge, &opened), memory::first_wrong(&challenge, &opened));
	}

	#[test]
	fn the_host_computes_what_the_runtime_would() {
		for precision in Precision::ALL {
			let spec =
				ChallengeSpec { seed: [3; 32], precision, dims: Dims { m: 4096, n: 4096, k: 8192 }, chunk_k: 2048 };
			let rows: Vec<(u32, Vec<u32>)> = (0..9).map(|r| (r * 401, vec![r, 4095 - r])).collect();
			let native = Host.exact_entries(&spec, &rows);
			assert_eq!(native, InPlace.exact_entries(&spec, &rows), "{precision:?}");
			assert_eq!(native.len(), 9);
		}
	}
}
