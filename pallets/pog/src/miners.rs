//! Miners: claims, hardware, deposits, registration fee, slashing, unbonding, and settling a
//! miner's round.
//!
//! Registration, update and deregistration never touch a round: they take effect at the next
//! one. While a miner has an unsettled round, an update waits in `pending` and a deregistration
//! sets `leaving`; both are carried out when that round is settled, so the deposit is returned
//! only after every round the miner took part in is final.

use alloc::vec::Vec;
use frame_support::{
	ensure,
	pallet_prelude::*,
	traits::{
		fungible::{Inspect, Mutate, MutateHold},
		tokens::{Fortitude, Precision as TokenPrecision, Preservation},
	},
};
use sp_runtime::traits::{Saturating, Zero};

use crate::pallet::*;
use crate::rounds::{RoundIndex, RoundPhase};
use crate::scoring::RoundOutcome;
use crate::types::MaxCpuModelLen;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use core::fmt::Debug;
use frame_support::{traits::Get, BoundedVec, CloneNoBound, DebugNoBound, EqNoBound, PartialEqNoBound};
use pog_primitives::challenge::{GpuIndex, GpuUuid, ProfileId};
use pog_traits::RoundPay;
use scale_info::TypeInfo;

/// GPUs of one model claimed by a miner.
#[derive(
	CloneNoBound,
	PartialEqNoBound,
	EqNoBound,
	DebugNoBound,
	Encode,
	Decode,
	DecodeWithMemTracking,
	TypeInfo,
	MaxEncodedLen,
)]
#[scale_info(skip_type_params(MaxGpus))]
pub struct GpuClaim<MaxGpus: Get<u32>> {
	/// The claimed model.
	pub profile: ProfileId,
	/// How many GPUs of this model (must equal the number of UUIDs).
	pub count: u32,
	/// Each GPU's NVML UUID.
	pub uuids: BoundedVec<GpuUuid, MaxGpus>,
}

/// The rest of a miner's machine (self-reported; scored only while a GPU is verified).
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default)]
pub struct Hardware {
	/// Logical CPU cores.
	pub cpu_cores: u32,
	/// CPU model string.
	pub cpu_model: BoundedVec<u8, MaxCpuModelLen>,
	/// Memory in MiB.
	pub ram_mib: u64,
	/// Disk space in GiB.
	pub disk_gib: u64,
}

/// Most logical CPU cores a miner may declare: 4,096, three times the largest single machines
/// of 2026 (an 8-socket Xeon 6 with 1,376 threads; a 2-socket EPYC 9965 has 768).
pub const MAX_CPU_CORES: u32 = 4096;
/// Most memory a miner may declare: 64 TiB in MiB (the largest single-image servers hold 32 TB).
pub const MAX_RAM_MIB: u64 = 64 << 20;
/// Most disk a miner may declare: 16 PiB in GiB (a host with several full JBODs of 30 TB drives
/// holds a few PiB).
pub const MAX_DISK_GIB: u64 = 16 << 20;

/// What is implausible about declared hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardwareFault {
	/// More than [`MAX_CPU_CORES`].
	CpuCores,
	/// More than [`MAX_RAM_MIB`].
	Ram,
	/// More than [`MAX_DISK_GIB`].
	Disk,
}

impl Hardware {
	/// Whether the declared figures are within what a real machine has.
	pub fn check(&self) -> Result<(), HardwareFault> {
		if self.cpu_cores > MAX_CPU_CORES {
			return Err(HardwareFault::CpuCores);
		}
		if self.ram_mib > MAX_RAM_MIB {
			return Err(HardwareFault::Ram);
		}
		if self.disk_gib > MAX_DISK_GIB {
			return Err(HardwareFault::Disk);
		}
		Ok(())
	}
}

/// A registered miner.
#[derive(CloneNoBound, PartialEqNoBound, EqNoBound, DebugNoBound, Encode, Decode, TypeInfo, MaxEncodedLen)]
#[scale_info(skip_type_params(MaxClaims, MaxGpus))]
pub struct MinerInfo<
	Balance: Clone + PartialEq + Eq + Debug,
	BlockNumber: Clone + PartialEq + Eq + Debug,
	MaxClaims: Get<u32>,
	MaxGpus: Get<u32>,
