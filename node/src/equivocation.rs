//! BABE equivocation reports that the runtime can check.
//!
//! polkadot-sdk's BABE block import (sc-consensus-babe 0.60 and 0.61, since its stateless checks
//! moved into the verifier) looks for equivocations after the verifier has moved the seal out of
//! the header, so the two headers of its proofs carry no seal and pallet-babe refuses every such
//! report with `InvalidEquivocationProof`: a validator that authors two blocks in one slot was
//! never slashed through BABE (only GRANDPA's reports landed, when the twin also voted
//! differently). [`SealedReports`] wraps BABE's block import and reports each equivocation first,
//! with both headers sealed as they were signed. BABE's own report of the same slot goes through
//! the same runtime API, which submits only a report whose proof holds
//! (`pog_runtime::apis::submit_babe_equivocation_report`), so it never enters the pool.
//!
//! The rule is BABE's: two different headers of one slot whose pre-digests name the same
//! authority, not during initial sync. The headers seen are kept in memory for the last
//! [`SLOTS_KEPT`] slots (BABE keeps them in the database: a restarted node forgets what it saw
//! before, and reports what it sees after).

use sc_consensus::{BlockCheckParams, BlockImport, BlockImportParams, ImportResult};
use sc_transaction_pool_api::OffchainTransactionPoolFactory;
use sp_api::{ApiExt, ProvideRuntimeApi};
use sp_consensus::{BlockOrigin, Error as ConsensusError, SelectChain};
use sp_consensus_babe::{AuthorityId, AuthorityIndex, BabeApi, EquivocationProof, Slot};
use sp_runtime::traits::{Block as BlockT, Header as _};
use std::{
	collections::BTreeMap,
	sync::{Arc, Mutex},
};

/// Slots of headers kept to compare with (sc-consensus-slots' `MAX_SLOT_CAPACITY`).
pub const SLOTS_KEPT: u64 = 1000;

const LOG_TARGET: &str = "pog-equivocation";

/// Sealed headers seen, by slot, with the authority index their pre-digest claims.
struct Seen<H> {
	by_slot: BTreeMap<Slot, Vec<(AuthorityIndex, H)>>,
}

impl<H: sp_runtime::traits::Header> Seen<H> {
	/// Records `header` (sealed) of `slot` by `authority`; returns the header of the same slot and
	/// authority seen before it, if it differs (an equivocation).
	fn record(&mut self, slot: Slot, authority: AuthorityIndex, header: H) -> Option<H> {
		let newest = self.by_slot.last_key_value().map_or(slot, |(s, _)| (*s).max(slot));
		if *newest - *slot >= SLOTS_KEPT {
			return None;
		}
		let headers = self.by_slot.entry(slot).or_default();
		if let Some((_, first)) = headers.iter().find(|(index, _)| *index == authority) {
			return (first.hash() != header.hash()).then(|| first.clone());
		}
		headers.push((authority, header));
		self.by_slot = self.by_slot.split_off(&newest.saturating_sub(SLOTS_KEPT - 1));
		None
	}
}

/// BABE's block import, reporting equivocations with sealed headers before it imports.
pub struct SealedReports<Block: BlockT, Inner, Client, SC> {
	inner: Inner,
	client: Arc<Client>,
	select_chain: SC,
	pool: OffchainTransactionPoolFactory<Block>,
	seen: Arc<Mutex<Seen<Block::Header>>>,
}

impl<Block: BlockT, Inner: Clone, Client, SC: Clone> Clone for SealedReports<Block, Inner, Client, SC> {
	fn clone(&self) -> Self {
		Self {
			inner: self.inner.clone(),
			client: self.client.clone(),
			select_chain: self.select_chain.clone(),
			pool: self.pool.clone(),
			seen: self.seen.clone(),
		}
	}
}

