//! # PoG reward ledger
//!
//! `pallet-pog-rewards` pays for what `pallet-pog` proves. When the proof has settled a round
//! ([`pog_traits::RoundPay::round_settled`]) it mints the round's emission ([`rules`]): the
//! validators' part by the verdicts each cast that agreed with the decided outcome, the
//! treasury's at once, and the miners' part by weight share, a page a block ([`payout`]), held to
//! vest over the next settlements ([`earnings`]). A failed GPU burns its share of its miner's
//! unvested pay; a miner that leaves forfeits the rest to the treasury. The [`ledger`] counts
//! every unit PoG mints and burns, and `try_state` checks the supply against it.
//!
//! The proof reaches this pallet only through [`pog_traits::RoundPay`], and this pallet reaches
//! the proof only through [`pog_traits::Payees`] (whom to pay, in what shares); the runtime wires
//! them.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub use pallet::*;

#[cfg(feature = "runtime-benchmarks")]
mod benchmarking;
pub mod earnings;
pub mod ledger;
pub mod migrations;
#[cfg(test)]
mod mock;
pub mod payout;
pub mod rules;
#[cfg(test)]
mod tests;
pub mod view;
pub mod weights;

pub use weights::WeightInfo;

#[frame_support::pallet]
pub mod pallet {
	use super::*;
	use crate::{
		earnings::Earnings,
		ledger::MoneyLedger,
		payout::{Emission, Payout},
		rules::{RewardRule, RewardRules},
	};
	use frame_support::{
		pallet_prelude::*,
		traits::fungible::{Inspect, Mutate, MutateHold},
	};
	use frame_system::pallet_prelude::*;
	use pog_traits::{Earned, Payees, RoundIndex, RoundPay};

	/// Balance of the currency paid.
	pub type BalanceOf<T> = <<T as Config>::Currency as Inspect<<T as frame_system::Config>::AccountId>>::Balance;

	/// The storage layout's version ([`crate::migrations`]).
	const STORAGE_VERSION: StorageVersion = StorageVersion::new(1);

	#[pallet::pallet]
	#[pallet::storage_version(STORAGE_VERSION)]
	pub struct Pallet<T>(_);

	/// Configuration of the pallet.
	#[pallet::config]
	pub trait Config: frame_system::Config<RuntimeEvent: From<Event<Self>>> {
		/// The currency minted, held to vest and burned.
		type Currency: MutateHold<Self::AccountId, Reason = Self::RuntimeHoldReason> + Mutate<Self::AccountId>;
		/// The overarching hold reason.
		type RuntimeHoldReason: From<HoldReason>;
		/// Whom a settled round pays, in what shares (the runtime: pallet-pog).
		type Payees: Payees<Self::AccountId>;
		/// The treasury account: its part of each round's emission, what nobody earned, and
		/// forfeited unvested earnings are paid to it.
		type Treasury: Get<Self::AccountId>;
		/// Most miners a page of payments pays (the runtime: pallet-pog's `MaxMiners`).
		#[pallet::constant]
		type MaxPayees: Get<u32>;
		/// Most validators paid for a round's verdicts (the runtime: pallet-pog's
		/// `MaxValidators`).
		#[pallet::constant]
		type MaxValidators: Get<u32>;
		/// Weights of the calls and of paying.
		type WeightInfo: WeightInfo;
	}

	/// Reasons for holding funds.
	#[pallet::composite_enum]
	pub enum HoldReason {
		/// A miner's earnings still vesting ([`crate::earnings`]).
		Vesting,
	}

	/// The reward schedule and split ([`crate::rules`]).
	#[pallet::storage]
	pub type Rewards<T> = StorageValue<_, RewardRules, ValueQuery>;

	/// Everything the rounds' emission minted.
	#[pallet::storage]
	pub type Emitted<T: Config> = StorageValue<_, BalanceOf<T>, ValueQuery>;

	/// What PoG minted and burned since the total issuance it was opened at ([`crate::ledger`]).
	#[pallet::storage]
	pub type Ledger<T: Config> = StorageValue<_, MoneyLedger<BalanceOf<T>>, OptionQuery>;

	/// The last settled round's emission and its split.
	#[pallet::storage]
	pub type LastEmission<T: Config> = StorageValue<_, Emission<BalanceOf<T>>, OptionQuery>;

	/// Each miner's earnings: paid, released, burned, and its payments still vesting.
	#[pallet::storage]
	pub type EarningsOf<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, Earnings<BalanceOf<T>>, ValueQuery>;

	/// The miners' part of the last settled round's emission, while it is paid a page a block.
	#[pallet::storage]
	pub type PendingPayout<T: Config> = StorageValue<_, Payout<BalanceOf<T>>, OptionQuery>;

	/// Verdicts of each validator that agreed with the decided outcome, in the round being
	/// settled (what validators are paid by; drained when the round's emission is paid).
	#[pallet::storage]
	pub type AgreedVerdicts<T: Config> = StorageMap<_, Blake2_128Concat, T::AccountId, u32, ValueQuery>;

	/// Genesis: the reward schedule, and the money ledger opened at the genesis issuance.
	#[pallet::genesis_config]
	#[derive(frame_support::DefaultNoBound)]
	pub struct GenesisConfig<T: Config> {
		/// Reward schedule (mainnet defaults if absent).
		pub rules: Option<RewardRules>,
		#[serde(skip)]
		#[allow(missing_docs)]
		pub _config: core::marker::PhantomData<T>,
	}

	#[pallet::genesis_build]
	impl<T: Config> BuildGenesisConfig for GenesisConfig<T> {
		fn build(&self) {
			if let Some(rules) = self.rules {
				assert!(rules.validate().is_ok(), "genesis PoG reward schedule is invalid");
				Rewards::<T>::put(rules);
			}
			Pallet::<T>::open_ledger();
		}
	}

