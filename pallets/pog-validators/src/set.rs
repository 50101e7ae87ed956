//! The set: root plans it ([`PlannedValidators`]), pallet-session hands the plan on at a session
//! boundary ([`SessionManager::new_session`]) and, one session later, activates it for BABE,
//! GRANDPA and PoG at once: this pallet is the `pog!` key's session handler, and
//! [`OneSessionHandler::on_new_session`] seats the active validators ([`Seated`]) with the
//! accounts of their `pog!` keys, which sit on committees and sign verdicts ([`Validators`]).

use alloc::vec::Vec;
use frame_support::{
	pallet_prelude::*,
	traits::{Contains, OneSessionHandler},
	BoundedVec,
};
use pog_traits::Rounds;
use sp_runtime::{traits::Convert, BoundToRuntimeAppPublic};

use crate::{
	bonds::ValidatorBondOf,
	pallet::{
		Accountability, Config, Error, Event, Pallet, PlannedValidators, QueuedValidators, Seated, ValidatorBonds,
		Validators,
	},
	rules::ValidatorRules,
	SessionIndex,
};

impl<T: Config> Pallet<T> {
	/// Root plans `validator` into the set and holds its bond (a validator still leaving keeps
	/// the bond it has). It sits from the second session change on, once its keys are set.
	pub(crate) fn do_add_validator(validator: T::AccountId) -> DispatchResult {
		let mut planned = PlannedValidators::<T>::get();
		ensure!(!planned.contains(&validator), Error::<T>::AlreadyValidator);
		planned.try_push(validator.clone()).map_err(|_| Error::<T>::TooManyValidators)?;
		match ValidatorBonds::<T>::get(&validator) {
			Some(mut bond) => {
				bond.leaving = None;
				ValidatorBonds::<T>::insert(&validator, bond);
			},
			None => {
				// Leaving validators keep their bonds until released: at most one set leaving.
				ensure!(
					ValidatorBonds::<T>::count() < T::MaxValidators::get().saturating_mul(2),
					Error::<T>::TooManyValidators
				);
				Self::bond(&validator)?;
			},
		}
		PlannedValidators::<T>::put(planned);
		Self::deposit_event(Event::ValidatorAdded { validator });
		Ok(())
	}

	/// Root plans `validator` out of the set: it leaves at the next session change that has
	/// not queued it already, and its bond is released once its last round is settled.
	pub(crate) fn do_remove_validator(validator: T::AccountId) -> DispatchResult {
		let mut planned = PlannedValidators::<T>::get();
		let pos = planned.iter().position(|x| x == &validator).ok_or(Error::<T>::NotValidator)?;
		// Another planned validator with session keys must stay: one without keys is never
		// handed to the session, and the one removed would then sit on (the review's F15).
		ensure!(planned.iter().any(|v| v != &validator && T::HasSessionKeys::contains(v)), Error::<T>::LastValidator);
		planned.remove(pos);
		PlannedValidators::<T>::put(planned);
		Self::deposit_event(Event::ValidatorRemoved { validator });
		Ok(())
	}

	pub(crate) fn do_set_validator_rules(rules: ValidatorRules) -> DispatchResult {
		rules.validate().map_err(Error::<T>::InvalidValidatorRules)?;
		Accountability::<T>::put(rules);
		Self::deposit_event(Event::ValidatorRulesUpdated { rules });
		Ok(())
	}

	/// Seats the active set: `(validator, pog! key)` in session order.
	fn seat(active: Vec<(T::AccountId, T::Key)>) {
		let seated: Vec<(T::AccountId, T::AccountId)> =
			active.into_iter().map(|(validator, key)| (validator, T::KeyAccount::convert(key))).collect();
		let seated = BoundedVec::<_, T::MaxValidators>::truncate_from(seated);
		Validators::<T>::put(BoundedVec::truncate_from(seated.iter().map(|(_, s)| s.clone()).collect::<Vec<_>>()));
		Seated::<T>::put(seated);
	}

	/// The validators' set at genesis, with their `pog!` keys: seated, planned and bonded.
	pub(crate) fn seat_genesis(active: Vec<(T::AccountId, T::Key)>) {
		let stashes: Vec<T::AccountId> = active.iter().map(|(v, _)| v.clone()).collect();
		for validator in &stashes {
			if let Err(e) = Self::bond(validator) {
				panic!("genesis validator {validator:?} cannot bond {:?}: {e:?}", T::ValidatorBond::get());
			}
		}
		let planned = BoundedVec::<_, T::MaxValidators>::truncate_from(stashes);
		PlannedValidators::<T>::put(&planned);
		QueuedValidators::<T>::put(planned);
		Self::seat(active);
	}

