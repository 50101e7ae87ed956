//! Who makes room in a full registry, and for whom.
//!
//! The registry has `MaxMiners` slots: [`Pallet::trial_slots`] of them (a 64th, at least one) for
//! newcomers on trial, the rest regular. While a regular slot is free a registration takes it.
//! Once they are all taken, a registration is admitted on trial: the newcomer takes part in
//! rounds like any miner, and once it has passed a verification it may `claim_slot` (the agent
//! does after every settled round). That takes a free regular slot, or evicts the regular miner
//! with the fewest *proven* GPU points below the newcomer's, past its immunity (its first
//! [`IMMUNITY_ROUNDS`] rounds) and with no unsettled round: a suspended one first (it could not
//! top up a slash), then the fewest points, the longest-registered among equals. Points are
//! those of verified GPUs (declared memory and disk are not proven). A zero proves nothing when a
//! GPU of the miner lost its credit to a round its committee left undecided (`Inconclusive`,
//! `CreditExpired`), which colluding validators can impose: such a miner is not evicted for it. A
//! zero from its own failure, from claims it just changed or from GPUs never verified counts. An
//! evicted miner's deposit and unvested pay are released (it made room, it did not fail). A
//! newcomer still on trial when the round after its last trial round is settled is removed, its
//! deposit and pay released and its fee kept. Holding every regular slot therefore means
//! out-scoring the proven hardware of every newcomer, and a newcomer takes a slot from nobody
//! before it has proven more.

use frame_support::pallet_prelude::*;
use sp_runtime::traits::Zero;

use crate::miners::NEVER;
use crate::pallet::*;
use crate::rounds::{RoundIndex, RoundPhase};
use crate::scoring::{GpuStanding, RoundOutcome, UnverifiedReason, ZeroReason};
use pog_traits::RoundPay;

/// A miner's first rounds: a regular miner is not evicted before the last of them is settled
/// (time for its first verification), and a newcomer on trial must claim a slot before then.
pub const IMMUNITY_ROUNDS: RoundIndex = 4;

/// Most trials a settlement block ends (each a miner's removal): one whose trial is over beyond
/// them ends at its next settlement. Newcomers registered together and ground into one batch
/// cannot make a block heavier than its declared weight.
pub const TRIAL_ENDS_PER_BLOCK: u32 = 8;

/// A miner a full registry evicts, with its record.
pub(crate) type Evictee<T> = (<T as frame_system::Config>::AccountId, MinerOf<T>);

impl<T: Config> Pallet<T> {
	/// Slots kept for newcomers on trial: a 64th of the registry, at least one.
	pub fn trial_slots() -> u32 {
		(T::MaxMiners::get() / 64).max(1)
	}

	/// Whether a registration now is admitted on trial: every regular slot is taken.
	pub(crate) fn regular_slots_taken() -> bool {
		let regular = MinerCount::<T>::get().saturating_sub(Trial::<T>::count());
		regular >= T::MaxMiners::get().saturating_sub(Self::trial_slots())
	}

	/// The GPU points a newcomer must exceed to evict `who` in round `now` (0 for a suspended
	/// miner), or `None` when its zero proves nothing. A GPU counts its points while credited; a
	/// GPU that once passed keeps them while validators left it undecided (`Inconclusive`,
	/// `CreditExpired`: colluding validators can impose that) and for [`IMMUNITY_ROUNDS`] rounds
	/// after a failure (one missed commit does not open an honest card's slot to any newcomer).
	/// A miner with no points whose GPUs validators left undecided before any pass is out of
	/// reach. Points of verified GPUs only: declared memory and disk are not proven.
	fn proven_points(who: &T::AccountId, info: &MinerOf<T>, now: RoundIndex) -> Option<u64> {
		if info.first_round == NEVER {
			return Some(0);
		}
		let undecided = RoundOutcome::Unverified(UnverifiedReason::Inconclusive);
		let imposed = |g: &GpuStanding| {
			g.zero_reason == Some(ZeroReason::CreditExpired) || g.last.is_some_and(|(_, outcome)| outcome == undecided)
		};
		let recent = |g: &GpuStanding| g.last.is_some_and(|(r, _)| r.saturating_add(IMMUNITY_ROUNDS) >= now);
		let standing = Standing::<T>::get(who);
		let points: u64 = standing
			.iter()
			.map(|g| match g.credited() {
				true => u64::from(g.points),
				false if g.verified_round.is_some() && (imposed(g) || recent(g)) => Profiles::<T>::get(g.profile)
					.map_or(0, |p| u64::from(p.figures.for_cores(info.hardware.cpu_cores).points())),
				false => 0,
			})
			.sum();
		(points > 0 || !standing.iter().any(imposed)).then_some(points)
	}