> {
	/// Claimed GPUs, per model: what the current (or next) round challenges.
	pub claims: BoundedVec<GpuClaim<MaxGpus>, MaxClaims>,
	/// Claimed CPU, memory and disk.
	pub hardware: Hardware,
	/// Deposit held from the miner's balance (less what was slashed and not yet topped up).
	pub deposit: Balance,
	/// Everything slashed from this miner so far.
	pub slashed: Balance,
	/// Block of registration.
	pub registered_at: BlockNumber,
	/// The first round this miner takes part in ([`NEVER`] while suspended for a short deposit).
	pub first_round: RoundIndex,
	/// The last round whose outcome was settled for this miner (0 = none).
	pub settled_round: RoundIndex,
	/// Claims and hardware that replace the current ones once this round is settled for the miner.
	pub pending: Option<(BoundedVec<GpuClaim<MaxGpus>, MaxClaims>, Hardware)>,
	/// The miner asked to leave: its deposit is released once its current round is settled.
	pub leaving: bool,
}

/// The `first_round` of a miner that takes part in no round (suspended).
pub const NEVER: RoundIndex = RoundIndex::MAX;

impl<B: Clone + PartialEq + Eq + Debug, N: Clone + PartialEq + Eq + Debug, C: Get<u32>, G: Get<u32>>
	MinerInfo<B, N, C, G>
{
	/// All claimed GPUs as (profile, uuid), in claim order: the GPU index is the position.
	pub fn gpus(&self) -> impl Iterator<Item = (ProfileId, GpuUuid)> + '_ {
		gpus_of(&self.claims)
	}

	/// Number of claimed GPUs.
	pub fn gpu_count(&self) -> u32 {
		gpu_count_of(&self.claims)
	}

	/// The claimed GPU at `index`.
	pub fn gpu(&self, index: GpuIndex) -> Option<(ProfileId, GpuUuid)> {
		self.gpus().nth(index as usize)
	}

	/// Whether the miner is challenged in round `round`.
	pub fn takes_part_in(&self, round: RoundIndex) -> bool {
		self.first_round <= round && self.settled_round < round
	}

	/// Registered for a round after `round` and never settled: nothing of `round` is its to
	/// settle (no earnings vest, no trial is over), so settlement passes it over. A suspended
	/// miner ([`NEVER`]) is not one: its earnings vest and its trial ends all the same.
	pub fn arrives_after(&self, round: RoundIndex) -> bool {
		self.first_round != NEVER && self.first_round > round && self.settled_round == 0
	}
}

/// All GPUs of `claims` as (profile, uuid), in claim order.
pub fn gpus_of<G: Get<u32>>(claims: &[GpuClaim<G>]) -> impl Iterator<Item = (ProfileId, GpuUuid)> + '_ {
	claims.iter().flat_map(|c| c.uuids.iter().map(move |u| (c.profile, *u)))
}

/// `claims` as (profile, GPUs), in claim order.
pub fn per_profile<G: Get<u32>>(claims: &[GpuClaim<G>]) -> impl Iterator<Item = (ProfileId, u32)> + '_ {
	claims.iter().map(|c| (c.profile, c.uuids.len() as u32))
}

/// Number of GPUs in `claims`.
pub fn gpu_count_of<G: Get<u32>>(claims: &[GpuClaim<G>]) -> u32 {
	claims.iter().map(|c| c.uuids.len() as u32).sum()
}

impl<T: Config> Pallet<T> {
	/// Check claims; returns the number of GPUs.
	///
	/// Counts first, from the call alone, so that the storage reads after it are bounded by
	/// `MaxGpusPerMiner`, as the call's weight assumes (not by `MaxClaims × MaxGpusPerMiner`).
	/// UUIDs must be distinct within the miner; across miners a UUID is self-reported and proves
	/// nothing, so it is not refused (see `docs/protocol.md`). A CPU is claimed as one unit of one
	/// per-core profile, backed by declared cores (its challenge is sized at them).
	fn validate_claims(claims: &ClaimsOf<T>, hardware: &Hardware) -> Result<u32, DispatchError> {
		ensure!(!claims.is_empty(), Error::<T>::NoClaims);
		let mut gpus = 0u32;
		for claim in claims.iter() {
			ensure!(claim.count > 0, Error::<T>::ZeroCount);
			ensure!(claim.count as usize == claim.uuids.len(), Error::<T>::CountMismatch);
			gpus = gpus.saturating_add(claim.count);
		}
		ensure!(gpus <= T::MaxGpusPerMiner::get(), Error::<T>::TooManyGpus);
		let mut seen: Vec<GpuUuid> = Vec::with_capacity(gpus as usize);
		let mut cpu_units = 0u32;
		for claim in claims.iter() {
			let profile = Profiles::<T>::get(claim.profile).ok_or(Error::<T>::UnknownProfile)?;
			if profile.figures.per_core {
				cpu_units = cpu_units.saturating_add(claim.count);
			}
			for uuid in claim.uuids.iter() {
				ensure!(!seen.contains(uuid), Error::<T>::DuplicateUuid);
				seen.push(*uuid);
			}
		}
		ensure!(cpu_units <= 1 && (cpu_units == 0 || hardware.cpu_cores > 0), Error::<T>::InvalidCpuClaim);
		Ok(gpus)
	}

