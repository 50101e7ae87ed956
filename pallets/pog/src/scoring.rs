//! Credits, scores and weight shares. Integer and fixed-point arithmetic only.
//!
//! A passed verification credits a GPU with its profile's points. The GPU keeps the credit while
//! it commits on time every round; a failure removes it at once. A round in which it was selected
//! but not verified (`Inconclusive`) never extends it: `max_unverified_rounds` such rounds since
//! its last pass let it lapse. A round in which it was not selected keeps it, and adds the GPU's
//! selection probability in that round to its *expected draws* since its last pass: a fixed count
//! of unselected rounds would take the credit of most honest GPUs at scale (at p = 0.8%, 8 rounds
//! leave 94% of them uncredited). Once the expected draws reach [`REVERIFY_DRAWS`] (2/p rounds at
//! a steady p, reached undrawn by e⁻² ≈ 13.5% of honest credits) the credit is *due*: the GPU is
//! selected in every round whatever the draw until it is verified ([`GpuStanding::due`]), so no
//! credit is paid more than about 2/p rounds without a pass, whatever crowds the draw (the review
//! of 2026-12-01, F4), and an honest GPU loses nothing to it (`docs/protocol.md` §9, §10). Every
//! GPU without a credit carries a [`ZeroReason`].

use alloc::vec::Vec;
use frame_support::pallet_prelude::*;
use sp_runtime::{traits::Zero, Perbill};

use crate::config::ProtocolConfig;
use crate::miners::gpus_of;
use crate::pallet::*;
use crate::rounds::RoundIndex;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use pog_primitives::challenge::{GpuUuid, ProfileId};
use pog_traits::RoundPay;
use scale_info::TypeInfo;

/// Why a challenge failed (each costs the GPU's slash).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum FailReason {
	/// No root before the GPU's deadline: slower than claimed, absent, or busy with another account.
	MissedCommit,
	/// Selected, but the openings were not revealed (or not proven) in the reveal window.
	MissedReveal,
	/// The committee found recomputed entries outside the tolerance.
	WrongResult,
	/// The committee found an opened walk whose result differs from the walk recomputed from the
	/// cache: the dataset was not held (or the walks were not run).
	WrongWalk,
}

/// Why a committed GPU was not verified this round (no slash).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum UnverifiedReason {
	/// Not in this round's random sample.
	NotSelected,
	/// Revealed, but its committee reached no ⌊2c/3⌋+1 majority in the verdict window.
	Inconclusive,
}

/// What one GPU's round came to.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum RoundOutcome {
	/// Verified as its profile: credited.
	Passed,
	/// Failed: slashed, credit removed.
	Failed(FailReason),
	/// Committed in time but not verified (no slash; `Inconclusive` ages a credit).
	Unverified(UnverifiedReason),
}

/// Why a claimed GPU scores zero, for auditors and the miner.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub enum ZeroReason {
	/// Registered or changed after the current round started: challenged from the next one.
	WaitingForRound,
	/// Committed on time but never passed a verification yet (not selected, or inconclusive).
	NotYetVerified,
	/// Its last round failed.
	Failed(FailReason),
	/// Its credit lapsed: `max_unverified_rounds` inconclusive verifications since its last pass.
	CreditExpired,
	/// The deposit fell below the rule after a slash and could not be topped up.
	DepositShort,
}

/// A claimed GPU's standing: its credit, or why it has none.
#[derive(Clone, Encode, Decode, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct GpuStanding {
	/// The GPU.
	pub uuid: GpuUuid,
	/// Its claimed profile.
	pub profile: ProfileId,
	/// Points it earns now (the profile's base score while credited, else 0).
	pub points: u32,
	/// The round of its last passed verification.
	pub verified_round: Option<RoundIndex>,
	/// Rounds since then in which it was selected but not verified (`Inconclusive`).
	pub unverified_rounds: u32,
	/// Its last round's outcome.
	pub last: Option<(RoundIndex, RoundOutcome)>,
	/// Why it scores zero (`None` while credited).
	pub zero_reason: Option<ZeroReason>,
	/// Draws it could expect since its last pass, in parts per billion: the sum of its selection
	/// probability over the rounds since in which it was not drawn. At [`REVERIFY_DRAWS`] draws
	/// its credit is due ([`GpuStanding::due`]).
	pub expected_draws: u32,
}

/// Expected draws (each worth [`DRAW`] parts) after which a credit not drawn is due: selected in
/// every round whatever the draw until verified.
pub const REVERIFY_DRAWS: u32 = 2;

/// One expected draw in [`GpuStanding::expected_draws`]' unit (a probability of one).
pub const DRAW: u32 = 1_000_000_000;

