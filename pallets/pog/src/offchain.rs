//! The validators' off-chain worker.
//!
//! On every imported best block, a node holding a `pog!` key whose account is a PoG validator
//! verifies the current round's revealed challenges whose committee it is on and that it has not
//! voted on: it recomputes `entries_per_opening` entries of every opened leaf, chosen from the
//! node's local randomness, exactly (see `pog_primitives::verify`), and every opened walk from
//! the memory phase's cache alone (`pog_primitives::memory`: a 16 MiB cache at mainnet settings),
//! and submits a signed verdict. The arithmetic of both runs natively in the node, on every core
//! but one, through the host functions of [`crate::host`].
//! Committees split the work, so V validators verify about V / committee times what one does.
//!
//! A GPU whose openings are served off chain ([`crate::served`]) is verified from openings
//! fetched over HTTP from the miner's endpoint (`{endpoint}/openings/{round}/{gpu}`, the SCALE
//! encoding of its openings and walks, the member's account in the `X-Pog-Validator` header),
//! checked against the committed roots by the rule a reveal on chain is checked by. A member that
//! gets nothing valid votes *unserved* once the reveal window has closed, and until then tries
//! again at every block. A served GPU revealed on chain since (a rebuttal of unserved votes) is
//! verified from the chain like any revealed GPU.
//!
//! Runs are serialised by a storage lock. What was sent is remembered in one local-storage entry
//! for [`RESEND_AFTER`] blocks (older marks are pruned on every write), so overlapping runs and
//! consecutive blocks do not submit twice and local storage does not grow.

use alloc::vec::Vec;
use codec::{DecodeAll, Encode};
use frame_support::{traits::Get, BoundedVec};
use frame_system::{
	offchain::{Account, SendSignedTransaction, Signer},
	pallet_prelude::BlockNumberFor,
};
use pog_primitives::verify::{check_openings_with, CheckReport};
use sp_runtime::offchain::{
	http,
	storage::StorageValueRef,
	storage_lock::{BlockAndTime, StorageLock},
	Duration,
};

use crate::{host, pallet::*, types::*};

/// Local-storage key of the lock that serialises runs.
pub const LOCK_KEY: &[u8] = b"pog::ocw::lock";
/// Local-storage key of the marks of what was sent recently.
pub const SENT_KEY: &[u8] = b"pog::ocw::sent";
/// Blocks after which something sent but not yet on chain may be sent again.
pub const RESEND_AFTER: u32 = 5;
/// Most verifications by one validator in one run: one `submit_verdicts` ([`MaxVerdicts`]). The
/// checks run natively on every core but one (an H100's GEMM check about 0.3 s of one core, its
/// walks 0.1 s), so a validator of 32 cores does them in about a second.
pub const MAX_VERIFICATIONS_PER_RUN: usize = 64;
/// Wall time after which a run starts no more verifications (ms): what it has is sent, and the
/// next block's run goes on in the same order. A validator slower than the budget delivers less,
/// and the sample follows what it delivers ([`crate::throughput`]); a miner's endpoint that
/// answers slowly cannot hold a run for more than this plus one [`FETCH_TIMEOUT_MS`].
pub const RUN_TIME_MS: u64 = 4_000;
/// How long a member waits for a miner's endpoint to answer (ms).
pub const FETCH_TIMEOUT_MS: u64 = 5_000;
/// The largest openings response a member reads (an H100's openings are about 131 kB).
pub const MAX_OPENINGS_BYTES: usize = 1 << 20;
pub use pog_primitives::endpoint::VALIDATOR_HEADER;

/// Why the worker did nothing in a run, or skipped a challenge (as `pallet-im-online`'s
/// `OffchainErr`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OffchainErr {
	/// No local `pog!` key belongs to a validator: the node does not verify.
	NoLocalValidator,
	/// Another run holds the lock (it is still verifying): this block is skipped.
	Locked,
	/// The verdict was sent less than [`RESEND_AFTER`] blocks ago.
	AlreadySent,
	/// The challenge's commitment or openings are not on chain (pruned, or never revealed).
	NotRevealed,
	/// The signed verdict could not be put in the pool.
	SubmitFailed,
	/// The miner's endpoint served nothing whose paths lead to the committed roots (yet): the
	/// member tries again until the reveal window closes, then votes unserved.
	NotServed,
}

