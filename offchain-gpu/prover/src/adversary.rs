//! Cheating miners, for the tests only (cargo feature `adversary`; never in a production build).
//!
//! Each [`Cheat`] is a way a rational miner could try to answer a challenge without doing the
//! work the chain asked for; `tests/cheaters.test.mjs` runs the agent with each and asserts that
//! the chain fails it with the right reason. The cheats that change what is computed live here;
//! the ones that change what is sent (a forged path, a late commitment, claimed GPUs that are
//! not there) live in the agent's own `adversary` module.

use std::time::Instant;

use pog_primitives::{commitment::ConstantCommitment, cpu::gemm, verify::ChallengeSpec, Hash32, LEAF_VALUES};

use crate::{cpu::CpuCommitted, Committed, OpenedLeaf, Progress, Prover, Timing};

/// How a cheating miner computes C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
	/// Every operand rounded to a cheaper format's mantissa
	/// ([`pog_primitives::Precision::substitute_mantissa_bits`]: the next lower precision, FP4
	/// E2M1 below fp8), so that every challenge, whatever its precision, gets a wrong C.
	LowerPrecision,
	/// A large error added to `permille`/1000 of C's entries (at least one) before committing.
	Corrupt {
		/// Entries corrupted, per mille.
		permille: u16,
	},
	/// Every entry of C one constant drawn from the seed, computing nothing (any size,
	/// instantly; distinct roots per challenge).
	Constant,
}

impl Cheat {
	/// The mantissa bits `spec`'s operands are rounded to under this cheat, if it rounds them.
	pub fn rounded_mantissa_bits(self, spec: &ChallengeSpec) -> Option<u32> {
		match self {
			Cheat::LowerPrecision => Some(spec.precision.substitute_mantissa_bits()),
			_ => None,
		}
	}
}

/// Answers `spec` on `prover` the way `cheat` says. Corrupt and constant results are made on
/// the CPU whatever the device (they need no GPU).
pub fn prove(
	prover: &dyn Prover,
	spec: &ChallengeSpec,
	cheat: Cheat,
	progress: Progress,
) -> anyhow::Result<Box<dyn Committed>> {
	match cheat {
		Cheat::LowerPrecision => prover.prove_rounded(spec, spec.precision.substitute_mantissa_bits(), progress),
		Cheat::Corrupt { permille } => {
			let started = Instant::now();
			let mut c = gemm(spec);
			corrupt(&mut c, permille, &spec.seed);
			let timing = Timing { total: started.elapsed(), ..Timing::default() };
			Ok(Box::new(CpuCommitted::new(spec, c, timing)))
		},
		Cheat::Constant => Ok(Box::new(ConstantC::new(spec))),
	}
}

/// Adds a large error to about `permille`/1000 of C's entries (at least one), at positions drawn
/// from `seed` (a xorshift generator: reproducible, no dependency).
fn corrupt(c: &mut [u32], permille: u16, seed: &[u8; 32]) {
	let mut state = u64::from_le_bytes(seed[..8].try_into().expect("8 bytes")) | 1;
	let count = (c.len() as u64 * u64::from(permille) / 1000).max(1);
	for _ in 0..count {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		let i = (state % c.len() as u64) as usize;
		c[i] = (f32::from_bits(c[i]) + 1000.0).to_bits();
	}
}

/// A constant C: every leaf is the same.
struct ConstantC {
	commitment: ConstantCommitment,
	timing: Timing,
}

impl ConstantC {
	fn new(spec: &ChallengeSpec) -> Self {
		let word = u32::from_le_bytes([spec.seed[0], spec.seed[1], spec.seed[2], spec.seed[3]]);
		let value = 0x3f80_0000 | (word & 0x007f_ffff); // in [1, 2)
		Self { commitment: ConstantCommitment::new(value, &spec.dims), timing: Timing::default() }
	}
}

impl Committed for ConstantC {
	fn root(&self) -> Hash32 {
		self.commitment.root()
	}

	fn timing(&self) -> &Timing {
		&self.timing
	}

	fn open(&self, leaves: &[u32]) -> anyhow::Result<Vec<OpenedLeaf>> {
		let proof = self.commitment.proof();
		Ok(leaves
			.iter()
			.map(|&leaf| OpenedLeaf { leaf, values: vec![self.commitment.value(); LEAF_VALUES], proof: proof.clone() })
			.collect())
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::{cpu::CpuProver, test_support::passes_verification};
	use pog_primitives::{Dims, Precision};

	fn spec(precision: Precision) -> ChallengeSpec {
		ChallengeSpec { seed: [3u8; 32], precision, dims: Dims { m: 256, n: 512, k: 1024 }, chunk_k: 512 }
	}

	#[test]
	fn every_cheat_opens_consistently_and_fails_verification_in_every_precision() {
		let cpu = CpuProver::new(2);
		for p in Precision::ALL {
			let s = spec(p);
			for cheat in [Cheat::LowerPrecision, Cheat::Corrupt { permille: 1000 }, Cheat::Constant] {
				let committed = prove(&cpu, &s, cheat, &|_| {}).unwrap();
				assert!(!passes_verification(&s, committed.as_ref()), "{p:?} {cheat:?} was accepted");
			}
		}
	}

	#[test]
	fn the_lower_precision_cheat_always_rounds_to_fewer_bits_than_asked() {
		for p in Precision::ALL {
			let bits = Cheat::LowerPrecision.rounded_mantissa_bits(&spec(p)).expect("always rounds");
			assert!(bits < p.mantissa_bits(), "{p:?}");
		}
		assert_eq!(Cheat::Constant.rounded_mantissa_bits(&spec(Precision::Fp32)), None);
	}
}