/// Expected draws `expected` after one more round undrawn at probability `p` (saturating; the
/// bound, [`REVERIFY_DRAWS`] · [`DRAW`], fits the unit twice over).
pub fn undrawn(expected: u32, p: Perbill) -> u32 {
	expected.saturating_add(p.deconstruct())
}

/// Whether a credit with `expected` draws since its pass is due.
pub fn is_due(expected: u32) -> bool {
	expected >= REVERIFY_DRAWS.saturating_mul(DRAW)
}

/// What keeps a credit through a round: the inconclusive verifications it survives and the
/// GPU's probability of being drawn in the round (added to its expected draws when it was not).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CreditRules {
	/// `ProtocolConfig::max_unverified_rounds`.
	pub max_unverified: u32,
	/// The GPU's selection probability in the round ([`Pallet::draw_probability_in`]).
	pub probability: Perbill,
}

impl GpuStanding {
	/// Whether it is verified in `round` whatever the sample draws: left undecided
	/// (`Inconclusive`) in the round before, or its credit due ([`Self::due`]).
	pub fn on_probation_in(&self, round: RoundIndex) -> bool {
		self.last == Some((round.saturating_sub(1), RoundOutcome::Unverified(UnverifiedReason::Inconclusive)))
			|| self.due()
	}

	/// Whether its credit is due: [`REVERIFY_DRAWS`] expected draws since its last pass went by
	/// undrawn, so it is selected in every round until verified.
	pub fn due(&self) -> bool {
		self.credited() && is_due(self.expected_draws)
	}

	/// A newly claimed GPU.
	pub fn new(uuid: GpuUuid, profile: ProfileId) -> Self {
		Self {
			uuid,
			profile,
			points: 0,
			verified_round: None,
			unverified_rounds: 0,
			last: None,
			zero_reason: Some(ZeroReason::WaitingForRound),
			expected_draws: 0,
		}
	}

	/// Whether it holds a credit.
	pub fn credited(&self) -> bool {
		self.zero_reason.is_none()
	}
}

/// A miner's score and its components.
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
	Default,
	serde::Serialize,
	serde::Deserialize,
)]
pub struct Score {
	/// Verified GPUs.
	pub verified_gpus: u32,
	/// Sum of the verified GPUs' points (the best `caps.gpus` of them).
	pub gpu_points: u64,
	/// GPU component: points over the cap. The only source of score.
	pub gpu: Perbill,
	/// Declared memory and disk, each over its cap, averaged. Self-reported, so it only scales
	/// the GPU component, by at most `hardware_bound` (see [`Score::scale`]).
	pub hardware: Perbill,
	/// `gpu` scaled by `hardware`.
	pub total: Perbill,
}

impl Score {
	/// `gpu × (1 − bound + bound × hardware)`: the declared hardware moves a proven score by at
	/// most `bound` of it, and nothing scores without a proven GPU.
	pub fn scale(gpu: Perbill, hardware: Perbill, bound: Perbill) -> Perbill {
		let factor = sp_runtime::Saturating::saturating_add(Perbill::one() - bound, bound * hardware);
		factor * gpu
	}
}

/// Values at which a score component reaches 100%.
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
pub struct ScoreCaps {
	/// GPUs counted per miner (the best ones).
	pub gpus: u32,
	/// GPU points at which the GPU component is full.
	pub gpu_points: u64,
	/// Memory (GiB) at which the memory component is full.
	pub ram_gib: u32,
	/// Disk (GiB) at which the disk component is full.
	pub disk_gib: u32,
}

impl<T: Config> Pallet<T> {
	/// Standing for `claims`, keeping the entries of `old` for GPUs still claimed as the same
	/// profile.
	pub(crate) fn fresh_standing(
		claims: &ClaimsOf<T>,
		old: &[GpuStanding],
	) -> BoundedVec<GpuStanding, T::MaxGpusPerMiner> {
		let standing: Vec<GpuStanding> = gpus_of(claims)
			.map(|(profile, uuid)| {
				old.iter()
					.find(|s| s.uuid == uuid && s.profile == profile)
					.cloned()
					.unwrap_or_else(|| GpuStanding::new(uuid, profile))
			})
			.collect();
		// Claims hold at most MaxGpusPerMiner GPUs.
		BoundedVec::truncate_from(standing)
	}

	/// The probability with which round `round` drew `miner`'s GPUs that were verified before:
	/// the sample's, times the round's [`RevealShare`] for a miner revealing on chain; zero
	/// without a draw. (Its reads, `ServedIn` and `RevealShare`, are counted with each GPU's in
	/// `Pallet::settle_weight`.)
	pub(crate) fn draw_probability_in(round: &RoundOf<T>, miner: &T::AccountId) -> Perbill {
		let Some(selection) = round.selection.as_ref() else { return Perbill::zero() };
		let share = match Self::served_in(round.index, miner) {
			Some(_) => Perbill::one(),
			None => RevealShare::<T>::get(round.index).unwrap_or_else(Perbill::one),
		};
		selection.probability * share
	}