/// Run the off-chain worker for block `now`.
pub fn run<T: Config>(now: BlockNumberFor<T>) {
	match run_with_budget::<T>(now, MAX_VERIFICATIONS_PER_RUN) {
		Ok(0) => {},
		Ok(sent) => log::debug!(target: crate::LOG_TARGET, "{sent} verdicts sent"),
		Err(OffchainErr::NoLocalValidator) => {
			log::trace!(target: crate::LOG_TARGET, "no local PoG validator key; off-chain worker idle")
		},
		Err(e) => log::debug!(target: crate::LOG_TARGET, "off-chain worker skipped block: {e:?}"),
	}
}

/// Run the off-chain worker for block `now`, each local validator verifying at most `budget`
/// challenges (the time one run has; tests give it less to model members out of time). Returns
/// the verdicts sent.
pub fn run_with_budget<T: Config>(now: BlockNumberFor<T>, budget: usize) -> Result<u32, OffchainErr> {
	let validators = local_validators::<T>();
	if validators.is_empty() {
		return Err(OffchainErr::NoLocalValidator);
	}
	let mut lock = StorageLock::<BlockAndTime<frame_system::Pallet<T>>>::with_block_and_time_deadline(
		LOCK_KEY,
		2,
		Duration::from_millis(60_000),
	);
	let _guard = lock.try_lock().map_err(|_| OffchainErr::Locked)?;
	prune_sent_marks::<T>(now);
	// A node normally holds one validator key; with several, each acts as its own validator.
	Ok(validators.iter().map(|me| verify::<T>(me, now, budget)).sum())
}

/// The local `pog!` keys whose accounts are validators.
pub fn local_validators<T: Config>() -> Vec<Account<T>> {
	let validators = Validators::<T>::get();
	let signer = Signer::<T, T::AuthorityId>::all_accounts();
	let found = signer.accounts_from_keys().filter(|a| validators.contains(&a.id)).collect();
	found
}

fn send<T: Config>(me: &Account<T>, call: Call<T>) -> Result<(), OffchainErr> {
	let results = Signer::<T, T::AuthorityId>::all_accounts()
		.with_filter(alloc::vec![me.public.clone()])
		.send_signed_transaction(|_| call.clone());
	if results.iter().any(|(_, r)| r.is_ok()) {
		return Ok(());
	}
	log::warn!(target: crate::LOG_TARGET, "could not submit {:?}", call);
	Err(OffchainErr::SubmitFailed)
}

/// What was sent recently: (hash of what, block it was sent in).
type SentMarks = Vec<([u8; 16], u32)>;

/// Applies `update` to the sent-marks entry after dropping marks older than [`RESEND_AFTER`]
/// blocks; `update` returns whether the entry changes.
fn update_marks<T: Config>(now: BlockNumberFor<T>, update: impl FnOnce(&mut SentMarks) -> bool) -> bool {
	let now_n: u32 = now.try_into().unwrap_or(u32::MAX);
	let store = StorageValueRef::persistent(SENT_KEY);
	let res = store.mutate(|marks: Result<Option<SentMarks>, _>| {
		let mut marks: SentMarks = marks.ok().flatten().unwrap_or_default();
		marks.retain(|(_, at)| now_n < at.saturating_add(RESEND_AFTER));
		if update(&mut marks) {
			Ok(marks)
		} else {
			Err(())
		}
	});
	res.is_ok()
}

/// Whether `what` was sent less than [`RESEND_AFTER`] blocks ago; if not, mark it sent now.
fn first_send<T: Config>(what: &[u8], now: BlockNumberFor<T>) -> bool {
	let key = sp_io::hashing::blake2_128(what);
	let now_n: u32 = now.try_into().unwrap_or(u32::MAX);
	update_marks::<T>(now, |marks| {
		if marks.iter().any(|(k, _)| *k == key) {
			return false;
		}
		marks.push((key, now_n));
		true
	})
}

/// Forgets that `what` was sent (it was not, after all: a served GPU whose openings are not ready
/// yet is asked again at the next block, not after [`RESEND_AFTER`]).
fn unmark<T: Config>(what: &[u8], now: BlockNumberFor<T>) {
	let key = sp_io::hashing::blake2_128(what);
	update_marks::<T>(now, |marks| {
		let before = marks.len();
		marks.retain(|(k, _)| *k != key);
		marks.len() != before
	});
}

/// Drops the marks older than [`RESEND_AFTER`] blocks.
fn prune_sent_marks<T: Config>(now: BlockNumberFor<T>) {
	update_marks::<T>(now, |_| true);
}

/// Number of marks in the sent-marks entry (for tests and diagnostics).
pub fn sent_marks() -> usize {
	StorageValueRef::persistent(SENT_KEY).get::<SentMarks>().ok().flatten().map_or(0, |m| m.len())
}

