//! The validators' off-chain worker.
//!
//! On every imported best block, a node holding a `pog!` key whose account is a PoG validator:
//! 1. **expires** unfinished challenges whose deadline or window has passed;
//! 2. **issues** rounds to due miners assigned to it (`blake2(miner, next_due) mod validators`),
//!    or to any due miner once `assignment_grace` blocks have passed, so one validator issues
//!    each round and a silent one is covered;
//! 3. **verifies** revealed challenges it has not voted on: recomputes `entries_per_opening`
//!    entries of every opened leaf, chosen from the node's local randomness, exactly (see
//!    `pog_primitives::verify`), and submits a signed verdict.
//!
//! Runs are serialised by a storage lock, and what was sent is remembered in local storage for
//! [`RESEND_AFTER`] blocks, so overlapping runs and consecutive blocks do not submit twice.

use alloc::vec::Vec;
use codec::Encode;
use frame_support::pallet_prelude::*;
use frame_system::{
	offchain::{Account, SendSignedTransaction, Signer},
	pallet_prelude::BlockNumberFor,
};
use pog_primitives::verify::{check_openings, CheckReport};
use sp_runtime::{
	offchain::{
		storage::StorageValueRef,
		storage_lock::{BlockAndTime, StorageLock},
		Duration,
	},
	traits::Saturating,
};

use crate::{pallet::*, types::*};

/// Local-storage key of the lock that serialises runs.
pub const LOCK_KEY: &[u8] = b"pog::ocw::lock";
/// Blocks after which something sent but not yet on chain may be sent again.
pub const RESEND_AFTER: u32 = 5;
/// Most verifications in one run (each is up to a few seconds of CPU).
pub const MAX_VERIFICATIONS_PER_RUN: usize = 4;
/// Most rounds issued in one run.
pub const MAX_ISSUES_PER_RUN: usize = 16;

/// Run the off-chain worker for block `now`.
pub fn run<T: Config>(now: BlockNumberFor<T>) {
	let validators = local_validators::<T>();
	if validators.is_empty() {
		log::trace!(target: crate::LOG_TARGET, "no local PoG validator key; off-chain worker idle");
		return;
	}
	let mut lock = StorageLock::<BlockAndTime<frame_system::Pallet<T>>>::with_block_and_time_deadline(
		LOCK_KEY,
		2,
		Duration::from_millis(60_000),
	);
	let Ok(_guard) = lock.try_lock() else {
		log::debug!(target: crate::LOG_TARGET, "another off-chain worker run holds the lock; skipping block");
		return;
	};
	// A node normally holds one validator key; with several, each acts as its own validator.
	expire::<T>(&validators[0], now);
	for me in &validators {
		issue::<T>(me, now);
		verify::<T>(me, now);
	}
}

/// The local `pog!` keys whose accounts are validators.
pub fn local_validators<T: Config>() -> Vec<Account<T>> {
	let validators = Validators::<T>::get();
	let signer = Signer::<T, T::AuthorityId>::all_accounts();
	let found = signer.accounts_from_keys().filter(|a| validators.contains(&a.id)).collect();
	found
}

fn send<T: Config>(me: &Account<T>, call: Call<T>) -> bool {
	let results = Signer::<T, T::AuthorityId>::all_accounts()
		.with_filter(alloc::vec![me.public.clone()])
		.send_signed_transaction(|_| call.clone());
	let ok = results.iter().any(|(_, r)| r.is_ok());
	if !ok {
		log::warn!(target: crate::LOG_TARGET, "could not submit {:?}", call);
	}
	ok
}

/// Whether `what` was sent less than [`RESEND_AFTER`] blocks ago; if not, mark it sent now.
fn first_send<T: Config>(what: &[u8], now: BlockNumberFor<T>) -> bool {
	let key = [b"pog::sent::".as_slice(), what].concat();
	let store = StorageValueRef::persistent(&key);
	let now_n: u32 = now.try_into().unwrap_or(u32::MAX);
	let res = store.mutate(|last: Result<Option<u32>, _>| match last {
		Ok(Some(at)) if now_n < at.saturating_add(RESEND_AFTER) => Err(()),
		_ => Ok(now_n),
	});
	res.is_ok()
}

