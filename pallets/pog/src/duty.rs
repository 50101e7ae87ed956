//! PoG's own transactions before ordinary traffic: [`CheckDuty`].
//!
//! A miner's `commit_memory`, `commit_roots` and `reveal_openings` and a validator's
//! `submit_verdict` are
//! *duties*: each has a deadline, and a miner whose commit is kept out of every block of its
//! window fails the round. So they are `Operational` dispatches (the 25% of every block that
//! ordinary transactions cannot fill), and this transaction extension gives them the highest
//! pool priority. That is not free spam: the extension refuses a duty transaction, before it
//! reaches a block, from an account that has nothing due (not a miner taking part in the round,
//! nothing left to commit, not selected, already revealed, not on the committee, already voted),
//! and tags each duty so the pool keeps one transaction per (round, miner, GPU[, validator]).
//! A duty that succeeds is refunded its fee (it was owed, and is done once); one that fails in
//! dispatch pays. docs/protocol.md §15 works out what crowding out costs.

use alloc::vec::Vec;
use codec::{Decode, DecodeWithMemTracking, Encode};
use core::marker::PhantomData;
use frame_support::{
	dispatch::DispatchInfo,
	pallet_prelude::{Get, TransactionSource, Weight},
	traits::{IsSubType, OriginTrait},
	DefaultNoBound,
};
use scale_info::TypeInfo;
use sp_runtime::{
	impl_tx_ext_default,
	traits::{DispatchInfoOf, Dispatchable, TransactionExtension, ValidateResult},
	transaction_validity::{InvalidTransaction, TransactionPriority, ValidTransaction},
	DispatchError,
};

use crate::{pallet::*, types::*};

/// Priority of a duty transaction: the highest there is (it is added to the fee-based priority
/// and saturates), so a duty is tried before any ordinary transaction, whatever its tip.
pub const DUTY_PRIORITY: TransactionPriority = TransactionPriority::MAX;

/// The transaction extension that puts PoG duties first and refuses the ones nobody owes.
#[derive(Encode, Decode, DecodeWithMemTracking, DefaultNoBound, Clone, Eq, PartialEq, TypeInfo)]
#[scale_info(skip_type_params(T))]
pub struct CheckDuty<T>(PhantomData<T>);

impl<T: Config + Send + Sync> CheckDuty<T> {
	/// The extension (it carries no data).
	pub fn new() -> Self {
		Self(PhantomData)
	}
}

impl<T: Config + Send + Sync> core::fmt::Debug for CheckDuty<T> {
	fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
		write!(f, "CheckDuty")
	}
}

/// A duty a transaction performs, and the pool tags that keep one transaction per duty.
struct Duty {
	tags: Vec<Vec<u8>>,
}

impl<T: Config> Pallet<T> {
	/// Whether `call` by `who` is a PoG duty, and if so whether `who` owes it now: `None` for any
	/// other call, else the duty's pool tags or the error its dispatch would fail with.
	fn duty_of(who: &T::AccountId, call: &Call<T>) -> Option<Result<Duty, DispatchError>> {
		let tag =
			|kind: &[u8], round: RoundIndex, miner: &T::AccountId, gpu: GpuIndex, extra: Option<&T::AccountId>| {
				(b"pog", kind, round, miner, gpu, extra).encode()
			};
		Some(match call {
			Call::commit_memory { round, roots } => Self::memory_due(who, *round, roots)
				.map(|_| Duty { tags: roots.iter().map(|r| tag(b"memory", *round, who, r.gpu, None)).collect() }),
			Call::commit_roots { round, roots } => Self::commit_due(who, *round, roots)
				.map(|_| Duty { tags: roots.iter().map(|r| tag(b"commit", *round, who, r.gpu, None)).collect() }),
			Call::reveal_openings { round, gpu, .. } => Self::reveal_due(who, *round, *gpu)
				.map(|_| Duty { tags: alloc::vec![tag(b"reveal", *round, who, *gpu, None)] }),
			Call::submit_verdict { round, miner, gpu, .. } => Self::verdict_due(who, *round, miner, *gpu)
				.map(|_| Duty { tags: alloc::vec![tag(b"verdict", *round, miner, *gpu, Some(who))] }),
			_ => return None,
		})
	}

	/// The invalid-transaction code of a duty nobody owes: the index of the pallet error its
	/// dispatch would fail with (`InvalidTransaction::Custom(index)`, named in the metadata's
	/// error list of pallet-pog).
	fn undue_code(error: DispatchError) -> u8 {
		match error {
			DispatchError::Module(e) => e.error[0],
			_ => u8::MAX,
		}
	}
}

impl<T: Config + Send + Sync> TransactionExtension<<T as frame_system::Config>::RuntimeCall> for CheckDuty<T>
where
	<T as frame_system::Config>::RuntimeCall: IsSubType<Call<T>> + Dispatchable<Info = DispatchInfo>,
{
	const IDENTIFIER: &'static str = "CheckPogDuty";
	type Implicit = ();
	type Val = ();
	type Pre = ();

	fn weight(&self, call: &<T as frame_system::Config>::RuntimeCall) -> Weight {
		// The round, the miner or validator set, and one commitment or verification record.
		match call.is_sub_type() {
			Some(
				Call::commit_memory { .. }
				| Call::commit_roots { .. }
				| Call::reveal_openings { .. }
				| Call::submit_verdict { .. },
			) => T::DbWeight::get().reads(3),
			_ => Weight::zero(),
		}
	}

	fn validate(
		&self,
		origin: T::RuntimeOrigin,
		call: &<T as frame_system::Config>::RuntimeCall,
		_info: &DispatchInfoOf<<T as frame_system::Config>::RuntimeCall>,
		_len: usize,
		_self_implicit: Self::Implicit,
		_inherited_implication: &impl Encode,
		_source: TransactionSource,
	) -> ValidateResult<Self::Val, <T as frame_system::Config>::RuntimeCall> {
		let (Some(pog_call), Some(who)) = (call.is_sub_type(), origin.as_signer()) else {
			return Ok((ValidTransaction::default(), (), origin));
		};
		match Pallet::<T>::duty_of(who, pog_call) {
			None => Ok((ValidTransaction::default(), (), origin)),
			Some(Err(e)) => Err(InvalidTransaction::Custom(Pallet::<T>::undue_code(e)).into()),
			Some(Ok(duty)) => {
				let valid = ValidTransaction { priority: DUTY_PRIORITY, provides: duty.tags, ..Default::default() };
				Ok((valid, (), origin))
			},
		}
	}

	impl_tx_ext_default!(<T as frame_system::Config>::RuntimeCall; prepare);
}
