//! Openings served off chain (`docs/protocol.md` §8, "Openings served off chain").
//!
//! A reveal of an H100 is about 131 kB, and the reveal window carries a few hundred of them,
//! whatever the validators could verify. A miner that names an HTTP endpoint
//! (`set_openings_endpoint`) has its GPUs *served* from its next commit on: the endpoint is
//! copied into the round when the miner's first root of the round lands ([`ServedIn`]), and a
//! selected served GPU is not revealed on chain. Each member of its committee fetches the
//! openings from that endpoint, checks their paths against the committed roots, recomputes them
//! and votes; a member that got nothing whose paths lead to the roots by the reveal deadline
//! votes **unserved**: a failing verdict that names no leaf and no walk ([`Verdict::unserved`]).
//! Only the compact verdicts land on chain, so served GPUs take none of the reveal window's bytes
//! ([`crate::capacity`]).
//!
//! The rule, with c committee members and a quorum of ⌊2c/3⌋+1:
//! - a quorum of passing verdicts passes the GPU and a quorum of failing ones naming a leaf or a
//!   walk fails it, as for a revealed GPU; unserved votes decide nothing before settlement (the
//!   miner may rebut them until then, below);
//! - at settlement, a served GPU still undecided with at least ⌈c/3⌉ unserved votes fails
//!   (`MissedReveal`). ⌈c/3⌉ is one more than the ⌊(c−1)/3⌋ members a committee tolerates
//!   lying: members that lie about delivery alone never fail a GPU that was served to every
//!   member, and a miner that serves s < ⌊2c/3⌋+1 members leaves c − s ≥ ⌈c/3⌉ members unserved
//!   (c − ⌊2c/3⌋ = ⌈c/3⌉), so it cannot stay undecided by serving some members only;
//! - unserved votes are taken only in the verdict window's first half ([`Selection::unserved_deadline`]),
//!   so every one of them can be rebutted (below);
//! - **the quota**: only a member's first [`unserved_quota`] unserved votes of a round
//!   ([`UnservedQuota`], set at the draw) count toward a rebuttal ([`Contested`]), so that all
//!   the rebuttals the members can force, whoever lies, fit the rebuttal blocks
//!   ([`Pallet::rebuttal_capacity`]). A served GPU undecided at settlement fails for
//!   non-delivery when ⌈c/3⌉ of its unserved votes counted, or when its unserved votes and the
//!   failing votes cast by the unserved deadline ([`EarlyFailing`]) make a quorum, a *delivery
//!   quorum* (more members than may lie did not get a valid answer, whatever their quotas: a
//!   miner serving wrong openings to some members and nothing to the others fails; failing
//!   votes cast later, after the rebuttal deadline too, never complete it); else it is
//!   `Inconclusive`. A vote beyond the quota is still a vote (its member is
//!   not silent), and on an undecided GPU it counts as neither agreement nor contradiction;
//! - a delivery dispute is never a result dispute: an unserved vote on a GPU that passed, and a
//!   pass on a GPU that failed for non-delivery, count as neither agreement nor contradiction, so
//!   a miner choosing whom to serve cannot make an honest member answer for a contradiction.
//! - a served GPU that no member voted on is undecided (`Inconclusive`, then on probation): the
//!   chain cannot tell a silent committee from a silent miner, and the members answer for their
//!   silence (`pallet-pog-validators`).
//!
//! **The rebuttal.** ⌈c/3⌉ members that collude to vote unserved would fail a GPU served to
//! every member. So a served GPU that drew unserved votes and is still undecided may be revealed
//! on chain, as any GPU is revealed, until [`Selection::rebuttal_deadline`]: the reveal voids every unserved
//! vote (`UnservedVoided`), an unserved vote is refused from then on (the openings are there for
//! every member), and the members whose votes were voided verify the revealed openings like those
//! of any revealed GPU. A miner that served everyone pays nothing; one that a member could not
//! reach pays one reveal's bytes, the cost every GPU paid before serving existed.

use frame_support::{ensure, pallet_prelude::*};
use frame_system::pallet_prelude::BlockNumberFor;

use crate::rounds::{RoundIndex, Selection};
use crate::verification::Verdict;
use crate::{pallet::*, verification::VerificationStatus};
use pog_primitives::challenge::GpuIndex;