	/// Applies a settled round's outcomes (in GPU order) to `who`'s standing, its GPUs drawn
	/// with `probability`; returns how many of its GPUs the next round selects whatever its draw
	/// ([`GpuStanding::on_probation_in`]: left undecided, or credit due), each counted once.
	/// (`cpu_cores`: what the miner declared, which sizes and scores a per-core unit.)
	pub(crate) fn record_outcomes(
		who: &T::AccountId,
		round: RoundIndex,
		outcomes: &[(GpuUuid, RoundOutcome)],
		probability: Perbill,
		cpu_cores: u32,
	) -> u32 {
		let rules = CreditRules { max_unverified: Configuration::<T>::get().max_unverified_rounds, probability };
		Standing::<T>::mutate(who, |standing| {
			for (s, (_, outcome)) in standing.iter_mut().zip(outcomes) {
				Self::record_outcome(s, round, *outcome, rules, cpu_cores);
			}
			standing.iter().filter(|s| s.on_probation_in(round.saturating_add(1))).count() as u32
		})
	}

	/// One GPU's standing after one round. A pass credits the points of its profile (a per-core
	/// profile's times `cpu_cores`, the cores its challenge was sized for).
	pub fn record_outcome(
		s: &mut GpuStanding,
		round: RoundIndex,
		outcome: RoundOutcome,
		rules: CreditRules,
		cpu_cores: u32,
	) {
		s.last = Some((round, outcome));
		match outcome {
			RoundOutcome::Passed => {
				s.points = Profiles::<T>::get(s.profile).map_or(0, |p| p.figures.for_cores(cpu_cores).points());
				s.verified_round = Some(round);
				s.unverified_rounds = 0;
				s.zero_reason = None;
				s.expected_draws = 0;
			},
			RoundOutcome::Failed(reason) => {
				s.points = 0;
				s.unverified_rounds = 0;
				s.zero_reason = Some(ZeroReason::Failed(reason));
				s.expected_draws = 0;
			},
			RoundOutcome::Unverified(UnverifiedReason::NotSelected) if s.credited() => {
				s.expected_draws = undrawn(s.expected_draws, rules.probability);
			},
			RoundOutcome::Unverified(UnverifiedReason::Inconclusive) if s.credited() => {
				s.unverified_rounds = s.unverified_rounds.saturating_add(1);
				if s.unverified_rounds >= rules.max_unverified {
					s.points = 0;
					s.zero_reason = Some(ZeroReason::CreditExpired);
				}
			},
			RoundOutcome::Unverified(_) => {
				if s.zero_reason != Some(ZeroReason::CreditExpired) {
					s.zero_reason = Some(ZeroReason::NotYetVerified);
				}
			},
		}
	}

	/// Every GPU of a suspended miner scores zero for its short deposit.
	pub(crate) fn suspend_standing(who: &T::AccountId) {
		Standing::<T>::mutate(who, |standing| {
			for s in standing.iter_mut() {
				s.points = 0;
				s.zero_reason = Some(ZeroReason::DepositShort);
			}
		});
	}

	/// A miner's score: the points its credited GPUs proved (the best `caps.gpus` of them) over
	/// `caps.gpu_points`, scaled by at most `hardware_bound` by its declared memory and disk.
	/// CPU cores are not scored: they are declared, and nothing the chain checks proves them.
	pub fn compute_score(info: &MinerOf<T>, standing: &[GpuStanding], config: &ProtocolConfig) -> Score {
		let mut points: Vec<u64> = standing.iter().filter(|s| s.credited()).map(|s| u64::from(s.points)).collect();
		points.sort_unstable_by(|a, b| b.cmp(a));
		let verified = points.len() as u32;
		if verified == 0 {
			return Score::default();
		}
		let caps = config.caps;
		let gpu_points: u64 = points.iter().take(caps.gpus as usize).sum();
		let part = |value: u64, cap: u64| Perbill::from_rational(value.min(cap), cap.max(1));
		let gpu = part(gpu_points, caps.gpu_points);
		let ram = part(info.hardware.ram_mib / 1024, u64::from(caps.ram_gib));
		let disk = part(info.hardware.disk_gib, u64::from(caps.disk_gib));
		let hardware = Perbill::from_parts((ram.deconstruct() + disk.deconstruct()) / 2);
		let total = Score::scale(gpu, hardware, config.hardware_bound);
		Score { verified_gpus: verified, gpu_points, gpu, hardware, total }
	}

	pub(crate) fn update_score(who: &T::AccountId, info: &MinerOf<T>) {
		let standing = Standing::<T>::get(who);
		let score = Self::compute_score(info, &standing, &Configuration::<T>::get());
		if Scores::<T>::get(who) != Some(score) {
			Scores::<T>::insert(who, score);
			Self::deposit_event(Event::ScoreUpdated { miner: who.clone(), score });
		}
	}