	/// Events an auditor can follow.
	#[pallet::event]
	#[pallet::generate_deposit(pub(super) fn deposit_event)]
	pub enum Event<T: Config> {
		/// A settled round's emission was minted: the validators' and the treasury's parts at
		/// once, the miners' part paid in the next blocks (`MinerPaid`).
		RoundEmission {
			/// The round.
			round: RoundIndex,
			/// All it minted.
			emission: BalanceOf<T>,
			/// The miners' part (0 with no scored miner: it went to the treasury).
			miners: BalanceOf<T>,
			/// Paid to validators (their part less what no agreeing verdict earned).
			validators: BalanceOf<T>,
			/// Paid to the treasury.
			treasury: BalanceOf<T>,
		},
		/// A miner was paid its weight share of a round's miners' part, held to vest.
		MinerPaid {
			/// The round.
			round: RoundIndex,
			/// The miner.
			miner: T::AccountId,
			/// The amount.
			amount: BalanceOf<T>,
		},
		/// A validator was paid for its agreeing verdicts of a round.
		ValidatorPaid {
			/// The round.
			round: RoundIndex,
			/// The validator.
			validator: T::AccountId,
			/// The amount.
			amount: BalanceOf<T>,
		},
		/// Failed GPUs burned their share of a miner's unvested earnings.
		UnvestedBurned {
			/// The miner.
			miner: T::AccountId,
			/// The amount burned.
			amount: BalanceOf<T>,
		},
		/// A departing miner's unvested earnings went to the treasury.
		UnvestedForfeited {
			/// The miner.
			miner: T::AccountId,
			/// The amount.
			amount: BalanceOf<T>,
		},
		/// An evicted miner's unvested pay was released to it (it made room, it did not fail).
		UnvestedReleased {
			/// The miner.
			miner: T::AccountId,
			/// What was released.
			amount: BalanceOf<T>,
		},
		/// Root changed the reward schedule.
		RewardsUpdated {
			/// The new schedule.
			rules: RewardRules,
		},
	}

	/// Errors, each naming what is wrong.
	#[pallet::error]
	pub enum Error<T> {
		/// The reward schedule breaks the rule named (`RewardRule`: which field to fix).
		InvalidRewards(RewardRule),
	}

	#[pallet::hooks]
	impl<T: Config> Hooks<BlockNumberFor<T>> for Pallet<T> {
		#[cfg(feature = "try-runtime")]
		fn try_state(_n: BlockNumberFor<T>) -> Result<(), sp_runtime::TryRuntimeError> {
			Self::do_try_state()
		}
	}

	#[pallet::call]
	impl<T: Config> Pallet<T> {
		/// Root: set the reward schedule and split (from the next settled round on).
		#[pallet::call_index(0)]
		#[pallet::weight(T::WeightInfo::set_rewards())]
		pub fn set_rewards(origin: OriginFor<T>, rules: RewardRules) -> DispatchResult {
			ensure_root(origin)?;
			Self::do_set_rewards(rules)
		}
	}

	impl<T: Config> Pallet<T> {
		pub(crate) fn do_set_rewards(rules: RewardRules) -> DispatchResult {
			rules.validate().map_err(Error::<T>::InvalidRewards)?;
			Rewards::<T>::put(rules);
			Self::deposit_event(Event::RewardsUpdated { rules });
			Ok(())
		}

		/// The ledger's invariants: the supply is at most what the ledger allows, and every
		/// miner's vesting hold is its unvested earnings, for a registered miner.
		#[cfg(any(test, feature = "try-runtime"))]
		pub fn do_try_state() -> Result<(), sp_runtime::TryRuntimeError> {
			use frame_support::traits::fungible::InspectHold;
			Self::check_money()?;
			let vesting: T::RuntimeHoldReason = HoldReason::Vesting.into();
			for (who, earnings) in EarningsOf::<T>::iter() {
				ensure!(
					T::Currency::balance_on_hold(&vesting, &who) == earnings.unvested(),
					sp_runtime::TryRuntimeError::Other("vesting held differs from the miner's unvested earnings")
				);
				ensure!(T::Payees::is_payee(&who), sp_runtime::TryRuntimeError::Other("earnings of a miner that left"));
			}
			Ok(())
		}
	}

	impl<T: Config> RoundPay<T::AccountId, BalanceOf<T>> for Pallet<T> {
		fn vest(who: &T::AccountId, failed: u64, all: u64) -> BalanceOf<T> {
			Self::vest(who, failed, all)
		}

		fn forfeit(who: &T::AccountId) {
			Self::forfeit_unvested(who)
		}

		fn release(who: &T::AccountId) {
			Self::release_unvested(who)
		}

		fn agreed(member: &T::AccountId) {
			Self::count_agreed(member)
		}

		fn round_settled(round: RoundIndex, seats: &[(T::AccountId, T::AccountId)]) {
			Self::emit_round(round, seats)
		}

		fn round_settled_weight() -> Weight {
			T::WeightInfo::emit_round(T::MaxValidators::get())
		}

		fn paying() -> bool {
			PendingPayout::<T>::exists()
		}

		fn pay_some() -> Weight {
			Self::payout_weight(Self::pay_some_miners())
		}

		fn burned(amount: BalanceOf<T>) {
			Self::note_burned(amount)
		}

		fn earnings(who: &T::AccountId) -> Earned<BalanceOf<T>> {
			let e = EarningsOf::<T>::get(who);
			Earned { paid: e.paid, vesting: e.unvested(), released: e.released, burned: e.burned }
		}

		#[cfg(feature = "runtime-benchmarks")]
		fn fill_vesting(who: &T::AccountId) {
			Self::fill_vesting(who)
		}
	}
}
