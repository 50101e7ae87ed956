//! The validator set: who sits on PoG committees, who authors and finalises blocks, what each
//! validator has bonded and what it answers for.
//!
//! - **One set for everything.** Root plans the set ([`PlannedValidators`]: `add_validator`,
//!   `remove_validator`). pallet-session asks this pallet for the next set at every session
//!   boundary ([`SessionManager::new_session`]) and, one session later, activates it for BABE,
//!   GRANDPA and PoG at once: this pallet is a session key (`pog!`), and
//!   [`OneSessionHandler::on_new_session`] seats the active validators ([`Seated`]) with their
//!   `pog!` keys, whose accounts sit on committees and sign verdicts ([`Validators`]). A
//!   validator added now authors, finalises and verifies from the second session boundary on
//!   (sessions are BABE epochs), once it has set its session keys (`session.setKeys`).
//! - **A bond.** Adding a validator holds [`Config::ValidatorBond`] from its account
//!   ([`HoldReason::ValidatorBond`]); the bond is released once the validator has left the
//!   active set, the last round it could sit on a committee of is settled and the audits of its
//!   votes are closed ([`crate::evidence`]).
//! - **Answering for votes.** When a round is settled, each validator's committee work in it
//!   ([`RoundWork`]) is judged by [`ValidatorRules`]: contradicting more than the tolerated
//!   share of decided outcomes, or staying silent on more than the tolerated share of its
//!   assignments, or leaving an audit of its evidence unanswered ([`crate::evidence`]), is a
//!   strike that burns part of the bond; at `max_strikes` the validator loses
//!   its seat (removed from the plan; it leaves at the next session change), at most
//!   [`max_expulsions`] a round and never below [`BFT_MINIMUM`]. A clean round with assignments
//!   forgives one strike. Only attributable faults count as contradictions
//!   ([`Pallet::judge_vote`]).

use alloc::vec::Vec;
use frame_support::{
	ensure,
	pallet_prelude::*,
	traits::{
		fungible::MutateHold,
		tokens::{Fortitude, Precision},
		Contains, OneSessionHandler,
	},
	BoundedVec,
};
use frame_system::offchain::AppCrypto;
use sp_runtime::{
	traits::{Convert, IdentifyAccount, Saturating, Zero},
	BoundToRuntimeAppPublic, Perbill,
};
use sp_staking::offence::{OffenceDetails, OnOffenceHandler};

use crate::pallet::*;
use crate::rounds::{RoundIndex, RoundPhase};
use crate::verification::ValidatorRecord;
use pog_traits::RoundPay;

/// A session's index (pallet-session's).
pub type SessionIndex = u32;

/// With committees drawn from a larger set, the share of a round's assignments a validator may
/// contradict without a strike. A coalition of m of the V validators outvotes an honest member
/// wherever it holds the other four seats of its committee of five, C(m,4)/C(V−1,4) of its
/// assignments: 1.0% at a third of 64 (m = 21), 0.08% at a fifth; a validator that passes
/// everything without checking is struck wherever the cheaters it passed that a quorum failed
/// exceed this share (`docs/protocol.md` §18).
pub const SAMPLED_CONTRADICTION_TOLERANCE: Perbill = Perbill::from_percent(5);

/// With committees drawn from a larger set, contradictions in a round that are never a strike
/// whatever the share (a validator with few assignments).
pub const SAMPLED_CONTRADICTIONS_FORGIVEN: u32 = 2;

/// The smallest set strikes leave seated: 3f + 1 validators with f = 1, the smallest that
/// tolerates a faulty one. Strikes still burn bond below it; only root (or a proven equivocation)
/// makes the set smaller.
pub const BFT_MINIMUM: u32 = 4;

/// Most validators struck out of a planned set of `planned` in one round's judgment: a tenth of
/// the set, at least one. Whatever a miner or a coalition makes honest validators look like, a
/// round can cost the set at most this many seats (root re-adds them), and strikes never take it
/// below [`BFT_MINIMUM`].
pub fn max_expulsions(planned: u32) -> u32 {
	(planned / 10).max(1)
}

/// How validators answer for their committee work, judged per settled round.
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	serde::Serialize,
	serde::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct ValidatorRules {
	/// A round in which a validator contradicted more than this share of the decided outcomes
	/// it was assigned is a strike (mainnet: none tolerated; verdicts are exact).
	pub contradiction_tolerance: Perbill,
	/// A round in which a validator said nothing on more than this share of its assignments is
	/// a strike.
	pub silence_tolerance: Perbill,
	/// Share of the bond burned for a contradiction strike.
	pub contradiction_slash: Perbill,
	/// Share of the bond burned for a silence strike.
	pub silence_slash: Perbill,
	/// Strikes at which a validator loses its seat (a clean round forgives one).
	pub max_strikes: u32,
}

