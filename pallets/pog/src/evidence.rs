//! Evidence of a fetch: a vote on a served GPU answers for the bytes it was cast on
//! (`docs/protocol.md` §8, "Evidence of a fetch"; the rule of the leaves and trees is
//! [`pog_primitives::evidence`]).
//!
//! Every member of a served GPU's committee checks the same entries, so a member could vote
//! without fetching anything: copy the failing votes other members put on chain and pass the rest
//! (the review's F7). It would be paid as agreeing on all of them and, where no cheater was,
//! never seen. So:
//!
//! - every attestation carries the member's **evidence root** ([`EvidenceRoots`]): a Merkle root
//!   over one leaf per served GPU it voted on with a result, each leaf keyed to the member and
//!   holding the hash of the GPU's first sampled leaf of C, which only the served openings give;
//! - when a served GPU's outcome is decided at settlement (passed, or failed on a leaf or a walk,
//!   not for non-delivery), it is **audited** with probability `EvidenceAudits` / served GPUs of
//!   the round ([`Audits`]), drawn from the settlement block's randomness, after every vote of
//!   the round has closed: each member whose vote on it named a result owes the opening;
//! - `open_evidence` opens it: the leaf hash with its path to the miner's committed root, and the
//!   member's evidence leaf with its path to the member's evidence root. The chain checks both
//!   alone, so no member's word against another's decides, and no miner can make an honest member
//!   fail it (the member kept what it fetched; the miner cannot take it back);
//! - an audit still owed when the next round is settled is a strike (`contradiction_slash` of the
//!   bond, [`EvidenceMissing`](crate::pallet::Event::EvidenceMissing)), judged with that round's
//!   work: a member that voted without fetching a share f of its votes is caught in each audit of
//!   one of those with probability f.

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use frame_support::{ensure, pallet_prelude::*, BoundedVec};
use frame_system::pallet_prelude::BlockNumberFor;
use pog_primitives::evidence::{evidence_leaf, verify_evidence, MAX_EVIDENCE_DEPTH};
use scale_info::TypeInfo;
use sp_runtime::Perbill;

use crate::rounds::{RoundIndex, Selection};
use crate::types::{Hash32, MaxProofLen};
use crate::{
	duty::{DutyKey, DutyKind},
	pallet::*,
};
use pog_primitives::challenge::GpuIndex;

pub use pog_primitives::evidence::EvidenceRoot;

/// Longest path of an evidence tree.
pub type MaxEvidenceDepth = ConstU32<MAX_EVIDENCE_DEPTH>;

/// A path in a member's evidence tree, as passed to `open_evidence`.
pub type EvidencePath = BoundedVec<Hash32, MaxEvidenceDepth>;

/// A path in a GPU's tree of C, as passed to `open_evidence`.
pub type LeafPath = BoundedVec<Hash32, MaxProofLen>;

/// A member's opening of its evidence on an audited GPU, as `open_evidence` carries it.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct EvidenceOpening {
	/// The hash of the audited leaf of C.
	pub leaf_hash: Hash32,
	/// Its path to the miner's committed root.
	pub leaf_path: LeafPath,
	/// Where the member's evidence leaf for the GPU is in its evidence tree.
	pub at: u32,
	/// That leaf's path to the member's evidence root.
	pub path: EvidencePath,
}

/// An audited served GPU: the leaf of C whose hash its members open, and the members that still
/// owe the opening, each as (validator, `pog!` account it voted with).
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(Members))]
pub struct Audit<AccountId, Members: Get<u32>> {
	/// The GPU's first sampled leaf of C.
	pub leaf: u32,
	/// The members whose vote named a result and that have not opened their evidence yet: the
	/// validator, which answers for it whether or not it still sits or has rotated its key, and
	/// the `pog!` account that voted, which opens.
	pub owing: BoundedVec<(AccountId, AccountId), Members>,
}

/// An audit as stored.
pub type AuditOf<T> = Audit<<T as frame_system::Config>::AccountId, <T as Config>::MaxValidators>;

