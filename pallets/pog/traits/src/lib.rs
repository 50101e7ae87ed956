//! What PoG chain's pallets need of each other.
//!
//! `pallet-pog` proves what GPUs miners have and settles their rounds; `pallet-pog-rewards` mints
//! each settled round's emission and pays it; `pallet-pog-validators` keeps the validator set, its
//! bonds and strikes. The proof declares what it needs of the pay ([`RoundPay`]) and of the set
//! ([`Committee`]); the pay what it needs of the proof ([`Payees`]), the set what it needs of the
//! rounds ([`Rounds`]); the runtime wires one to the other. The traits sit in this crate, not in either pallet, so that neither pallet
//! depends on the other and each is tested with the other's real implementation or a stand-in
//! (as `sp-staking` holds the traits that session, staking and offences implement).
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub mod migration;

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;
use sp_arithmetic::Perbill;
use sp_weights::Weight;

/// A network-wide round's index.
pub type RoundIndex = u32;

/// A miner's earnings as its auditor's view shows them.
#[derive(Clone, Copy, Encode, Decode, PartialEq, Eq, Debug, Default, TypeInfo)]
pub struct Earned<Balance> {
	/// Everything it was paid.
	pub paid: Balance,
	/// Still vesting (held).
	pub vesting: Balance,
	/// Released so far (spendable).
	pub released: Balance,
	/// Burned from its unvested balance for failed GPUs.
	pub burned: Balance,
}

/// What the proof needs of the reward ledger: vesting and forfeiting a miner's pay as its
/// rounds are settled, counting the verdicts validators are paid by, minting a settled round's
/// emission, and counting what the proof burns (fees, slashes) in the chain's money ledger.
pub trait RoundPay<AccountId, Balance> {
	/// At `who`'s settlement, its GPUs weighing `failed` of its `all` points failed: burns that
	/// share of its unvested pay, then releases one part of the rest. Returns what was burned.
	fn vest(who: &AccountId, failed: u64, all: u64) -> Balance;
	/// A departing miner's unvested pay goes to the treasury.
	fn forfeit(who: &AccountId);
	/// An evicted miner's unvested pay is released to it (it made room, it did not fail).
	fn release(who: &AccountId);
	/// A committee member's verdict agreed with the decided outcome in the round being settled.
	fn agreed(member: &AccountId);
	/// Every miner of `round` is settled and the weight shares are recomputed: mint its
	/// emission (the miners' part is paid from the next block on, [`Self::pay_some`]). `seats`:
	/// the (validator, `pog!` account) pairs the round's committees were drawn from; a member's
	/// part is paid to its validator's account, not to the `pog!` key's.
	fn round_settled(round: RoundIndex, seats: &[(AccountId, AccountId)]);
	/// The most [`Self::round_settled`] weighs.
	fn round_settled_weight() -> Weight;
	/// Whether a settled round's miners are still being paid: no round starts until they are.
	fn paying() -> bool;
	/// Pays the next page of miners, if any are owed; returns its weight.
	fn pay_some() -> Weight;
	/// The proof burned `amount` (a registration fee, a slashed deposit, a burned bond).
	fn burned(amount: Balance);
	/// `who`'s earnings.
	fn earnings(who: &AccountId) -> Earned<Balance>;
	/// Benchmarks only: gives `who` the longest vesting schedule there can be, held, so that a
	/// settlement's benchmark walks every tranche (by default nothing: a benchmark that needs it
	/// checks that it happened).
	fn fill_vesting(_who: &AccountId) {}
}