impl<Block, Inner, Client, SC> SealedReports<Block, Inner, Client, SC>
where
	Block: BlockT,
	Client: ProvideRuntimeApi<Block> + Send + Sync,
	Client::Api: BabeApi<Block>,
	SC: SelectChain<Block>,
{
	/// Wraps `inner` (BABE's block import).
	pub fn new(
		inner: Inner,
		client: Arc<Client>,
		select_chain: SC,
		pool: OffchainTransactionPoolFactory<Block>,
	) -> Self {
		Self { inner, client, select_chain, pool, seen: Arc::new(Mutex::new(Seen { by_slot: BTreeMap::new() })) }
	}

	/// Records a block's sealed header and reports it if it equivocates.
	async fn check(&self, sealed: Block::Header) -> Result<(), String> {
		let pre = sc_consensus_babe::find_pre_digest::<Block>(&sealed).map_err(|e| e.to_string())?;
		let (slot, authority) = (pre.slot(), pre.authority_index());
		let first = {
			let mut seen = self.seen.lock().map_err(|_| "the headers seen are poisoned".to_string())?;
			seen.record(slot, authority, sealed.clone())
		};
		let Some(first) = first else { return Ok(()) };
		let parent = *sealed.parent_hash();
		let offender = self.author(parent, slot, authority)?;
		let proof = EquivocationProof { offender: offender.clone(), slot, first_header: first, second_header: sealed };
		if !sp_consensus_babe::check_equivocation_proof(proof.clone()) {
			return Err(format!("the headers of slot {slot} do not prove authority #{authority} equivocated"));
		}
		log::info!(target: LOG_TARGET, "authority {offender:?} authored two blocks in slot {slot}: reporting it with both headers sealed");
		let best = self.select_chain.best_chain().await.map_err(|e| e.to_string())?.hash();
		let api = self.client.runtime_api();
		// The key ownership proof is made in the equivocation's session (at its parent) when it can
		// be; at the best block otherwise, as BABE does.
		let owner = match api.generate_key_ownership_proof(parent, slot, offender.clone()).map_err(|e| e.to_string())? {
			Some(owner) => owner,
			None => api
				.generate_key_ownership_proof(best, slot, offender)
				.map_err(|e| e.to_string())?
				.ok_or("the equivocating authority is not in the set")?,
		};
		let mut api = self.client.runtime_api();
		api.register_extension(self.pool.offchain_transaction_pool(best));
		api.submit_report_equivocation_unsigned_extrinsic(best, proof, owner)
			.map_err(|e| e.to_string())?
			.ok_or("the runtime did not take the report")?;
		Ok(())
	}

	/// The authority `index` of the epoch `slot` is in, seen from the block's parent.
	fn author(&self, parent: Block::Hash, slot: Slot, index: AuthorityIndex) -> Result<AuthorityId, String> {
		let api = self.client.runtime_api();
		let current = api.current_epoch(parent).map_err(|e| e.to_string())?;
		let epoch = if slot < current.start_slot + current.duration {
			current
		} else {
			api.next_epoch(parent).map_err(|e| e.to_string())?
		};
		epoch
			.authorities
			.get(index as usize)
			.map(|(id, _)| id.clone())
			.ok_or_else(|| format!("no authority #{index} in epoch {}", epoch.epoch_index))
	}
}

#[async_trait::async_trait]
impl<Block, Inner, Client, SC> BlockImport<Block> for SealedReports<Block, Inner, Client, SC>
where
	Block: BlockT,
	Inner: BlockImport<Block, Error = ConsensusError> + Send + Sync,
	Client: ProvideRuntimeApi<Block> + Send + Sync,
	Client::Api: BabeApi<Block>,
	SC: SelectChain<Block>,
{
	type Error = ConsensusError;

	async fn check_block(&self, block: BlockCheckParams<Block>) -> Result<ImportResult, Self::Error> {
		self.inner.check_block(block).await
	}

	async fn import_block(&self, block: BlockImportParams<Block>) -> Result<ImportResult, Self::Error> {
		// Not during initial sync, as BABE (the headers are most likely stale).
		let skip =
			matches!(block.origin, BlockOrigin::NetworkInitialSync | BlockOrigin::WarpSync) || block.with_state();
		if !skip {
			let sealed = block.post_header();
			let number = *sealed.number();
			if let Err(why) = self.check(sealed).await {
				log::warn!(target: LOG_TARGET, "checking block #{number} for an equivocation: {why}");
			}
		}
		self.inner.import_block(block).await
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use sp_runtime::{generic::Digest, testing::Header};

	fn header(number: u64, nonce: u8) -> Header {
		Header::new(number, Default::default(), Default::default(), [nonce; 32].into(), Digest::default())
	}

	#[test]
	fn a_second_header_of_one_slot_and_authority_is_returned_with_the_first() {
		let mut seen = Seen { by_slot: BTreeMap::new() };
		let (a, b) = (header(5, 1), header(5, 2));
		assert_eq!(seen.record(Slot::from(10), 1, a.clone()), None);
		assert_eq!(seen.record(Slot::from(10), 1, a.clone()), None, "the same header again is no equivocation");
		assert_eq!(seen.record(Slot::from(10), 2, b.clone()), None, "another authority's header is no equivocation");
		assert_eq!(seen.record(Slot::from(11), 1, b.clone()), None, "another slot's header is no equivocation");
		assert_eq!(seen.record(Slot::from(10), 1, b), Some(a));
	}

	#[test]
	fn only_the_last_slots_are_kept() {
		let mut seen = Seen { by_slot: BTreeMap::new() };
		assert_eq!(seen.record(Slot::from(1), 0, header(1, 1)), None);
		assert_eq!(seen.record(Slot::from(1 + SLOTS_KEPT), 0, header(2, 1)), None);
		assert_eq!(seen.by_slot.len(), 1, "slot 1 is forgotten once 1 + SLOTS_KEPT is seen");
		assert_eq!(seen.record(Slot::from(1), 0, header(1, 2)), None, "too old to compare");
		assert_eq!(seen.by_slot.len(), 1);
	}
}
