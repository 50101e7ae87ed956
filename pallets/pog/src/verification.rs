//! Verification of selected challenges: validators, openings, committees and verdicts.
//!
//! Each revealed challenge goes to a committee of `committee` validators chosen by hash ranking
//! of (sample seed, miner, GPU, validator), never including the miner's own account. So V
//! validators verify about V / committee times what one does. ⌊2c/3⌋+1 matching verdicts
//! finalise it; members that stay silent or contradict the outcome are counted in
//! the validator set's record (`Committee::count_work`) when the miner is settled.

use alloc::vec::Vec;
use codec::Encode;
use frame_support::{ensure, pallet_prelude::*};
use frame_system::pallet_prelude::BlockNumberFor;
use pog_primitives::commitment;
pub use pog_primitives::verdict::{SelfReported, Verdict};

use crate::rounds::{Commitment, RoundIndex, RoundPhase, Selection};
use crate::scoring::{FailReason, RoundOutcome, UnverifiedReason};
use crate::types::{Hash32, LeafLen, MaxProofLen, MaxWalkProofLen};
use crate::{
	duty::{DutyKey, DutyKind},
	pallet::*,
};
use codec::{Decode, DecodeWithMemTracking, MaxEncodedLen};
use core::fmt::Debug;
use frame_support::{traits::Get, BoundedVec, CloneNoBound, DebugNoBound, EqNoBound, PartialEqNoBound};
use pog_primitives::challenge::GpuIndex;
use pog_traits::{Committee, RoundPay, ValidatorRecord};
use scale_info::TypeInfo;

/// An opened walk as the committee recomputes it: (walk, result, its link's parents' digest).
pub type WalkResult = (u64, Hash32, Hash32);

/// Where a revealed challenge's verification stands.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum VerificationStatus {
	/// Waiting for the committee.
	Pending,
	/// ⌊2c/3⌋+1 members found every checked entry within tolerance.
	Passed,
	/// ⌊2c/3⌋+1 members found a wrong entry.
	Failed,
}

/// A revealed challenge under verification.
#[derive(CloneNoBound, PartialEqNoBound, EqNoBound, DebugNoBound, Encode, Decode, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(MaxVoters))]
pub struct Verification<AccountId: Clone + PartialEq + Eq + Debug, MaxVoters: Get<u32>> {
	/// The sample seed that chose the opened leaves.
	pub sample_seed: Hash32,
	/// The validators that verify it (hash ranking; never the miner itself).
	pub committee: BoundedVec<AccountId, MaxVoters>,
	/// Their verdicts.
	pub votes: BoundedVec<(AccountId, Verdict), MaxVoters>,
	/// Where it stands.
	pub status: VerificationStatus,
}

/// One opened leaf with its Merkle proof.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Opening {
	/// Leaf index (row-major leaves of 256 values).
	pub leaf: u32,
	/// The leaf's fp32 values as IEEE-754 bit patterns.
	pub values: BoundedVec<u32, LeafLen>,
	/// Sibling hashes from the leaf level up.
	pub proof: BoundedVec<Hash32, MaxProofLen>,
}

/// One opened walk with its Merkle proof.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct WalkOpening {
	/// Walk index.
	pub walk: u64,
	/// Its result (`pog_primitives::memory::walk`).
	pub result: Hash32,
	/// Sibling hashes from the walk level up.
	pub proof: BoundedVec<Hash32, MaxWalkProofLen>,
}

/// A reveal as it would land: the seed that chose its openings and its committee.
pub(crate) struct RevealPlan<T: Config> {
	pub sample_seed: Hash32,
	pub committee: Vec<T::AccountId>,
	/// The GPU's memory phase, if it has one.
	pub memory: Option<pog_primitives::memory::MemoryChallenge>,
	/// A served GPU revealed to rebut unserved votes: its verification exists, and keeps its
	/// committee (`committee` is left empty, not drawn again) and every vote but the unserved
	/// ones.
	pub rebuttal: bool,
}

/// Sets of at most this many eligible validators vote as a whole on every challenge.
pub const WHOLE_SET_UP_TO: u32 = 7;

