//! The reveals' fees: a warning, while the commit phase runs, when the free balance cannot
//! prepay the reveals the round may owe.

use std::collections::BTreeMap;

use anyhow::Context as _;
use subxt::utils::AccountId32;
use tracing::{debug, warn};

use super::Ctx;
use crate::chain::{pog, ChallengeView};

/// The size of a GPU's reveal, which sets its fee: opened leaves and walks and their proofs' lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RevealShape {
	leaves: u32,
	leaf_proof: u32,
	walks: u32,
	walk_proof: u32,
}

impl RevealShape {
	/// The largest reveal a challenge of `dims` (with a memory phase of `memory_walks` walks) may
	/// owe: `openings` leaves (fewer if C has fewer) and `walk_openings` walks (with a memory
	/// phase), with proofs as deep as their trees.
	fn of(dims: pog_primitives::Dims, memory_walks: Option<u64>, openings: u32, walk_openings: u32) -> Self {
		let (walks, walk_proof) = match memory_walks {
			Some(w) => (u64::from(walk_openings).min(w) as u32, pog_primitives::memory::tree_height(w)),
			None => (0, 0),
		};
		Self { leaves: openings.min(dims.num_leaves()), leaf_proof: dims.tree_depth(), walks, walk_proof }
	}

	/// A reveal of this size for `gpu` of `round` (zeros for the values and hashes: only its size
	/// and weight matter for its fee).
	fn reveal(&self, round: u32, gpu: u32) -> subxt::tx::StaticPayload<pog::pog::calls::RevealOpenings> {
		use pog::runtime_types::{
			bounded_collections::bounded_vec::BoundedVec,
			pallet_pog::verification::{Opening, WalkOpening},
		};
		let opening = Opening {
			leaf: 0,
			values: BoundedVec(vec![0; pog_primitives::commitment::LEAF_VALUES]),
			proof: BoundedVec(vec![[0; 32]; self.leaf_proof as usize]),
		};
		let walk = WalkOpening { walk: 0, result: [0; 32], proof: BoundedVec(vec![[0; 32]; self.walk_proof as usize]) };
		pog::transactions().pog().reveal_openings(
			round,
			gpu,
			BoundedVec(vec![opening; self.leaves as usize]),
			BoundedVec(vec![walk; self.walks as usize]),
		)
	}
}

/// Warns when the miner's free balance cannot prepay the fees of the reveals this round's
/// `challenges` may owe. A reveal's fee is withdrawn when it is applied and refunded in the same
/// extrinsic when it succeeds, and never below the existential deposit: the pool refuses a reveal
/// the balance cannot pay, and its GPU fails MissedReveal and is slashed. Each fee is the
/// runtime's own figure (`TransactionPaymentApi::query_info`'s partial fee) for a reveal of the
/// largest size the GPU may send; nothing is submitted.
pub(super) async fn check_reveal_fees(
	ctx: &Ctx,
	round: u32,
	challenges: &[ChallengeView<AccountId32>],
) -> anyhow::Result<()> {
	let config = ctx.chain.config().await?;
	let openings = config.openings.min(ctx.chain.max_openings().await?);
	let mut by_shape: BTreeMap<RevealShape, u128> = BTreeMap::new();
	let mut fees = Vec::with_capacity(challenges.len());
	for ch in challenges {
		let memory_walks = ch.params.memory.as_ref().map(|m| m.challenge.walks);
		let shape = RevealShape::of(ch.params.dims, memory_walks, openings, config.memory.openings);
		let fee = match by_shape.get(&shape) {
			Some(fee) => *fee,
			None => {
				let fee = ctx
					.chain
					.estimate_fee(&shape.reveal(round, ch.params.gpu))
					.await
					.with_context(|| format!("cannot estimate the fee of a reveal of {shape:?}"))?;
				by_shape.insert(shape, fee);
				fee
			},
		};
		fees.push(fee);
	}
	let Some(&largest) = fees.iter().max() else { return Ok(()) };
	let total = fees.iter().fold(0u128, |sum, fee| sum.saturating_add(*fee));
	let free = ctx.chain.free_balance().await?;
	let existential = ctx.chain.existential_deposit().await?;
	let account = ctx.chain.account();
	if free < existential.saturating_add(largest) {
		warn!(
			round,
			free,
			existential_deposit = existential,
			reveal_fee = largest,
			"LOW BALANCE: account {account} cannot prepay a reveal's fee ({largest} units) and keep the existential \
			 deposit: the pool will refuse this round's reveals and every selected GPU will fail MissedReveal and be \
			 slashed. Transfer {} units to {account} (enough for all of them) before the sample is drawn",
			existential.saturating_add(total).saturating_sub(free)
		);
	} else if free < existential.saturating_add(total) {
		warn!(
			round,
			free,
			existential_deposit = existential,
			reveal_fees = total,
			gpus = fees.len(),
			"low balance: account {account} can prepay any one reveal's fee but not all {} (a successful reveal is \
			 refunded in its own extrinsic, so this is enough unless one fails and pays); transfer {} units to {account} \
			 to cover them all",
			fees.len(),
			existential.saturating_add(total).saturating_sub(free)
		);
	} else {
		debug!(round, free, reveal_fees = total, "the free balance covers the fees this round's reveals may prepay");
	}
	Ok(())
}

#[cfg(test)]
mod tests {
	use super::*;

	/// The reveal whose fee is estimated has the size of a real one: as many leaves and walks, each
	/// leaf's values and proof, each walk's proof as long as the prover's (a C of 128 leaves, 1,000
	/// walks: not a power of two).
	#[test]
	fn the_fee_is_estimated_on_a_reveal_of_the_real_size() {
		use pog_primitives::{commitment::CommittedMatrix, memory, Dims};
		let dims = Dims { m: 64, n: 512, k: 256 };
		let c = CommittedMatrix::new(vec![7; (dims.m * dims.n) as usize]);
		let (values, proof) = c.open(127).expect("a leaf of C");
		let levels = memory::levels_from(vec![[1; 32]; 1000], 0);
		let walk_proof = memory::proof_from(&levels, 0, 999);

		let shape = RevealShape::of(dims, Some(1000), 32, 16);
		assert_eq!(shape, RevealShape { leaves: 32, leaf_proof: proof.len() as u32, walks: 16, walk_proof: 10 });
		assert_eq!(walk_proof.len(), 10);
		assert_eq!(values.len(), pog_primitives::commitment::LEAF_VALUES);
		let call = shape.reveal(3, 1);
		let args = call.call_data();
		assert_eq!((args.round, args.gpu), (3, 1));
		assert_eq!(args.openings.0.len(), 32);
		assert!(args.openings.0.iter().all(|o| o.values.0.len() == values.len() && o.proof.0.len() == proof.len()));
		assert_eq!(args.walks.0.len(), 16);
		assert!(args.walks.0.iter().all(|w| w.proof.0.len() == walk_proof.len()));

		// Without a memory phase no walk; a C with fewer leaves than the protocol opens opens them all.
		let small = Dims { m: 16, n: 256, k: 256 };
		assert_eq!(
			RevealShape::of(small, None, 32, 16),
			RevealShape { leaves: 16, leaf_proof: 4, walks: 0, walk_proof: 0 }
		);
	}
}
