//! A committee member's verdict on a verified challenge, as the chain records it and the miner
//! agent reads it from the chain's events: one type, with its one rule for what an unserved vote
//! is (`pallet_pog::served`).

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

/// What the validator's own recomputation found (self-reported: the chain cannot check it).
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct SelfReported {
	/// Entries recomputed.
	pub entries_checked: u32,
	/// Largest error over threshold seen, in permille (1000 = at the threshold).
	pub worst_permille: u32,
	/// Opened walks recomputed from the cache.
	pub walks_checked: u32,
}

/// A validator's verdict on a revealed or served challenge.
#[derive(Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct Verdict {
	/// Whether every checked entry was within tolerance and every opened walk right (the vote).
	pub passed: bool,
	/// The first failing leaf, or else the first wrong walk: a failing verdict names exactly one
	/// of the opened leaves or walks (checked on chain), a passing one none.
	pub failed_leaf: Option<u32>,
	/// See `failed_leaf`.
	pub failed_walk: Option<u64>,
	/// The validator's own figures (not checked).
	pub reported: SelfReported,
}

impl Verdict {
	/// A committee member's vote that it got no openings whose paths lead to the committed
	/// roots from the miner's endpoint by the reveal deadline.
	pub fn unserved(reported: SelfReported) -> Self {
		Verdict { passed: false, failed_leaf: None, failed_walk: None, reported }
	}

	/// A pass given in bulk by a member's attestation (`pallet_pog::attestation`): no figures of
	/// its own.
	pub fn attested() -> Self {
		let reported = SelfReported { entries_checked: 0, worst_permille: 0, walks_checked: 0 };
		Verdict { passed: true, failed_leaf: None, failed_walk: None, reported }
	}

	/// Whether this is an unserved vote ([`Self::unserved`]).
	pub fn is_unserved(&self) -> bool {
		!self.passed && self.failed_leaf.is_none() && self.failed_walk.is_none()
	}
}