	/// Refuses declared hardware beyond what any machine has.
	fn validate_hardware(hardware: &Hardware) -> DispatchResult {
		hardware.check().map_err(|fault| match fault {
			HardwareFault::CpuCores => Error::<T>::ImplausibleCpuCores,
			HardwareFault::Ram => Error::<T>::ImplausibleRam,
			HardwareFault::Disk => Error::<T>::ImplausibleDisk,
		})?;
		Ok(())
	}

	/// The deposit one GPU of profile `profile` holds for a miner declaring `cores` CPU cores:
	/// `DepositPerGpu` plus `DepositPerMegapoint` per million points the GPU scores once proven
	/// (a per-core unit at its cores; an unknown profile holds the floor alone).
	pub fn gpu_deposit(profile: ProfileId, cores: u32) -> BalanceOf<T> {
		use sp_runtime::SaturatedConversion;
		let points = Profiles::<T>::get(profile).map_or(0, |p| p.figures.for_cores(cores).points());
		let (per_gpu, per_megapoint) =
			(T::DepositPerGpu::get().saturated_into(), T::DepositPerMegapoint::get().saturated_into());
		pog_primitives::deposit::gpu_deposit(per_gpu, per_megapoint, points).saturated_into()
	}

	/// What `failed` (by GPU index) of a miner claiming `claims` with `cores` CPU cores weighs
	/// against all its GPUs, by points (each GPU's profile points, at least one): (failed, all).
	/// Unvested pay burns by this share (the review's F11: by count, a miner's H100 that earned 65%
	/// of its pay beside fifteen T4 claims burned 6.25% when it failed).
	pub fn failed_points(
		claims: impl IntoIterator<Item = (ProfileId, u32)>,
		cores: u32,
		failed: &[bool],
	) -> (u64, u64) {
		let points = claims.into_iter().flat_map(|(profile, gpus)| {
			let p = u64::from(Profiles::<T>::get(profile).map_or(0, |p| p.figures.for_cores(cores).points()).max(1));
			core::iter::repeat_n(p, gpus as usize)
		});
		points.zip(failed.iter().chain(core::iter::repeat(&false))).fold((0u64, 0u64), |(f, all), (p, failed)| {
			(if *failed { f.saturating_add(p) } else { f }, all.saturating_add(p))
		})
	}

	/// Each claimed GPU's deposit ([`Self::gpu_deposit`]), in claim order (the GPU index), for
	/// claims given as (profile, GPUs).
	pub fn gpu_deposits(claims: impl IntoIterator<Item = (ProfileId, u32)>, cores: u32) -> Vec<BalanceOf<T>> {
		claims
			.into_iter()
			.flat_map(|(profile, gpus)| core::iter::repeat_n(Self::gpu_deposit(profile, cores), gpus as usize))
			.collect()
	}

	/// The deposit a miner claiming `claims` (profile, GPUs) and declaring `cores` CPU cores
	/// holds: `DepositBase` plus each GPU's deposit.
	pub fn deposit_for(claims: impl IntoIterator<Item = (ProfileId, u32)>, cores: u32) -> BalanceOf<T> {
		use sp_runtime::SaturatedConversion;
		let gpus = Self::gpu_deposits(claims, cores).into_iter().map(|d| d.saturated_into());
		pog_primitives::deposit::miner_deposit(T::DepositBase::get().saturated_into(), gpus).saturated_into()
	}

	/// The deposit the miner `info` holds under the rule for its current claims.
	pub fn deposit_of(info: &MinerOf<T>) -> BalanceOf<T> {
		Self::deposit_for(per_profile(&info.claims), info.hardware.cpu_cores)
	}

	fn add_claims(claims: &ClaimsOf<T>) {
		for claim in claims.iter() {
			ProfileClaims::<T>::mutate(claim.profile, |c| *c = c.saturating_add(claim.count));
			for uuid in claim.uuids.iter() {
				UuidClaimants::<T>::mutate(uuid, |c| *c = c.saturating_add(1));
			}
		}
	}