/// Members of a committee when `eligible` validators may sit on it: all of them up to
/// [`WHOLE_SET_UP_TO`], else `committee` (the configured size). A small set is Byzantine fault
/// tolerant only as a whole: ⌊2V/3⌋+1 of all V tolerates ⌊(V−1)/3⌋ silent or lying validators,
/// whereas committees of 5 drawn from 7 let two of them freeze the 48% of committees they share.
pub fn committee_size(committee: u32, eligible: u32) -> u32 {
	if eligible <= WHOLE_SET_UP_TO {
		eligible
	} else {
		committee.min(eligible)
	}
}

impl<T: Config> Pallet<T> {
	/// The weight of `n` verdicts: the benchmark's each, plus what a verdict on a GPU served off
	/// chain does that the benchmark predates: it reads the round's served marker, the commitment,
	/// the GPU's standing and first draw, the reveal share and the member's attestation (6 reads),
	/// and the first one draws the committee ([`Self::committee_draw_weight`]).
	pub fn verdicts_weight(n: u32) -> Weight {
		use crate::weights::WeightInfo;
		T::WeightInfo::submit_verdict(T::MaxValidators::get())
			.saturating_add(T::DbWeight::get().reads(6))
			.saturating_add(Self::committee_draw_weight())
			.saturating_mul(u64::from(n))
	}

	/// The weight of drawing a committee ([`Self::committee_for`]) by hash ranking over the most
	/// validators. An estimate, not a frame benchmark: it is charged 150 µs, several times what
	/// ranking 64 validators costs natively, for the WASM, and the proof of the committee pool it
	/// reads: 64 (validator, `pog!` account) pairs, 4,098 bytes.
	pub fn committee_draw_weight() -> Weight {
		Weight::from_parts(150_000_000, 4_200)
	}

	/// The validators committees are drawn from: for a drawn round, the set seated at its draw
	/// ([`CommitteePool`]), so that every committee, and the GPUs an attestation passes, are
	/// fixed when the sample is; before any draw, the set seated now.
	pub fn committee_pool() -> Vec<T::AccountId> {
		Self::drawn_seats().into_iter().map(|(_, member)| member).collect()
	}

	/// [`Self::committee_pool`] with each member's validator: (validator, `pog!` account).
	pub(crate) fn drawn_seats() -> BoundedVec<(T::AccountId, T::AccountId), T::MaxValidators> {
		let pool = CommitteePool::<T>::get();
		if pool.is_empty() {
			BoundedVec::truncate_from(T::Committee::seated())
		} else {
			pool
		}
	}

	/// `who` may vote: one of the validators the round's committees are drawn from
	/// ([`Self::committee_pool`]).
	pub(crate) fn ensure_validator(who: &T::AccountId) -> DispatchResult {
		ensure!(Self::committee_pool().contains(who), Error::<T>::NotValidator);
		Ok(())
	}

	/// The committee of `miner`'s GPU `gpu` under sample seed `seed`: the [`committee_size`]
	/// members of the [`Self::committee_pool`] with the lowest hash of (seed, miner, gpu, member),
	/// leaving out the miner's own seat: a seat whose validator account or `pog!` account is the
	/// miner's (the two differ wherever the `pog!` key is a session key of its own).
	pub fn committee_for(seed: &Hash32, miner: &T::AccountId, gpu: GpuIndex) -> Vec<T::AccountId> {
		let eligible: Vec<T::AccountId> = Self::drawn_seats()
			.into_iter()
			.filter(|(validator, member)| validator != miner && member != miner)
			.map(|(_, member)| member)
			.collect();
		let size = committee_size(Configuration::<T>::get().committee, eligible.len() as u32) as usize;
		let mut ranked: Vec<(Hash32, T::AccountId)> = eligible
			.into_iter()
			.map(|v| (sp_io::hashing::blake2_256(&(b"pog/committee", seed, miner, gpu, &v).encode()), v))
			.collect();
		ranked.sort_by_key(|a| a.0);
		ranked.into_iter().take(size).map(|(_, v)| v).collect()
	}

	/// Matching verdicts that finalise a committee of `members`: ⌊2c/3⌋+1.
	pub fn quorum_of(members: u32) -> u32 {
		members.saturating_mul(2) / 3 + 1
	}