/// Which rule of [`ValidatorRules::validate`] a set of rules breaks.
#[derive(
	Clone,
	Copy,
	Encode,
	Decode,
	DecodeWithMemTracking,
	PartialEq,
	Eq,
	Debug,
	TypeInfo,
	MaxEncodedLen,
	frame_support::PalletError,
)]
pub enum ValidatorRule {
	/// `max_strikes` is zero: every validator would lose its seat at once.
	ZeroMaxStrikes,
	/// `silence_tolerance` is 100%: silence could never be a strike.
	SilenceAlwaysTolerated,
	/// `contradiction_tolerance` is 100%: contradicting could never be a strike.
	ContradictionAlwaysTolerated,
}

impl ValidatorRules {
	/// Mainnet: any contradiction of a decided outcome is a strike burning 10% of the bond;
	/// silence on more than a third of a round's assignments is a strike burning 1%; the third
	/// strike without a clean round between costs the seat.
	pub const fn mainnet() -> Self {
		Self {
			contradiction_tolerance: Perbill::zero(),
			silence_tolerance: Perbill::from_percent(33),
			contradiction_slash: Perbill::from_percent(10),
			silence_slash: Perbill::from_percent(1),
			max_strikes: 3,
		}
	}

	/// Checks the rules, naming the first one broken.
	pub fn validate(&self) -> Result<(), ValidatorRule> {
		ensure!(self.max_strikes > 0, ValidatorRule::ZeroMaxStrikes);
		ensure!(self.silence_tolerance < Perbill::one(), ValidatorRule::SilenceAlwaysTolerated);
		ensure!(self.contradiction_tolerance < Perbill::one(), ValidatorRule::ContradictionAlwaysTolerated);
		Ok(())
	}

	/// The share of the bond a round's `work` costs, if that round is a strike: a contradiction
	/// strike outweighs a silence strike. With committees drawn from the set (`sampled`, more
	/// than [`crate::verification::WHOLE_SET_UP_TO`] validators) contradictions are struck only
	/// beyond [`SAMPLED_CONTRADICTION_TOLERANCE`] of the assignments and
	/// [`SAMPLED_CONTRADICTIONS_FORGIVEN`]: a coalition below a third of the set still holds four
	/// of five seats on some committees, where its quorum outvotes an honest member. An audit of
	/// its evidence left unopened (`unproven`, [`crate::evidence`]) is a contradiction strike
	/// whatever the work.
	pub fn strike(&self, work: &ValidatorRecord, sampled: bool, unproven: bool) -> Option<Perbill> {
		let by_work = self.strike_for_work(work, sampled);
		if unproven {
			Some(by_work.unwrap_or_default().max(self.contradiction_slash))
		} else {
			by_work
		}
	}

	/// [`Self::strike`] for the work alone.
	fn strike_for_work(&self, work: &ValidatorRecord, sampled: bool) -> Option<Perbill> {
		if work.assigned == 0 {
			return None;
		}
		let share = |n: u32| Perbill::from_rational(n, work.assigned);
		let (tolerance, forgiven) = if sampled {
			(self.contradiction_tolerance.max(SAMPLED_CONTRADICTION_TOLERANCE), SAMPLED_CONTRADICTIONS_FORGIVEN)
		} else {
			(self.contradiction_tolerance, 0)
		};
		if work.contradicted > forgiven && share(work.contradicted) > tolerance {
			Some(self.contradiction_slash)
		} else if work.silent > 0 && share(work.silent) > self.silence_tolerance {
			Some(self.silence_slash)
		} else {
			None
		}
	}
}

impl Default for ValidatorRules {
	fn default() -> Self {
		Self::mainnet()
	}
}

/// A validator's bond and standing.
#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct ValidatorBond<Balance> {
	/// What is held (less what was burned).
	pub held: Balance,
	/// Strikes against it (see [`ValidatorRules`]).
	pub strikes: u32,
	/// Once it has left the active set: the round after whose settlement the bond is released.
	pub leaving: Option<RoundIndex>,
}

/// A validator's bond record in this runtime's balance.
pub type ValidatorBondOf<T> = ValidatorBond<BalanceOf<T>>;

impl ValidatorRecord {
	/// Adds `other`'s counts to these.
	pub fn add(&mut self, other: &ValidatorRecord) {
		self.assigned = self.assigned.saturating_add(other.assigned);
		self.agreed = self.agreed.saturating_add(other.agreed);
		self.contradicted = self.contradicted.saturating_add(other.contradicted);
		self.silent = self.silent.saturating_add(other.silent);
	}
}

