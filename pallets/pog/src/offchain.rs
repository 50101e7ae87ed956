//! The validators' off-chain worker.
//!
//! On every imported best block, a node holding a `pog!` key whose account is a PoG validator
//! verifies the current round's revealed challenges whose committee it is on and that it has not
//! voted on: it recomputes `entries_per_opening` entries of every opened leaf, the same entries
//! for every member (drawn from the challenge's sample seed, [`members_entropy`]), exactly (see
//! `pog_primitives::verify`), and every opened walk from
//! the memory phase's cache alone (`pog_primitives::memory`: a 16 MiB cache at mainnet settings),
//! and submits a signed verdict. The arithmetic of both runs natively in the node, on every core
//! but one, through the host functions of [`crate::host`].
//! Committees split the work, so V validators verify about V / committee times what one does.
//!
//! A GPU whose openings are served off chain ([`crate::served`]) is verified from openings
//! fetched over HTTP from the miner's endpoint (`{endpoint}/openings/{round}/{gpu}`, the SCALE
//! encoding of its openings and walks, the member's account in the `X-Pog-Validator` header),
//! checked against the committed roots by the rule a reveal on chain is checked by. Fetches go out
//! in parallel batches with one deadline for headers and bodies ([`fetch_all`]), so no endpoint
//! can hold a run. A member that gets nothing valid votes *unserved* once the reveal window has
//! closed and it failed twice (until [`crate::rounds::Selection::unserved_deadline`]), and until then asks
//! again every [`retry_after`] blocks (leaving the GPU open in its attestation meanwhile). A served GPU's pass
//! lands in the member's attestation, one `attest` a run whatever the GPUs it passes, with the
//! failing and unserved verdicts of the same stretch ([`crate::attestation`]); a revealed GPU's
//! verdict in `submit_verdicts`. A served GPU revealed on chain since (a rebuttal of unserved
//! votes) is verified from the chain like any revealed GPU.
//!
//! Every served GPU a member votes on with a result leaves its evidence in the member's local
//! storage (the hash of its first sampled leaf of C and that leaf's path, [`Kept`]); each
//! attestation carries the root of the member's evidence tree, and the member opens the evidence
//! of every audited GPU it owes ([`answer_audits`], [`crate::evidence`]).
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

use crate::config::MAX_VERIFICATIONS_PER_RUN;
use crate::rounds::{RoundIndex, RoundPhase, Selection};
use crate::types::{Hash32, MaxVerdicts};
use crate::verification::{Opening, SelfReported, Verdict, WalkResult};
use crate::{
	attestation::{AttestationOf, MaxOpen, Position},
	evidence::EvidenceRoot,
	host,
	pallet::*,
};
use pog_primitives::challenge::GpuIndex;

/// Local-storage key of the lock that serialises runs.
pub const LOCK_KEY: &[u8] = b"pog::ocw::lock";
/// Local-storage key of the marks of what was sent recently.
pub const SENT_KEY: &[u8] = b"pog::ocw::sent";
/// Blocks after which something sent but not yet on chain may be sent again.
pub const RESEND_AFTER: u32 = 5;
/// Wall time after which a run starts no more verifications (ms): what it has is sent, and the
/// next block's run goes on in the same order. A validator slower than the budget delivers less,
/// and the sample follows what it delivers ([`crate::throughput`]); miners' endpoints that answer
/// slowly or not at all cannot hold a run for more than this plus one batch of fetches
/// ([`FETCH_TIMEOUT_MS`], [`fetch_all`]).
pub const RUN_TIME_MS: u64 = 4_000;
/// How long a member waits for a batch of miners' endpoints to answer, headers and bodies (ms).
pub const FETCH_TIMEOUT_MS: u64 = 5_000;
/// Most served GPUs a member fetches at once ([`fetch_all`]): 64 H100 answers are 8.4 MB, which
/// a member's link must carry within [`FETCH_TIMEOUT_MS`] (13.4 Mbit/s).
pub const MAX_PARALLEL_FETCHES: usize = 64;
/// Most miners one batch of fetches asks: endpoints that never answer cost a member one batch's
/// deadline for up to this many miners' GPUs, which are then not asked again for [`retry_after`]
/// blocks.
pub const MAX_FETCHED_MINERS: usize = 64;
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
	/// The `pog!` account holds nothing above the existential deposit: it cannot pay its duties'
	/// fees up front (they are refunded when the duty lands), so nothing it signs enters the pool.
	Unfunded,
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
	let keys: Vec<Account<T>> = Signer::<T, T::AuthorityId>::all_accounts().accounts_from_keys().collect();
	// the local `pog!` keys whose accounts are validators of the round's committees
	// ([`Pallet::committee_pool`]: a validator that left the set since the draw still verifies
	// what it was assigned)
	let pool = Pallet::<T>::committee_pool();
	let validators: Vec<&Account<T>> = keys.iter().filter(|a| pool.contains(&a.id)).collect();
	// a key that left the pool since may still owe the evidence of its last round's votes
	let owing = |a: &Account<T>| Audits::<T>::iter_values().any(|audit| audit.owing.iter().any(|(_, m)| *m == a.id));
	if validators.is_empty() && !keys.iter().any(owing) {
		return Err(OffchainErr::NoLocalValidator);
	}
	let mut lock = StorageLock::<BlockAndTime<frame_system::Pallet<T>>>::with_block_and_time_deadline(
		LOCK_KEY,
		2,
		Duration::from_millis(60_000),
	);
	let _guard = lock.try_lock().map_err(|_| OffchainErr::Locked)?;
	prune_sent_marks::<T>(now);
	let answered: u32 = keys.iter().map(|me| answer_audits::<T>(me, now)).sum();
	// A node normally holds one validator key; with several, each acts as its own validator.
	Ok(answered + validators.iter().map(|me| verify::<T>(me, now, budget)).sum::<u32>())
}