impl<T: Config> Pallet<T> {
	/// Most audits drawn in one round: twice the expected number, a bound on the settlement's and
	/// the next judgment's weight (with 16 expected, a round draws more about once in 7,700
	/// rounds, and the GPUs settled after the 32nd go unaudited in it).
	pub fn max_audits() -> u32 {
		T::EvidenceAudits::get().saturating_mul(2)
	}

	/// Starts the audits from the round after the one in progress: votes cast before this runtime
	/// carry no evidence, and their members must not owe any. At genesis, from the first round
	/// (`EvidenceSince` 0).
	pub(crate) fn start_evidence(genesis: bool) {
		let since = if genesis { 0 } else { Self::round().index.saturating_add(1) };
		EvidenceSince::<T>::put(since);
	}

	/// At settlement of `index`: audits `miner`'s served GPU `gpu`, whose outcome its committee
	/// decided on the result (`v`), with probability `EvidenceAudits` / the round's selected
	/// served GPUs (its served GPUs × the sample's probability).
	pub(crate) fn draw_audit(
		index: RoundIndex,
		selection: &Selection<BlockNumberFor<T>>,
		miner: &T::AccountId,
		gpu: GpuIndex,
		v: &VerificationOf<T>,
	) {
		if EvidenceSince::<T>::get().is_none_or(|since| index < since) {
			return;
		}
		let served = selection.probability.mul_ceil(ServedGpus::<T>::get(index)).max(1);
		let probability = Perbill::from_rational(T::EvidenceAudits::get(), served);
		let seed = Self::block_randomness(b"pog/audit", index);
		if !Self::drawn_below(&seed, b"pog/audit", miner, gpu, probability) {
			return;
		}
		let count = AuditCount::<T>::get(index);
		if count >= Self::max_audits() {
			return;
		}
		// each voter with its validator, from the seats the round's committees were drawn from
		let seats = Self::drawn_seats();
		let owing: Vec<(T::AccountId, T::AccountId)> = v
			.votes
			.iter()
			.filter(|(_, vote)| !vote.is_unserved())
			.filter_map(|(member, _)| seats.iter().find(|(_, s)| s == member).cloned())
			.collect();
		if owing.is_empty() {
			return;
		}
		let commitment = Commitments::<T>::get(index, miner).and_then(|c| c.get(gpu as usize).cloned().flatten());
		let Some(leaf) = commitment.and_then(|c| Self::leaves_for(selection, &c).first().copied()) else { return };
		let members = owing.len() as u32;
		Audits::<T>::insert((index, miner, gpu), Audit { leaf, owing: BoundedVec::truncate_from(owing) });
		AuditCount::<T>::insert(index, count.saturating_add(1));
		Self::deposit_event(Event::EvidenceAudited { round: index, miner: miner.clone(), gpu, members });
	}

	/// The weight of [`Self::draw_audit`] for one GPU not drawn: two BLAKE2 host calls of under
	/// 100 bytes, the audit's seed and the draw (the start of the audits, the round's served count
	/// and the entropy are read once a block, [`Self::audits_weight`]).
	pub fn draw_audit_weight() -> Weight {
		Weight::from_parts(2_000_000, 0)
	}

	/// The weight of the audits a settlement block draws, at most: the start of the audits, the
	/// round's served count and its audit count read and the count written (one key, however many
	/// audits), and for each audit drawn (at most [`Self::max_audits`] a round) the committee pool
	/// and the miner's commitments read and the audit written.
	pub fn audits_weight() -> Weight {
		T::DbWeight::get()
			.reads_writes(3, 1)
			.saturating_add(T::DbWeight::get().reads_writes(2, 1).saturating_mul(u64::from(Self::max_audits())))
	}