/// A validator's `pog!` public key (its session key for PoG).
pub type PogKey = crate::crypto::Public;

impl<T: Config> Pallet<T> {
	/// The account a `pog!` key signs as.
	pub fn account_of_key(key: PogKey) -> T::AccountId {
		type Generic<T> = <<T as Config>::AuthorityId as AppCrypto<
			<T as frame_system::offchain::SigningTypes>::Public,
			<T as frame_system::offchain::SigningTypes>::Signature,
		>>::GenericPublic;
		let generic: Generic<T> = key.into();
		let public: T::Public = generic.into();
		public.into_account()
	}

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

	/// Holds the bond of a new validator.
	fn bond(validator: &T::AccountId) -> DispatchResult {
		let amount = T::ValidatorBond::get();
		T::Currency::hold(&HoldReason::ValidatorBond.into(), validator, amount).map_err(|_| Error::<T>::CannotBond)?;
		ValidatorBonds::<T>::insert(validator, ValidatorBond { held: amount, strikes: 0, leaving: None });
		Self::deposit_event(Event::ValidatorBonded { validator: validator.clone(), amount });
		Ok(())
	}

	/// Seats the active set: `(validator, pog! key)` in session order.
	fn seat(active: Vec<(T::AccountId, PogKey)>) {
		let seated: Vec<(T::AccountId, T::AccountId)> =
			active.into_iter().map(|(validator, key)| (validator, Self::account_of_key(key))).collect();
		let seated = BoundedVec::<_, T::MaxValidators>::truncate_from(seated);
		Validators::<T>::put(BoundedVec::truncate_from(seated.iter().map(|(_, s)| s.clone()).collect::<Vec<_>>()));
		Seated::<T>::put(seated);
	}