/// The verification of `miner`'s revealed GPU `gpu` in `round` by this node: entries chosen from
/// `entropy`, and every opened walk. Returns the verdict, what the GEMM check found and the first
/// wrong walk.
pub fn verify_challenge<T: Config>(
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
	entropy: &Hash32,
) -> Option<(Verdict, CheckReport, Option<u64>)> {
	let openings = Openings::<T>::get((round, miner, gpu))?;
	let walks = WalkResults::<T>::get((round, miner, gpu)).unwrap_or_default();
	verify_openings::<T>(round, miner, gpu, &openings, &walks, entropy)
}

/// The verification of `miner`'s GPU `gpu` in `round` from its `openings` and its opened walks'
/// `walks` (walk, result, parents), already checked against the committed roots.
pub fn verify_openings<T: Config>(
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
	openings: &[Opening],
	walks: &[WalkResult],
	entropy: &Hash32,
) -> Option<(Verdict, CheckReport, Option<u64>)> {
	let commitment = Commitments::<T>::get(round, miner)?.get(gpu as usize).cloned().flatten()?;
	let spec = commitment.spec();
	let per_leaf = Configuration::<T>::get().entries_per_opening;
	// the arithmetic runs natively in the node (`host`); the rule and the verdict stay here
	let report =
		check_openings_with(&host::Host, &spec, openings.iter().map(|o| (o.leaf, &o.values[..])), per_leaf, entropy);
	let wrong_walk = match commitment.params.memory_challenge() {
		Some(challenge) if !walks.is_empty() => host::pog_verifier::first_wrong_walk(challenge, walks),
		_ => None,
	};
	let ratio_ppm = (report.worst_ratio_sq * 1e6).min(u64::MAX as f64) as u64;
	let failed_leaf = report.failure.map(|f| f.leaf);
	let verdict = Verdict {
		passed: report.passed() && wrong_walk.is_none(),
		failed_leaf,
		failed_walk: if failed_leaf.is_none() { wrong_walk } else { None },
		reported: SelfReported {
			entries_checked: report.checked,
			worst_permille: ratio_ppm.isqrt().min(u64::from(u32::MAX)) as u32,
			walks_checked: walks.len() as u32,
		},
	};
	Some((verdict, report, wrong_walk))
}

/// The openings of `miner`'s served GPU `gpu` in `round`, fetched by `me` from the miner's
/// endpoint and checked against the committed roots ([`Pallet::ensure_openings`]): the leaves,
/// and the walks as the committee recomputes them.
pub fn fetch_openings<T: Config>(
	me: &T::AccountId,
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
) -> Result<(OpeningsOf<T>, Vec<WalkResult>), OffchainErr> {
	let endpoint = Pallet::<T>::served_in(round, miner).ok_or(OffchainErr::NotRevealed)?;
	let selection = Pallet::<T>::round().selection.ok_or(OffchainErr::NotRevealed)?;
	let commitment = Commitments::<T>::get(round, miner)
		.and_then(|slots| slots.get(gpu as usize).cloned().flatten())
		.ok_or(OffchainErr::NotRevealed)?;
	let base = core::str::from_utf8(&endpoint).map_err(|_| OffchainErr::NotServed)?;
	let url = pog_primitives::endpoint::openings_url(base, round, gpu);
	let caller: alloc::string::String = me.encode().iter().map(|b| alloc::format!("{b:02x}")).collect();
	let deadline = sp_io::offchain::timestamp().add(Duration::from_millis(FETCH_TIMEOUT_MS));
	let pending = http::Request::get(&url)
		.add_header(VALIDATOR_HEADER, &caller)
		.deadline(deadline)
		.send()
		.map_err(|_| OffchainErr::NotServed)?;
	let response =
		pending.try_wait(deadline).map_err(|_| OffchainErr::NotServed)?.map_err(|_| OffchainErr::NotServed)?;
	if response.code != 200 {
		return Err(OffchainErr::NotServed);
	}
	let body: Vec<u8> = response.body().take(MAX_OPENINGS_BYTES + 1).collect();
	if body.len() > MAX_OPENINGS_BYTES {
		return Err(OffchainErr::NotServed);
	}
	let (openings, walks) =
		<(OpeningsOf<T>, WalkOpeningsOf)>::decode_all(&mut &body[..]).map_err(|_| OffchainErr::NotServed)?;
	Pallet::<T>::ensure_openings(&selection, &commitment, &openings, &walks).map_err(|_| OffchainErr::NotServed)?;
	let walks = Pallet::<T>::walk_results(commitment.params.memory_challenge(), &walks);
	Ok((openings, walks))
}

