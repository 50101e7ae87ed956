//! What the validator set asks of the proof ([`Rounds`]): which round runs, so that a validator
//! leaving now answers for its work in it, and who owes evidence of its votes
//! ([`crate::evidence`]); and the account each `pog!` key signs as ([`KeyAccount`]).

use alloc::vec::Vec;
use frame_system::offchain::AppCrypto;
use sp_runtime::traits::{Convert, IdentifyAccount};

use crate::{
	pallet::{Config, Pallet},
	rounds::{RoundIndex, RoundPhase},
};
use pog_traits::Rounds;

impl<T: Config> Rounds<T::AccountId> for Pallet<T> {
	fn latest_round() -> RoundIndex {
		Self::round().index
	}

	fn round_open() -> bool {
		Self::round().phase != RoundPhase::Idle
	}

	fn owing_evidence() -> Vec<T::AccountId> {
		Self::owing_evidence()
	}
}

/// The account a `pog!` key signs as: the committee member a seated validator's key makes.
pub struct KeyAccount<T>(core::marker::PhantomData<T>);

impl<T: Config> Convert<crate::crypto::Public, T::AccountId> for KeyAccount<T> {
	fn convert(key: crate::crypto::Public) -> T::AccountId {
		type Generic<T> = <<T as Config>::AuthorityId as AppCrypto<
			<T as frame_system::offchain::SigningTypes>::Public,
			<T as frame_system::offchain::SigningTypes>::Signature,
		>>::GenericPublic;
		let generic: Generic<T> = key.into();
		let public: T::Public = generic.into();
		public.into_account()
	}
}