fn send<T: Config>(me: &Account<T>, call: Call<T>) -> Result<(), OffchainErr> {
	if Pallet::<T>::drawn_seats().iter().any(|(validator, member)| validator == member && *member == me.id) {
		log::warn!(
			target: crate::LOG_TARGET,
			"the pog! key of {:?} is its validator's own account key: its duties take the nonce its operator signs \
			 with; set a pog! key of its own (author_rotateKeys, session.setKeys) and fund its account",
			me.id
		);
	}
	let results = Signer::<T, T::AuthorityId>::all_accounts()
		.with_filter(alloc::vec![me.public.clone()])
		.send_signed_transaction(|_| call.clone());
	if results.iter().any(|(_, r)| r.is_ok()) {
		return Ok(());
	}
	use frame_support::traits::{
		fungible::Inspect,
		tokens::{Fortitude, Preservation},
	};
	let spendable = T::Currency::reducible_balance(&me.id, Preservation::Preserve, Fortitude::Polite);
	if sp_runtime::traits::Zero::is_zero(&spendable) {
		log::warn!(
			target: crate::LOG_TARGET,
			"the pog! account {:?} cannot pay its duties' fees (paid up front, refunded when a duty lands): fund it",
			me.id
		);
		return Err(OffchainErr::Unfunded);
	}
	log::warn!(target: crate::LOG_TARGET, "could not submit {:?} (is the pog! account short of its fee?)", call);
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
/// yet is asked again at the next run, not after [`RESEND_AFTER`] blocks).
fn forget_sent<T: Config>(what: &[u8], now: BlockNumberFor<T>) {
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

/// What a member fetched of one served GPU: its openings and walks, checked against the
/// committed roots, or why not.
pub type Fetched<T> = Result<(OpeningsOf<T>, Vec<WalkResult>), OffchainErr>;

/// What was fetched of one GPU of a miner.
type FetchedGpu<T> = ((<T as frame_system::Config>::AccountId, GpuIndex), Fetched<T>);

/// The openings of `miner`'s served GPU `gpu` in `round`, fetched by `me` from the miner's
/// endpoint and checked against the committed roots ([`Pallet::ensure_openings`]): the leaves,
/// and the walks as the committee recomputes them. One request of [`fetch_all`].
pub fn fetch_openings<T: Config>(
	me: &T::AccountId,
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
) -> Fetched<T> {
	fetch_all::<T>(me, round, &[(miner.clone(), gpu)]).pop().unwrap_or(Err(OffchainErr::NotServed))
}

/// The openings of each of `targets` (served GPUs of `round`), fetched by `me` in parallel: every
/// request goes out at once, and all share one deadline of [`FETCH_TIMEOUT_MS`] for their headers
/// and bodies; a body longer than [`MAX_OPENINGS_BYTES`] (or announced longer) is refused. The
/// node buffers what each endpoint sends while the batch waits, and a read past the deadline
/// still takes what is buffered (sc-offchain waits on the deadline only when no bytes are
/// there), so a body that arrived in time is read whatever endpoint before it hung. However many
/// endpoints of a batch answer slowly, send headers and then nothing, or never answer, a batch
/// takes at most `FETCH_TIMEOUT_MS`: no endpoint can hold a member's run (the review's F2: a body
/// read without a deadline hung every committee member's worker for good). One result per
/// target, in order.
pub fn fetch_all<T: Config>(
	me: &T::AccountId,
	round: RoundIndex,
	targets: &[(T::AccountId, GpuIndex)],
) -> Vec<Fetched<T>> {
	let caller: alloc::string::String = me.encode().iter().map(|b| alloc::format!("{b:02x}")).collect();
	let deadline = sp_io::offchain::timestamp().add(Duration::from_millis(FETCH_TIMEOUT_MS));
	let selection = Pallet::<T>::round().selection;
	let start = |miner: &T::AccountId, gpu: GpuIndex| -> Result<http::PendingRequest, OffchainErr> {
		let endpoint = Pallet::<T>::served_in(round, miner).ok_or(OffchainErr::NotRevealed)?;
		let base = core::str::from_utf8(&endpoint).map_err(|_| OffchainErr::NotServed)?;
		let url = pog_primitives::endpoint::openings_url(base, round, gpu);
		http::Request::get(&url)
			.add_header(VALIDATOR_HEADER, &caller)
			.deadline(deadline)
			.send()
			.map_err(|_| OffchainErr::NotServed)
	};
	let mut pending = Vec::new();
	let refused: Vec<Option<OffchainErr>> = targets
		.iter()
		.map(|(miner, gpu)| match start(miner, *gpu) {
			Ok(request) => {
				pending.push(request);
				None
			},
			Err(e) => Some(e),
		})
		.collect();
	let mut answered = http::PendingRequest::try_wait_all(pending, deadline).into_iter();
	refused
		.into_iter()
		.zip(targets)
		.map(|(refused, (miner, gpu))| {
			if let Some(e) = refused {
				return Err(e);
			}
			let response = answered
				.next()
				.ok_or(OffchainErr::NotServed)?
				.map_err(|_| OffchainErr::NotServed)?
				.map_err(|_| OffchainErr::NotServed)?;
			let body = read_openings(response, deadline)?;
			let selection = selection.as_ref().ok_or(OffchainErr::NotRevealed)?;
			let commitment = Commitments::<T>::get(round, miner)
				.and_then(|slots| slots.get(*gpu as usize).cloned().flatten())
				.ok_or(OffchainErr::NotRevealed)?;
			let (openings, walks) =
				<(OpeningsOf<T>, WalkOpeningsOf)>::decode_all(&mut &body[..]).map_err(|_| OffchainErr::NotServed)?;
			Pallet::<T>::ensure_openings(selection, &commitment, &openings, &walks)
				.map_err(|_| OffchainErr::NotServed)?;
			let walks = Pallet::<T>::walk_results(commitment.params.memory_challenge(), &walks);
			Ok((openings, walks))
		})
		.collect()
}

/// The body of an openings response: a `200` of at most [`MAX_OPENINGS_BYTES`] (by its
/// `Content-Length`, if any, and by what arrives), read by `deadline`.
fn read_openings(
	mut response: http::Response,
	deadline: sp_runtime::offchain::Timestamp,
) -> Result<Vec<u8>, OffchainErr> {
	if response.code != 200 {
		return Err(OffchainErr::NotServed);
	}
	let announced = response.headers().find("content-length").and_then(|n| n.trim().parse::<u64>().ok());
	if announced.is_some_and(|n| n > MAX_OPENINGS_BYTES as u64) {
		return Err(OffchainErr::NotServed);
	}
	let mut body = response.body();
	body.deadline(deadline);
	let mut bytes = Vec::new();
	for byte in body.by_ref() {
		if bytes.len() >= MAX_OPENINGS_BYTES {
			return Err(OffchainErr::NotServed);
		}
		bytes.push(byte);
	}
	if body.error().is_some() {
		return Err(OffchainErr::NotServed);
	}
	Ok(bytes)
}

/// The current round's revealed or served challenges whose committee holds `me`, that `me` has
/// not voted on and that its attestation does not pass, in the round's verification order
/// ([`Pallet::verification_position`]): by a hash of the round's sample seed (drawn after every
/// root landed), the miner and the GPU. No miner influences it: storage order (a hash of the
/// miner's account) let a miner grind an account that sorts last and have its challenges
/// dropped when members ran out of time. Every member goes in the same order, so members out of
/// time leave the same challenges undecided rather than each a different few: a challenge needs
/// ⌊2c/3⌋+1 of its c members, and with each member's own order, three members with time for 2 of
/// every 3 challenges would decide only (2/3)³ ≈ 30% of them, not 67%. GPUs on probation (left
/// undecided in the round before) come first, so an undecided verification is decided in the next
/// round unless that round's members have no time at all; then the GPUs never verified (the first
/// draw, [`crate::first_draw`]), whose first credit waits on it; then the others. The same order
/// is what a member's attestation passes GPUs up to ([`crate::attestation`]).
pub fn assigned_to<T: Config>(me: &T::AccountId) -> Vec<(RoundIndex, T::AccountId, GpuIndex)> {
	assigned_with_positions::<T>(me).into_iter().map(|(_, round, miner, gpu)| (round, miner, gpu)).collect()
}

/// [`assigned_to`], each with its position in the verification order.
fn assigned_with_positions<T: Config>(me: &T::AccountId) -> Vec<(Position, RoundIndex, T::AccountId, GpuIndex)> {
	let round = Pallet::<T>::round();
	let Some(selection) = round.selection.as_ref().filter(|_| round.phase == RoundPhase::Reveal) else {
		return Vec::new();
	};
	let attestation = Attestations::<T>::get(round.index, me);
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
	let mut assigned: Vec<(Position, RoundIndex, T::AccountId, GpuIndex)> = revealed
		.chain(unvoted_served)
		.map(|(miner, gpu)| {
			(Pallet::<T>::verification_position(round.index, &selection.seed, &miner, gpu), round.index, miner, gpu)
		})
		.filter(|(position, _, miner, gpu)| {
			!(Pallet::<T>::attestable(round.index, miner, *gpu)
				&& attestation.as_ref().is_some_and(|a| a.passes(position, miner, *gpu)))
		})
		.collect();
	assigned.sort_by_key(|a| a.0);
	assigned
}

/// The attestation a member builds in one run ([`crate::attestation`]): its served GPUs in the
/// verification order, each passed, voted on or left open.
struct Bulk<T: Config> {
	/// The member's attestation on chain.
	before: Option<AttestationOf<T>>,
	/// Up to where this run got.
	upto: Option<Position>,
	/// GPUs left open: not served yet.
	open: Vec<(T::AccountId, GpuIndex)>,
	/// Open GPUs of the attestation on chain that this run served and passed.
	passed_open: Vec<(T::AccountId, GpuIndex)>,
	/// The failing and unserved verdicts that go with it.
	verdicts: Vec<(T::AccountId, GpuIndex, Verdict)>,
	/// GPUs passed.
	passed: u32,
	/// The attestation cannot move on in this run: one sent is not on chain yet, or a GPU could
	/// not be decided. The served GPUs after it wait for the next run.
	waiting: bool,
	/// The attestation holds all the verdicts or open GPUs one may carry: the served GPUs after
	/// it get single verdicts in this run (a miner that serves nothing to many members cannot
	/// hold their passes back until the reveal deadline).
	full: bool,
	/// The member's evidence of the round, this run's added ([`Kept`]).
	kept: Kept<T>,
	/// An attestation it sent is not on chain yet: a root alone does not move it (the one
	/// pending carries it, and another would compete with it in the pool).
	pending: bool,
}

impl<T: Config> Bulk<T> {
	/// Whether `miner`'s GPU `gpu` was open in the attestation on chain.
	fn was_open(&self, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		self.before.as_ref().is_some_and(|b| b.open.iter().any(|(m, g)| m == miner && *g == gpu))
	}

	/// Records what the run found about the GPU at `position`: a verdict (a pass or an exception)
	/// or, with `None`, nothing served yet (open).
	fn add(&mut self, position: Position, miner: T::AccountId, gpu: GpuIndex, verdict: Option<Verdict>) {
		let was_open = self.was_open(&miner, gpu);
		match verdict {
			Some(v) if v.passed => {
				self.passed += 1;
				if was_open {
					self.passed_open.push((miner, gpu));
				}
			},
			Some(v) => self.verdicts.push((miner, gpu, v)),
			None => self.open.push((miner, gpu)),
		}
		self.upto = self.upto.max(Some(position));
		let max = <MaxOpen as Get<u32>>::get() as usize;
		if self.verdicts.len() >= <MaxVerdicts as Get<u32>>::get() as usize || self.open.len() >= max {
			self.full = true;
		}
	}

	/// The `attest` call this run makes, if it moves the attestation: the open GPUs of the one on
	/// chain that this run did not decide stay open, and `evidence` is the root over everything the
	/// member kept of the round (the single verdicts this run sends after it included).
	fn call(self, round: RoundIndex, me: &T::AccountId, evidence: EvidenceRoot) -> Option<Call<T>> {
		let before_upto = self.before.as_ref().map(|b| b.upto);
		let upto = self.upto.max(before_upto)?;
		let mut open = self.open;
		if let Some(before) = &self.before {
			for (miner, gpu) in before.open.iter() {
				let decided = self.passed_open.iter().chain(open.iter()).any(|(m, g)| m == miner && g == gpu)
					|| self.verdicts.iter().any(|(m, g, _)| m == miner && g == gpu);
				let voted =
					Verifications::<T>::get((round, miner, *gpu)).is_some_and(|v| v.votes.iter().any(|(x, _)| x == me));
				if !decided && !voted && Pallet::<T>::attestable(round, miner, *gpu) {
					open.push((miner.clone(), *gpu));
				}
			}
		}
		let moved = Some(upto) > before_upto
			|| !self.verdicts.is_empty()
			|| self.before.as_ref().is_some_and(|b| open.len() < b.open.len())
			|| (!self.pending && EvidenceRoots::<T>::get(round, me) != Some(evidence));
		if !moved || open.len() > <MaxOpen as Get<u32>>::get() as usize {
			return None;
		}
		Some(Call::attest {
			round,
			upto,
			open: BoundedVec::truncate_from(open),
			verdicts: BoundedVec::truncate_from(self.verdicts),
			evidence,
		})
	}
}

/// Verifies up to `budget` of `me`'s assigned challenges in the round's order: a GPU served off
/// chain goes into `me`'s attestation, sent as one `attest` ([`crate::attestation`]); a GPU
/// revealed on chain gets an individual verdict, sent in `submit_verdicts` transactions (at most
/// [`MaxVerdicts`] each). Returns the GPUs passed by attestation and the verdicts sent.
fn verify<T: Config>(me: &Account<T>, now: BlockNumberFor<T>, budget: usize) -> u32 {
	let current = Pallet::<T>::round();
	let mut verdicts: Vec<(RoundIndex, T::AccountId, GpuIndex, Verdict)> = Vec::new();
	let before = Attestations::<T>::get(current.index, &me.id);
	let pending = attestation_pending::<T>(&me.id, current.index, &before, now);
	let mut bulk = Bulk::<T> {
		waiting: pending,
		pending,
		full: false,
		before,
		upto: None,
		open: Vec::new(),
		passed_open: Vec::new(),
		verdicts: Vec::new(),
		passed: 0,
		kept: Kept::load(&me.id, current.index),
	};
	if !pending {
		repair_evidence::<T>(&me.id, current.index, now, &mut bulk.kept);
	}
	// Served GPUs whose endpoints gave `me` nothing valid lately ([`NotServing`]), in this run or
	// an earlier one: not asked again meanwhile (left open), and voted unserved once the reveal
	// window has closed and they failed twice.
	let mut not_serving = NotServing::<T>::load(&me.id, current.index, now);
	// What the run fetched: served GPUs are fetched in parallel batches ([`fetch_all`]) as the
	// walk through the assignments reaches them, and a batch fetched is used whole, whatever
	// time it took.
	let mut fetched: Vec<FetchedGpu<T>> = Vec::new();
	let assigned = assigned_with_positions::<T>(&me.id);
	let started = sp_io::offchain::timestamp();
	let mut done = 0usize;
	for (i, (position, round, miner, gpu)) in assigned.iter().cloned().enumerate() {
		let in_batch = fetched.iter().any(|(key, _)| key.0 == miner && key.1 == gpu);
		let out_of_time = sp_io::offchain::timestamp().diff(&started).millis() >= RUN_TIME_MS;
		if done >= budget || (out_of_time && !in_batch) {
			break;
		}
		let served = Pallet::<T>::attestable(round, &miner, gpu);
		if served && bulk.waiting {
			continue;
		}
		let in_bulk = served && !bulk.full;
		if served && not_serving.waits(&miner, gpu) {
			if in_bulk {
				bulk.add(position, miner, gpu, None);
			}
			continue;
		}
		// a single verdict on a served GPU (the attestation full) is marked sent, as a revealed
		// GPU's is in `verify_one`, unless nothing came of it
		let single_mark = (served && !in_bulk).then(|| (b's', round, &miner, gpu, &me.id).encode());
		if single_mark.as_ref().is_some_and(|mark| !first_send::<T>(mark, now)) {
			continue;
		}
		done += 1;
		let checked = if served {
			let openings = if not_serving.gave_up(&miner, gpu) {
				Err(OffchainErr::NotServed)
			} else {
				if !in_batch {
					// this GPU and the next served ones, of up to MAX_FETCHED_MINERS miners, at once
					let mut miners: Vec<&T::AccountId> = Vec::new();
					let batch: Vec<(T::AccountId, GpuIndex)> = assigned[i..]
						.iter()
						.filter(|(_, r, m, g)| {
							Pallet::<T>::attestable(*r, m, *g)
								&& !not_serving.waits(m, *g)
								&& !not_serving.gave_up(m, *g)
						})
						.filter(|(_, _, m, _)| {
							if !miners.contains(&m) && miners.len() < MAX_FETCHED_MINERS {
								miners.push(m);
							}
							miners.contains(&m)
						})
						.map(|(_, _, m, g)| (m.clone(), *g))
						.take(MAX_PARALLEL_FETCHES)
						.collect();
					let results = fetch_all::<T>(&me.id, round, &batch);
					for ((m, g), result) in batch.iter().zip(&results) {
						match result {
							Err(OffchainErr::NotServed) => not_serving.fail(m, *g),
							Ok(_) => not_serving.served(m, *g),
							Err(_) => {},
						}
					}
					fetched = batch.into_iter().zip(results).collect();
				}
				let at = fetched.iter().position(|(key, _)| key.0 == miner && key.1 == gpu);
				at.map(|at| fetched.swap_remove(at).1).unwrap_or(Err(OffchainErr::NotServed))
			};
			// the evidence of the fetch: the first sampled leaf's hash and path
			let first = openings
				.as_ref()
				.ok()
				.and_then(|(o, _)| o.first())
				.map(|o| (o.leaf, pog_primitives::commitment::leaf_hash(&o.values), o.proof.to_vec()));
			let verdict = verify_served::<T>(now, round, &miner, gpu, openings, not_serving.gave_up(&miner, gpu));
			if let (Ok(v), Some((leaf, hash, path))) = (&verdict, first) {
				if !v.is_unserved() {
					bulk.kept.add(miner.clone(), gpu, leaf, hash, path);
				}
			}
			verdict
		} else {
			verify_one::<T>(me, now, round, &miner, gpu)
		};
		if let (Some(mark), Err(_)) = (&single_mark, &checked) {
			forget_sent::<T>(mark, now);
		}
		match checked {
			Ok(verdict) => {
				if in_bulk {
					bulk.add(position, miner, gpu, Some(verdict));
				} else {
					verdicts.push((round, miner, gpu, verdict));
				}
			},
			Err(OffchainErr::NotServed) => {
				if in_bulk {
					bulk.add(position, miner.clone(), gpu, None);
				}
			},
			Err(e) => {
				log::trace!(target: crate::LOG_TARGET, "round {round} GPU {gpu} skipped: {e:?}");
				// a served GPU that cannot be decided now holds the attestation here
				bulk.waiting |= in_bulk;
			},
		}
	}
	not_serving.save(current.index);
	let mut sent = 0u32;
	let passed = bulk.passed;
	let attested = bulk.verdicts.len() as u32;
	let kept_root = bulk.kept.root();
	bulk.kept.save();
	// whether the evidence root on chain, or in the attestation sent now, covers every vote this
	// run sends (single verdicts on served GPUs included)
	let covered = match bulk.call(current.index, &me.id, kept_root) {
		Some(call) => {
			let marker = attestation_marker(&call);
			let ok = send::<T>(me, call).is_ok();
			if ok {
				mark_attestation::<T>(&me.id, current.index, marker, now);
				sent += passed + attested;
			}
			ok
		},
		None => EvidenceRoots::<T>::get(current.index, &me.id) == Some(kept_root),
	};
	if !covered {
		// a result vote on a served GPU lands only with a root that covers it: these wait
		verdicts.retain(|(round, miner, gpu, v)| v.is_unserved() || !Pallet::<T>::attestable(*round, miner, *gpu));
	}
	let Some(&(round, ..)) = verdicts.first() else { return sent };
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

/// Local-storage key of the attestation a member sent last: (round, what it moves the attestation
/// to, the block it was sent in).
pub const ATTEST_KEY: &[u8] = b"pog::ocw::attest";

/// What an `attest` call moves the attestation to: a hash of its `upto`, open GPUs and evidence
/// root.
fn attestation_marker<T: Config>(call: &Call<T>) -> [u8; 16] {
	match call {
		Call::attest { upto, open, evidence, .. } => marker::<T>(upto, open, evidence),
		_ => [0; 16],
	}
}

/// The hash an attestation is marked by: its `upto`, open GPUs and evidence root.
fn marker<T: Config>(upto: &Position, open: &[(T::AccountId, GpuIndex)], evidence: &EvidenceRoot) -> [u8; 16] {
	sp_io::hashing::blake2_128(&(upto, open, evidence).encode())
}

/// A local-storage key of `prefix` for the local validator `me`: a node holding several validator
/// keys keeps each one's marks apart.
fn member_key<T: Config>(prefix: &[u8], me: &T::AccountId) -> Vec<u8> {
	(prefix, me).encode()
}

fn mark_attestation<T: Config>(me: &T::AccountId, round: RoundIndex, marker: [u8; 16], now: BlockNumberFor<T>) {
	let now_n: u32 = now.try_into().unwrap_or(u32::MAX);
	StorageValueRef::persistent(&member_key::<T>(ATTEST_KEY, me)).set(&(round, marker, now_n));
}

/// Whether the attestation this member sent last in round `round` is not on chain yet and was
/// sent less than [`RESEND_AFTER`] blocks ago: the next one waits for it, so that no pass lands
/// without the verdicts that went with it.
fn attestation_pending<T: Config>(
	me: &T::AccountId,
	round: RoundIndex,
	on_chain: &Option<AttestationOf<T>>,
	now: BlockNumberFor<T>,
) -> bool {
	let now_n: u32 = now.try_into().unwrap_or(u32::MAX);
	let Some((sent_round, marker, at)) = StorageValueRef::persistent(&member_key::<T>(ATTEST_KEY, me))
		.get::<(RoundIndex, [u8; 16], u32)>()
		.ok()
		.flatten()
	else {
		return false;
	};
	let evidence = EvidenceRoots::<T>::get(round, me).unwrap_or_default();
	let landed = on_chain.as_ref().is_some_and(|a| self::marker::<T>(&a.upto, &a.open, &evidence) == marker);
	sent_round == round && !landed && now_n < at.saturating_add(RESEND_AFTER)
}

/// Verifies `miner`'s served GPU `gpu` in `round` for the member's attestation from what was
/// `fetched` of it: recomputed when served; when not, an unserved vote once the member `gave_up`
/// on it (the reveal window closed, two failures) until the last block for unserved votes
/// ([`crate::rounds::Selection::unserved_deadline`]), else `NotServed` (the GPU stays open).
fn verify_served<T: Config>(
	now: BlockNumberFor<T>,
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
	fetched: Fetched<T>,
	gave_up: bool,
) -> Result<Verdict, OffchainErr> {
	let started = sp_io::offchain::timestamp();
	let checked = match fetched {
		Ok((openings, walks)) => {
			verify_openings::<T>(round, miner, gpu, &openings, &walks, &members_entropy::<T>(round, miner, gpu)?)
		},
		Err(OffchainErr::NotServed) => {
			let may_vote = gave_up
				&& Pallet::<T>::round()
					.selection
					.is_some_and(|s| now > s.reveal_deadline && now <= s.unserved_deadline());
			if !may_vote {
				return Err(OffchainErr::NotServed);
			}
			log::warn!(
				target: crate::LOG_TARGET,
				"round {round} miner {miner:?} GPU {gpu}: nothing valid served by the reveal deadline; voting unserved"
			);
			return Ok(Verdict::unserved(SelfReported { entries_checked: 0, worst_permille: 0, walks_checked: 0 }));
		},
		Err(e) => return Err(e),
	};
	let (verdict, report, wrong_walk) = checked.ok_or(OffchainErr::NotRevealed)?;
	log_verification::<T>(round, miner, gpu, &verdict, &report, wrong_walk, started);
	Ok(verdict)
}

/// Local-storage key of the miners whose endpoints served this member nothing valid lately.
pub const NOT_SERVING_KEY: &[u8] = b"pog::ocw::not-serving";

/// Blocks after which a member asks again a miner whose endpoint served it nothing valid, before
/// the reveal deadline: a quarter of the reveal window, one to ten blocks (mainnet 10, the dev
/// chain 1), so that endpoints that never answer cost a member one batch's deadline (for up to
/// [`MAX_FETCHED_MINERS`] of them) every few blocks, not every run, and a miner slow to serve is
/// asked about four times before the deadline.
pub fn retry_after(reveal_window: u32) -> u32 {
	(reveal_window / 4).clamp(1, 10)
}

/// The served GPUs this member could not fetch anything valid of in the current round, each with
/// the block of its last failure and how many times it failed. Before the reveal deadline a GPU
/// is asked again [`retry_after`] blocks after its last failure; after it, the member asks until
/// the GPU has failed twice, the last time after the deadline, then votes it unserved. Per GPU: one GPU that never answers does not
/// mark the miner's others, and one served does not clear another's failure (the second review of
/// this code: a miner serving one GPU and hanging another kept a member re-fetching the hanging
/// one every run). One local-storage entry per local validator, for the current round only.
struct NotServing<T: Config> {
	failed: Vec<(T::AccountId, GpuIndex, u32, u8)>,
	now: u32,
	deadline: u32,
	retry: u32,
	key: Vec<u8>,
}

impl<T: Config> NotServing<T> {
	fn load(me: &T::AccountId, round: RoundIndex, now: BlockNumberFor<T>) -> Self {
		let now: u32 = now.try_into().unwrap_or(u32::MAX);
		let selection = Pallet::<T>::round().selection;
		let deadline: u32 = selection.map_or(0, |s| s.reveal_deadline.try_into().unwrap_or(u32::MAX));
		let key = member_key::<T>(NOT_SERVING_KEY, me);
		let stored = StorageValueRef::persistent(&key)
			.get::<(RoundIndex, Vec<(T::AccountId, GpuIndex, u32, u8)>)>()
			.ok()
			.flatten()
			.filter(|(r, _)| *r == round)
			.map(|(_, failed)| failed)
			.unwrap_or_default();
		Self { failed: stored, now, deadline, retry: retry_after(Configuration::<T>::get().reveal_window), key }
	}

	fn find(&self, miner: &T::AccountId, gpu: GpuIndex) -> Option<&(T::AccountId, GpuIndex, u32, u8)> {
		self.failed.iter().find(|(m, g, ..)| m == miner && *g == gpu)
	}

	/// Whether the member leaves `miner`'s GPU `gpu` alone in this run: before the reveal
	/// deadline, it failed less than [`retry_after`] blocks ago.
	fn waits(&self, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		self.now <= self.deadline
			&& self.find(miner, gpu).is_some_and(|(.., at, _)| self.now < at.saturating_add(self.retry))
	}

	/// Whether the member has given up on `miner`'s GPU `gpu`: it failed twice, the last time
	/// after the reveal deadline (an endpoint down for a while before the deadline gets a last
	/// chance); it is voted unserved.
	fn gave_up(&self, miner: &T::AccountId, gpu: GpuIndex) -> bool {
		self.find(miner, gpu).is_some_and(|(.., at, failures)| *at > self.deadline && *failures >= 2)
	}

	fn fail(&mut self, miner: &T::AccountId, gpu: GpuIndex) {
		let failures = self.find(miner, gpu).map_or(0, |(.., n)| *n);
		self.failed.retain(|(m, g, ..)| !(m == miner && *g == gpu));
		self.failed.push((miner.clone(), gpu, self.now, failures.saturating_add(1)));
	}

	fn served(&mut self, miner: &T::AccountId, gpu: GpuIndex) {
		self.failed.retain(|(m, g, ..)| !(m == miner && *g == gpu));
	}

	/// Stores the marks of round `round`, at most every GPU the registry holds (the oldest
	/// dropped).
	fn save(mut self, round: RoundIndex) {
		let max = (T::MaxMiners::get() as usize).saturating_mul(T::MaxGpusPerMiner::get() as usize);
		if self.failed.len() > max {
			self.failed.drain(..self.failed.len() - max);
		}
		StorageValueRef::persistent(&self.key).set(&(round, self.failed));
	}
}

/// Local-storage key of a member's evidence of a round ([`Kept`]).
pub const EVIDENCE_KEY: &[u8] = b"pog::ocw::evidence";

/// One piece of evidence: the miner, the GPU, its first sampled leaf of C, that leaf's hash and
/// its path to the miner's root. The leaf is kept so that a fork that replaced the draw block
/// (another sample, another first leaf) leaves the member a piece for each, and it opens the one
/// the chain audits.
type Piece<T> = (<T as frame_system::Config>::AccountId, GpuIndex, u32, Hash32, Vec<Hash32>);

/// What a member keeps of a round to show it fetched what it voted on ([`crate::evidence`]): for
/// each served GPU it voted on with a result, in the order it voted, the piece of evidence its
/// fetch gave. Append-only, so every evidence root the member sent is the root over a prefix of
/// it, and the member opens any leaf of it against whichever root landed last. One local-storage
/// entry per local validator and round, cleared two rounds later ([`answer_audits`]); an H100's
/// piece is about 900 bytes.
struct Kept<T: Config> {
	key: Vec<u8>,
	/// Whose and which round's: what each evidence leaf is keyed to.
	me: T::AccountId,
	round: RoundIndex,
	pieces: Vec<Piece<T>>,
	/// Each piece's evidence leaf (`pog_primitives::evidence::evidence_leaf`), hashed once.
	leaves: Vec<Hash32>,
	changed: bool,
}

impl<T: Config> Kept<T> {
	fn key(me: &T::AccountId, round: RoundIndex) -> Vec<u8> {
		(EVIDENCE_KEY, me, round).encode()
	}

	fn load(me: &T::AccountId, round: RoundIndex) -> Self {
		let key = Self::key(me, round);
		let pieces: Vec<Piece<T>> =
			StorageValueRef::persistent(&key).get::<Vec<Piece<T>>>().ok().flatten().unwrap_or_default();
		let leaves = pieces.iter().map(|p| Self::leaf(me, round, p)).collect();
		Kept { key, me: me.clone(), round, pieces, leaves, changed: false }
	}

	fn leaf(me: &T::AccountId, round: RoundIndex, (miner, gpu, _, hash, _): &Piece<T>) -> Hash32 {
		pog_primitives::evidence::evidence_leaf(round, me, miner, *gpu, hash)
	}

	/// Whether a piece of `miner`'s GPU `gpu` at leaf `leaf` is kept.
	fn has(&self, miner: &T::AccountId, gpu: GpuIndex, leaf: u32) -> bool {
		self.pieces.iter().any(|(m, g, l, ..)| m == miner && *g == gpu && *l == leaf)
	}

	/// Keeps the evidence of `miner`'s GPU `gpu` at leaf `leaf`, unless it is kept already.
	fn add(&mut self, miner: T::AccountId, gpu: GpuIndex, leaf: u32, hash: Hash32, path: Vec<Hash32>) {
		if !self.has(&miner, gpu, leaf) {
			let piece = (miner, gpu, leaf, hash, path);
			self.leaves.push(Self::leaf(&self.me, self.round, &piece));
			self.pieces.push(piece);
			self.changed = true;
		}
	}

	/// The root over the first `count` pieces (every evidence root the member sent is one).
	fn root_of_first(&self, count: usize) -> EvidenceRoot {
		EvidenceRoot::of(&self.leaves[..count.min(self.leaves.len())])
	}

	/// The root over every piece kept.
	fn root(&self) -> EvidenceRoot {
		EvidenceRoot::of(&self.leaves)
	}

	/// Whether what is kept lost votes the root on chain covers: it is no longer the root over a
	/// prefix of what is kept (local storage wiped, or the key moved to another node mid-round).
	fn lost(&self, on_chain: &EvidenceRoot) -> bool {
		self.pieces.len() < on_chain.leaves as usize || self.root_of_first(on_chain.leaves as usize) != *on_chain
	}

	fn save(&self) {
		if self.changed {
			StorageValueRef::persistent(&self.key).set(&self.pieces);
		}
	}
}

/// Local-storage key of a member's repair of its evidence of a round ([`repair_evidence`]): the
/// served GPUs it could not fetch again, while the repair goes on.
pub const REPAIR_KEY: &[u8] = b"pog::ocw::evidence-repair";

/// When what `me` keeps lost votes the evidence root on chain covers ([`Kept::lost`]: its local
/// storage was wiped, or the key moved to another node mid-round), or while a repair is under way: fetches again the served GPUs of `round` assigned to `me` that it
/// voted on with a result (by attestation or singly) and keeps no piece of, one batch a run, while
/// the verdict window is open, until a scan finds none missing; a GPU that cannot be fetched again
/// is not asked twice. The attestation of the run then carries the root over what is kept.
fn repair_evidence<T: Config>(me: &T::AccountId, round: RoundIndex, now: BlockNumberFor<T>, kept: &mut Kept<T>) {
	let key = (REPAIR_KEY, me, round).encode();
	let mut store = StorageValueRef::persistent(&key);
	let repairing = store.get::<Vec<(T::AccountId, GpuIndex)>>().ok().flatten();
	let lost = EvidenceRoots::<T>::get(round, me).is_some_and(|root| kept.lost(&root));
	if repairing.is_none() && !lost {
		return;
	}
	let info = Pallet::<T>::round();
	let open = |s: &Selection<BlockNumberFor<T>>| info.phase == RoundPhase::Reveal && now <= s.verdict_deadline;
	let Some(selection) = info.selection.clone().filter(open) else { return };
	let mut failed = repairing.unwrap_or_default();
	let missing: Vec<(T::AccountId, GpuIndex)> = ServedIn::<T>::iter_key_prefix(round)
		.flat_map(|miner| {
			let slots = Commitments::<T>::get(round, &miner).unwrap_or_default();
			let firsts: Vec<(GpuIndex, u32)> = slots
				.iter()
				.enumerate()
				.filter_map(|(g, c)| Some((g as GpuIndex, *Pallet::<T>::leaves_for(&selection, c.as_ref()?).first()?)))
				.collect();
			firsts.into_iter().map(move |(g, leaf)| (miner.clone(), g, leaf)).collect::<Vec<_>>()
		})
		.filter(|(miner, gpu, leaf)| {
			!kept.has(miner, *gpu, *leaf)
				&& !failed.iter().any(|(m, g)| m == miner && g == gpu)
				&& Pallet::<T>::attestable(round, miner, *gpu)
				&& (Verifications::<T>::get((round, miner, *gpu))
					.is_some_and(|v| v.votes.iter().any(|(x, vote)| x == me && !vote.is_unserved()))
					|| Pallet::<T>::attested(round, &selection.seed, me, miner, *gpu))
				&& Pallet::<T>::is_selected(&selection, round, miner, *gpu)
				&& Pallet::<T>::committee_for(&selection.seed, miner, *gpu).contains(me)
		})
		.map(|(miner, gpu, _)| (miner, gpu))
		.take(MAX_PARALLEL_FETCHES)
		.collect();
	if missing.is_empty() {
		store.clear();
		return;
	}
	log::warn!(target: crate::LOG_TARGET, "round {round}: evidence of {} votes lost; fetching it again", missing.len());
	for ((miner, gpu), fetched) in missing.iter().zip(fetch_all::<T>(me, round, &missing)) {
		match fetched.ok().and_then(|(openings, _)| openings.into_iter().next()) {
			Some(first) => {
				let hash = pog_primitives::commitment::leaf_hash(&first.values);
				kept.add(miner.clone(), *gpu, first.leaf, hash, first.proof.to_vec());
			},
			None => failed.push((miner.clone(), *gpu)),
		}
	}
	store.set(&failed);
}

/// Opens `me`'s evidence on every audited GPU it owes of the current or the last round
/// ([`crate::evidence`]), each against the evidence root on chain, and forgets the evidence of
/// older rounds (their audits are closed). Returns the openings sent.
fn answer_audits<T: Config>(me: &Account<T>, now: BlockNumberFor<T>) -> u32 {
	let current = Pallet::<T>::round().index;
	for old in current.saturating_sub(4)..current.saturating_sub(1) {
		StorageValueRef::persistent(&Kept::<T>::key(&me.id, old)).clear();
		StorageValueRef::persistent(&(REPAIR_KEY, &me.id, old).encode()).clear();
	}
	let mut sent = 0u32;
	for round in current.saturating_sub(1)..=current {
		let owed: Vec<((T::AccountId, GpuIndex), u32)> = Audits::<T>::iter_prefix((round,))
			.filter(|(_, audit)| audit.owing.iter().any(|(_, m)| *m == me.id))
			.map(|(key, audit)| (key, audit.leaf))
			.collect();
		if owed.is_empty() {
			continue;
		}
		let root = EvidenceRoots::<T>::get(round, &me.id).unwrap_or_default();
		let kept = Kept::<T>::load(&me.id, round);
		if kept.lost(&root) {
			log::error!(target: crate::LOG_TARGET, "round {round}: the evidence kept does not match the root on chain");
			continue;
		}
		let leaves = &kept.leaves[..root.leaves as usize];
		for ((miner, gpu), leaf) in owed {
			let found =
				kept.pieces.iter().take(leaves.len()).position(|(m, g, l, ..)| *m == miner && *g == gpu && *l == leaf);
			let Some(at) = found else {
				log::error!(target: crate::LOG_TARGET, "round {round} miner {miner:?} GPU {gpu}: audited, no evidence kept");
				continue;
			};
			let mark = (b'e', round, &miner, gpu, &me.id).encode();
			if !first_send::<T>(&mark, now) {
				continue;
			}
			let (_, _, _, hash, leaf_path) = &kept.pieces[at];
			let opening = crate::evidence::EvidenceOpening {
				leaf_hash: *hash,
				leaf_path: BoundedVec::truncate_from(leaf_path.clone()),
				at: at as u32,
				path: BoundedVec::truncate_from(pog_primitives::evidence::evidence_path(leaves, at as u32)),
			};
			let call = Call::open_evidence { round, miner, gpu, opening };
			if send::<T>(me, call).is_ok() {
				sent += 1;
			} else {
				forget_sent::<T>(&mark, now);
			}
		}
	}
	sent
}

/// Verifies `miner`'s GPU `gpu` of `round`, revealed on chain (or rebutted): `me`'s verdict,
/// unless `me` sent it recently.
fn verify_one<T: Config>(
	me: &Account<T>,
	now: BlockNumberFor<T>,
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
) -> Result<Verdict, OffchainErr> {
	let mark = (b'v', round, miner, gpu, &me.id).encode();
	if !first_send::<T>(&mark, now) {
		return Err(OffchainErr::AlreadySent);
	}
	let started = sp_io::offchain::timestamp();
	let entropy = members_entropy::<T>(round, miner, gpu)?;
	let (verdict, report, wrong_walk) =
		verify_challenge::<T>(round, miner, gpu, &entropy).ok_or(OffchainErr::NotRevealed)?;
	log_verification::<T>(round, miner, gpu, &verdict, &report, wrong_walk, started);
	Ok(verdict)
}

/// The entropy every member of `miner`'s GPU `gpu`'s committee in `round` checks entries with
/// (`pog_primitives::sampling::entries_entropy` of its sample seed): every honest member checks
/// the same entries, so honest verdicts agree and a verdict against a decided outcome is a fault
/// the chain can attribute (`Pallet::judge_vote`).
pub fn members_entropy<T: Config>(
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
) -> Result<Hash32, OffchainErr> {
	let selection = Pallet::<T>::round().selection.ok_or(OffchainErr::NotRevealed)?;
	let commitment = Commitments::<T>::get(round, miner)
		.and_then(|slots| slots.get(gpu as usize).cloned().flatten())
		.ok_or(OffchainErr::NotRevealed)?;
	Ok(pog_primitives::sampling::entries_entropy(&Pallet::<T>::sample_seed_for(&selection, &commitment)))
}

/// Logs what a verification found, and how long it took since `started`.
fn log_verification<T: Config>(
	round: RoundIndex,
	miner: &T::AccountId,
	gpu: GpuIndex,
	verdict: &Verdict,
	report: &CheckReport,
	wrong_walk: Option<u64>,
	started: sp_runtime::offchain::Timestamp,
) {
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
}