	/// The reveal by `who` of its GPU `gpu` in round `index`, checked exactly as it would land:
	/// the reveal window open, the GPU committed, selected, not revealed yet and its duty not
	/// spent; the openings and walks those sampled, in sample order, with paths to the committed
	/// roots. The pool ([`crate::duty::CheckDuty`]) and the dispatch both call this, so a reveal
	/// the pool accepts cannot fail in its block, and one of any other size never reaches it.
	pub(crate) fn reveal_due(
		who: &T::AccountId,
		index: RoundIndex,
		gpu: GpuIndex,
		openings: &[Opening],
		walks: &[WalkOpening],
	) -> Result<RevealPlan<T>, DispatchError> {
		let round = Self::round();
		ensure!(round.index == index && index > 0, Error::<T>::WrongRound);
		ensure!(round.phase == RoundPhase::Reveal, Error::<T>::WrongPhase);
		let selection = round.selection.ok_or(Error::<T>::WrongPhase)?;
		// a served GPU reveals only as a rebuttal, in its own window ([`crate::served`])
		let rebuttal = Self::served_in(index, who).is_some();
		if !rebuttal {
			ensure!(Self::now() <= selection.reveal_deadline, Error::<T>::RevealWindowClosed);
		}
		let commitment = Commitments::<T>::get(index, who)
			.and_then(|slots| slots.get(gpu as usize).cloned().flatten())
			.ok_or(Error::<T>::NotCommitted)?;
		ensure!(Self::is_selected(&selection, index, who, gpu), Error::<T>::NotSelected);
		if rebuttal {
			Self::ensure_rebuttal(&selection, index, who, gpu)?;
		} else {
			ensure!(!Verifications::<T>::contains_key((index, who, gpu)), Error::<T>::AlreadyRevealed);
		}
		Self::ensure_unspent(&DutyKey { kind: DutyKind::Reveal, round: index, miner: who, gpu, validator: None })?;

		Self::ensure_openings(&selection, &commitment, openings, walks)?;
		let sample_seed = Self::sample_seed_for(&selection, &commitment);
		// a rebuttal keeps the committee its verification drew at the first verdict
		let committee = if rebuttal { Vec::new() } else { Self::committee_for(&selection.seed, who, gpu) };
		Ok(RevealPlan { sample_seed, committee, memory: commitment.params.memory_challenge(), rebuttal })
	}

	/// Whether `openings` and `walks` are exactly what `commitment` must open under `selection`:
	/// the sampled leaves and walks, in sample order, each with a path to the committed root. A
	/// reveal on chain and openings fetched from a miner's endpoint ([`crate::served`]) are
	/// checked by this one rule.
	pub fn ensure_openings(
		selection: &Selection<BlockNumberFor<T>>,
		commitment: &Commitment,
		openings: &[Opening],
		walks: &[WalkOpening],
	) -> DispatchResult {
		let expected = Self::leaves_for(selection, commitment);
		ensure!(openings.len() == expected.len(), Error::<T>::WrongOpeningCount);
		for (opening, leaf) in openings.iter().zip(expected) {
			ensure!(opening.leaf == leaf, Error::<T>::WrongOpeningIndex);
			ensure!(
				commitment::verify_opening(
					&commitment.root,
					&commitment.params.dims,
					leaf,
					&opening.values,
					&opening.proof
				),
				Error::<T>::InvalidProof
			);
		}
		let expected = Self::walks_for(selection, commitment);
		ensure!(walks.len() == expected.len(), Error::<T>::WrongWalkCount);
		let (memory_root, total) = match (commitment.memory_root, commitment.params.memory) {
			(Some(root), Some(m)) => (root, m.challenge.walks),
			// No memory phase: no walks were sampled, and none were given.
			_ => ([0; 32], 0),
		};
		for (opening, walk) in walks.iter().zip(expected) {
			ensure!(opening.walk == walk, Error::<T>::WrongWalkIndex);
			ensure!(
				pog_primitives::memory::verify_walk(&memory_root, total, walk, &opening.result, &opening.proof),
				Error::<T>::InvalidWalkProof
			);
		}
		Ok(())
	}

