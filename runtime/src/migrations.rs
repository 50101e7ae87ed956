//! The runtime's migrations, run by `Executive` on the first block of a new runtime, in order.
//! Every pallet with stored state has a storage version; a layout change ships a versioned
//! migration with `pre_upgrade`/`post_upgrade` checks (pallet-pog's are in
//! `pallet_pog::migrations`, the pallets it left for theirs in their own crates).

use alloc::vec::Vec;
use frame_support::{traits::OnRuntimeUpgrade, weights::Weight};

use crate::{AccountId, Grandpa, Runtime, SessionKeys};

/// What a runtime upgrade runs, in order.
pub type Migrations = (
	InitSession,
	pallet_pog::migrations::v3::SeatValidators<Runtime, crate::configs::PogValidatorBond>,
	RecordSessions,
	pallet_pog::migrations::StartEvidence<Runtime>,
	pallet_pog::migrations::v4::CountDraws<Runtime>,
	pallet_pog::migrations::v5::LedgerMoved<
		Runtime,
		pallet_pog_rewards::migrations::v1::MoveFromPogUnchecked<Runtime, PogPalletName, PogVesting>,
	>,
	pallet_pog_rewards::migrations::InitMoneyLedger<Runtime>,
	pallet_pog::migrations::v6::ValidatorsMoved<
		Runtime,
		pallet_pog_validators::migrations::v1::MoveFromPogUnchecked<Runtime, PogPalletName, PogBond>,
	>,
);

frame_support::parameter_types! {
	/// Where the reward ledger's items were before spec 130, and the validator set's before 132:
	/// under pallet-pog's name.
	pub PogPalletName: &'static str = <crate::Pog as frame_support::traits::PalletInfoAccess>::name();
	/// The hold reason pallet-pog held vesting pay under before spec 130.
	pub PogVesting: crate::RuntimeHoldReason = crate::RuntimeHoldReason::Pog(pallet_pog::HoldReason::Vesting);
	/// The hold reason pallet-pog held validators' bonds under before spec 132.
	pub PogBond: crate::RuntimeHoldReason = crate::RuntimeHoldReason::Pog(pallet_pog::HoldReason::ValidatorBond);
}

/// Spec 108 adds pallet-session. A chain from an earlier spec has its validators as BABE
/// authorities, GRANDPA voters and PoG validators, in the same order and never changed since
/// genesis (`SameAuthoritiesForever`), each validator's account being its `pog!` key: those
/// become its session keys, and the set the session's first. Without this, the first epoch
/// change would hand BABE an empty set and halt the chain. Runs only while the session has no
/// validators.
pub struct InitSession;

impl InitSession {
	/// Each validator with its keys, if the three lists agree.
	fn carried() -> Option<Vec<(AccountId, SessionKeys)>> {
		// pallet-pog's layout of the time (the validator set moves later, `v6`)
		let pog = pallet_pog::migrations::old_set::Validators::<Runtime>::get();
		let babe = pallet_babe::Authorities::<Runtime>::get();
		let grandpa = Grandpa::grandpa_authorities();
		if pog.is_empty() || babe.len() != pog.len() || grandpa.len() != pog.len() {
			return None;
		}
		let keys = pog.iter().zip(babe.iter()).zip(grandpa.iter()).map(|((v, (b, _)), (g, _))| {
			let raw: [u8; 32] = v.clone().into();
			let keys = SessionKeys {
				babe: b.clone(),
				grandpa: g.clone(),
				pog: sp_core::sr25519::Public::from_raw(raw).into(),
			};
			(v.clone(), keys)
		});
		Some(keys.collect())
	}
}

impl OnRuntimeUpgrade for InitSession {
	fn on_runtime_upgrade() -> Weight {
		let db = <Runtime as frame_system::Config>::DbWeight::get();
		if !pallet_session::Validators::<Runtime>::get().is_empty() {
			return db.reads(1);
		}
		let Some(carried) = Self::carried() else {
			log::error!(target: pallet_pog::LOG_TARGET, "InitSession: BABE, GRANDPA and PoG disagree on the validators");
			return db.reads(4);
		};
		for (validator, keys) in &carried {
			pallet_session::NextKeys::<Runtime>::insert(validator, keys);
			for id in <SessionKeys as sp_runtime::traits::OpaqueKeys>::key_ids() {
				let raw = sp_runtime::traits::OpaqueKeys::get_raw(keys, *id).to_vec();
				pallet_session::KeyOwner::<Runtime>::insert((*id, raw), validator);
			}
			// Set without a deposit, as genesis keys are: purging them later releases nothing.
			pallet_session::ExternallySetKeys::<Runtime>::insert(validator, ());
		}
		pallet_session::Validators::<Runtime>::put(carried.iter().map(|(v, _)| v.clone()).collect::<Vec<_>>());
		pallet_session::QueuedKeys::<Runtime>::put(carried.clone());
		let n = carried.len() as u64;
		db.reads_writes(4, 2 + 5 * n)
	}

	#[cfg(feature = "try-runtime")]
	fn pre_upgrade() -> Result<Vec<u8>, sp_runtime::TryRuntimeError> {
		use codec::Encode;
		Ok(pallet_babe::Authorities::<Runtime>::get().to_vec().encode())
	}

	#[cfg(feature = "try-runtime")]
	fn post_upgrade(state: Vec<u8>) -> Result<(), sp_runtime::TryRuntimeError> {
		use codec::Decode;
		use frame_support::ensure;
		use sp_runtime::TryRuntimeError;
		let babe: Vec<(sp_consensus_babe::AuthorityId, u64)> =
			Decode::decode(&mut &state[..]).map_err(|_| TryRuntimeError::Other("pre_upgrade state"))?;
		let validators = pallet_session::Validators::<Runtime>::get();
		ensure!(validators.len() == babe.len(), TryRuntimeError::Other("session validators differ from BABE's"));
		for (v, (b, _)) in validators.iter().zip(babe.iter()) {
			let keys = pallet_session::Pallet::<Runtime>::load_keys(v).ok_or(TryRuntimeError::Other("no keys"))?;
			ensure!(keys.babe == *b, TryRuntimeError::Other("a BABE key moved"));
		}
		Ok(())
	}
}

/// Spec 109 adds historical sessions (equivocation proofs). A chain without a recorded session
/// gets one from the next session change on: the validator set hands the session its set again (its
/// record of what it handed last is cleared), and the session records the set's root. Runs only
/// while no session is recorded.
pub struct RecordSessions;

impl OnRuntimeUpgrade for RecordSessions {
	fn on_runtime_upgrade() -> Weight {
		let db = <Runtime as frame_system::Config>::DbWeight::get();
		if pallet_session::historical::StoredRange::<Runtime>::get().is_some() {
			return db.reads(1);
		}
		// pallet-pog's layout of the time (the validator set moves later, `v6`)
		pallet_pog::migrations::old_set::QueuedValidators::<Runtime>::kill();
		db.reads_writes(1, 1)
	}
}
