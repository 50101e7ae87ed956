//! Passes in bulk: a committee member's attestation (`docs/protocol.md` §8, "Passes in bulk").
//!
//! A verdict on chain costs its weight whatever it says, and every selected GPU takes its
//! committee's: at mainnet settings the verdict window carries the verdicts of 4,585 GPUs, so
//! 100,000 committed GPUs could not all be verified in a round however fast the validators.
//! Almost every verdict passes. So a member says *pass* for many served GPUs at once:
//!
//! - every member verifies its assigned GPUs in the round's **verification order**
//!   ([`Pallet::verification_position`]: GPUs on probation, then GPUs in their first draw, then
//!   the others, each class by a hash of the sample seed, the miner and the GPU);
//! - its [`Attestation`] says: every GPU served off chain (and not rebutted on chain) assigned to
//!   me, up to `upto` in that order, passes, except those I voted on individually and those still
//!   `open` (not served to me yet: I vote on them later, individually);
//! - `attest(round, upto, open, verdicts)` records `verdicts` (each checked as `submit_verdicts`
//!   checks one: the failing and unserved ones of the stretch, in one transaction with the passes,
//!   so a pass can never land without the exceptions that go with it) and then moves the member's
//!   attestation to `upto`. One storage write a call, whatever the number of GPUs it passes;
//! - at settlement each served GPU's committee is counted as it would have been with one passing
//!   verdict from each attesting member ([`Pallet::tally`]), and the tally is kept as the GPU's
//!   verification record, so auditors read it as before.
//!
//! What a member attests it must have verified, as with a passing verdict: it answers for a pass
//! that contradicts the outcome, and a lazy member that passes everything unseen is exactly as
//! able (and as liable) as before. A GPU revealed on chain keeps individual verdicts: its openings
//! land after the draw, at a position any member's attestation may already have passed.

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use frame_support::{ensure, pallet_prelude::*, BoundedVec};
use frame_system::pallet_prelude::BlockNumberFor;
use scale_info::TypeInfo;

use crate::rounds::{RoundIndex, Selection};
use crate::types::{Hash32, MaxVerdicts};
use crate::verification::{Verdict, Verification};
use crate::{evidence::EvidenceRoot, pallet::*, verification::VerificationStatus};
use pog_primitives::challenge::GpuIndex;

/// Where a GPU comes in its round's verification order: (class, rank), lowest first. Class 0 is
/// a GPU on probation, 1 one in its first draw, 2 any other; the rank is a hash of the round's
/// sample seed, the miner and the GPU.
pub type Position = (u8, Hash32);

/// GPUs a member may leave open (not served to it yet) behind its attestation.
pub type MaxOpen = MaxVerdicts;

/// The GPUs a member leaves open: (miner, GPU).
pub type OpenOf<T> = BoundedVec<(<T as frame_system::Config>::AccountId, GpuIndex), MaxOpen>;

/// A committee member's passes in bulk in one round.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(Open))]
pub struct Attestation<AccountId, Open: Get<u32>> {
	/// Every served GPU assigned to the member up to here in the verification order passes…
	pub upto: Position,
	/// …except these, not served to it yet, on which it votes individually.
	pub open: BoundedVec<(AccountId, GpuIndex), Open>,
}

/// An attestation as stored.
pub type AttestationOf<T> = Attestation<<T as frame_system::Config>::AccountId, MaxOpen>;

impl<AccountId: PartialEq, Open: Get<u32>> Attestation<AccountId, Open> {
	/// Whether it passes `miner`'s GPU `gpu` at `position` (served, not rebutted, and without an
	/// individual vote by the member: the caller's to know).
	pub fn passes(&self, position: &Position, miner: &AccountId, gpu: GpuIndex) -> bool {
		*position <= self.upto && !self.open.iter().any(|(m, g)| m == miner && *g == gpu)
	}
}

/// Where `miner`'s GPU `gpu` comes within its class of the verification order of the round whose
/// sample seed is `seed` (lowest first).
pub fn verification_rank<AccountId: Encode>(seed: &Hash32, miner: &AccountId, gpu: GpuIndex) -> Hash32 {
	sp_io::hashing::blake2_256(&(b"pog/verify-order", seed, miner, gpu).encode())
}

impl<T: Config> Pallet<T> {
	/// Where `miner`'s GPU `gpu` comes in round `index`'s verification order, under its sample
	/// seed `seed`.
	pub fn verification_position(index: RoundIndex, seed: &Hash32, miner: &T::AccountId, gpu: GpuIndex) -> Position {
		let class = if Self::on_probation(index, miner, gpu) {
			0
		} else if Self::in_first_draw(index, miner, gpu) {
			1
		} else {
			2
		};
		(class, verification_rank(seed, miner, gpu))
	}