	/// What the committee recomputes of opened `walks` of a GPU with memory phase `memory`: each
	/// walk, its result, and for a per-core unit's lanes its link's parents (read from its path).
	pub fn walk_results(
		memory: Option<pog_primitives::memory::MemoryChallenge>,
		walks: &[WalkOpening],
	) -> Vec<WalkResult> {
		let parents = |w: &WalkOpening| match memory {
			Some(c) if matches!(c.spec.kind(), pog_primitives::memory::MemoryKind::Lanes(_)) => {
				pog_primitives::lanes::parents_digest(&c, w.walk, &w.proof)
			},
			_ => [0; 32],
		};
		walks.iter().map(|w| (w.walk, w.result, parents(w))).collect()
	}

	pub(crate) fn do_reveal(
		who: T::AccountId,
		index: RoundIndex,
		gpu: GpuIndex,
		openings: OpeningsOf<T>,
		walks: WalkOpeningsOf,
	) -> DispatchResult {
		let RevealPlan { sample_seed, committee, memory, rebuttal } =
			Self::reveal_due(&who, index, gpu, &openings, &walks)?;
		if rebuttal {
			let votes = Self::void_unserved(index, &who, gpu);
			Self::deposit_event(Event::UnservedVoided { round: index, miner: who.clone(), gpu, votes });
		} else {
			Verifications::<T>::insert(
				(index, &who, gpu),
				Verification {
					sample_seed,
					committee: BoundedVec::truncate_from(committee),
					votes: BoundedVec::new(),
					status: VerificationStatus::Pending,
				},
			);
		}
		Openings::<T>::insert((index, &who, gpu), openings);
		if !walks.is_empty() {
			let results = Self::walk_results(memory, &walks);
			WalkResults::<T>::insert((index, &who, gpu), BoundedVec::truncate_from(results));
		}
		Self::deposit_event(Event::OpeningsRevealed { round: index, miner: who, gpu, sample_seed });
		Ok(())
	}

	/// The verdict by `who` on `miner`'s GPU `gpu` in round `index`, checked exactly as it would
	/// land: a validator on the challenge's committee, the verdict window open, no vote from `who`
	/// yet, its duty not spent, and a failing verdict naming one opened leaf or walk (a passing one
	/// none). A GPU served off chain ([`crate::served`]) has no reveal: its verification starts
	/// with its first verdict, a failing verdict names one of its sampled leaves or walks, and an
	/// unserved vote (naming none) counts once the reveal window has closed. Called by the pool
	/// and the dispatch alike. Returns the verification record.
	pub(crate) fn verdict_due(
		who: &T::AccountId,
		index: RoundIndex,
		miner: &T::AccountId,
		gpu: GpuIndex,
		verdict: &Verdict,
	) -> Result<VerificationOf<T>, DispatchError> {
		let selection = Self::ensure_voting(who, index)?;
		let served = Self::served_in(index, miner).is_some();
		let (v, leaves, walks) = if served {
			let commitment = Commitments::<T>::get(index, miner)
				.and_then(|slots| slots.get(gpu as usize).cloned().flatten())
				.ok_or(Error::<T>::NotCommitted)?;
			ensure!(Self::is_selected(&selection, index, miner, gpu), Error::<T>::NotSelected);
			let v = Verifications::<T>::get((index, miner, gpu)).unwrap_or_else(|| Verification {
				sample_seed: Self::sample_seed_for(&selection, &commitment),
				committee: BoundedVec::truncate_from(Self::committee_for(&selection.seed, miner, gpu)),
				votes: BoundedVec::new(),
				status: VerificationStatus::Pending,
			});
			(v, Self::leaves_for(&selection, &commitment), Self::walks_for(&selection, &commitment))
		} else {
			let v = Verifications::<T>::get((index, miner, gpu)).ok_or(Error::<T>::NotRevealed)?;
			let opened = Openings::<T>::get((index, miner, gpu)).ok_or(Error::<T>::NotRevealed)?;
			let walks = WalkResults::<T>::get((index, miner, gpu)).unwrap_or_default();
			(v, opened.iter().map(|o| o.leaf).collect(), walks.iter().map(|w| w.0).collect())
		};
		ensure!(v.committee.contains(who), Error::<T>::NotInCommittee);
		ensure!(!v.votes.iter().any(|(x, _)| x == who), Error::<T>::AlreadyVoted);
		Self::ensure_unspent(&DutyKey { kind: DutyKind::Verdict, round: index, miner, gpu, validator: Some(who) })?;
		// once a served GPU is revealed on chain (a rebuttal), every member has its openings
		let unservable = served && !Self::rebutted(index, miner, gpu);
		if unservable {
			ensure!(!Self::attested(index, &selection.seed, who, miner, gpu), Error::<T>::AlreadyAttested);
		}
		let consistent = match (verdict.failed_leaf, verdict.failed_walk) {
			(None, None) => verdict.passed || unservable,
			(Some(leaf), None) => !verdict.passed && leaves.contains(&leaf),
			(None, Some(walk)) => !verdict.passed && walks.contains(&walk),
			(Some(_), Some(_)) => false,
		};
		ensure!(consistent, Error::<T>::InconsistentVerdict);
		if verdict.is_unserved() {
			ensure!(Self::now() > selection.reveal_deadline, Error::<T>::UnservedTooEarly);
			ensure!(Self::now() <= selection.unserved_deadline(), Error::<T>::UnservedTooLate);
		}
		Ok(v)
	}