	/// The validators' set at genesis, with their `pog!` keys: seated, planned and bonded.
	pub(crate) fn seat_genesis(active: Vec<(T::AccountId, PogKey)>) {
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
	/// they owe no evidence, [`crate::evidence`]; else after the next judgment).
	fn start_leaving() {
		let seated = Seated::<T>::get();
		let (queued, planned) = (QueuedValidators::<T>::get(), PlannedValidators::<T>::get());
		let round = Self::round();
		let leavers: Vec<(T::AccountId, ValidatorBondOf<T>)> = ValidatorBonds::<T>::iter()
			.filter(|(v, bond)| {
				bond.leaving.is_none()
					&& !seated.iter().any(|(s, _)| s == v)
					&& !queued.contains(v)
					&& !planned.contains(v)
			})
			.collect();
		let owing = Self::owing_evidence();
		for (validator, mut bond) in leavers {
			if round.phase == RoundPhase::Idle && !owing.contains(&validator) {
				Self::release_bond(&validator);
			} else {
				bond.leaving = Some(round.index);
				ValidatorBonds::<T>::insert(&validator, bond);
			}
		}
	}

	/// Burns `share` of what `validator` holds as its bond (`bond`, updated); returns the amount.
	fn burn_bond(validator: &T::AccountId, bond: &mut ValidatorBondOf<T>, share: Perbill) -> BalanceOf<T> {
		let burned = T::Currency::burn_held(
			&HoldReason::ValidatorBond.into(),
			validator,
			share * bond.held,
			Precision::BestEffort,
			Fortitude::Force,
		)
		.unwrap_or_default();
		T::RoundPay::burned(burned);
		bond.held = bond.held.saturating_sub(burned);
		burned
	}

	/// Releases what `validator` still holds as a bond.
	fn release_bond(validator: &T::AccountId) {
		let Some(bond) = ValidatorBonds::<T>::take(validator) else { return };
		let released =
			T::Currency::release(&HoldReason::ValidatorBond.into(), validator, bond.held, Precision::BestEffort)
				.unwrap_or_default();
		Self::deposit_event(Event::ValidatorBondReleased { validator: validator.clone(), amount: released });
	}

	/// Counts `work` of committee member `member` (a `pog!` account) in the round being settled.
	pub(crate) fn count_work(member: &T::AccountId, work: &ValidatorRecord) {
		ValidatorStats::<T>::mutate(member, |r| r.add(work));
		RoundWork::<T>::mutate(member, |r| r.add(work));
	}

	/// Round `round` is settled: judges each validator's work in it, and releases the bonds of
	/// validators that left before it was.
	/// `unproven`: the validators whose members left an audit of the last round unanswered
	/// ([`crate::evidence`]), a strike whatever their work in this one, seated or not.
	pub(crate) fn judge_validators(round: RoundIndex, unproven: &[T::AccountId]) {
		let rules = Accountability::<T>::get();
		// the seats the round's committees were drawn from (a validator that left since answers
		// for the work it was assigned while its bond is held, until this judgment)
		let seated = Self::drawn_seats();
		let work: Vec<(T::AccountId, ValidatorRecord)> = RoundWork::<T>::drain().collect();
		Self::measure_throughput(round, &work.iter().map(|(_, record)| *record).collect::<Vec<_>>());
		// Work is judged against the validator whose `pog!` account did it, while it is bonded (a
		// validator that rotated its key since the draw answers for the votes of the key it was
		// drawn with).
		let mut judged: Vec<(T::AccountId, ValidatorRecord)> = work
			.into_iter()
			.filter_map(|(signer, record)| seated.iter().find(|(_, s)| *s == signer).map(|(v, _)| (v.clone(), record)))
			.collect();
		for validator in unproven {
			if !judged.iter().any(|(v, _)| v == validator) {
				judged.push((validator.clone(), ValidatorRecord::default()));
			}
		}
		let keyed = PlannedValidators::<T>::get().iter().filter(|v| T::HasSessionKeys::contains(v)).count();
		let mut may_expel = max_expulsions(keyed as u32);
		// the committees the round drew, not the set seated at settlement
		let sampled = seated.len() as u32 > crate::verification::WHOLE_SET_UP_TO;
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
					if bond.strikes >= rules.max_strikes && may_expel > 0 && Self::expel(&validator, BFT_MINIMUM) {
						may_expel -= 1;
						Self::deposit_event(Event::ValidatorExpelled { validator: validator.clone(), round });
					}
				},
				None => bond.strikes = bond.strikes.saturating_sub(1),
			}
			ValidatorBonds::<T>::insert(&validator, bond);
		}
		let owing = Self::owing_evidence();
		let released: Vec<T::AccountId> = ValidatorBonds::<T>::iter()
			.filter(|(v, bond)| bond.leaving.is_some_and(|r| r <= round) && !owing.contains(v))
			.map(|(v, _)| v)
			.collect();
		for validator in released {
			Self::release_bond(&validator);
		}
	}

	/// Takes `validator` out of the plan, unless that would leave fewer than `keep`; whether it
	/// was taken out.
	fn expel(validator: &T::AccountId, keep: u32) -> bool {
		PlannedValidators::<T>::mutate(|planned| match planned.iter().position(|v| v == validator) {
			// Counting only validators with session keys: the others do not sit.
			Some(pos) if planned.iter().filter(|v| T::HasSessionKeys::contains(v)).count() > keep.max(1) as usize => {
				planned.remove(pos);
				true
			},
			_ => false,
		})
	}

	/// What `validator` holds as its bond.
	pub fn bond_of(validator: &T::AccountId) -> BalanceOf<T> {
		ValidatorBonds::<T>::get(validator).map(|b| b.held).unwrap_or_else(Zero::zero)
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

/// A validator's identification in historical sessions: nothing beyond its account, while it is
/// bonded.
pub struct BondedValidator<T>(core::marker::PhantomData<T>);

impl<T: Config> Convert<T::AccountId, Option<()>> for BondedValidator<T> {
	fn convert(validator: T::AccountId) -> Option<()> {
		ValidatorBonds::<T>::contains_key(&validator).then_some(())
	}
}

/// Offences reported through the standard path (pallet-offences: BABE and GRANDPA equivocations,
/// proven with historical sessions): each offender's bond burns by the offence's slash fraction,
/// and it is planned out of the set (it leaves at the next session change).
impl<T: Config> OnOffenceHandler<T::AccountId, (T::AccountId, ()), Weight> for Pallet<T> {
	fn on_offence(
		offenders: &[OffenceDetails<T::AccountId, (T::AccountId, ())>],
		slash_fraction: &[Perbill],
		session: SessionIndex,
	) -> Weight {
		for (details, fraction) in offenders.iter().zip(slash_fraction) {
			let (validator, ()) = &details.offender;
			let Some(mut bond) = ValidatorBonds::<T>::get(validator) else { continue };
			let burned = Self::burn_bond(validator, &mut bond, *fraction);
			ValidatorBonds::<T>::insert(validator, bond);
			// an equivocation is proven on chain: its validator goes, down to the last one
			let expelled = Self::expel(validator, 1);
			Self::deposit_event(Event::ValidatorOffended {
				validator: validator.clone(),
				session,
				fraction: *fraction,
				burned,
				expelled,
			});
		}
		let n = offenders.len() as u64;
		T::DbWeight::get().reads_writes(3 * n + 1, 3 * n + 1)
	}
}

impl<T: Config> BoundToRuntimeAppPublic for Pallet<T> {
	type Public = PogKey;
}

impl<T: Config> OneSessionHandler<T::AccountId> for Pallet<T> {
	type Key = PogKey;

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