/// The current round's revealed or served challenges whose committee holds `me` and that `me`
/// has not voted on, in the round's verification order: by a hash of the round's sample seed (drawn
/// after every root landed), the miner and the GPU. No miner influences it: storage order (a
/// hash of the miner's account) let a miner grind an account that sorts last and have its
/// challenges dropped when members ran out of time. Every member goes in the same order, so
/// members out of time leave the same challenges undecided rather than each a different few:
/// a challenge needs ⌊2c/3⌋+1 of its c members, and with each member's own order, three members
/// with time for 2 of every 3 challenges would decide only (2/3)³ ≈ 30% of them, not 67%.
/// GPUs on probation (left undecided in the round before) come first, so an undecided
/// verification is decided in the next round unless that round's members have no time at all;
/// then the GPUs never verified (the first draw, [`crate::first_draw`]), whose first credit waits
/// on it; then the others.
pub fn assigned_to<T: Config>(me: &T::AccountId) -> Vec<(RoundIndex, T::AccountId, GpuIndex)> {
	let round = Pallet::<T>::round();
	let Some(selection) = round.selection.as_ref().filter(|_| round.phase == RoundPhase::Reveal) else {
		return Vec::new();
	};
	let revealed = Verifications::<T>::iter_prefix((round.index,))
		.filter(|(_, v)| v.committee.contains(me) && !v.votes.iter().any(|(x, _)| x == me))
		.map(|(key, _)| key);
	// served GPUs nobody has voted on yet have no verification record: their committees are drawn
	// here as the chain draws them at the first verdict
	let served = ServedIn::<T>::iter_key_prefix(round.index).flat_map(|miner| {
		let slots = Commitments::<T>::get(round.index, &miner).unwrap_or_default();
		(0..slots.len() as GpuIndex)
			.filter(|g| slots.get(*g as usize).is_some_and(|c| c.is_some()))
			.map(move |g| (miner.clone(), g))
			.collect::<Vec<_>>()
	});
	let unvoted_served = served.filter(|(miner, gpu)| {
		!Verifications::<T>::contains_key((round.index, miner, *gpu))
			&& Pallet::<T>::is_selected(selection, round.index, miner, *gpu)
			&& Pallet::<T>::committee_for(&selection.seed, miner, *gpu).contains(me)
	});
	let mut assigned: Vec<((u8, Hash32), T::AccountId, GpuIndex)> = revealed
		.chain(unvoted_served)
		.map(|(miner, gpu)| {
			let class = if Pallet::<T>::on_probation(round.index, &miner, gpu) {
				0
			} else if Pallet::<T>::in_first_draw(round.index, &miner, gpu) {
				1
			} else {
				2
			};
			((class, verification_rank(&selection.seed, &miner, gpu)), miner, gpu)
		})
		.collect();
	assigned.sort_by_key(|a| a.0);
	assigned.into_iter().map(|(_, miner, gpu)| (round.index, miner, gpu)).collect()
}

/// Where `miner`'s GPU `gpu` comes in the verification order of the round whose sample seed is
/// `seed` (lowest first).
pub fn verification_rank<AccountId: Encode>(seed: &Hash32, miner: &AccountId, gpu: GpuIndex) -> Hash32 {
	sp_io::hashing::blake2_256(&(b"pog/verify-order", seed, miner, gpu).encode())
}

