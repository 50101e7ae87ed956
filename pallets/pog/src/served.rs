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
//! - a quorum of passing verdicts passes the GPU and a quorum of failing ones fails it, as for a
//!   revealed GPU;
//! - at settlement, a served GPU still undecided with at least ⌈c/3⌉ unserved votes fails
//!   (`MissedReveal`). ⌈c/3⌉ is one more than the ⌊(c−1)/3⌋ members a committee tolerates
//!   lying: members that lie about delivery alone never fail a GPU that was served to every
//!   member, and a miner that serves s < ⌊2c/3⌋+1 members leaves c − s ≥ ⌈c/3⌉ members unserved
//!   (c − ⌊2c/3⌋ = ⌈c/3⌉), so it cannot stay undecided by serving some members only;
//! - an unserved vote on a GPU that passed counts as neither agreement nor contradiction: a
//!   miner choosing whom to serve cannot make an honest member answer for a contradiction.
//! - a served GPU that no member voted on is undecided (`Inconclusive`, then on probation): the
//!   chain cannot tell a silent committee from a silent miner, and the members answer for their
//!   silence ([`crate::validators`]).

use frame_support::{ensure, pallet_prelude::*};

use crate::{pallet::*, types::*};

/// Longest endpoint URL, in bytes.
pub type MaxEndpointLen = ConstU32<{ pog_primitives::endpoint::MAX_ENDPOINT_LEN }>;

/// Where a miner serves its openings: an `http://` or `https://` URL of printable ASCII
/// ([`pog_primitives::endpoint`]). Validators fetch `{endpoint}/openings/{round}/{gpu}`.
pub type Endpoint = BoundedVec<u8, MaxEndpointLen>;

impl Verdict {
	/// A committee member's vote that it got no openings whose paths lead to the committed
	/// roots from the miner's endpoint by the reveal deadline.
	pub fn unserved(reported: SelfReported) -> Self {
		Verdict { passed: false, failed_leaf: None, failed_walk: None, reported }
	}

	/// Whether this is an unserved vote ([`Self::unserved`]).
	pub fn is_unserved(&self) -> bool {
		!self.passed && self.failed_leaf.is_none() && self.failed_walk.is_none()
	}
}

/// Unserved votes that fail a served GPU left undecided: ⌈c/3⌉ of c members.
pub fn unserved_to_fail(members: u32) -> u32 {
	members.div_ceil(3).max(1)
}

impl<T: Config> Pallet<T> {
	/// Sets (or with `None` clears) where `who` serves its openings, from its next round's
	/// first commit on. Only a registered miner may.
	pub(crate) fn do_set_openings_endpoint(who: T::AccountId, endpoint: Option<Endpoint>) -> DispatchResult {
		ensure!(Miners::<T>::contains_key(&who), Error::<T>::NotRegistered);
		match endpoint {
			Some(url) => {
				ensure!(pog_primitives::endpoint::valid_endpoint(&url), Error::<T>::InvalidEndpoint);
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

	/// A served GPU cannot be revealed on chain: its openings would take the window's bytes that
	/// the sample was not sized for.
	pub(crate) fn ensure_not_served(index: RoundIndex, who: &T::AccountId) -> DispatchResult {
		ensure!(!ServedIn::<T>::contains_key(index, who), Error::<T>::ServedOffChain);
		Ok(())
	}
}