/// Longest endpoint URL, in bytes.
pub type MaxEndpointLen = ConstU32<{ pog_primitives::endpoint::MAX_ENDPOINT_LEN }>;

/// Where a miner serves its openings: an `http://` or `https://` URL of printable ASCII
/// ([`pog_primitives::endpoint`]). Validators fetch `{endpoint}/openings/{round}/{gpu}`.
pub type Endpoint = BoundedVec<u8, MaxEndpointLen>;

/// Unserved votes that fail a served GPU left undecided: ⌈c/3⌉ of c members.
pub fn unserved_to_fail(members: u32) -> u32 {
	members.div_ceil(3).max(1)
}

/// Unserved votes of one member in a round that count toward a rebuttal: `rebuttals` (what the
/// rebuttal blocks carry, [`Pallet::rebuttal_capacity`]) × ⌈c/3⌉ / `validators` (the committee
/// pool). A rebuttal is needed only once ⌈c/3⌉ counted votes contest a GPU, so the members'
/// counted votes, at most `validators` × the quota, contest at most `rebuttals` GPUs: every
/// rebuttal the members can force lands, however many of them lie (the review's F5: colluders
/// voting unserved on every GPU they shared forced more reveals than the blocks carried, and
/// honest GPUs whose rebuttals were left out failed). Mainnet: 35 rebuttals, 64 validators,
/// committees of 5: 1 counted vote a member a round; 4 validators (committees of three when a
/// validator mines): 8.
pub fn unserved_quota(rebuttals: u32, validators: u32, committee: u32) -> u32 {
	let counted = u64::from(rebuttals).saturating_mul(u64::from(unserved_to_fail(committee)));
	u32::try_from(counted / u64::from(validators.max(1))).unwrap_or(u32::MAX)
}

/// The quota of a pool of `validators` with committees of `committee` configured: of the
/// smallest committee a GPU can get, the configured size or one member fewer when its miner
/// validates (a set of eight gives committees of five, and seven to a validator's own GPUs).
pub fn pool_quota(rebuttals: u32, committee: u32, validators: u32) -> u32 {
	use crate::verification::committee_size;
	let smallest =
		committee_size(committee, validators).min(committee_size(committee, validators.saturating_sub(1).max(1)));
	unserved_quota(rebuttals, validators, smallest)
}

/// The votes of a list of verdicts that do not pass (for their weight, [`Pallet::failing_weight`]).
pub fn failing_in<A>(verdicts: &[(A, GpuIndex, Verdict)]) -> u32 {
	verdicts.iter().filter(|(_, _, v)| !v.passed).count() as u32
}

/// Blocks of a verdict window of `verdict_window` blocks in which a rebuttal of the last
/// unserved votes can land: after [`Selection::unserved_deadline`], until [`Selection::rebuttal_deadline`]. Members
/// may hold their counted votes until the last block for them, so only these blocks are sure to
/// carry every forced rebuttal. Mainnet: 4 of 20 (R+11..R+14).
pub fn rebuttal_blocks(verdict_window: u32) -> u32 {
	let third = (verdict_window / 3).max(1).min(verdict_window);
	let unserved = (verdict_window / 2).max(1);
	verdict_window.saturating_sub(third).saturating_sub(unserved)
}

impl<T: Config> Pallet<T> {
	/// Sets (or with `None` clears) where `who` serves its openings, from its next round's
	/// first commit on. Only a registered miner may.
	pub(crate) fn do_set_openings_endpoint(who: T::AccountId, endpoint: Option<Endpoint>) -> DispatchResult {
		ensure!(Miners::<T>::contains_key(&who), Error::<T>::NotRegistered);
		match endpoint {
			Some(url) => {
				Self::ensure_fetchable(&url)?;
				OpeningsEndpoints::<T>::insert(&who, &url);
				Self::deposit_event(Event::OpeningsEndpointSet { miner: who, endpoint: Some(url) });
			},
			None => {
				OpeningsEndpoints::<T>::remove(&who);
				Self::deposit_event(Event::OpeningsEndpointSet { miner: who, endpoint: None });
			},
		}
		Ok(())
	}