	/// The regular miner a newcomer proven at `points` evicts, and how many miners were read to
	/// find it; `None` when no regular miner past its immunity and with no unsettled round has
	/// fewer proven points.
	pub(crate) fn eviction_candidate(points: u64) -> (Option<Evictee<T>>, u32) {
		let round = Self::round();
		let open = round.phase != RoundPhase::Idle;
		let mut read = 0u32;
		let candidate = Miners::<T>::iter()
			.inspect(|_| read = read.saturating_add(1))
			// Not leaving, and not in the open round (it is settled first).
			.filter(|(_, info)| !(info.leaving || open && info.takes_part_in(round.index)))
			.filter(|(_, info)| {
				// Its first IMMUNITY_ROUNDS rounds have started (and, by the filter above, the
				// last of them is settled).
				info.first_round == NEVER
					|| round.index.saturating_add(1) >= info.first_round.saturating_add(IMMUNITY_ROUNDS)
			})
			.filter(|(who, _)| !Trial::<T>::contains_key(who))
			.filter_map(|(who, info)| {
				let proven = Self::proven_points(&who, &info, round.index).filter(|proven| *proven < points)?;
				let suspended = info.first_round == NEVER;
				Some(((!suspended, proven, info.registered_at), who, info))
			})
			.min_by(|a, b| a.0.cmp(&b.0))
			.map(|(_, who, info)| (who, info));
		(candidate, read)
	}

	/// A newcomer on trial takes a regular slot: a free one, or that of the regular miner with
	/// the fewest proven points below its own ([`Self::eviction_candidate`]). Returns how many
	/// miners were read.
	pub(crate) fn do_claim_slot(who: T::AccountId) -> Result<u32, (DispatchError, u32)> {
		let refuse = |e: Error<T>| (DispatchError::from(e), 0);
		ensure!(Trial::<T>::contains_key(&who), refuse(Error::<T>::NotOnTrial));
		let info = Miners::<T>::get(&who).ok_or(refuse(Error::<T>::NotRegistered))?;
		ensure!(!info.leaving, refuse(Error::<T>::AlreadyLeaving));
		let own = Scores::<T>::get(&who).map_or(0, |s| s.gpu_points);
		ensure!(own > 0, refuse(Error::<T>::NotYetPassed));
		let (evictee, read) = if Self::regular_slots_taken() {
			let (candidate, read) = Self::eviction_candidate(own);
			(Some(candidate.ok_or((Error::<T>::NoLowerScore.into(), read))?), read)
		} else {
			(None, 0)
		};
		// Off trial first: the eviction below then frees no regular slot for another.
		Trial::<T>::remove(&who);
		if let Some((out, info)) = evictee {
			Self::deposit_event(Event::MinerEvicted { miner: out.clone(), by: who.clone() });
			// Evicted for fewer proven points, not departed: what it earned is its own (the
			// review's F8); a suspended miner (it could not top up a slash) forfeits it as a
			// departing one does, or emptying one's balance and being evicted would cash vesting
			// out at will. One suspended by a profile's repricing, never slashed, keeps it.
			if info.first_round != NEVER || info.slashed.is_zero() {
				T::RoundPay::release(&out);
			}
			Self::remove_miner(out, info);
		}
		Self::deposit_event(Event::MinerAdmitted { miner: who });
		Ok(read)
	}

	/// Ends `who`'s trial when `round`, a round after its last, is settled (so that a pass in
	/// its last round can still claim a slot once that round is settled), if `budget` allows:
	/// removed, its deposit and pay released. Returns whether it was removed.
	pub(crate) fn end_trial(round: RoundIndex, who: &T::AccountId, info: &MinerOf<T>, budget: &mut u32) -> bool {
		if *budget == 0 || Trial::<T>::get(who).is_none_or(|last| round <= last) {
			return false;
		}
		*budget -= 1;
		Self::deposit_event(Event::MinerTrialEnded { miner: who.clone() });
		if info.first_round != NEVER || info.slashed.is_zero() {
			T::RoundPay::release(who);
		}
		Self::remove_miner(who.clone(), info.clone());
		true
	}

	/// The weight of a registration with the most GPUs, and whether it is on trial.
	pub fn register_weight() -> Weight {
		use crate::weights::WeightInfo;
		T::WeightInfo::register_miner(T::MaxGpusPerMiner::get()).saturating_add(T::DbWeight::get().reads_writes(2, 2))
	}

	/// The weight of a `claim_slot` that read `scanned` miners (each with its score and
	/// standing, and the profiles of GPUs without a credit) to find one to evict, and removed it;
	/// declared for a full scan, refunded down to what was read, refused calls included.
	pub fn claim_slot_weight(scanned: u32) -> Weight {
		use crate::weights::WeightInfo;
		T::WeightInfo::deregister_miner(T::MaxGpusPerMiner::get())
			.saturating_add(T::DbWeight::get().reads(3 * u64::from(scanned)))
			.saturating_add(T::DbWeight::get().reads(u64::from(T::MaxProfiles::get())))
			.saturating_add(T::DbWeight::get().reads_writes(7, 6))
	}
}