	/// The set to hand to the session being planned: the planned validators with session keys,
	/// whenever they differ from what was last handed or from who sits (a planned validator
	/// without keys is handed once it sets them). Never an empty set.
	pub(crate) fn plan_session() -> Option<Vec<T::AccountId>> {
		// Only validators with session keys: the session would drop the others, and the
		// historical record must count exactly who sits (the review's F15).
		let planned: Vec<T::AccountId> =
			PlannedValidators::<T>::get().into_iter().filter(T::HasSessionKeys::contains).collect();
		let seated: Vec<T::AccountId> = Seated::<T>::get().into_iter().map(|(v, _)| v).collect();
		if planned.is_empty() || (planned == QueuedValidators::<T>::get().to_vec() && planned == seated) {
			return None;
		}
		QueuedValidators::<T>::put(BoundedVec::truncate_from(planned.clone()));
		Some(planned)
	}

	/// A new active set sits: bonded validators now neither seated, queued nor planned start
	/// leaving, their bonds released after the round in progress settles (at once if none is and
	/// they owe no evidence; else after the next judgment).
	fn start_leaving() {
		let seated = Seated::<T>::get();
		let (queued, planned) = (QueuedValidators::<T>::get(), PlannedValidators::<T>::get());
		let leavers: Vec<(T::AccountId, ValidatorBondOf<T>)> = ValidatorBonds::<T>::iter()
			.filter(|(v, bond)| {
				bond.leaving.is_none()
					&& !seated.iter().any(|(s, _)| s == v)
					&& !queued.contains(v)
					&& !planned.contains(v)
			})
			.collect();
		let (round, open) = (T::Rounds::latest_round(), T::Rounds::round_open());
		let owing = T::Rounds::owing_evidence();
		for (validator, mut bond) in leavers {
			if !open && !owing.contains(&validator) {
				Self::release_bond(&validator);
			} else {
				bond.leaving = Some(round);
				ValidatorBonds::<T>::insert(&validator, bond);
			}
		}
	}

	/// Takes `validator` out of the plan, unless that would leave fewer than `keep`; whether it
	/// was taken out.
	pub(crate) fn expel(validator: &T::AccountId, keep: u32) -> bool {
		let mut keyed = Self::keyed_planned();
		Self::expel_counted(validator, keep, &mut keyed)
	}

	/// How many planned validators have session keys (only they sit).
	pub(crate) fn keyed_planned() -> usize {
		PlannedValidators::<T>::get().iter().filter(|v| T::HasSessionKeys::contains(v)).count()
	}

	/// [`Self::expel`] with `keyed`, the planned validators with session keys, counted by the
	/// caller (and kept up to date): one judgment reads each validator's keys once, not once an
	/// expulsion.
	pub(crate) fn expel_counted(validator: &T::AccountId, keep: u32, keyed: &mut usize) -> bool {
		if *keyed <= keep.max(1) as usize {
			return false;
		}
		PlannedValidators::<T>::mutate(|planned| match planned.iter().position(|v| v == validator) {
			Some(pos) => {
				planned.remove(pos);
				if T::HasSessionKeys::contains(validator) {
					*keyed = keyed.saturating_sub(1);
				}
				true
			},
			None => false,
		})
	}
}

impl<T: Config> pallet_session::SessionManager<T::AccountId> for Pallet<T> {
	fn new_session(_new_index: SessionIndex) -> Option<Vec<T::AccountId>> {
		Self::plan_session()
	}

	fn end_session(_end_index: SessionIndex) {}

	fn start_session(_start_index: SessionIndex) {}
}

/// The same set for pallet-session's historical sessions, which prove who held a key in a past
/// session for equivocation reports: a validator is identified by its account alone.
impl<T: Config> pallet_session::historical::SessionManager<T::AccountId, ()> for Pallet<T> {
	fn new_session(_new_index: SessionIndex) -> Option<Vec<(T::AccountId, ())>> {
		Self::plan_session().map(|set| set.into_iter().map(|v| (v, ())).collect())
	}

	fn end_session(_end_index: SessionIndex) {}

	fn start_session(_start_index: SessionIndex) {}
}

impl<T: Config> BoundToRuntimeAppPublic for Pallet<T> {
	type Public = T::Key;
}

impl<T: Config> OneSessionHandler<T::AccountId> for Pallet<T> {
	type Key = T::Key;

	fn on_genesis_session<'a, I>(validators: I)
	where
		I: 'a + Iterator<Item = (&'a T::AccountId, Self::Key)>,
	{
		Self::seat_genesis(validators.map(|(v, k)| (v.clone(), k)).collect());
	}

	fn on_new_session<'a, I>(_changed: bool, validators: I, _queued: I)
	where
		I: 'a + Iterator<Item = (&'a T::AccountId, Self::Key)>,
	{
		Self::seat(validators.map(|(v, k)| (v.clone(), k)).collect());
		Self::start_leaving();
	}

	fn on_disabled(_validator_index: u32) {}
}