	/// Whether committee members may fetch from `url` on this chain: a valid endpoint
	/// (`InvalidEndpoint`) naming a public host unless the chain allows local ones
	/// (`PrivateEndpoint`, `LocalEndpoints`). Checked when the endpoint is set and again when a
	/// round's first root copies it into the round.
	fn ensure_fetchable(url: &[u8]) -> DispatchResult {
		ensure!(pog_primitives::endpoint::valid_endpoint(url), Error::<T>::InvalidEndpoint);
		ensure!(
			LocalEndpoints::<T>::get() || pog_primitives::endpoint::is_public_endpoint(url),
			Error::<T>::PrivateEndpoint
		);
		Ok(())
	}

	/// Where `miner` serves its openings of round `index`, if it does.
	pub fn served_in(index: RoundIndex, miner: &T::AccountId) -> Option<Endpoint> {
		ServedIn::<T>::get(index, miner)
	}

	/// On a commit of `landed` GPUs by `who` in round `index` (its `first` of the round or not):
	/// a miner with an endpoint at its first commit serves the round (that endpoint holds for the
	/// whole round, and one set after it serves from the next round), and its GPUs are counted as
	/// served. Returns whether the round is served.
	pub(crate) fn enter_served(index: RoundIndex, who: &T::AccountId, landed: u32, first: bool) -> bool {
		if !ServedIn::<T>::contains_key(index, who) {
			if !first {
				return false;
			}
			// an endpoint stored before a rule that now refuses it is not fetched from: the
			// round is revealed on chain (the agent reads `ServedIn`)
			let fetchable = OpeningsEndpoints::<T>::get(who).filter(|url| Self::ensure_fetchable(url).is_ok());
			let Some(endpoint) = fetchable else { return false };
			ServedIn::<T>::insert(index, who, endpoint);
		}
		ServedGpus::<T>::mutate(index, |n| *n = n.saturating_add(landed));
		true
	}

	/// A served GPU is revealed on chain only as a rebuttal of unserved votes (its openings would
	/// otherwise take the reveal window's bytes that the sample was not sized for): while its
	/// unserved votes would fail it ([`Self::rebuttable`]), until [`Selection::rebuttal_deadline`], once.
	pub(crate) fn ensure_rebuttal(
		selection: &Selection<BlockNumberFor<T>>,
		index: RoundIndex,
		who: &T::AccountId,
		gpu: GpuIndex,
	) -> DispatchResult {
		ensure!(!Openings::<T>::contains_key((index, who, gpu)), Error::<T>::AlreadyRevealed);
		let contested =
			Verifications::<T>::get((index, who, gpu)).is_some_and(|v| Self::rebuttable(index, who, gpu, &v));
		ensure!(contested, Error::<T>::ServedOffChain);
		ensure!(Self::now() <= selection.rebuttal_deadline(), Error::<T>::RebuttalWindowClosed);
		Ok(())
	}

	/// Whether `miner`'s GPU `gpu` of round `index` was served and then revealed on chain (a
	/// rebuttal): its committee verifies the revealed openings, and no unserved vote counts.
	pub fn rebutted(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		ServedIn::<T>::contains_key(index, miner) && Openings::<T>::contains_key((index, miner, gpu))
	}

	/// Sets round `index`'s [`pool_quota`] at its draw, from the committee pool just seated.
	pub(crate) fn draw_unserved_quota(index: RoundIndex) {
		let validators = CommitteePool::<T>::decode_len().unwrap_or(0) as u32;
		let quota = pool_quota(Self::rebuttal_capacity(), Configuration::<T>::get().committee, validators);
		UnservedQuota::<T>::insert(index, quota);
	}

	/// Counts `who`'s unserved vote on `miner`'s GPU `gpu` of round `index`: within `who`'s
	/// quota it contests the GPU ([`Contested`]).
	pub(crate) fn note_unserved(index: RoundIndex, who: &T::AccountId, miner: &T::AccountId, gpu: GpuIndex) {
		let cast = UnservedCast::<T>::get(index, who);
		if UnservedQuota::<T>::get(index).is_none_or(|quota| cast < quota) {
			Contested::<T>::mutate((index, miner, gpu), |n| *n = n.saturating_add(1));
		}
		UnservedCast::<T>::insert(index, who, cast.saturating_add(1));
	}