	/// `who`'s `opening` of its evidence on `miner`'s audited GPU `gpu` of round `index`, checked
	/// as it would land: the audit is open and `who` owes it, the leaf hash with its path leads to
	/// the GPU's committed root at the audited leaf, and `who`'s evidence leaf for it, at its
	/// place, leads to `who`'s evidence root. The pool's check; the dispatch makes the same.
	pub(crate) fn evidence_due(
		who: &T::AccountId,
		index: RoundIndex,
		miner: &T::AccountId,
		gpu: GpuIndex,
		opening: &EvidenceOpening,
	) -> DispatchResult {
		let EvidenceOpening { leaf_hash, leaf_path, at, path } = opening;
		Self::ensure_unspent(&DutyKey { kind: DutyKind::Evidence, round: index, miner, gpu, validator: Some(who) })?;
		let audit = Audits::<T>::get((index, miner, gpu)).ok_or(Error::<T>::NotAudited)?;
		ensure!(audit.owing.iter().any(|(_, member)| member == who), Error::<T>::NotAudited);
		let root = EvidenceRoots::<T>::get(index, who).ok_or(Error::<T>::WrongEvidence)?;
		let commitment = Commitments::<T>::get(index, miner)
			.and_then(|c| c.get(gpu as usize).cloned().flatten())
			.ok_or(Error::<T>::WrongEvidence)?;
		ensure!(
			pog_primitives::commitment::verify_leaf_hash(
				&commitment.root,
				&commitment.params.dims,
				audit.leaf,
				leaf_hash,
				leaf_path
			),
			Error::<T>::WrongEvidence
		);
		let leaf = evidence_leaf(index, who, miner, gpu, leaf_hash);
		ensure!(verify_evidence(&root.root, &leaf, *at, root.leaves, path), Error::<T>::WrongEvidence);
		Ok(())
	}

	/// Records `who`'s opening of its evidence on an audited GPU ([`Self::evidence_due`]).
	pub(crate) fn do_open_evidence(
		who: T::AccountId,
		index: RoundIndex,
		miner: T::AccountId,
		gpu: GpuIndex,
		opening: EvidenceOpening,
	) -> DispatchResult {
		Self::evidence_due(&who, index, &miner, gpu, &opening)?;
		Audits::<T>::mutate_exists((index, &miner, gpu), |audit| {
			if let Some(a) = audit {
				a.owing.retain(|(_, m)| *m != who);
				if a.owing.is_empty() {
					*audit = None;
				}
			}
		});
		Self::deposit_event(Event::EvidenceOpened { round: index, validator: who, miner, gpu });
		Ok(())
	}

	/// The weight of `open_evidence`: the spent duties, the audit, the member's evidence root and
	/// the miner's commitments read, the audit written, and up to 64 Keccak-256 hashes of two paths,
	/// each taken at 20 µs (over ten times a native hash of 64 bytes, for WASM and slower machines).
	pub fn open_evidence_weight() -> Weight {
		let paths = u64::from(<MaxProofLen as Get<u32>>::get()) + u64::from(MAX_EVIDENCE_DEPTH) + 2;
		T::DbWeight::get()
			.reads_writes(4, 1)
			.saturating_add(Weight::from_parts(paths.saturating_mul(20_000_000), 0))
			.saturating_add(Weight::from_parts(0, 16_384))
	}

	/// When round `settled` is settled: every audit of an earlier round still owed is a missing
	/// opening. Returns the validators whose members left one unanswered, for this round's
	/// judgment.
	pub(crate) fn close_audits(settled: RoundIndex) -> Vec<T::AccountId> {
		let mut unproven: Vec<T::AccountId> = Vec::new();
		let rounds: Vec<RoundIndex> = AuditCount::<T>::iter_keys().filter(|r| *r < settled).collect();
		for round in rounds {
			for ((miner, gpu), audit) in Audits::<T>::drain_prefix((round,)) {
				for (validator, member) in audit.owing {
					if !unproven.contains(&validator) {
						unproven.push(validator.clone());
					}
					Self::deposit_event(Event::EvidenceMissing { round, validator, member, miner: miner.clone(), gpu });
				}
			}
			AuditCount::<T>::remove(round);
		}
		unproven
	}

	/// The weight of [`Self::close_audits`] at most: the audits of one round (rounds settle one
	/// at a time) read and removed, and the open audits read once more before bonds are released
	/// ([`Self::owing_evidence`]).
	pub fn close_audits_weight() -> Weight {
		let audits = u64::from(Self::max_audits());
		T::DbWeight::get().reads_writes(2 + 2 * audits, 1 + audits)
	}

	/// The validators owing an opening of their evidence on some audited GPU.
	pub fn owing_evidence() -> Vec<T::AccountId> {
		Audits::<T>::iter_values().flat_map(|a| a.owing.into_iter().map(|(v, _)| v)).collect()
	}
}
