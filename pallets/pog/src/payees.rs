//! What the reward ledger asks of the proof ([`Payees`]): the epoch's weight shares, whether a
//! miner is still registered, and how much of a block a page of payments may take.

use alloc::vec::Vec;
use frame_support::weights::Weight;
use sp_runtime::Perbill;

use crate::pallet::{Config, Configuration, Miners, Pallet, WeightShares};
use pog_traits::Payees;

impl<T: Config> Payees<T::AccountId> for Pallet<T> {
	fn shares() -> Vec<(T::AccountId, Perbill)> {
		WeightShares::<T>::get().into_inner()
	}

	fn is_payee(who: &T::AccountId) -> bool {
		Miners::<T>::contains_key(who)
	}

	/// A settlement batch: a payout block settles nothing (a round starts only once the last is
	/// paid), so it has the batch's share of the block.
	fn page_budget() -> (Weight, u32) {
		let batch = Configuration::<T>::get().settle_per_block.max(1);
		(Self::settle_weight(batch, None), batch)
	}

	fn paid_out() {
		Self::drop_departed_shares()
	}

	#[cfg(feature = "runtime-benchmarks")]
	fn bench_payees(n: u32) -> Vec<T::AccountId> {
		crate::benchmarking::payees::<T>(n)
	}
}
