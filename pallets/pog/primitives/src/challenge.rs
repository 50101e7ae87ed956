//! One GPU's challenge in a round, as the chain issues it and the agent answers it: its
//! parameters ([`ChallengeParams`], with the memory phase's [`MemoryParams`]) and the three seeds
//! every C follows from, each derived here and nowhere else:
//!
//! 1. the GPU's seed, from the round's seed, the miner, the GPU's index and its UUID
//!    ([`gpu_seed`]);
//! 2. the memory phase's seed, from the GPU's seed ([`memory::memory_seed`], through
//!    [`memory::challenge`], which sizes the phase the chain stores);
//! 3. the seed of A and B: the GPU's seed alone without a memory phase, else the GPU's seed and
//!    the committed memory root ([`memory::gemm_seed`], [`ChallengeParams::spec`]), so that the
//!    GEMM cannot start before the memory phase has ended.
//!
//! The pallet stores these types and the agent decodes them straight from the chain (subxt
//! `substitute_type`), so both read a challenge through the same methods.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

use crate::{
	memory::{self, MemoryChallenge},
	verify::ChallengeSpec,
	Dims, Hash32, Precision,
};

/// A GPU's position in its miner's claims.
pub type GpuIndex = u32;
/// A GPU's self-reported UUID (NVML's 16 bytes).
pub type GpuUuid = [u8; 16];
/// A profile's id in the chain's table.
pub type ProfileId = u32;

/// The GPU's challenge seed in a round: a hash of the round's seed (the randomness of the block
/// that started it), the miner (its SCALE encoding), the GPU's index and its UUID.
pub fn gpu_seed(round_seed: &Hash32, miner: &impl Encode, gpu: GpuIndex, uuid: &GpuUuid) -> Hash32 {
	sp_crypto_hashing::blake2_256(&(b"pog/gpu", round_seed, miner, gpu, uuid).encode())
}

/// One GPU's challenge in a round, derived from the round seed, the miner and the GPU.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct ChallengeParams {
	/// The GPU's position in the miner's claims.
	pub gpu: GpuIndex,
	/// Its UUID (self-reported).
	pub uuid: GpuUuid,
	/// The profile it is claimed to be.
	pub profile: ProfileId,
	/// The GPU's challenge seed ([`gpu_seed`]): the memory phase's seed is derived from it, and
	/// so are A and B ([`Self::spec`]).
	pub seed: Hash32,
	/// Input precision of the GEMM.
	pub precision: Precision,
	/// Shape of the GEMM.
	pub dims: Dims,
	/// Chunk length along k.
	pub chunk_k: u32,
	/// Expected GEMM time at the profile's throughput (ms).
	pub expected_ms: u64,
	/// The GEMM root must land in a block stamped at or before this (ms): round start + the
	/// GEMM's allowed time, after the memory phase's allowed time less its slack where there is
	/// one (both phases share one slack; when the memory root lands moves nothing).
	pub deadline_ms: u64,
	/// The memory phase that comes first (`None`: the profile has no measured memory rates).
	pub memory: Option<MemoryParams>,
}

impl ChallengeParams {
	/// Everything that defines this challenge's C (what a prover computes and a verifier checks):
	/// A and B from the GPU's seed, or with a memory phase from its seed and `memory_root`.
	pub fn spec(&self, memory_root: Option<&Hash32>) -> ChallengeSpec {
		let seed = match memory_root {
			Some(root) => memory::gemm_seed(&self.seed, root),
			None => self.seed,
		};
		ChallengeSpec { seed, precision: self.precision, dims: self.dims, chunk_k: self.chunk_k }
	}

	/// The memory phase (`None` without one).
	pub fn memory_challenge(&self) -> Option<MemoryChallenge> {
		self.memory.map(|m| m.challenge)
	}
}

/// One GPU's memory phase in a round: the phase as [`memory::challenge`] sized it (a dataset of
/// 0.9 × its profile's memory made from a small cache, then its walks of data-dependent reads;
/// its seed from the GPU's, [`memory::memory_seed`]), committed as a Merkle root before
/// `deadline_ms` (`docs/protocol.md` §16).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct MemoryParams {
	/// The phase.
	pub challenge: MemoryChallenge,
	/// The memory root must land in a block stamped at or before this (ms): round start + the
	/// phase's allowed time.
	pub deadline_ms: u64,
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn the_three_seeds_follow_from_the_round_seed_miner_gpu_and_memory_root() {
		let miner = [7u8; 32];
		let seed = gpu_seed(&[1; 32], &miner, 3, &[9; 16]);
		assert_ne!(seed, gpu_seed(&[1; 32], &miner, 4, &[9; 16]), "each GPU its own");
		assert_ne!(seed, gpu_seed(&[1; 32], &[8u8; 32], 3, &[9; 16]), "each miner its own");
		assert_ne!(seed, gpu_seed(&[2; 32], &miner, 3, &[9; 16]), "each round its own");
		let rules = memory::MemoryRules::dev();
		let phase = memory::challenge(&seed, 4, 8, 8, &rules).expect("a dev phase");
		let params = ChallengeParams {
			gpu: 3,
			uuid: [9; 16],
			profile: 0,
			seed,
			precision: Precision::Bf16,
			dims: Dims { m: 256, n: 256, k: 256 },
			chunk_k: 256,
			expected_ms: 1,
			deadline_ms: 2,
			memory: Some(MemoryParams { challenge: phase, deadline_ms: 5 }),
		};
		assert_eq!(params.memory_challenge(), Some(phase), "the memory phase's seed from the GPU's");
		assert_eq!(params.spec(None).seed, seed);
		let root = [4; 32];
		assert_eq!(params.spec(Some(&root)).seed, memory::gemm_seed(&seed, &root));
		assert_ne!(params.spec(Some(&root)).seed, params.spec(Some(&[5; 32])).seed);
	}
}