/// Verifies up to `budget` of `me`'s assigned challenges in the round's order and sends their
/// verdicts in one `submit_verdicts` transaction (at most [`MaxVerdicts`] a transaction); returns
/// the verdicts sent.
fn verify<T: Config>(me: &Account<T>, now: BlockNumberFor<T>, budget: usize) -> u32 {
	let entropy = sp_io::offchain::random_seed();
	let mut verdicts: Vec<(RoundIndex, T::AccountId, GpuIndex, Verdict)> = Vec::new();
	// a miner whose endpoint served nothing is not asked again in this run: each try may wait
	// `FETCH_TIMEOUT_MS`
	let mut not_serving: Vec<T::AccountId> = Vec::new();
	let closed = Pallet::<T>::round().selection.is_some_and(|s| now > s.reveal_deadline);
	let started = sp_io::offchain::timestamp();
	for (round, miner, gpu) in assigned_to::<T>(&me.id) {
		if verdicts.len() >= budget || sp_io::offchain::timestamp().diff(&started).millis() >= RUN_TIME_MS {
			break;
		}
		let failed_before = not_serving.contains(&miner);
		if failed_before && !closed {
			continue;
		}
		match verify_one::<T>(me, now, &entropy, round, &miner, gpu, failed_before) {
			Ok(verdict) => {
				if verdict.is_unserved() && !failed_before {
					not_serving.push(miner.clone());
				}
				verdicts.push((round, miner, gpu, verdict))
			},
			Err(OffchainErr::NotServed) => not_serving.push(miner),
			Err(e) => log::trace!(target: crate::LOG_TARGET, "round {round} GPU {gpu} skipped: {e:?}"),
		}
	}
	let Some(&(round, ..)) = verdicts.first() else { return 0 };
	let mut sent = 0u32;
	for chunk in verdicts.chunks(<MaxVerdicts as Get<u32>>::get() as usize) {
		let list: Vec<(T::AccountId, GpuIndex, Verdict)> =
			chunk.iter().map(|(_, miner, gpu, verdict)| (miner.clone(), *gpu, *verdict)).collect();
		let n = list.len() as u32;
		// Refused by the pool: the verdicts are sent again after `RESEND_AFTER` blocks.
		if send::<T>(me, Call::submit_verdicts { round, verdicts: BoundedVec::truncate_from(list) }).is_ok() {
			sent += n;
		}
	}
	sent
}

/// Verifies `miner`'s GPU `gpu` in `round`: `me`'s verdict, unless `me` sent it recently. A
/// served GPU is fetched from the miner's endpoint, unless `not_serving` (it served nothing to
/// `me` in this run already).
fn verify_one<T: Config>(
	me: &Account<T>,
	now: BlockNumberFor<T>,
	entropy: &Hash32,
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
	not_serving: bool,
) -> Result<Verdict, OffchainErr> {
	// Served and not revealed on chain since (a rebuttal, `crate::served`): fetched from the
	// miner's endpoint. The two are marked apart, so that a member whose unserved vote a rebuttal
	// voided verifies the revealed openings at once.
	let served = Pallet::<T>::served_in(round, miner).is_some() && !Pallet::<T>::rebutted(round, miner, gpu);
	let mark = (if served { b's' } else { b'v' }, round, miner, gpu, &me.id).encode();
	if !first_send::<T>(&mark, now) {
		return Err(OffchainErr::AlreadySent);
	}
	let started = sp_io::offchain::timestamp();
	let checked = if served {
		let fetched =
			if not_serving { Err(OffchainErr::NotServed) } else { fetch_openings::<T>(&me.id, round, miner, gpu) };
		match fetched {
			Ok((openings, walks)) => verify_openings::<T>(round, miner, gpu, &openings, &walks, entropy),
			Err(OffchainErr::NotServed) => {
				if Pallet::<T>::round().selection.is_none_or(|s| now <= s.reveal_deadline) {
					unmark::<T>(&mark, now);
					return Err(OffchainErr::NotServed);
				}
				log::warn!(
					target: crate::LOG_TARGET,
					"round {round} miner {miner:?} GPU {gpu}: nothing valid served by the reveal deadline; voting unserved"
				);
				return Ok(Verdict::unserved(SelfReported { entries_checked: 0, worst_permille: 0, walks_checked: 0 }));
			},
			Err(e) => return Err(e),
		}
	} else {
		verify_challenge::<T>(round, miner, gpu, entropy)
	};
	let (verdict, report, wrong_walk) = checked.ok_or(OffchainErr::NotRevealed)?;
	let ms = sp_io::offchain::timestamp().diff(&started).millis();
	if let Some(f) = report.failure {
		log::warn!(
			target: crate::LOG_TARGET,
			"round {round} miner {miner:?} GPU {gpu} FAILS: leaf {} offset {} claimed {} exact {} ({:?}); verified in {ms} ms",
			f.leaf, f.offset, f.claimed, f.exact, f.fault
		);
	} else if let Some(walk) = wrong_walk {
		log::warn!(
			target: crate::LOG_TARGET,
			"round {round} miner {miner:?} GPU {gpu} FAILS: walk {walk} differs from the walk recomputed from the cache; verified in {ms} ms"
		);
	} else {
		log::info!(
			target: crate::LOG_TARGET,
			"round {round} miner {miner:?} GPU {gpu} passes: {} entries, worst {}‰ of the threshold, {} walks; verified in {ms} ms",
			verdict.reported.entries_checked, verdict.reported.worst_permille, verdict.reported.walks_checked
		);
	}
	Ok(verdict)
}