	fn remove_claims(claims: &ClaimsOf<T>) {
		for claim in claims.iter() {
			ProfileClaims::<T>::mutate(claim.profile, |c| *c = c.saturating_sub(claim.count));
			for uuid in claim.uuids.iter() {
				UuidClaimants::<T>::mutate_exists(uuid, |c| {
					*c = c.map(|n| n.saturating_sub(1)).filter(|n| *n > 0);
				});
			}
		}
	}

	/// Holds `amount` more of `who`'s deposit.
	fn hold(who: &T::AccountId, amount: BalanceOf<T>) -> DispatchResult {
		if amount.is_zero() {
			return Ok(());
		}
		T::Currency::hold(&HoldReason::MinerDeposit.into(), who, amount)
			.map_err(|_| Error::<T>::InsufficientDeposit)?;
		Ok(())
	}

	/// Releases `amount` of `who`'s deposit (what is held, at most).
	fn release(who: &T::AccountId, amount: BalanceOf<T>) -> BalanceOf<T> {
		T::Currency::release(&HoldReason::MinerDeposit.into(), who, amount, TokenPrecision::BestEffort)
			.unwrap_or_default()
	}

	/// Registers `who`: in a regular slot while one is free, else on trial ([`eviction`]).
	pub(crate) fn do_register(who: T::AccountId, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
		ensure!(!Miners::<T>::contains_key(&who), Error::<T>::AlreadyRegistered);
		let trial = Self::regular_slots_taken();
		ensure!(
			!trial || Trial::<T>::count() < Self::trial_slots() && MinerCount::<T>::get() < T::MaxMiners::get(),
			Error::<T>::TooManyMiners
		);
		let gpus = Self::validate_claims(&claims, &hardware)?;
		Self::validate_hardware(&hardware)?;
		let deposit = Self::deposit_for(per_profile(&claims), hardware.cpu_cores);
		// On trial the fee grows with the trial slots taken: holding them all to keep newcomers
		// out costs the last ones the fee 64 times over (`eviction`).
		let fee = match trial {
			true => T::RegistrationFee::get().saturating_mul(Trial::<T>::count().saturating_add(1).into()),
			false => T::RegistrationFee::get(),
		};
		ensure!(
			T::Currency::reducible_balance(&who, Preservation::Preserve, Fortitude::Polite)
				>= deposit.saturating_add(fee),
			Error::<T>::InsufficientDeposit
		);
		Self::hold(&who, deposit)?;
		if !fee.is_zero() {
			let burned =
				T::Currency::burn_from(&who, fee, Preservation::Preserve, TokenPrecision::Exact, Fortitude::Polite)
					.map_err(|_| Error::<T>::InsufficientDeposit)?;
			T::RoundPay::burned(burned);
		}
		Self::add_claims(&claims);
		let first_round = Self::round().index.saturating_add(1);
		Standing::<T>::insert(&who, Self::fresh_standing(&claims, &[]));
		Miners::<T>::insert(
			&who,
			MinerInfo {
				claims,
				hardware,
				deposit,
				slashed: Zero::zero(),
				registered_at: Self::now(),
				first_round,
				settled_round: 0,
				pending: None,
				leaving: false,
			},
		);
		MinerCount::<T>::mutate(|c| *c = c.saturating_add(1));
		Self::deposit_event(Event::MinerRegistered { miner: who.clone(), gpus, deposit, fee, first_round });
		if trial {
			let last_round = first_round.saturating_add(crate::eviction::IMMUNITY_ROUNDS - 1);
			Trial::<T>::insert(&who, last_round);
			Self::deposit_event(Event::MinerOnTrial { miner: who, last_round });
		}
		Ok(())
	}

	/// Whether `info` takes part in the current round and is not settled yet.
	pub fn has_unsettled_round(info: &MinerOf<T>) -> bool {
		let round = Self::round();
		round.phase != RoundPhase::Idle && info.takes_part_in(round.index)
	}

