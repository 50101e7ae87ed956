//! PoG's own transactions before ordinary traffic: [`CheckDuty`].
//!
//! A miner's `commit_memory`, `commit_roots` and `reveal_openings` and a validator's
//! `submit_verdict`, `submit_verdicts` and `attest` are *duties*: each has a deadline, and a miner whose commit is kept out of
//! every block of its window fails the round. So they are `Operational` dispatches (the 25% of
//! every block that ordinary transactions cannot fill), and this transaction extension gives them
//! a pool priority above any ordinary transaction's.
//!
//! A duty that passes the pool cannot fail in its block: the extension runs the dispatch's own
//! checks (`memory_due`, `commit_due`, `reveal_due`, `verdict_due`: every root's GPU known, open
//! and named once, its memory root first, its deadline; a reveal's exact counts, indices and
//! Merkle paths; a verdict's committee seat and named leaf or walk), written once and called by
//! both. So nothing nobody owes, and nothing of a size other than what is due, reaches a block at
//! duty priority. Each duty is tagged (round, miner, GPU[, validator]), one tag per GPU, unique
//! in its transaction, so the pool keeps one transaction per duty. A block re-runs the checks
//! when it applies the duty, so one whose state moved after the pool took it (its deadline
//! passed) is dropped, not charged. Should a duty still fail in dispatch (only if its checks and
//! the pool's ever diverged), its duties are marked spent ([`SpentDuties`]): the same duty is
//! refused from then on (`DutySpent`), the GPU counts as missed at settlement (slashed like any
//! missed commit or reveal), and a verdict counts as silent. A duty that succeeds is refunded its
//! fee; one that fails pays it.
//! docs/protocol.md §15 works out what crowding out costs.

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode};
use core::marker::PhantomData;
use frame_support::{
	dispatch::DispatchInfo,
	pallet_prelude::{Get, TransactionSource, Weight},
	traits::{IsSubType, OriginTrait},
	BoundedVec, DefaultNoBound,
};
use scale_info::TypeInfo;
use sp_runtime::{
	traits::{DispatchInfoOf, Dispatchable, PostDispatchInfoOf, TransactionExtension, ValidateResult},
	transaction_validity::{InvalidTransaction, TransactionPriority, TransactionValidityError, ValidTransaction},
	DispatchError, DispatchResult,
};

use crate::pallet::*;
use crate::rounds::RoundIndex;
use crate::types::Hash32;
use crate::verification::Verdict;
use pog_primitives::challenge::GpuIndex;

/// Priority of a duty transaction: 2^63, above what any ordinary transaction's fee and tip buy
/// (the smallest would need a tip of ≈ 680 POG for every one of the ≈ 13,600 that fit a block's
/// ordinary weight), and far enough below `u64::MAX` that the fee-based priority added to it by
/// `ChargeTransactionPayment` never saturates: duties are ordered among themselves by fee and
/// tip, not tied at the maximum where a shorter mortality or an earlier arrival would decide.
pub const DUTY_PRIORITY: TransactionPriority = 1 << 63;

/// Which duty a transaction performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DutyKind {
	/// A GPU's memory root (`commit_memory`).
	Memory,
	/// A GPU's GEMM root (`commit_roots`).
	Commit,
	/// A selected GPU's openings (`reveal_openings`).
	Reveal,
	/// A committee member's verdict (`submit_verdict`).
	Verdict,
	/// A committee member's evidence on an audited GPU (`open_evidence`).
	Evidence,
}

/// One duty: its kind, round, the miner and GPU it is about, and the validator owing a verdict.
pub struct DutyKey<'a, AccountId> {
	/// What is owed.
	pub kind: DutyKind,
	/// The round it is owed in.
	pub round: RoundIndex,
	/// The miner whose GPU it is about.
	pub miner: &'a AccountId,
	/// The GPU.
	pub gpu: GpuIndex,
	/// The committee member owing it (verdicts only).
	pub validator: Option<&'a AccountId>,
}

