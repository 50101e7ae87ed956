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
//! - unserved votes are taken only in the verdict window's first half ([`unserved_deadline`]),
//!   so every one of them can be rebutted (below);
//! - a delivery dispute is never a result dispute: an unserved vote on a GPU that passed, and a
//!   pass on a GPU that failed for non-delivery, count as neither agreement nor contradiction, so
//!   a miner choosing whom to serve cannot make an honest member answer for a contradiction.
//! - a served GPU that no member voted on is undecided (`Inconclusive`, then on probation): the
//!   chain cannot tell a silent committee from a silent miner, and the members answer for their
//!   silence ([`crate::validators`]).
//!
//! **The rebuttal.** ⌈c/3⌉ members that collude to vote unserved would fail a GPU served to
//! every member. So a served GPU that drew unserved votes and is still undecided may be revealed
//! on chain, as any GPU is revealed, until [`rebuttal_deadline`]: the reveal voids every unserved
//! vote (`UnservedVoided`), an unserved vote is refused from then on (the openings are there for
//! every member), and the members whose votes were voided verify the revealed openings like those
//! of any revealed GPU. A miner that served everyone pays nothing; one that a member could not
//! reach pays one reveal's bytes, the cost every GPU paid before serving existed.

use frame_support::{ensure, pallet_prelude::*};
use frame_system::pallet_prelude::BlockNumberFor;
use sp_runtime::traits::AtLeast32BitUnsigned;

use crate::{pallet::*, types::*, verification::VerificationStatus};

/// Longest endpoint URL, in bytes.
pub type MaxEndpointLen = ConstU32<{ pog_primitives::endpoint::MAX_ENDPOINT_LEN }>;

/// Where a miner serves its openings: an `http://` or `https://` URL of printable ASCII
/// ([`pog_primitives::endpoint`]). Validators fetch `{endpoint}/openings/{round}/{gpu}`.
pub type Endpoint = BoundedVec<u8, MaxEndpointLen>;

/// Unserved votes that fail a served GPU left undecided: ⌈c/3⌉ of c members.
pub fn unserved_to_fail(members: u32) -> u32 {
	members.div_ceil(3).max(1)
}

/// A third of the verdict window, at least one block: what the members keep after the rebuttal
/// deadline to verify what was revealed.
fn third<B: AtLeast32BitUnsigned + Copy>(selection: &Selection<B>) -> B {
	let window = selection.verdict_deadline.saturating_sub(selection.reveal_deadline);
	(window / 3u32.into()).max(1u32.into()).min(window)
}

/// The last block in which a member may vote unserved: the first half of the verdict window (at
/// least a block), which ends before the rebuttal deadline (`ConfigRule::VerdictWindowTooShort`
/// keeps the window at three blocks or more). Every unserved vote lands while the miner can still
/// rebut it: votes that came later could fail a served GPU nobody could answer (the review's F3:
/// two colluding members of 64 voting unserved after the rebuttal deadline struck an honest
/// validator in 91% of rounds).
pub fn unserved_deadline<B: AtLeast32BitUnsigned + Copy>(selection: &Selection<B>) -> B {
	let window = selection.verdict_deadline.saturating_sub(selection.reveal_deadline);
	selection.reveal_deadline.saturating_add((window / 2u32.into()).max(1u32.into()))
}

/// The last block in which a served GPU that drew unserved votes may be revealed on chain (the
/// rebuttal): two thirds of the verdict window after the reveal deadline, so that its members
/// have the last third (at least one block) to verify what it revealed. Unserved votes come in
/// the window's first third ([`unserved_deadline`]), so the miner has at least a third of the
/// window after the last of them to answer it.
pub fn rebuttal_deadline<B: AtLeast32BitUnsigned + Copy>(selection: &Selection<B>) -> B {
	selection.verdict_deadline.saturating_sub(third(selection))
}

impl<T: Config> Pallet<T> {
	/// Sets (or with `None` clears) where `who` serves its openings, from its next round's
	/// first commit on. Only a registered miner may.
	pub(crate) fn do_set_openings_endpoint(who: T::AccountId, endpoint: Option<Endpoint>) -> DispatchResult {
		ensure!(Miners::<T>::contains_key(&who), Error::<T>::NotRegistered);
		match endpoint {
			Some(url) => {
				ensure!(pog_primitives::endpoint::valid_endpoint(&url), Error::<T>::InvalidEndpoint);
				ensure!(
					LocalEndpoints::<T>::get() || pog_primitives::endpoint::is_public_endpoint(&url),
					Error::<T>::PrivateEndpoint
				);
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

	/// Where `miner` serves its openings of round `index`, if it does.
	pub fn served_in(index: RoundIndex, miner: &T::AccountId) -> Option<Endpoint> {
		ServedIn::<T>::get(index, miner)
	}

	/// On a commit of `landed` GPUs by `who` in round `index`: a miner with an endpoint serves the
	/// round (the endpoint of its first commit of the round holds for the whole round), and its
	/// GPUs are counted as served.
	pub(crate) fn enter_served(index: RoundIndex, who: &T::AccountId, landed: u32) {
		if !ServedIn::<T>::contains_key(index, who) {
			let Some(endpoint) = OpeningsEndpoints::<T>::get(who) else { return };
			ServedIn::<T>::insert(index, who, endpoint);
		}
		ServedGpus::<T>::mutate(index, |n| *n = n.saturating_add(landed));
	}

	/// A served GPU is revealed on chain only as a rebuttal of unserved votes (its openings would
	/// otherwise take the reveal window's bytes that the sample was not sized for): while it is
	/// undecided with at least one unserved vote, until [`rebuttal_deadline`], once.
	pub(crate) fn ensure_rebuttal(
		selection: &Selection<BlockNumberFor<T>>,
		index: RoundIndex,
		who: &T::AccountId,
		gpu: GpuIndex,
	) -> DispatchResult {
		ensure!(!Openings::<T>::contains_key((index, who, gpu)), Error::<T>::AlreadyRevealed);
		let contested = Verifications::<T>::get((index, who, gpu))
			.is_some_and(|v| v.status == VerificationStatus::Pending && v.votes.iter().any(|(_, x)| x.is_unserved()));
		ensure!(contested, Error::<T>::ServedOffChain);
		ensure!(Self::now() <= rebuttal_deadline(selection), Error::<T>::RebuttalWindowClosed);
		Ok(())
	}

	/// Whether `miner`'s GPU `gpu` of round `index` was served and then revealed on chain (a
	/// rebuttal): its committee verifies the revealed openings, and no unserved vote counts.
	pub fn rebutted(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		ServedIn::<T>::contains_key(index, miner) && Openings::<T>::contains_key((index, miner, gpu))
	}

	/// Voids the unserved votes on `miner`'s GPU `gpu` of round `index`, which it has just
	/// revealed on chain: their members vote again on the revealed openings. Returns how many.
	pub(crate) fn void_unserved(index: RoundIndex, miner: &T::AccountId, gpu: GpuIndex) -> u32 {
		Verifications::<T>::mutate((index, miner, gpu), |v| {
			let Some(v) = v else { return 0 };
			let before = v.votes.len();
			v.votes.retain(|(_, x)| !x.is_unserved());
			(before - v.votes.len()) as u32
		})
	}
}