	pub(crate) fn do_update(who: T::AccountId, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
		let mut info = Miners::<T>::get(&who).ok_or(Error::<T>::NotRegistered)?;
		ensure!(!info.leaving, Error::<T>::AlreadyLeaving);
		let gpus = Self::validate_claims(&claims, &hardware)?;
		Self::validate_hardware(&hardware)?;
		let rule = Self::deposit_for(per_profile(&claims), hardware.cpu_cores);
		// Hold any increase now, so the update cannot fail later for want of funds.
		Self::hold(&who, rule.saturating_sub(info.deposit))?;
		info.deposit = info.deposit.max(rule);
		let from_round = Self::round().index.saturating_add(1);
		if Self::has_unsettled_round(&info) {
			// Hold no more than the current or the new claims need (an earlier pending update
			// may have held more).
			let keep = rule.max(Self::deposit_of(&info));
			if info.deposit > keep {
				let released = Self::release(&who, info.deposit.saturating_sub(keep));
				info.deposit = info.deposit.saturating_sub(released);
			}
			// Fewer declared cores score fewer points at once; more wait for a pass.
			Self::reprice_cores(&who, hardware.cpu_cores.min(info.hardware.cpu_cores));
			info.pending = Some((claims, hardware));
		} else {
			Self::apply_claims(&who, &mut info, claims, hardware);
			if info.first_round == NEVER {
				info.first_round = from_round;
			}
		}
		Miners::<T>::insert(&who, &info);
		Self::update_score(&who, &info);
		Self::deposit_event(Event::MinerUpdated { miner: who, gpus, deposit: info.deposit, from_round });
		Ok(())
	}

	/// Replaces `info`'s claims: counters, standing (credits survive for GPUs still claimed as
	/// the same profile) and the deposit, released down to the rule.
	fn apply_claims(who: &T::AccountId, info: &mut MinerOf<T>, claims: ClaimsOf<T>, hardware: Hardware) {
		Self::remove_claims(&info.claims);
		Self::add_claims(&claims);
		let old = Standing::<T>::get(who);
		Standing::<T>::insert(who, Self::fresh_standing(&claims, &old));
		Self::reprice_cores(who, hardware.cpu_cores);
		let rule = Self::deposit_for(per_profile(&claims), hardware.cpu_cores);
		if info.deposit > rule {
			let released = Self::release(who, info.deposit.saturating_sub(rule));
			info.deposit = info.deposit.saturating_sub(released);
		}
		info.claims = claims;
		info.hardware = hardware;
	}

	pub(crate) fn do_deregister(who: T::AccountId) -> DispatchResult {
		let mut info = Miners::<T>::get(&who).ok_or(Error::<T>::NotRegistered)?;
		ensure!(!info.leaving, Error::<T>::AlreadyLeaving);
		if Self::has_unsettled_round(&info) {
			info.leaving = true;
			Miners::<T>::insert(&who, info);
			Self::deposit_event(Event::MinerLeaving { miner: who });
		} else {
			Self::remove_miner(who, info);
		}
		Ok(())
	}

	/// Removes a miner with no unsettled round; releases what is left of its deposit and forfeits
	/// its unvested earnings to the treasury. Its commitments and verifications stay for auditors
	/// until their round is pruned.
	pub(crate) fn remove_miner(who: T::AccountId, info: MinerOf<T>) {
		T::RoundPay::forfeit(&who);
		let released = Self::release(&who, info.deposit);
		Self::remove_claims(&info.claims);
		Standing::<T>::remove(&who);
		Scores::<T>::remove(&who);
		Self::drop_share(&who);
		Miners::<T>::remove(&who);
		MinerCount::<T>::mutate(|c| *c = c.saturating_sub(1));
		Trial::<T>::remove(&who);
		Self::deposit_event(Event::MinerDeregistered { miner: who, released });
	}

	/// Burns `config.slash` of each failed GPU's deposit ([`Self::gpu_deposit`]; `failed`: per
	/// GPU index, whether it failed) from `info`'s deposit, at most what it holds; returns what
	/// was burned.
	fn slash(who: &T::AccountId, info: &mut MinerOf<T>, failed: &[bool]) -> BalanceOf<T> {
		if !failed.contains(&true) {
			return Zero::zero();
		}
		let slash = Configuration::<T>::get().slash;
		let amount = Self::gpu_deposits(per_profile(&info.claims), info.hardware.cpu_cores)
			.into_iter()
			.zip(failed)
			.filter(|(_, failed)| **failed)
			.fold(BalanceOf::<T>::zero(), |sum, (deposit, _)| sum.saturating_add(slash * deposit))
			.min(info.deposit);
		let burned = T::Currency::burn_held(
			&HoldReason::MinerDeposit.into(),
			who,
			amount,
			TokenPrecision::BestEffort,
			Fortitude::Force,
		)
		.unwrap_or_default();
		T::RoundPay::burned(burned);
		info.deposit = info.deposit.saturating_sub(burned);
		info.slashed = info.slashed.saturating_add(burned);
		burned
	}