impl<AccountId: Encode> DutyKey<'_, AccountId> {
	/// The duty's pool tag: one transaction per duty in the pool.
	pub fn tag(&self) -> Vec<u8> {
		let kind: &[u8] = match self.kind {
			DutyKind::Memory => b"memory",
			DutyKind::Commit => b"commit",
			DutyKind::Reveal => b"reveal",
			DutyKind::Verdict => b"verdict",
			DutyKind::Evidence => b"evidence",
		};
		(b"pog", kind, self.round, self.miner, self.gpu, self.validator).encode()
	}

	/// The key under which the duty is marked spent in [`SpentDuties`].
	pub fn spent_key(&self) -> Hash32 {
		sp_io::hashing::blake2_256(&self.tag())
	}
}

/// The duties of `verdicts` by `who` in `round`: one a GPU.
fn verdict_keys<'a, T: Config>(
	who: &'a T::AccountId,
	round: RoundIndex,
	verdicts: &'a [(T::AccountId, GpuIndex, Verdict)],
) -> Vec<DutyKey<'a, T::AccountId>> {
	// those a rebuttal answered are left out: they land as nothing, and their member owes a
	// verdict on the revealed openings under the same key
	Pallet::<T>::still_due(who, round, verdicts)
		.into_iter()
		.map(|(miner, gpu, _)| DutyKey { kind: DutyKind::Verdict, round, miner, gpu: *gpu, validator: Some(who) })
		.collect()
}

/// The transaction extension that puts PoG duties first and refuses the ones nobody owes.
#[derive(Encode, Decode, DecodeWithMemTracking, DefaultNoBound, Clone, Eq, PartialEq, TypeInfo)]
#[scale_info(skip_type_params(T))]
pub struct CheckDuty<T>(PhantomData<T>);

impl<T: Config + Send + Sync> CheckDuty<T> {
	/// The extension (it carries no data).
	pub fn new() -> Self {
		Self(PhantomData)
	}
}

impl<T: Config + Send + Sync> core::fmt::Debug for CheckDuty<T> {
	fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
		write!(f, "CheckDuty")
	}
}

/// A duty transaction that passed the pool: the round, the sender, the GPUs and each duty's
/// spent key, kept until after dispatch so that a failed dispatch can spend them.
pub struct Duty<AccountId> {
	round: RoundIndex,
	who: AccountId,
	gpus: Vec<GpuIndex>,
	keys: Vec<Hash32>,
	tags: Vec<Vec<u8>>,
}