	/// Shares proportional to `totals` that sum to exactly one billion parts (largest remainder);
	/// empty if every total is zero.
	pub fn shares_of(totals: &[u32]) -> Vec<Perbill> {
		let sum: u128 = totals.iter().map(|t| u128::from(*t)).sum();
		if sum == 0 {
			return Vec::new();
		}
		let one = u128::from(Perbill::one().deconstruct());
		let mut parts: Vec<(u128, u128, usize)> = totals
			.iter()
			.enumerate()
			.map(|(i, t)| {
				let scaled = u128::from(*t) * one;
				(scaled / sum, scaled % sum, i)
			})
			.collect();
		let assigned: u128 = parts.iter().map(|p| p.0).sum();
		let mut left = one.saturating_sub(assigned);
		let mut order: Vec<usize> = (0..parts.len()).collect();
		order.sort_by(|a, b| parts[*b].1.cmp(&parts[*a].1).then(a.cmp(b)));
		for i in order {
			if left == 0 {
				break;
			}
			parts[i].0 += 1;
			left -= 1;
		}
		parts.into_iter().map(|(p, _, _)| Perbill::from_parts(p as u32)).collect()
	}

	/// Recomputes every scored miner's weight share for `epoch`; returns the miners read.
	pub(crate) fn update_shares(epoch: u32) -> u32 {
		let scored: Vec<(T::AccountId, u32)> =
			Scores::<T>::iter().map(|(who, s)| (who, s.total.deconstruct())).filter(|(_, t)| !t.is_zero()).collect();
		let read = MinerCount::<T>::get();
		let shares = Self::shares_of(&scored.iter().map(|(_, t)| *t).collect::<Vec<_>>());
		let entries: Vec<(T::AccountId, Perbill)> = scored.into_iter().map(|(w, _)| w).zip(shares).collect();
		let count = entries.len() as u32;
		// Scores holds at most MaxMiners entries (one per registered miner).
		WeightShares::<T>::put(BoundedVec::truncate_from(entries));
		Epoch::<T>::put(epoch);
		Self::deposit_event(Event::SharesUpdated { epoch, miners: count });
		read
	}

	/// Takes a departed miner out of the epoch's weight shares, the others' shares rescaled to
	/// sum to exactly 100% again (before, it kept its share until the next round was settled).
	/// While a payout is being paid in pages, which index the shares by position, nothing moves:
	/// the departed miner is not paid (it is not registered) and the payout's last page drops the
	/// shares of every miner gone ([`Self::drop_departed_shares`]); moving them mid-payout skipped
	/// one miner and paid the next at a rescaled share (the review's F13).
	pub(crate) fn drop_share(who: &T::AccountId) {
		if T::RoundPay::paying() {
			SharesOfDeparted::<T>::put(true);
			return;
		}
		WeightShares::<T>::mutate(|shares| {
			let Some(pos) = shares.iter().position(|(w, _)| w == who) else { return };
			shares.remove(pos);
			Self::rescale(shares);
		});
	}

	/// Drops the shares of miners no longer registered, if any departed while a payout was paid.
	pub(crate) fn drop_departed_shares() {
		if !SharesOfDeparted::<T>::take() {
			return;
		}
		WeightShares::<T>::mutate(|shares| {
			let before = shares.len();
			shares.retain(|(who, _)| Miners::<T>::contains_key(who));
			if shares.len() != before {
				Self::rescale(shares);
			}
		});
	}

	fn rescale(shares: &mut BoundedVec<(T::AccountId, Perbill), T::MaxMiners>) {
		let rescaled = Self::shares_of(&shares.iter().map(|(_, s)| s.deconstruct()).collect::<Vec<_>>());
		for ((_, share), new) in shares.iter_mut().zip(rescaled) {
			*share = new;
		}
	}

	/// Re-prices `who`'s credited per-core units (`cpu-core`) at `cores`, never above what they
	/// were credited: a miner that declares fewer cores scores fewer points at once, while more
	/// cores are only scored once a challenge of all of them passes.
	pub(crate) fn reprice_cores(who: &T::AccountId, cores: u32) {
		Standing::<T>::mutate(who, |standing| {
			for s in standing.iter_mut().filter(|s| s.points > 0) {
				if let Some(p) = Profiles::<T>::get(s.profile).filter(|p| p.figures.per_core) {
					s.points = s.points.min(p.figures.for_cores(cores).points());
				}
			}
		});
	}

	/// The epoch's weight share of `who` (zero if unscored).
	pub fn share_of(who: &T::AccountId) -> Perbill {
		WeightShares::<T>::get().iter().find(|(w, _)| w == who).map(|(_, s)| *s).unwrap_or_default()
	}
}