	/// Settles `who`'s part in `round`: outcomes, slashes, credits, then a pending update or
	/// departure, and a deposit top-up (or suspension); ends its trial if it is over and
	/// `trial_ends` (this block's budget) allows. Returns how many of its GPUs the next round
	/// selects whatever its draw (left undecided, or their credits due).
	pub(crate) fn settle_miner(
		round: &RoundOf<T>,
		who: T::AccountId,
		mut info: MinerOf<T>,
		trial_ends: &mut u32,
	) -> u32 {
		if !info.takes_part_in(round.index) {
			// Its earnings vest all the same.
			T::RoundPay::vest(&who, 0, 1);
			Self::end_trial(round.index, &who, &info, trial_ends);
			return 0;
		}
		let slots = Commitments::<T>::get(round.index, &who).unwrap_or_default();
		let outcomes: Vec<(GpuUuid, RoundOutcome)> = info
			.gpus()
			.enumerate()
			.map(|(i, (_, uuid))| {
				let committed = slots.get(i).is_some_and(|s| s.is_some());
				(uuid, Self::outcome_of(round, &who, i as GpuIndex, committed))
			})
			.collect();
		let failed: Vec<bool> = outcomes.iter().map(|(_, o)| matches!(o, RoundOutcome::Failed(_))).collect();
		let probability = Self::draw_probability_in(round, &who);
		// A failure takes the GPU's share (by points) of the unvested earnings first, then part of
		// its deposit.
		let (failed_points, points) = Self::failed_points(per_profile(&info.claims), info.hardware.cpu_cores, &failed);
		T::RoundPay::vest(&who, failed_points, points);
		let slashed = Self::slash(&who, &mut info, &failed);
		// selected in the next round whatever its draw: left undecided, or credits due
		let forced = Self::record_outcomes(&who, round.index, &outcomes, probability, info.hardware.cpu_cores);
		info.settled_round = round.index;
		Self::deposit_event(Event::MinerSettled {
			round: round.index,
			miner: who.clone(),
			outcomes: BoundedVec::truncate_from(outcomes),
			slashed,
		});
		if info.leaving {
			// none of its GPUs is in the next round
			Self::remove_miner(who, info);
			return 0;
		}
		if let Some((claims, hardware)) = info.pending.take() {
			Self::apply_claims(&who, &mut info, claims, hardware);
		}
		Self::rebond(&who, &mut info);
		Miners::<T>::insert(&who, &info);
		Self::update_score(&who, &info);
		Self::end_trial(round.index, &who, &info, trial_ends);
		forced
	}

	/// Brings the deposit of every miner claiming `profile` to the rule ([`Self::rebond`]) after
	/// the profile was updated (its points, so its GPUs' deposit, may have changed); returns the
	/// miners read. Only called between rounds, so no miner has a pending update.
	pub(crate) fn rebond_claimants(profile: ProfileId) -> u32 {
		let mut read = 0u32;
		let claimants: Vec<(T::AccountId, MinerOf<T>)> = Miners::<T>::iter()
			.inspect(|_| read = read.saturating_add(1))
			.filter(|(_, info)| info.claims.iter().any(|c| c.profile == profile))
			.collect();
		for (who, mut info) in claimants {
			Self::rebond(&who, &mut info);
			Miners::<T>::insert(&who, &info);
			Self::update_score(&who, &info);
		}
		read
	}

	/// Brings the deposit to the rule: releases what is above it (a profile's points lowered),
	/// or holds what is missing (after a slash, or a profile's points raised) and suspends the
	/// miner if it cannot. A suspended miner is not suspended again.
	pub(crate) fn rebond(who: &T::AccountId, info: &mut MinerOf<T>) {
		let rule = Self::deposit_of(info);
		if info.deposit > rule {
			let released = Self::release(who, info.deposit.saturating_sub(rule));
			info.deposit = info.deposit.saturating_sub(released);
			return;
		}
		if info.deposit == rule || info.first_round == NEVER {
			return;
		}
		if Self::hold(who, rule.saturating_sub(info.deposit)).is_ok() {
			info.deposit = rule;
		} else {
			info.first_round = NEVER;
			Self::suspend_standing(who);
			Self::deposit_event(Event::MinerSuspended { miner: who.clone() });
		}
	}
}