/// What the reward ledger needs of the proof: whom a round pays, in what shares, and how much
/// of a block a page of payments may take.
pub trait Payees<AccountId> {
	/// The epoch's weight shares (each scored miner's; they sum to exactly 100% when not empty).
	fn shares() -> Vec<(AccountId, Perbill)>;
	/// Whether `who` is still a registered miner (one that left is not paid).
	fn is_payee(who: &AccountId) -> bool;
	/// The weight a block of payments may take, and the fewest miners a page pays: a payout
	/// block settles nothing, so it has a settlement batch's share of the block.
	fn page_budget() -> (Weight, u32);
	/// The last page of a round's payout is paid (the proof may now drop departed miners'
	/// shares, which pages index by position).
	fn paid_out();
	/// Benchmarks only: `n` registered miners, each with a share of a full registry's weight
	/// shares (by default none: a benchmark that needs them checks that they exist).
	fn bench_payees(_n: u32) -> Vec<AccountId> {
		Vec::new()
	}
}

/// How a validator's committee work went, counted as each challenge it was assigned is settled.
#[derive(
	Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen, Default,
)]
pub struct ValidatorRecord {
	/// Revealed challenges it was a committee member of.
	pub assigned: u32,
	/// Verdicts that matched the final outcome.
	pub agreed: u32,
	/// Verdicts that contradicted the final outcome.
	pub contradicted: u32,
	/// Challenges it said nothing about.
	pub silent: u32,
}

impl ValidatorRecord {
	/// Adds `other`'s counts to these.
	pub fn add(&mut self, other: &ValidatorRecord) {
		self.assigned = self.assigned.saturating_add(other.assigned);
		self.agreed = self.agreed.saturating_add(other.agreed);
		self.contradicted = self.contradicted.saturating_add(other.contradicted);
		self.silent = self.silent.saturating_add(other.silent);
	}
}

/// What the proof needs of the validator set: who sits on committees, the work its members did,
/// and the judgment of that work once a round is settled.
pub trait Committee<AccountId> {
	/// The validators seated now, in session order, each with its committee member (the account
	/// of its `pog!` key): (validator, member).
	fn seated() -> Vec<(AccountId, AccountId)>;
	/// The most validators [`Self::seated`] ever returns (the set's bound): the proof's own bound
	/// on committee members must hold them all.
	fn max_seated() -> u32;
	/// Genesis: plans `validators`, before pallet-session's genesis asks the set for its first
	/// sessions (pallet-pog's genesis comes first in the runtime: pallets' genesis runs in the
	/// order of their indices, and pallet-session's index is below the set's own).
	fn plan_genesis(validators: Vec<AccountId>);
	/// Whether `validator` answers for its committee work with a bond (seated, planned, or
	/// leaving until its last round is judged).
	fn is_bonded(validator: &AccountId) -> bool;
	/// Counts `work` of committee member `member` in the round being settled.
	fn count_work(member: &AccountId, work: &ValidatorRecord);
	/// Round `round` is settled: judges each validator's work in it, as done by the members of
	/// `drawn` (the seats its committees were drawn from, (validator, member)); `sampled` when
	/// its committees were drawn from a larger set; `unproven`, the validators whose members left
	/// an audit of their evidence unanswered (a strike whatever their work). Returns the members'
	/// work in the round (which sizes the next samples).
	fn round_settled(
		round: RoundIndex,
		drawn: &[(AccountId, AccountId)],
		sampled: bool,
		unproven: &[AccountId],
	) -> Vec<ValidatorRecord>;
	/// The most [`Self::round_settled`] weighs.
	fn round_settled_weight() -> Weight;
	/// Benchmarks only: seats `n` validators with their members (by default none: a benchmark
	/// that needs them checks that they sit).
	fn bench_seat(_n: u32) -> Vec<(AccountId, AccountId)> {
		Vec::new()
	}
}

/// What the validator set needs of the rounds: whether a leaving validator may still sit on a
/// committee, and who owes evidence of its votes.
pub trait Rounds<AccountId> {
	/// The latest round: the one being run, or the last one settled.
	fn latest_round() -> RoundIndex;
	/// Whether the latest round is still open (from its start to its settlement): a validator
	/// that leaves now answers for its work in it.
	fn round_open() -> bool;
	/// Validators whose members owe the opening of their evidence on an audited GPU: their bonds
	/// are kept until they answer or the audit closes.
	fn owing_evidence() -> Vec<AccountId>;
}