	/// Whether a vote on `miner`'s GPU `gpu` of round `index` is made by attestation: served off
	/// chain and not revealed on chain since (a rebuttal).
	pub fn attestable(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		Self::served_in(index, miner).is_some() && !Self::rebutted(index, miner, gpu)
	}

	/// Whether `who`'s attestation of round `index` passes `miner`'s attestable GPU `gpu`.
	pub fn attested(index: RoundIndex, seed: &Hash32, who: &T::AccountId, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		Attestations::<T>::get(index, who)
			.is_some_and(|a| a.passes(&Self::verification_position(index, seed, miner, gpu), miner, gpu))
	}

	/// The attestation by `who` in round `index` up to `upto`, leaving `open` open, with the
	/// individual `verdicts` that go with it, checked exactly as it would land: a validator, the
	/// verdict window open, each verdict due ([`Self::verdicts_due`] against the attestation
	/// before this one), and the attestation itself ([`Self::ensure_attestation`]). The pool's
	/// check; the dispatch makes the same checks in the same order.
	pub(crate) fn attest_due(
		who: &T::AccountId,
		index: RoundIndex,
		upto: &Position,
		open: &[(T::AccountId, GpuIndex)],
		verdicts: &[(T::AccountId, GpuIndex, Verdict)],
		evidence: &EvidenceRoot,
	) -> DispatchResult {
		Self::ensure_voting(who, index)?;
		if !verdicts.is_empty() {
			Self::ensure_verdict_list(verdicts)?;
		}
		// an unserved vote a rebuttal answered since is left out ([`Self::answered_by_rebuttal`])
		let verdicts: Vec<_> = Self::still_due(who, index, verdicts).into_iter().cloned().collect();
		for (miner, gpu, verdict) in &verdicts {
			Self::verdict_due(who, index, miner, *gpu, verdict)?;
		}
		Self::ensure_attestation(who, index, upto, open, &verdicts, evidence)
	}

	/// The attestation moves forward: `upto` after the last one's (or equal, with verdicts, fewer
	/// GPUs open or another evidence root), and every open GPU served (revealed on chain since, or
	/// not), not voted on by `who` (nor by `verdicts`), at
	/// or before `upto`, named once, and either open before or after the last `upto` (a pass once
	/// given is not taken back).
	fn ensure_attestation(
		who: &T::AccountId,
		index: RoundIndex,
		upto: &Position,
		open: &[(T::AccountId, GpuIndex)],
		verdicts: &[(T::AccountId, GpuIndex, Verdict)],
		evidence: &EvidenceRoot,
	) -> DispatchResult {
		let selection = Self::ensure_voting(who, index)?;
		let before = Attestations::<T>::get(index, who);
		if let Some(before) = &before {
			let changes = !verdicts.is_empty()
				|| open.len() < before.open.len()
				|| EvidenceRoots::<T>::get(index, who).as_ref() != Some(evidence);
			ensure!(*upto > before.upto || (*upto == before.upto && changes), Error::<T>::AttestationBehind);
		}
		for (i, (miner, gpu)) in open.iter().enumerate() {
			let position = Self::verification_position(index, &selection.seed, miner, *gpu);
			let voted = verdicts.iter().any(|(m, g, _)| m == miner && g == gpu)
				|| Verifications::<T>::get((index, miner, *gpu)).is_some_and(|v| v.votes.iter().any(|(x, _)| x == who));
			let passed_before = before.as_ref().is_some_and(|b| b.passes(&position, miner, *gpu));
			// served, and perhaps rebutted since the attestation was signed: then inert
			let valid = position <= *upto
				&& Self::served_in(index, miner).is_some()
				&& !voted && !passed_before
				&& !open[..i].iter().any(|(m, g)| m == miner && g == gpu);
			ensure!(valid, Error::<T>::InvalidOpen);
		}
		Ok(())
	}

	/// Records `verdicts` (each checked once, as `submit_verdicts` records them), then `who`'s
	/// attestation and evidence root ([`crate::evidence`]); all or nothing.
	pub(crate) fn do_attest(
		who: T::AccountId,
		index: RoundIndex,
		upto: Position,
		open: OpenOf<T>,
		verdicts: VerdictsOf<T>,
		evidence: EvidenceRoot,
	) -> DispatchResult {
		Self::ensure_voting(&who, index)?;
		frame_support::storage::with_storage_layer(|| {
			if !verdicts.is_empty() {
				Self::ensure_verdict_list(&verdicts)?;
			}
			let verdicts: Vec<_> = Self::still_due(&who, index, &verdicts).into_iter().cloned().collect();
			for (miner, gpu, verdict) in verdicts.iter() {
				Self::do_verdict(who.clone(), index, miner.clone(), *gpu, *verdict)?;
			}
			Self::ensure_attestation(&who, index, &upto, &open, &verdicts, &evidence)?;
			let (open_count, count) = (open.len() as u32, verdicts.len() as u32);
			Attestations::<T>::insert(index, &who, Attestation { upto, open });
			EvidenceRoots::<T>::insert(index, &who, evidence);
			Self::deposit_event(Event::Attested {
				round: index,
				validator: who.clone(),
				upto,
				open: open_count,
				verdicts: count,
			});
			Ok(())
		})
	}