	/// A validator `who` may vote in round `index` now: it is the current round, its sample is
	/// drawn and its verdict window open. Returns the sample.
	pub(crate) fn ensure_voting(
		who: &T::AccountId,
		index: RoundIndex,
	) -> Result<Selection<BlockNumberFor<T>>, DispatchError> {
		Self::ensure_validator(who)?;
		let round = Self::round();
		ensure!(round.index == index && index > 0, Error::<T>::WrongRound);
		let selection = round.selection.ok_or(Error::<T>::WrongPhase)?;
		ensure!(round.phase == RoundPhase::Reveal, Error::<T>::VerdictWindowClosed);
		ensure!(Self::now() <= selection.verdict_deadline, Error::<T>::VerdictWindowClosed);
		Ok(selection)
	}

	/// The verdicts by `who` in round `index`, checked exactly as they would land: a well-formed
	/// list ([`Self::ensure_verdict_list`]) whose every entry still due ([`Self::still_due`]) is
	/// due ([`Self::verdict_due`]), one at least. The pool's check.
	pub(crate) fn verdicts_due(
		who: &T::AccountId,
		index: RoundIndex,
		verdicts: &[(T::AccountId, GpuIndex, Verdict)],
	) -> DispatchResult {
		Self::ensure_verdict_list(verdicts)?;
		let verdicts = Self::still_due(who, index, verdicts);
		ensure!(!verdicts.is_empty(), Error::<T>::NoVerdicts);
		for (miner, gpu, verdict) in verdicts {
			Self::verdict_due(who, index, miner, *gpu, verdict)?;
		}
		Ok(())
	}

	/// Whether `who`'s `verdict` on `miner`'s GPU `gpu` of round `index` is an unserved vote that
	/// a rebuttal answered after it was signed: the GPU is revealed on chain now, `who` sits on
	/// its committee without a vote, and unserved votes are still taken. Such a vote is left out
	/// of a list of verdicts (an attestation's too) rather than refused, and its member votes on
	/// the revealed openings: otherwise a miner timing its rebuttals ahead of a member's list
	/// voided the whole of it, with the member's result votes, and held the member's worker for
	/// [`crate::offchain::RESEND_AFTER`] blocks each time, past the unserved deadline (the third
	/// review of the quota).
	pub(crate) fn answered_by_rebuttal(
		who: &T::AccountId,
		index: RoundIndex,
		miner: &T::AccountId,
		gpu: GpuIndex,
		verdict: &Verdict,
	) -> bool {
		verdict.is_unserved()
			&& Self::rebutted(index, miner, gpu)
			&& Self::round().selection.is_some_and(|s| Self::now() <= s.unserved_deadline())
			&& Verifications::<T>::get((index, miner, gpu))
				.is_some_and(|v| v.committee.contains(who) && !v.votes.iter().any(|(x, _)| x == who))
	}