impl<T: Config> Pallet<T> {
	/// Whether `call` by `who` is a PoG duty, and if so whether it would succeed now: `None` for
	/// any other call, else the duty or the error its dispatch would fail with.
	fn duty_of(who: &T::AccountId, call: &Call<T>) -> Option<Result<Duty<T::AccountId>, DispatchError>> {
		let key = |kind, round, gpu| DutyKey { kind, round, miner: who, gpu, validator: None };
		let (round, keys): (RoundIndex, Vec<DutyKey<T::AccountId>>) = match call {
			Call::commit_memory { round, roots } => match Self::memory_due(who, *round, roots) {
				Ok(_) => (*round, roots.iter().map(|r| key(DutyKind::Memory, *round, r.gpu)).collect()),
				Err(e) => return Some(Err(e)),
			},
			Call::commit_roots { round, roots } => match Self::commit_due(who, *round, roots) {
				Ok(_) => (*round, roots.iter().map(|r| key(DutyKind::Commit, *round, r.gpu)).collect()),
				Err(e) => return Some(Err(e)),
			},
			Call::reveal_openings { round, gpu, openings, walks } => {
				match Self::reveal_due(who, *round, *gpu, openings, walks) {
					Ok(_) => (*round, alloc::vec![key(DutyKind::Reveal, *round, *gpu)]),
					Err(e) => return Some(Err(e)),
				}
			},
			Call::submit_verdict { round, miner, gpu, verdict } => {
				match Self::verdict_due(who, *round, miner, *gpu, verdict) {
					Ok(_) => (
						*round,
						alloc::vec![DutyKey {
							kind: DutyKind::Verdict,
							round: *round,
							miner,
							gpu: *gpu,
							validator: Some(who)
						}],
					),
					Err(e) => return Some(Err(e)),
				}
			},
			Call::submit_verdicts { round, verdicts } => match Self::verdicts_due(who, *round, verdicts) {
				Ok(()) => (*round, verdict_keys::<T>(who, *round, verdicts)),
				Err(e) => return Some(Err(e)),
			},
			Call::attest { round, upto, open, verdicts, evidence } => {
				match Self::attest_due(who, *round, upto, open, verdicts, evidence) {
					Ok(()) => (*round, verdict_keys::<T>(who, *round, verdicts)),
					Err(e) => return Some(Err(e)),
				}
			},
			Call::open_evidence { round, miner, gpu, opening } => {
				match Self::evidence_due(who, *round, miner, *gpu, opening) {
					Ok(()) => (
						*round,
						alloc::vec![DutyKey {
							kind: DutyKind::Evidence,
							round: *round,
							miner,
							gpu: *gpu,
							validator: Some(who)
						}],
					),
					Err(e) => return Some(Err(e)),
				}
			},
			_ => return None,
		};
		let mut tags: Vec<Vec<u8>> = keys.iter().map(|k| k.tag()).collect();
		// One attestation per member in the pool at a time (each moves its last one forward);
		// not a duty that can be spent: a failed one leaves the member's next one due.
		if let Call::attest { round, .. } = call {
			tags.push((b"pog", b"attest", round, who).encode());
		}
		// The checks above refuse a GPU named twice; a transaction must never provide one tag
		// twice (the pool's bookkeeping assumes it), so this holds even if a check is missed.
		tags.sort();
		tags.dedup();
		Some(Ok(Duty {
			round,
			who: who.clone(),
			gpus: keys.iter().map(|k| k.gpu).collect(),
			keys: keys.iter().map(|k| k.spent_key()).collect(),
			tags,
		}))
	}

	/// Refuses a duty spent by a failed dispatch (`DutySpent`).
	pub(crate) fn ensure_unspent(duty: &DutyKey<'_, T::AccountId>) -> DispatchResult {
		frame_support::ensure!(!SpentDuties::<T>::contains_key(duty.round, duty.spent_key()), Error::<T>::DutySpent);
		Ok(())
	}

	/// Marks the duties of a transaction that failed in dispatch as spent.
	fn spend(duty: Duty<T::AccountId>, error: DispatchError) {
		for key in &duty.keys {
			SpentDuties::<T>::insert(duty.round, key, ());
		}
		Self::deposit_event(Event::DutyFailed {
			round: duty.round,
			who: duty.who,
			gpus: BoundedVec::truncate_from(duty.gpus),
			error,
		});
	}

	/// The invalid-transaction code of a duty that would fail: the index of the pallet error its
	/// dispatch would fail with (`InvalidTransaction::Custom(index)`, named in the metadata's
	/// error list of pallet-pog).
	fn undue_code(error: DispatchError) -> u8 {
		match error {
			DispatchError::Module(e) => e.error[0],
			_ => u8::MAX,
		}
	}