fn expire<T: Config>(me: &Account<T>, now: BlockNumberFor<T>) {
	let now_ms = Pallet::<T>::now_ms();
	let due: Vec<ChallengeId> = InFlight::<T>::iter_keys()
		.filter(|id| Challenges::<T>::get(id).is_some_and(|ch| Pallet::<T>::expiry_of(&ch, now, now_ms).is_some()))
		.filter(|id| first_send::<T>(&(b'x', *id).encode(), now))
		.take(64)
		.collect();
	if !due.is_empty() {
		log::info!(target: crate::LOG_TARGET, "expiring {} challenge(s)", due.len());
		send::<T>(me, Call::expire_challenges { ids: BoundedVec::truncate_from(due) });
	}
}

/// The validator assigned to issue `miner`'s round due at `due`.
pub fn assigned_validator<T: Config>(miner: &T::AccountId, due: BlockNumberFor<T>) -> Option<T::AccountId> {
	let validators = Validators::<T>::get();
	if validators.is_empty() {
		return None;
	}
	let h = sp_io::hashing::blake2_256(&(b"pog/assign", miner, due).encode());
	let i = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize % validators.len();
	validators.get(i).cloned()
}

fn issue<T: Config>(me: &Account<T>, now: BlockNumberFor<T>) {
	let config = Configuration::<T>::get();
	let mut budget = config.max_challenges_per_block;
	let mut sent = 0usize;
	for (miner, info) in Miners::<T>::iter() {
		if sent >= MAX_ISSUES_PER_RUN {
			break;
		}
		if !Pallet::<T>::is_due(&info, now) {
			continue;
		}
		let mine = assigned_validator::<T>(&miner, info.next_due).as_ref() == Some(&me.id);
		let overdue = now >= info.next_due.saturating_add(config.assignment_grace.into());
		let gpus = info.gpu_count();
		if !(mine || overdue) || gpus > budget {
			continue;
		}
		if !first_send::<T>(&(b'i', &miner, info.next_due).encode(), now) {
			continue;
		}
		log::info!(target: crate::LOG_TARGET, "issuing a round of {} challenge(s) to {:?}", gpus, miner);
		if send::<T>(me, Call::issue_challenges { miner }) {
			budget -= gpus;
			sent += 1;
		}
	}
}

/// The verification of a revealed challenge by this node: entries chosen from `entropy`.
pub fn verify_challenge<T: Config>(id: ChallengeId, entropy: &Hash32) -> Option<(Verdict, CheckReport)> {
	let ch = Challenges::<T>::get(id)?;
	if ch.status != ChallengeStatus::Revealed {
		return None;
	}
	let openings = Openings::<T>::get(id)?;
	let spec = ch.spec();
	let per_leaf = Configuration::<T>::get().entries_per_opening;
	let report = check_openings(&spec, openings.iter().map(|o| (o.leaf, &o.values[..])), per_leaf, entropy);
	let ratio_ppm = (report.worst_ratio_sq * 1e6).min(u64::MAX as f64) as u64;
	let verdict = Verdict {
		passed: report.passed(),
		entries_checked: report.checked,
		worst_permille: ratio_ppm.isqrt().min(u64::from(u32::MAX)) as u32,
		failed_leaf: report.failure.map(|f| f.leaf),
	};
	Some((verdict, report))
}

fn verify<T: Config>(me: &Account<T>, now: BlockNumberFor<T>) {
	let pending: Vec<ChallengeId> = InFlight::<T>::iter_keys()
		.filter(|id| {
			Challenges::<T>::get(id)
				.is_some_and(|ch| ch.status == ChallengeStatus::Revealed && !ch.votes.iter().any(|(v, _)| v == &me.id))
		})
		.collect();
	let entropy = sp_io::offchain::random_seed();
	for id in pending.into_iter().take(MAX_VERIFICATIONS_PER_RUN) {
		if !first_send::<T>(&(b'v', id, &me.id).encode(), now) {
			continue;
		}
		let started = sp_io::offchain::timestamp();
		let Some((verdict, report)) = verify_challenge::<T>(id, &entropy) else { continue };
		let ms = sp_io::offchain::timestamp().diff(&started).millis();
		if let Some(f) = report.failure {
			log::warn!(
				target: crate::LOG_TARGET,
				"challenge {id} FAILS: leaf {} offset {} claimed {} exact {} ({:?}); verified in {ms} ms",
				f.leaf, f.offset, f.claimed, f.exact, f.fault
			);
		} else {
			log::info!(
				target: crate::LOG_TARGET,
				"challenge {id} passes: {} entries, worst {}‰ of the threshold; verified in {ms} ms",
				verdict.entries_checked, verdict.worst_permille
			);
		}
		send::<T>(me, Call::submit_verdict { id, verdict });
	}
}