	/// Counts a failing vote naming a leaf or a walk on `miner`'s GPU `gpu` of round `index`
	/// when it is served, not rebutted, and the vote comes by [`Selection::unserved_deadline`]: it then
	/// counts toward a delivery quorum ([`EarlyFailing`], [`Self::undelivered`]).
	pub(crate) fn note_failing(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) {
		let Some(selection) = Self::round().selection else { return };
		if Self::now() <= selection.unserved_deadline()
			&& ServedIn::<T>::contains_key(index, miner)
			&& !Openings::<T>::contains_key((index, miner, gpu))
		{
			EarlyFailing::<T>::mutate((index, miner, gpu), |n| *n = n.saturating_add(1));
		}
	}

	/// The unserved votes on `miner`'s GPU `gpu` of round `index` (verification `v`) that count
	/// toward a rebuttal: those cast within their members' quotas, or every one in a round drawn
	/// before the quota existed.
	pub fn contested(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex, v: &VerificationOf<T>) -> u32 {
		if UnservedQuota::<T>::contains_key(index) {
			Contested::<T>::get((index, miner, gpu))
		} else {
			v.votes.iter().filter(|(_, x)| x.is_unserved()).count() as u32
		}
	}

	/// Whether a served GPU undecided at settlement (verification `v`) fails for non-delivery:
	/// ⌈c/3⌉ counted unserved votes nobody rebutted ([`Self::contested`]), or a **delivery
	/// quorum**: unserved votes and the failing votes cast by [`Selection::unserved_deadline`]
	/// ([`EarlyFailing`]) make a quorum, so more members than may lie got no valid answer.
	/// Failing votes cast later do not count: they come until the verdict deadline, after the
	/// rebuttal deadline, and a liar's late one could otherwise complete a quorum nobody could
	/// answer; those that count are all on chain while the miner can still rebut. Liars alone
	/// never make it on a GPU served to every member (the honest members pass it). Reads
	/// [`EarlyFailing`] only for a GPU with an unserved vote and fewer than a quorum of them, and
	/// [`Contested`] only for one with ⌈c/3⌉ unserved votes or more.
	pub(crate) fn undelivered(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex, v: &VerificationOf<T>) -> bool {
		let members = v.committee.len() as u32;
		let quorum = Self::quorum_of(members);
		let unserved = v.votes.iter().filter(|(_, x)| x.is_unserved()).count() as u32;
		let delivery_quorum = || {
			unserved >= quorum
				|| (unserved > 0 && unserved.saturating_add(EarlyFailing::<T>::get((index, miner, gpu))) >= quorum)
		};
		v.status == VerificationStatus::Pending
			&& (delivery_quorum()
				|| (unserved >= unserved_to_fail(members)
					&& Self::contested(index, miner, gpu, v) >= unserved_to_fail(members)))
	}

	/// Whether a served GPU (verification `v`) may be revealed to rebut its unserved votes: it is
	/// undecided and would fail for non-delivery ([`Self::undelivered`]): contested by ⌈c/3⌉
	/// counted votes, which the rebuttal blocks carry whoever cast them, or by a quorum of
	/// unserved votes, which liars alone cannot make (a live miner that honest members could not
	/// reach answers them). In a round drawn before the quota, any unserved vote, as then.
	pub(crate) fn rebuttable(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex, v: &VerificationOf<T>) -> bool {
		if UnservedQuota::<T>::contains_key(index) {
			Self::undelivered(index, miner, gpu, v)
		} else {
			v.status == VerificationStatus::Pending && v.votes.iter().any(|(_, x)| x.is_unserved())
		}
	}

	/// What counting `n` votes that do not pass adds to their dispatch: for an unserved vote
	/// ([`Self::note_unserved`]) the round's quota, the member's count and the GPU's contest read,
	/// the last two written; for a failing one ([`Self::note_failing`]) less (the round, whether
	/// the GPU is served and rebutted, and its count read, the count written).
	pub fn failing_weight(n: u32) -> Weight {
		T::DbWeight::get().reads_writes(3, 2).saturating_mul(u64::from(n))
	}

	/// Voids the unserved votes on `miner`'s GPU `gpu` of round `index`, which it has just
	/// revealed on chain: their members vote again on the revealed openings. Returns how many.
	pub(crate) fn void_unserved(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> u32 {
		Contested::<T>::remove((index, miner, gpu));
		Verifications::<T>::mutate((index, miner, gpu), |v| {
			let Some(v) = v else { return 0 };
			let before = v.votes.len();
			v.votes.retain(|(_, x)| !x.is_unserved());
			(before - v.votes.len()) as u32
		})
	}
}
