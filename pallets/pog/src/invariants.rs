//! The pallet's invariants (`try_state`), checked after every block in try-runtime and after
//! every step of the randomised tests.

use frame_support::{ensure, traits::fungible::InspectHold};
use sp_runtime::{traits::Zero, Perbill, TryRuntimeError};

use crate::pallet::*;
use crate::rounds::RoundPhase;
use pog_primitives::challenge::{GpuUuid, ProfileId};
use pog_traits::Committee;

impl<T: Config> Pallet<T> {
	/// Deposits held match the records and are never above the larger of the current and
	/// pending claims' rule; profile and UUID counters match the claims; each miner's standing
	/// lists exactly its claimed GPUs; commitments have one slot per GPU; openings are kept only
	/// for the current round's revealed challenges; the round's counters are consistent; and the
	/// weight shares sum to 100%; each miner's vesting hold is its unvested earnings, and
	/// only registered miners have earnings; the committee pool is bonded; miners on trial are
	/// registered and counted; nothing was
	/// minted outside PoG ([`crate::ledger`]).
	pub fn do_try_state() -> Result<(), TryRuntimeError> {
		let reason: T::RuntimeHoldReason = HoldReason::MinerDeposit.into();
		let round = Self::round();
		let mut miners = 0u32;
		let mut per_profile: alloc::collections::BTreeMap<ProfileId, u32> = Default::default();
		let mut per_uuid: alloc::collections::BTreeMap<GpuUuid, u32> = Default::default();
		let mut committed = 0u32;
		for (who, info) in Miners::<T>::iter() {
			miners += 1;
			ensure!(
				T::Currency::balance_on_hold(&reason, &who) == info.deposit,
				TryRuntimeError::Other("deposit held differs from the miner's record")
			);
			ensure!(
				T::Currency::balance_on_hold(&HoldReason::Vesting.into(), &who).is_zero(),
				TryRuntimeError::Other("vesting pay held under pallet-pog's reason: pallet-pog-rewards holds it")
			);
			let pending = info.pending.as_ref().map_or(Zero::zero(), |(claims, hardware)| {
				Self::deposit_for(crate::miners::per_profile(claims), hardware.cpu_cores)
			});
			ensure!(
				info.deposit <= Self::deposit_of(&info).max(pending),
				TryRuntimeError::Other("deposit above the rule")
			);
			for (profile, uuid) in info.gpus() {
				*per_profile.entry(profile).or_default() += 1;
				*per_uuid.entry(uuid).or_default() += 1;
			}
			let standing = Standing::<T>::get(&who);
			ensure!(
				standing.len() as u32 == info.gpu_count()
					&& standing.iter().zip(info.gpus()).all(|(s, (p, u))| s.profile == p && s.uuid == u),
				TryRuntimeError::Other("standing differs from the claims")
			);
			if let Some(slots) = Commitments::<T>::get(round.index, &who) {
				ensure!(
					!info.takes_part_in(round.index) || slots.len() as u32 == info.gpu_count(),
					TryRuntimeError::Other("commitments without one slot per GPU")
				);
				committed += slots.iter().filter(|s| s.is_some()).count() as u32;
			}
		}
		ensure!(miners == MinerCount::<T>::get(), TryRuntimeError::Other("MinerCount is wrong"));
		let on_trial: alloc::vec::Vec<T::AccountId> = Trial::<T>::iter_keys().collect();
		ensure!(on_trial.len() as u32 == Trial::<T>::count(), TryRuntimeError::Other("the trial count is wrong"));
		ensure!(
			on_trial.iter().all(Miners::<T>::contains_key),
			TryRuntimeError::Other("a miner on trial is not registered")
		);
		let entered: usize = FirstDraws::<T>::iter_prefix_values(round.index).map(|gpus| gpus.len()).sum();
		ensure!(
			entered as u32 == FirstDrawOf::<T>::get(round.index).newcomers,
			TryRuntimeError::Other("the first draw counts other GPUs than it holds")
		);
		for (profile, count) in ProfileClaims::<T>::iter() {
			ensure!(
				per_profile.get(&profile).copied().unwrap_or(0) == count,
				TryRuntimeError::Other("ProfileClaims differs from the claims")
			);
		}
		ensure!(
			UuidClaimants::<T>::iter().all(|(u, n)| per_uuid.get(&u).copied() == Some(n))
				&& UuidClaimants::<T>::iter().count() == per_uuid.len(),
			TryRuntimeError::Other("UuidClaimants differs from the claims")
		);
		if round.phase != RoundPhase::Idle {
			ensure!(committed <= round.committed, TryRuntimeError::Other("round counts fewer commits than stored"));
			ensure!(
				ServedGpus::<T>::get(round.index) <= round.committed,
				TryRuntimeError::Other("more GPUs served off chain than committed")
			);
		}
		ensure!(
			ServedIn::<T>::iter_key_prefix(round.index).all(|m| Commitments::<T>::contains_key(round.index, &m)),
			TryRuntimeError::Other("a miner serves the round it committed nothing in")
		);
		ensure!(
			Openings::<T>::iter_keys().all(|(r, m, g)| r == round.index && Verifications::<T>::contains_key((r, m, g))),
			TryRuntimeError::Other("openings kept outside the current round's revealed challenges")
		);
		// no round older than the ones kept or being pruned holds records (the review's F9)
		let oldest = Self::oldest_kept_round();
		ensure!(
			Commitments::<T>::iter_keys().all(|(r, _)| r >= oldest)
				&& Verifications::<T>::iter_keys().all(|(r, ..)| r >= oldest)
				&& SpentDuties::<T>::iter_keys().all(|(r, _)| r >= oldest)
				&& Attestations::<T>::iter_keys().all(|(r, _)| r >= oldest)
				&& EvidenceRoots::<T>::iter_keys().all(|(r, _)| r >= oldest)
				&& UnservedQuota::<T>::iter_keys().all(|r| r >= oldest)
				&& UnservedCast::<T>::iter_keys().all(|(r, _)| r >= oldest)
				&& Contested::<T>::iter_keys().all(|(r, ..)| r >= oldest)
				&& EarlyFailing::<T>::iter_keys().all(|(r, ..)| r >= oldest),
			TryRuntimeError::Other("records kept of a round older than the pruning has reached")
		);
		// audits: of the last settled rounds only, counted, within their bound, each owed
		ensure!(
			AuditCount::<T>::iter().all(|(r, n)| {
				r + 1 >= round.index && n <= Self::max_audits() && Audits::<T>::iter_prefix((r,)).count() as u32 <= n
			}) && Audits::<T>::iter().all(|((r, ..), a)| AuditCount::<T>::contains_key(r) && !a.owing.is_empty()),
			TryRuntimeError::Other("an audit uncounted, over its bound, owed by nobody or left open")
		);
		let shares = WeightShares::<T>::get();
		let sum: u64 = shares.iter().map(|(_, s)| u64::from(s.deconstruct())).sum();
		ensure!(
			shares.is_empty() || sum == u64::from(Perbill::one().deconstruct()),
			TryRuntimeError::Other("weight shares do not sum to 100%")
		);
		Self::validators_try_state()
	}

	/// Committees are drawn from a fixed pool only while a round is drawn, and every validator
	/// of the pool answers with a bond until the round is judged (the validator set checks its
	/// own records: `pallet_pog_validators`' `try_state`).
	fn validators_try_state() -> Result<(), TryRuntimeError> {
		let (pool, round) = (CommitteePool::<T>::get(), Self::round());
		let drawn = matches!(round.phase, RoundPhase::Reveal | RoundPhase::Settle);
		ensure!(drawn || pool.is_empty(), TryRuntimeError::Other("a committee pool with no round drawn"));
		// every member of the drawn committees answers with a bond until the round is judged
		ensure!(
			pool.iter().all(|(v, _)| T::Committee::is_bonded(v)),
			TryRuntimeError::Other("a validator the round drew from has no bond")
		);
		Ok(())
	}
}
