//! Answering for votes: when a round is settled, each validator's committee work in it
//! ([`RoundWork`]) is judged by [`ValidatorRules`]. Contradicting more than the tolerated share of
//! decided outcomes, staying silent on more than the tolerated share of its assignments, or
//! leaving an audit of its evidence unanswered (`pallet_pog::evidence`) is a strike that burns part
//! of the bond; at `max_strikes` the validator loses its seat (planned out; it leaves at the next
//! session change), at most [`max_expulsions`] a round and never below [`BFT_MINIMUM`]. A clean
//! round with assignments forgives one strike. Only attributable faults count as contradictions
//! (`pallet_pog`'s `judge_vote`).

use alloc::vec::Vec;
use frame_support::{pallet_prelude::*, BoundedVec};
use pog_traits::{Committee, RoundIndex, ValidatorRecord};

use crate::{
	pallet::{
		Accountability, Config, Event, Pallet, PlannedValidators, RoundWork, Seated, ValidatorBonds, ValidatorStats,
	},
	rules::{max_expulsions, ValidatorRules, BFT_MINIMUM},
};

impl<T: Config> Pallet<T> {
	/// Counts `work` of committee member `member` (a `pog!` account) in the round being settled.
	pub(crate) fn count_work(member: &T::AccountId, work: &ValidatorRecord) {
		ValidatorStats::<T>::mutate(member, |r| r.add(work));
		RoundWork::<T>::mutate(member, |r| r.add(work));
	}

	/// Round `round` is settled: judges each validator's work in it (done by the members of
	/// `drawn`, the seats its committees were drawn from), and releases the bonds of validators
	/// that left before it was. `unproven`: the validators whose members left an audit of the
	/// last round unanswered, a strike whatever their work in this one, seated or not. Returns
	/// the members' work.
	pub(crate) fn judge(
		round: RoundIndex,
		drawn: &[(T::AccountId, T::AccountId)],
		sampled: bool,
		unproven: &[T::AccountId],
	) -> Vec<ValidatorRecord> {
		let rules: ValidatorRules = Accountability::<T>::get();
		let work: Vec<(T::AccountId, ValidatorRecord)> = RoundWork::<T>::drain().collect();
		// Work is judged against the validator whose `pog!` account did it, while it is bonded (a
		// validator that rotated its key since the draw answers for the votes of the key it was
		// drawn with; one that left since answers for the work it was assigned while its bond is
		// held, until this judgment).
		let mut judged: Vec<(T::AccountId, ValidatorRecord)> = work
			.iter()
			.filter_map(|(signer, record)| drawn.iter().find(|(_, s)| s == signer).map(|(v, _)| (v.clone(), *record)))
			.collect();
		for validator in unproven {
			if !judged.iter().any(|(v, _)| v == validator) {
				judged.push((validator.clone(), ValidatorRecord::default()));
			}
		}
		let mut keyed = Self::keyed_planned();
		let mut may_expel = max_expulsions(keyed as u32);
		for (validator, record) in judged {
			let Some(mut bond) = ValidatorBonds::<T>::get(&validator) else { continue };
			match rules.strike(&record, sampled, unproven.contains(&validator)) {
				Some(share) => {
					let burned = Self::burn_bond(&validator, &mut bond, share);
					bond.strikes = bond.strikes.saturating_add(1);
					Self::deposit_event(Event::ValidatorStruck {
						validator: validator.clone(),
						round,
						work: record,
						burned,
						strikes: bond.strikes,
					});
					// bounded: what no attack can turn into a purge of the set (a validator kept
					// for now is expelled at a later strike, when there is room)
					if bond.strikes >= rules.max_strikes
						&& may_expel > 0 && Self::expel_counted(&validator, BFT_MINIMUM, &mut keyed)
					{
						may_expel -= 1;
						Self::deposit_event(Event::ValidatorExpelled { validator: validator.clone(), round });
					}
				},
				None => bond.strikes = bond.strikes.saturating_sub(1),
			}
			ValidatorBonds::<T>::insert(&validator, bond);
		}
		Self::release_left(round);
		work.into_iter().map(|(_, record)| record).collect()
	}
}

impl<T: Config> Committee<T::AccountId> for Pallet<T> {
	fn seated() -> Vec<(T::AccountId, T::AccountId)> {
		Seated::<T>::get().into_inner()
	}

	fn max_seated() -> u32 {
		T::MaxValidators::get()
	}

	fn plan_genesis(validators: Vec<T::AccountId>) {
		let planned = BoundedVec::<_, T::MaxValidators>::try_from(validators)
			.unwrap_or_else(|v| panic!("{} genesis validators, above the set's MaxValidators", v.len()));
		PlannedValidators::<T>::put(planned);
	}

	fn is_bonded(validator: &T::AccountId) -> bool {
		ValidatorBonds::<T>::contains_key(validator)
	}

	fn count_work(member: &T::AccountId, work: &ValidatorRecord) {
		Self::count_work(member, work)
	}

	fn round_settled(
		round: RoundIndex,
		drawn: &[(T::AccountId, T::AccountId)],
		sampled: bool,
		unproven: &[T::AccountId],
	) -> Vec<ValidatorRecord> {
		Self::judge(round, drawn, sampled, unproven)
	}

	fn round_settled_weight() -> Weight {
		// n seats, up to 2n bonds (a set leaving beside the seated one). Read once: the rules,
		// the plan, each planned validator's session keys, who owes evidence, total issuance and
		// the ledger's count of burns (both written once). Each member's work drained. Each
		// judged validator (at most 2n: the drawn and the unproven) its bond and a burn (hold,
		// account), and its keys if expelled. Each bond read for release, each released (bond,
		// hold, account): up to 2n when root removed and added validators during the round.
		let n = u64::from(T::MaxValidators::get());
		T::DbWeight::get().reads_writes(6 + n + n + 2 * n * 4 + 2 * n + 2 * n * 2, 3 + n + 2 * n * 3 + 2 * n * 3)
	}

	#[cfg(feature = "runtime-benchmarks")]
	fn bench_seat(n: u32) -> Vec<(T::AccountId, T::AccountId)> {
		crate::benchmarking::seat::<T>(n)
	}
}