	/// The weight of an attestation carrying `verdicts` verdicts and `open` open GPUs: the
	/// verdicts as `submit_verdicts` weighs them, and the attestation itself as benchmarked
	/// (`attest(o)`: the attestation read and written, each open GPU's position, served marker,
	/// rebuttal and record read, the last attestation's open list scanned for each), and the
	/// evidence root read and written, which the benchmark predates.
	pub fn attest_weight(verdicts: u32, open: u32) -> Weight {
		use crate::weights::WeightInfo;
		Self::verdicts_weight(verdicts)
			.saturating_add(T::WeightInfo::attest(open))
			.saturating_add(T::DbWeight::get().reads_writes(1, 1))
	}

	/// The weight of one served GPU's tally at settlement ([`Self::tally`]): its committee drawn
	/// ([`Self::committee_draw_weight`]), its members' attestations, its commitment, standing,
	/// first draw and openings marker read, and its record written.
	pub fn tally_weight() -> Weight {
		let members = Configuration::<T>::get().committee.max(crate::verification::WHOLE_SET_UP_TO);
		let members = u64::from(T::MaxValidators::get().min(members));
		// + its contest (`UnservedQuota`, `Contested`, `EarlyFailing`), read when it is undecided
		// with unserved votes
		Self::committee_draw_weight().saturating_add(T::DbWeight::get().reads_writes(members + 7, 1))
	}

	/// `miner`'s GPU `gpu` of round `index` as its committee voted on it, attestations counted:
	/// the verification record, and for a GPU served off chain (not rebutted), one passing vote
	/// for each member without a vote of its own whose attestation passes it, the status decided
	/// again from those votes. `None` while nobody voted on a GPU without a record (as before the
	/// attestations: the miner's agent reads a verification as its openings being on chain).
	/// Needs the round's selection (`selection`), so it is computed while the round is open or
	/// being settled.
	pub fn tally(
		index: RoundIndex,
		selection: &Selection<BlockNumberFor<T>>,
		miner: &T::AccountId,
		gpu: GpuIndex,
	) -> Option<VerificationOf<T>> {
		let recorded = Verifications::<T>::contains_key((index, miner, gpu));
		Self::settlement_tally(index, selection, miner, gpu).filter(|v| recorded || !v.votes.is_empty())
	}

	/// [`Self::tally`] as settlement counts it, and keeps it as the record: a served GPU nobody
	/// voted on has its committee, silent on it. `None` for a GPU neither revealed nor served and
	/// committed.
	pub(crate) fn settlement_tally(
		index: RoundIndex,
		selection: &Selection<BlockNumberFor<T>>,
		miner: &T::AccountId,
		gpu: GpuIndex,
	) -> Option<VerificationOf<T>> {
		let record = Verifications::<T>::get((index, miner, gpu));
		if !Self::attestable(index, miner, gpu) {
			return record;
		}
		let mut v = match record {
			Some(v) => v,
			None => {
				let commitment = Commitments::<T>::get(index, miner)?.get(gpu as usize).cloned().flatten()?;
				Verification {
					sample_seed: Self::sample_seed_for(selection, &commitment),
					committee: BoundedVec::truncate_from(Self::committee_for(&selection.seed, miner, gpu)),
					votes: BoundedVec::new(),
					status: VerificationStatus::Pending,
				}
			},
		};
		let position = Self::verification_position(index, &selection.seed, miner, gpu);
		let attesting: Vec<T::AccountId> = v
			.committee
			.iter()
			.filter(|m| !v.votes.iter().any(|(x, _)| x == *m))
			.filter(|m| Attestations::<T>::get(index, *m).is_some_and(|a| a.passes(&position, miner, gpu)))
			.cloned()
			.collect();
		for member in attesting {
			// Cannot fail: the committee is bounded like the votes and each member votes once.
			let _ = v.votes.try_push((member, Verdict::attested()));
		}
		if v.status == VerificationStatus::Pending {
			let passes = v.votes.iter().filter(|(_, x)| x.passed).count() as u32;
			if passes >= Self::quorum_of(v.committee.len() as u32) {
				v.status = VerificationStatus::Passed;
			}
		}
		Some(v)
	}
}