	/// The weight of checking a duty in the pool's and the block's validation (the same checks
	/// as its dispatch, so the call's own weight) and of marking its duties spent should the
	/// dispatch fail (refunded when it succeeds).
	fn duty_weight(call: &Call<T>) -> Weight {
		use crate::weights::WeightInfo;
		let spend = |n: usize| T::DbWeight::get().writes(n as u64);
		match call {
			Call::commit_memory { roots, .. } => {
				T::WeightInfo::commit_memory(roots.len() as u32).saturating_add(spend(roots.len()))
			},
			Call::commit_roots { roots, .. } => {
				T::WeightInfo::commit_roots(roots.len() as u32).saturating_add(spend(roots.len()))
			},
			Call::reveal_openings { openings, walks, .. } => {
				T::WeightInfo::reveal_openings(openings.len() as u32, walks.len() as u32).saturating_add(spend(1))
			},
			Call::submit_verdict { .. } => Pallet::<T>::verdicts_weight(1).saturating_add(spend(1)),
			Call::submit_verdicts { verdicts, .. } => {
				Pallet::<T>::verdicts_weight(verdicts.len() as u32).saturating_add(spend(verdicts.len()))
			},
			Call::attest { verdicts, open, .. } => Pallet::<T>::attest_weight(verdicts.len() as u32, open.len() as u32)
				.saturating_add(spend(verdicts.len())),
			Call::open_evidence { .. } => Pallet::<T>::open_evidence_weight().saturating_add(spend(1)),
			_ => Weight::zero(),
		}
	}
}

impl<T: Config + Send + Sync> TransactionExtension<<T as frame_system::Config>::RuntimeCall> for CheckDuty<T>
where
	<T as frame_system::Config>::RuntimeCall: IsSubType<Call<T>> + Dispatchable<Info = DispatchInfo>,
{
	const IDENTIFIER: &'static str = "CheckPogDuty";
	type Implicit = ();
	type Val = Option<Duty<T::AccountId>>;
	type Pre = Option<Duty<T::AccountId>>;

	fn weight(&self, call: &<T as frame_system::Config>::RuntimeCall) -> Weight {
		call.is_sub_type().map_or(Weight::zero(), Pallet::<T>::duty_weight)
	}

	fn validate(
		&self,
		origin: T::RuntimeOrigin,
		call: &<T as frame_system::Config>::RuntimeCall,
		_info: &DispatchInfoOf<<T as frame_system::Config>::RuntimeCall>,
		_len: usize,
		_self_implicit: Self::Implicit,
		_inherited_implication: &impl Encode,
		_source: TransactionSource,
	) -> ValidateResult<Self::Val, <T as frame_system::Config>::RuntimeCall> {
		let (Some(pog_call), Some(who)) = (call.is_sub_type(), origin.as_signer()) else {
			return Ok((ValidTransaction::default(), None, origin));
		};
		match Pallet::<T>::duty_of(who, pog_call) {
			None => Ok((ValidTransaction::default(), None, origin)),
			Some(Err(e)) => Err(InvalidTransaction::Custom(Pallet::<T>::undue_code(e)).into()),
			Some(Ok(duty)) => {
				let valid =
					ValidTransaction { priority: DUTY_PRIORITY, provides: duty.tags.clone(), ..Default::default() };
				Ok((valid, Some(duty), origin))
			},
		}
	}

	fn prepare(
		self,
		val: Self::Val,
		_origin: &T::RuntimeOrigin,
		_call: &<T as frame_system::Config>::RuntimeCall,
		_info: &DispatchInfoOf<<T as frame_system::Config>::RuntimeCall>,
		_len: usize,
	) -> Result<Self::Pre, TransactionValidityError> {
		Ok(val)
	}

	fn post_dispatch_details(
		pre: Self::Pre,
		_info: &DispatchInfoOf<<T as frame_system::Config>::RuntimeCall>,
		_post_info: &PostDispatchInfoOf<<T as frame_system::Config>::RuntimeCall>,
		_len: usize,
		result: &DispatchResult,
	) -> Result<Weight, TransactionValidityError> {
		let Some(duty) = pre else { return Ok(Weight::zero()) };
		let unused = T::DbWeight::get().writes(duty.keys.len() as u64);
		match result {
			Ok(()) => Ok(unused),
			Err(e) => {
				Pallet::<T>::spend(duty, *e);
				Ok(Weight::zero())
			},
		}
	}
}