	/// The entries of `who`'s `verdicts` in round `index` that are due, those a rebuttal answered
	/// left out ([`Self::answered_by_rebuttal`]).
	pub(crate) fn still_due<'a>(
		who: &T::AccountId,
		index: RoundIndex,
		verdicts: &'a [(T::AccountId, GpuIndex, Verdict)],
	) -> Vec<&'a (T::AccountId, GpuIndex, Verdict)> {
		verdicts.iter().filter(|(m, g, v)| !Self::answered_by_rebuttal(who, index, m, *g, v)).collect()
	}

	/// At least one verdict, and no GPU named twice.
	pub(crate) fn ensure_verdict_list(verdicts: &[(T::AccountId, GpuIndex, Verdict)]) -> DispatchResult {
		ensure!(!verdicts.is_empty(), Error::<T>::NoVerdicts);
		for (i, (miner, gpu, _)) in verdicts.iter().enumerate() {
			ensure!(!verdicts[..i].iter().any(|(m, g, _)| m == miner && g == gpu), Error::<T>::DuplicateVerdict);
		}
		Ok(())
	}

	/// Records every verdict or none: each entry is checked once, by [`Self::do_verdict`], in a
	/// storage layer that a failing entry rolls back.
	pub(crate) fn do_verdicts(who: T::AccountId, index: RoundIndex, verdicts: VerdictsOf<T>) -> DispatchResult {
		Self::ensure_verdict_list(&verdicts)?;
		let verdicts = Self::still_due(&who, index, &verdicts);
		ensure!(!verdicts.is_empty(), Error::<T>::NoVerdicts);
		frame_support::storage::with_storage_layer(|| {
			verdicts.into_iter().try_for_each(|(miner, gpu, verdict)| {
				Self::do_verdict(who.clone(), index, miner.clone(), *gpu, *verdict)
			})
		})
	}

	pub(crate) fn do_verdict(
		who: T::AccountId,
		index: RoundIndex,
		miner: T::AccountId,
		gpu: GpuIndex,
		verdict: Verdict,
	) -> DispatchResult {
		let mut v = Self::verdict_due(&who, index, &miner, gpu, &verdict)?;
		// Cannot fail: the committee is bounded like the votes and each member votes once.
		v.votes.try_push((who.clone(), verdict)).map_err(|_| Error::<T>::TooManyValidators)?;
		if verdict.is_unserved() {
			Self::note_unserved(index, &who, &miner, gpu);
		} else if !verdict.passed {
			Self::note_failing(index, &miner, gpu);
		}
		Self::deposit_event(Event::VerdictSubmitted {
			round: index,
			miner: miner.clone(),
			gpu,
			validator: who,
			verdict,
		});
		if v.status == VerificationStatus::Pending {
			let quorum = Self::quorum_of(v.committee.len() as u32);
			let passes = v.votes.iter().filter(|(_, x)| x.passed).count() as u32;
			// Unserved votes decide nothing before settlement: until the rebuttal deadline the
			// miner may reveal the GPU on chain and void them ([`crate::served`]).
			let fails = v.votes.iter().filter(|(_, x)| !x.passed && !x.is_unserved()).count() as u32;
			let decided = if passes >= quorum {
				Some(VerificationStatus::Passed)
			} else if fails >= quorum {
				Some(VerificationStatus::Failed)
			} else {
				None
			};
			if let Some(status) = decided {
				v.status = status;
				Self::deposit_event(Event::VerificationFinished {
					round: index,
					miner: miner.clone(),
					gpu,
					passed: status == VerificationStatus::Passed,
				});
			}
		}
		Verifications::<T>::insert((index, &miner, gpu), v);
		Ok(())
	}

	/// The outcome of `miner`'s GPU `gpu` in the round being settled, counting its committee's
	/// work in the validator set's record (`Committee::count_work`) (and the agreeing verdicts validators are paid by, in
	/// the reward ledger's count of agreeing verdicts) and dropping its openings.
	pub(crate) fn outcome_of(round: &RoundOf<T>, miner: &T::AccountId, gpu: GpuIndex, committed: bool) -> RoundOutcome {
		if !committed {
			return RoundOutcome::Failed(FailReason::MissedCommit);
		}
		let Some(selection) = round.selection.as_ref() else {
			return RoundOutcome::Unverified(UnverifiedReason::NotSelected);
		};
		if !Self::is_selected(selection, round.index, miner, gpu) {
			return RoundOutcome::Unverified(UnverifiedReason::NotSelected);
		}
		let key = (round.index, miner, gpu);
		let served = Self::served_in(round.index, miner).is_some();
		// a served GPU's passes in bulk count as its members' votes, and are kept in its record
		let in_bulk = Self::attestable(round.index, miner, gpu);
		// Served off chain and no member voted: a silent committee, not a silent miner, as far as
		// the chain can tell (undecided below); the members answer for their silence.
		let Some(v) = Self::settlement_tally(round.index, selection, miner, gpu) else {
			return RoundOutcome::Failed(FailReason::MissedReveal);
		};
		Openings::<T>::remove(key);
		WalkResults::<T>::remove(key);
		// Served to fewer than a quorum: at least ⌈c/3⌉ members, more than lie, got nothing
		let undelivered = served && Self::undelivered(round.index, miner, gpu, &v);
		let outcome = match v.status {
			VerificationStatus::Passed => Some(true),
			VerificationStatus::Failed => Some(false),
			VerificationStatus::Pending if undelivered => Some(false),
			VerificationStatus::Pending => None,
		};
		if in_bulk {
			Verifications::<T>::insert(key, &v);
			// a result decided on served bytes: its voters may owe the evidence of their fetch
			if outcome.is_some() && !undelivered {
				Self::draw_audit(round.index, selection, miner, gpu, &v);
			}
		}
		for member in v.committee.iter() {
			let vote = v.votes.iter().find(|(x, _)| x == member).map(|(_, vote)| vote);
			let work = Self::judge_vote(vote, outcome, undelivered);
			if work.agreed > 0 {
				T::RoundPay::agreed(member);
			}
			T::Committee::count_work(member, &work);
		}
		match outcome {
			Some(true) => RoundOutcome::Passed,
			Some(false) => RoundOutcome::Failed(Self::fail_reason(&v)),
			None => RoundOutcome::Unverified(UnverifiedReason::Inconclusive),
		}
	}

	/// What a member's `vote` on an outcome (`Some(passed)`, `None` undecided; `undelivered`: it
	/// failed for non-delivery, [`crate::served`]) counts for: silent without a vote; agreement
	/// with a decided outcome; a contradiction when a vote on the result (a pass, or a failure
	/// naming a leaf or a walk) goes against a result a quorum decided. Every member checks the
	/// same entries (`pog_primitives::sampling::entries_entropy`) and every opened walk, so honest
	/// members reach the same verdict, and with at most ⌊(c−1)/3⌋ lying members a quorum includes
	/// an honest one: the contradicting member is provably wrong. A delivery dispute is never a
	/// result dispute: an unserved vote on a GPU that passed, and a pass on a GPU that failed for
	/// non-delivery, count as neither (a miner choosing whom to serve cannot make the members it
	/// served answer for it, the review's F1). Votes on an undecided GPU count as neither.
	pub fn judge_vote(vote: Option<&Verdict>, outcome: Option<bool>, undelivered: bool) -> ValidatorRecord {
		let mut work = ValidatorRecord { assigned: 1, ..Default::default() };
		match (vote, outcome) {
			(None, _) => work.silent = 1,
			(Some(vote), Some(passed)) if vote.passed == passed => work.agreed = 1,
			(Some(vote), Some(true)) if vote.is_unserved() => {},
			(Some(_), Some(false)) if undelivered => {},
			(Some(_), Some(_)) => work.contradicted = 1,
			(Some(_), None) => {},
		}
		work
	}

	/// Why a failed verification failed: `MissedReveal` when more of the failing verdicts say
	/// nothing was served than name a leaf or a walk, else `WrongWalk` when more name a walk than
	/// a leaf, else `WrongResult`.
	fn fail_reason(v: &VerificationOf<T>) -> FailReason {
		let failing = v.votes.iter().filter(|(_, x)| !x.passed);
		let (walks, leaves, unserved) = failing.fold((0u32, 0u32, 0u32), |(w, l, u), (_, x)| {
			(
				w + u32::from(x.failed_walk.is_some()),
				l + u32::from(x.failed_leaf.is_some()),
				u + u32::from(x.is_unserved()),
			)
		});
		if unserved > walks.max(leaves) {
			FailReason::MissedReveal
		} else if walks > leaves {
			FailReason::WrongWalk
		} else {
			FailReason::WrongResult
		}
	}
}
