//! What PoG chain's pallets need of each other.
//!
//! `pallet-pog` proves what GPUs miners have and settles their rounds; `pallet-pog-rewards` mints
//! each settled round's emission and pays it. The proof declares what it needs of the pay
//! ([`RoundPay`]) and the pay what it needs of the proof ([`Payees`]); the runtime wires one to
//! the other. The traits sit in this crate, not in either pallet, so that neither pallet
//! depends on the other and each is tested with the other's real implementation or a stand-in
//! (as `sp-staking` holds the traits that session, staking and offences implement).
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

use alloc::vec::Vec;
use codec::{Decode, Encode};
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
	/// emission (the miners' part is paid from the next block on, [`Self::pay_some`]).
	fn round_settled(round: RoundIndex);
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
