//! What the calls do: claims and deposits, rounds of challenges, commitments, openings,
//! verdicts, expiry, credits, scores and weight shares. Integer and fixed-point only.

use alloc::vec::Vec;
use codec::Encode;
use frame_support::{
	ensure,
	pallet_prelude::*,
	traits::{fungible::MutateHold, tokens::Precision as TokenPrecision, Randomness, UnixTime},
};
use frame_system::pallet_prelude::BlockNumberFor;
use pog_primitives::{commitment, sampling, sizing};
use sp_runtime::{
	traits::{Saturating, Zero},
	Perbill,
};

use crate::{pallet::*, types::*};

impl<T: Config> Pallet<T> {
	/// Current block number.
	pub(crate) fn now() -> BlockNumberFor<T> {
		frame_system::Pallet::<T>::block_number()
	}

	/// Current block's timestamp in milliseconds.
	pub(crate) fn now_ms() -> u64 {
		T::TimeProvider::now().as_millis().min(u128::from(u64::MAX)) as u64
	}

	pub(crate) fn ensure_validator(who: &T::AccountId) -> DispatchResult {
		ensure!(Validators::<T>::get().contains(who), Error::<T>::NotValidator);
		Ok(())
	}

	/// Whether any challenge of the miner's current round is unfinished.
	pub fn round_in_flight(info: &MinerOf<T>) -> bool {
		info.current_round.iter().any(InFlight::<T>::contains_key)
	}

	pub(crate) fn validate_profile(p: &GpuProfile) -> DispatchResult {
		ensure!(
			p.vram_mib > 0 && p.gflops.iter().any(|g| *g > 0) && p.tolerance_percent < 100 && !p.name.is_empty(),
			Error::<T>::InvalidProfile
		);
		Ok(())
	}

	pub(crate) fn validate_config(c: &ProtocolConfig) -> DispatchResult {
		let w = c.weights;
		let weight_sum = u64::from(w.gpu.deconstruct())
			+ u64::from(w.cpu.deconstruct())
			+ u64::from(w.ram.deconstruct())
			+ u64::from(w.disk.deconstruct());
		let ok = c.period > 0
			&& c.target_ms > 0
			&& c.openings > 0
			&& c.openings <= T::MaxOpenings::get()
			&& c.entries_per_opening > 0
			&& c.entries_per_opening <= pog_primitives::LEAF_VALUES as u32
			&& c.quorum > 0
			&& c.reveal_window > 0
			&& c.verdict_window > 0
			&& c.max_challenges_per_block >= T::MaxGpusPerMiner::get()
			&& sizing::is_valid_chunk_k(c.chunk_k)
			&& weight_sum == u64::from(Perbill::one().deconstruct())
			&& c.caps.gpus > 0
			&& c.caps.gpu_points > 0
			&& c.caps.cpu_cores > 0
			&& c.caps.ram_gib > 0
			&& c.caps.disk_gib > 0;
		ensure!(ok, Error::<T>::InvalidConfig);
		Ok(())
	}

	/// Check claims; returns the number of GPUs. `owner` may keep UUIDs it already owns.
	///
	/// Counts first, from the call alone, so that the storage reads after it are bounded by
	/// `MaxGpusPerMiner`, as the call's weight assumes (not by `MaxClaims × MaxGpusPerMiner`).
	fn validate_claims(owner: &T::AccountId, claims: &ClaimsOf<T>) -> Result<u32, DispatchError> {
		ensure!(!claims.is_empty(), Error::<T>::NoClaims);
		let mut gpus = 0u32;
		for claim in claims.iter() {
			ensure!(claim.count > 0, Error::<T>::ZeroCount);
			ensure!(claim.count as usize == claim.uuids.len(), Error::<T>::CountMismatch);
			gpus = gpus.saturating_add(claim.count);
		}
		ensure!(gpus <= T::MaxGpusPerMiner::get(), Error::<T>::TooManyGpus);
		let mut seen: Vec<GpuUuid> = Vec::with_capacity(gpus as usize);
		for claim in claims.iter() {
			ensure!(Profiles::<T>::contains_key(claim.profile), Error::<T>::UnknownProfile);
			for uuid in claim.uuids.iter() {
				ensure!(!seen.contains(uuid), Error::<T>::DuplicateUuid);
				if let Some(o) = UuidOwner::<T>::get(uuid) {
					ensure!(&o == owner, Error::<T>::UuidAlreadyClaimed);
				}
				seen.push(*uuid);
			}
		}
		Ok(gpus)
	}

	/// Refuses declared hardware beyond what any machine has.
	fn validate_hardware(hardware: &Hardware) -> DispatchResult {
		hardware.check().map_err(|fault| match fault {
			HardwareFault::CpuCores => Error::<T>::ImplausibleCpuCores,
			HardwareFault::Ram => Error::<T>::ImplausibleRam,
			HardwareFault::Disk => Error::<T>::ImplausibleDisk,
		})?;
		Ok(())
	}

	/// The deposit a miner with `gpus` claimed GPUs holds.
	pub fn deposit_for(gpus: u32) -> BalanceOf<T> {
		use sp_runtime::SaturatedConversion;
		let (base, per_gpu) = (T::DepositBase::get().saturated_into(), T::DepositPerGpu::get().saturated_into());
		pog_primitives::deposit::miner_deposit(base, per_gpu, gpus).saturated_into()
	}

	/// Adds `profile` under the next id (validated, within `MaxProfiles`); returns the id. The
	/// one place profiles are created: genesis, `add_profile` and the benchmarks.
	pub(crate) fn insert_profile(profile: GpuProfile) -> Result<ProfileId, DispatchError> {
		Self::validate_profile(&profile)?;
		ensure!(ProfileCount::<T>::get() < T::MaxProfiles::get(), Error::<T>::TooManyProfiles);
		let id = NextProfileId::<T>::get();
		Profiles::<T>::insert(id, profile);
		NextProfileId::<T>::put(id.saturating_add(1));
		ProfileCount::<T>::mutate(|c| *c = c.saturating_add(1));
		Ok(id)
	}

	fn add_claims(who: &T::AccountId, claims: &ClaimsOf<T>) {
		for claim in claims.iter() {
			ProfileClaims::<T>::mutate(claim.profile, |c| *c = c.saturating_add(claim.count));
			for uuid in claim.uuids.iter() {
				UuidOwner::<T>::insert(uuid, who);
			}
		}
	}

	fn remove_claims(claims: &ClaimsOf<T>) {
		for claim in claims.iter() {
			ProfileClaims::<T>::mutate(claim.profile, |c| *c = c.saturating_sub(claim.count));
			for uuid in claim.uuids.iter() {
				UuidOwner::<T>::remove(uuid);
			}
		}
	}

	pub(crate) fn do_register(who: T::AccountId, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
		ensure!(!Miners::<T>::contains_key(&who), Error::<T>::AlreadyRegistered);
		ensure!(MinerCount::<T>::get() < T::MaxMiners::get(), Error::<T>::TooManyMiners);
		let gpus = Self::validate_claims(&who, &claims)?;
		Self::validate_hardware(&hardware)?;
		let deposit = Self::deposit_for(gpus);
		T::Currency::hold(&HoldReason::MinerDeposit.into(), &who, deposit)
			.map_err(|_| Error::<T>::InsufficientDeposit)?;
		Self::add_claims(&who, &claims);
		let now = Self::now();
		Miners::<T>::insert(
			&who,
			MinerInfo {
				claims,
				hardware,
				deposit,
				registered_at: now,
				next_due: now.saturating_add(1u32.into()),
				current_round: BoundedVec::new(),
				previous_round: BoundedVec::new(),
			},
		);
		MinerCount::<T>::mutate(|c| *c = c.saturating_add(1));
		Self::deposit_event(Event::MinerRegistered { miner: who, gpus, deposit });
		Ok(())
	}

	pub(crate) fn do_update(who: T::AccountId, claims: ClaimsOf<T>, hardware: Hardware) -> DispatchResult {
		let mut info = Miners::<T>::get(&who).ok_or(Error::<T>::NotRegistered)?;
		ensure!(!Self::round_in_flight(&info), Error::<T>::RoundInFlight);
		let gpus = Self::validate_claims(&who, &claims)?;
		Self::validate_hardware(&hardware)?;
		let deposit = Self::deposit_for(gpus);
		let reason = HoldReason::MinerDeposit.into();
		if deposit > info.deposit {
			T::Currency::hold(&reason, &who, deposit.saturating_sub(info.deposit))
				.map_err(|_| Error::<T>::InsufficientDeposit)?;
		} else if deposit < info.deposit {
			T::Currency::release(&reason, &who, info.deposit.saturating_sub(deposit), TokenPrecision::Exact)?;
		}
		Self::remove_claims(&info.claims);
		Self::add_claims(&who, &claims);
		// Credits survive only for GPUs still claimed as the same profile.
		Credits::<T>::mutate(&who, |credits| {
			credits.retain(|c| claims.iter().any(|cl| cl.profile == c.profile && cl.uuids.contains(&c.uuid)))
		});
		info.claims = claims;
		info.hardware = hardware;
		info.deposit = deposit;
		info.next_due = Self::now().saturating_add(1u32.into());
		Miners::<T>::insert(&who, &info);
		Self::update_score(&who, &info);
		Self::deposit_event(Event::MinerUpdated { miner: who, gpus, deposit });
		Ok(())
	}

	fn remove_challenge_record(id: ChallengeId) {
		if let Some(ch) = Challenges::<T>::take(id) {
			if let Some(root) = ch.root {
				KnownRoots::<T>::remove(root);
			}
		}
		InFlight::<T>::remove(id);
		Openings::<T>::remove(id);
	}

	pub(crate) fn do_deregister(who: T::AccountId) -> DispatchResult {
		let info = Miners::<T>::get(&who).ok_or(Error::<T>::NotRegistered)?;
		ensure!(!Self::round_in_flight(&info), Error::<T>::RoundInFlight);
		T::Currency::release(&HoldReason::MinerDeposit.into(), &who, info.deposit, TokenPrecision::Exact)?;
		Self::remove_claims(&info.claims);
		for id in info.current_round.iter().chain(info.previous_round.iter()) {
			Self::remove_challenge_record(*id);
		}
		Credits::<T>::remove(&who);
		Scores::<T>::remove(&who);
		Miners::<T>::remove(&who);
		MinerCount::<T>::mutate(|c| *c = c.saturating_sub(1));
		Self::deposit_event(Event::MinerDeregistered { miner: who });
		Ok(())
	}

	/// The seed of challenge `id`: the runtime's randomness, the parent block hash, the id, the
	/// miner and the GPU, hashed together.
	fn challenge_seed(id: ChallengeId, miner: &T::AccountId, uuid: &GpuUuid) -> Hash32 {
		let subject = (b"pog/seed", id).encode();
		let (random, _) = T::Randomness::random(&subject);
		let parent = frame_system::Pallet::<T>::parent_hash();
		sp_io::hashing::blake2_256(&(b"pog/seed", random, parent, id, miner, uuid).encode())
	}

	/// The precision a seed asks for, among those the profile supports.
	pub fn precision_for(profile: &GpuProfile, seed: &Hash32) -> Option<Precision> {
		let supported: Vec<Precision> = Precision::ALL.into_iter().filter(|p| profile.gflops_for(*p) > 0).collect();
		let n = supported.len();
		(n > 0).then(|| supported[usize::from(seed[31]) % n])
	}

	/// Whether `miner` is due and may be issued a round now.
	pub fn is_due(info: &MinerOf<T>, now: BlockNumberFor<T>) -> bool {
		now >= info.next_due && !Self::round_in_flight(info)
	}

	pub(crate) fn do_issue(miner: T::AccountId) -> DispatchResult {
		let mut info = Miners::<T>::get(&miner).ok_or(Error::<T>::NotRegistered)?;
		ensure!(!Self::round_in_flight(&info), Error::<T>::RoundInFlight);
		let now = Self::now();
		ensure!(now >= info.next_due, Error::<T>::NotDue);
		let config = Configuration::<T>::get();
		let gpus = info.gpu_count();
		let (block, issued) = IssuedInBlock::<T>::get();
		let issued = if block == now { issued } else { 0 };
		ensure!(issued.saturating_add(gpus) <= config.max_challenges_per_block, Error::<T>::TooManyChallengesThisBlock);
		let now_ms = Self::now_ms();

		// Size every challenge first; the round shares the latest deadline.
		let mut planned: Vec<(ChallengeId, GpuUuid, ProfileId, Precision, Dims, Hash32, u64)> = Vec::new();
		let mut allowed = 0u64;
		let mut next_id = NextChallengeId::<T>::get();
		for (profile_id, uuid) in info.gpus() {
			let profile = Profiles::<T>::get(profile_id).ok_or(Error::<T>::UnknownProfile)?;
			let seed = Self::challenge_seed(next_id, &miner, &uuid);
			let precision = Self::precision_for(&profile, &seed).ok_or(Error::<T>::NoPrecision)?;
			let gflops = profile.gflops_for(precision);
			let dims = sizing::challenge_dims(profile.vram_mib, gflops, config.target_ms);
			let expected = sizing::expected_ms(&dims, gflops);
			allowed = allowed.max(sizing::allowed_ms(expected, profile.tolerance_percent, u64::from(config.slack_ms)));
			planned.push((next_id, uuid, profile_id, precision, dims, seed, expected));
			next_id = next_id.saturating_add(1);
		}
		let deadline_ms = now_ms.saturating_add(allowed);

		for id in info.previous_round.iter() {
			Self::remove_challenge_record(*id);
		}
		let mut round = BoundedVec::new();
		for (id, uuid, profile, precision, dims, seed, expected_ms) in planned {
			Challenges::<T>::insert(
				id,
				Challenge {
					miner: miner.clone(),
					uuid,
					profile,
					precision,
					dims,
					chunk_k: config.chunk_k,
					seed,
					issued_at: now,
					issued_ms: now_ms,
					expected_ms,
					deadline_ms,
					status: ChallengeStatus::Issued,
					root: None,
					committed_at: None,
					report: None,
					reveal_deadline: None,
					sample_seed: None,
					verdict_deadline: None,
					votes: BoundedVec::new(),
				},
			);
			InFlight::<T>::insert(id, ());
			// Cannot fail: the round has one id per claimed GPU, at most MaxGpusPerMiner.
			let _ = round.try_push(id);
			Self::deposit_event(Event::ChallengeIssued {
				id,
				miner: miner.clone(),
				uuid,
				profile,
				precision,
				dims,
				deadline_ms,
			});
		}
		NextChallengeId::<T>::put(next_id);
		IssuedInBlock::<T>::put((now, issued.saturating_add(gpus)));
		info.previous_round = core::mem::take(&mut info.current_round);
		info.current_round = round;
		info.next_due = now.saturating_add(config.period.into());
		Miners::<T>::insert(&miner, info);
		Ok(())
	}

	pub(crate) fn do_commit(
		who: T::AccountId,
		id: ChallengeId,
		root: Hash32,
		mut report: AgentReport,
	) -> DispatchResult {
		let mut ch = Challenges::<T>::get(id).ok_or(Error::<T>::UnknownChallenge)?;
		ensure!(ch.miner == who, Error::<T>::NotChallengedMiner);
		ensure!(ch.status == ChallengeStatus::Issued, Error::<T>::WrongStatus);
		let now_ms = Self::now_ms();
		ensure!(now_ms <= ch.deadline_ms, Error::<T>::DeadlinePassed);
		ensure!(!KnownRoots::<T>::contains_key(root), Error::<T>::RootReplayed);
		let now = Self::now();
		let seen_ms = now_ms.saturating_sub(ch.issued_ms);
		report.elapsed_ms = report.elapsed_ms.min(seen_ms);
		let elapsed_ms = report.elapsed_ms;
		ch.status = ChallengeStatus::Committed;
		ch.root = Some(root);
		ch.committed_at = Some((now, now_ms));
		ch.report = Some(report);
		ch.reveal_deadline = Some(now.saturating_add(Configuration::<T>::get().reveal_window.into()));
		Challenges::<T>::insert(id, ch);
		KnownRoots::<T>::insert(root, id);
		Self::deposit_event(Event::RootCommitted { id, root, elapsed_ms });
		Ok(())
	}

	/// 32 bytes of a block hash (itself if it is 32 bytes long, else its BLAKE2-256).
	pub fn hash32(h: &T::Hash) -> Hash32 {
		let bytes = h.as_ref();
		let mut out = [0u8; 32];
		if bytes.len() == 32 {
			out.copy_from_slice(bytes);
		} else {
			out = sp_io::hashing::blake2_256(bytes);
		}
		out
	}

	/// The sample seed of a committed challenge, once the block after the commitment exists.
	pub fn sample_seed_of(ch: &ChallengeOf<T>) -> Option<Hash32> {
		let (block, _) = ch.committed_at?;
		let root = ch.root?;
		if Self::now() <= block {
			return None;
		}
		let hash = frame_system::Pallet::<T>::block_hash(block);
		if hash == T::Hash::default() {
			return None;
		}
		Some(sampling::sample_seed(&Self::hash32(&hash), &ch.seed, &root))
	}

	/// The leaves a committed challenge must open, once its sample seed is known.
	pub fn leaves_to_open(ch: &ChallengeOf<T>) -> Option<Vec<u32>> {
		let seed = Self::sample_seed_of(ch)?;
		let count = Configuration::<T>::get().openings.min(T::MaxOpenings::get());
		Some(sampling::opened_leaves(&seed, ch.dims.num_leaves(), count))
	}

	pub(crate) fn do_reveal(
		who: T::AccountId,
		id: ChallengeId,
		openings: BoundedVec<Opening, T::MaxOpenings>,
	) -> DispatchResult {
		let mut ch = Challenges::<T>::get(id).ok_or(Error::<T>::UnknownChallenge)?;
		ensure!(ch.miner == who, Error::<T>::NotChallengedMiner);
		ensure!(ch.status == ChallengeStatus::Committed, Error::<T>::WrongStatus);
		let now = Self::now();
		let reveal_deadline = ch.reveal_deadline.ok_or(Error::<T>::WrongStatus)?;
		ensure!(now <= reveal_deadline, Error::<T>::RevealWindowClosed);
		let sample_seed = Self::sample_seed_of(&ch).ok_or(Error::<T>::SampleNotReady)?;
		let root = ch.root.ok_or(Error::<T>::WrongStatus)?;
		let count = Configuration::<T>::get().openings.min(T::MaxOpenings::get());
		let expected = sampling::opened_leaves(&sample_seed, ch.dims.num_leaves(), count);
		ensure!(openings.len() == expected.len(), Error::<T>::WrongOpeningCount);
		for (opening, leaf) in openings.iter().zip(expected) {
			ensure!(opening.leaf == leaf, Error::<T>::WrongOpeningIndex);
			ensure!(
				commitment::verify_opening(&root, &ch.dims, leaf, &opening.values, &opening.proof),
				Error::<T>::InvalidProof
			);
		}
		ch.status = ChallengeStatus::Revealed;
		ch.sample_seed = Some(sample_seed);
		ch.verdict_deadline = Some(now.saturating_add(Configuration::<T>::get().verdict_window.into()));
		Challenges::<T>::insert(id, ch);
		Openings::<T>::insert(id, openings);
		Self::deposit_event(Event::OpeningsRevealed { id, sample_seed });
		Ok(())
	}

	/// Verdicts needed to finalise: the configured quorum, at most the number of validators.
	pub fn effective_quorum() -> u32 {
		let validators = Validators::<T>::get().len() as u32;
		Configuration::<T>::get().quorum.min(validators).max(1)
	}

	pub(crate) fn do_verdict(who: T::AccountId, id: ChallengeId, verdict: Verdict) -> DispatchResult {
		let mut ch = Challenges::<T>::get(id).ok_or(Error::<T>::UnknownChallenge)?;
		ensure!(ch.status == ChallengeStatus::Revealed, Error::<T>::WrongStatus);
		ensure!(ch.verdict_deadline.is_none_or(|d| Self::now() <= d), Error::<T>::VerdictWindowClosed);
		ensure!(!ch.votes.iter().any(|(v, _)| v == &who), Error::<T>::AlreadyVoted);
		ch.votes.try_push((who.clone(), verdict)).map_err(|_| Error::<T>::TooManyValidators)?;
		Self::deposit_event(Event::VerdictSubmitted { id, validator: who, verdict });
		let quorum = Self::effective_quorum();
		let passes = ch.votes.iter().filter(|(_, v)| v.passed).count() as u32;
		let fails = ch.votes.len() as u32 - passes;
		if passes >= quorum {
			Self::finalize(id, ch, ChallengeStatus::Passed);
		} else if fails >= quorum {
			Self::finalize(id, ch, ChallengeStatus::Failed(FailReason::WrongResult));
		} else {
			Challenges::<T>::insert(id, ch);
		}
		Ok(())
	}

	/// The status an unfinished challenge expires to now, if it does.
	pub fn expiry_of(ch: &ChallengeOf<T>, now: BlockNumberFor<T>, now_ms: u64) -> Option<ChallengeStatus> {
		match ch.status {
			ChallengeStatus::Issued if now_ms > ch.deadline_ms => {
				Some(ChallengeStatus::Failed(FailReason::MissedDeadline))
			},
			ChallengeStatus::Committed if ch.reveal_deadline.is_some_and(|d| now > d) => {
				Some(ChallengeStatus::Failed(FailReason::RevealMissed))
			},
			ChallengeStatus::Revealed if ch.verdict_deadline.is_some_and(|d| now > d) => {
				Some(ChallengeStatus::Inconclusive)
			},
			_ => None,
		}
	}

	pub(crate) fn do_expire(ids: &[ChallengeId]) -> DispatchResult {
		let (now, now_ms) = (Self::now(), Self::now_ms());
		let mut expired = 0u32;
		for id in ids {
			let ch = Challenges::<T>::get(id).ok_or(Error::<T>::UnknownChallenge)?;
			if let Some(status) = Self::expiry_of(&ch, now, now_ms) {
				Self::finalize(*id, ch, status);
				expired += 1;
			}
		}
		ensure!(expired > 0, Error::<T>::NothingToExpire);
		Ok(())
	}

	/// Finish a challenge: store its status, update the GPU's credit and the miner's score.
	fn finalize(id: ChallengeId, mut ch: ChallengeOf<T>, status: ChallengeStatus) {
		ch.status = status;
		InFlight::<T>::remove(id);
		Openings::<T>::remove(id);
		let miner = ch.miner.clone();
		let uuid = ch.uuid;
		match status {
			ChallengeStatus::Passed => {
				let points = Profiles::<T>::get(ch.profile).map_or(0, |p| p.base_score);
				let credit = GpuCredit { uuid, profile: ch.profile, points, challenge: id, verified_at: Self::now() };
				Credits::<T>::mutate(&miner, |credits| {
					credits.retain(|c| c.uuid != uuid);
					// Cannot fail: one credit per claimed GPU, at most MaxGpusPerMiner.
					let _ = credits.try_push(credit);
				});
				Self::deposit_event(Event::ChallengePassed { id, miner: miner.clone(), uuid, profile: ch.profile });
			},
			ChallengeStatus::Failed(reason) => {
				Credits::<T>::mutate(&miner, |credits| credits.retain(|c| c.uuid != uuid));
				Self::deposit_event(Event::ChallengeFailed { id, miner: miner.clone(), uuid, reason });
			},
			_ => Self::deposit_event(Event::ChallengeInconclusive { id, miner: miner.clone(), uuid }),
		}
		Challenges::<T>::insert(id, ch);
		if let Some(info) = Miners::<T>::get(&miner) {
			Self::update_score(&miner, &info);
		}
	}

	/// A miner's score from its verified GPUs and hardware.
	pub fn compute_score(
		info: &MinerOf<T>,
		credits: &[GpuCredit<BlockNumberFor<T>>],
		config: &ProtocolConfig,
	) -> Score {
		let mut points: Vec<u64> = credits.iter().map(|c| u64::from(c.points)).collect();
		points.sort_unstable_by(|a, b| b.cmp(a));
		let verified = credits.len() as u32;
		if verified == 0 {
			return Score::default();
		}
		let caps = config.caps;
		let gpu_points: u64 = points.iter().take(caps.gpus as usize).sum();
		let part = |value: u64, cap: u64| Perbill::from_rational(value.min(cap), cap.max(1));
		let gpu = part(gpu_points, caps.gpu_points);
		let cpu = part(u64::from(info.hardware.cpu_cores), u64::from(caps.cpu_cores));
		let ram = part(info.hardware.ram_mib / 1024, u64::from(caps.ram_gib));
		let disk = part(info.hardware.disk_gib, u64::from(caps.disk_gib));
		let w = config.weights;
		let total = (w.gpu * gpu).saturating_add(w.cpu * cpu).saturating_add(w.ram * ram).saturating_add(w.disk * disk);
		Score { verified_gpus: verified, gpu_points, gpu, cpu, ram, disk, total }
	}

	fn update_score(who: &T::AccountId, info: &MinerOf<T>) {
		let credits = Credits::<T>::get(who);
		let score = Self::compute_score(info, &credits, &Configuration::<T>::get());
		if Scores::<T>::get(who) != Some(score) {
			Scores::<T>::insert(who, score);
			Self::deposit_event(Event::ScoreUpdated { miner: who.clone(), score });
		}
	}

	/// Shares proportional to `totals` that sum to exactly one billion parts (largest remainder);
	/// empty if every total is zero.
	pub fn shares_of(totals: &[u32]) -> Vec<Perbill> {
		let sum: u128 = totals.iter().map(|t| u128::from(*t)).sum();
		if sum == 0 {
			return Vec::new();
		}
		let one = u128::from(Perbill::one().deconstruct());
		let mut parts: Vec<(u128, u128, usize)> = totals
			.iter()
			.enumerate()
			.map(|(i, t)| {
				let scaled = u128::from(*t) * one;
				(scaled / sum, scaled % sum, i)
			})
			.collect();
		let assigned: u128 = parts.iter().map(|p| p.0).sum();
		let mut left = one.saturating_sub(assigned);
		let mut order: Vec<usize> = (0..parts.len()).collect();
		order.sort_by(|a, b| parts[*b].1.cmp(&parts[*a].1).then(a.cmp(b)));
		for i in order {
			if left == 0 {
				break;
			}
			parts[i].0 += 1;
			left -= 1;
		}
		parts.into_iter().map(|(p, _, _)| Perbill::from_parts(p as u32)).collect()
	}

	/// Recompute every scored miner's weight share for `epoch`; returns the miners read.
	pub(crate) fn update_shares(epoch: u32) -> u32 {
		let scored: Vec<(T::AccountId, u32)> =
			Scores::<T>::iter().map(|(who, s)| (who, s.total.deconstruct())).filter(|(_, t)| !t.is_zero()).collect();
		let read = MinerCount::<T>::get();
		let shares = Self::shares_of(&scored.iter().map(|(_, t)| *t).collect::<Vec<_>>());
		let entries: Vec<(T::AccountId, Perbill)> = scored.into_iter().map(|(w, _)| w).zip(shares).collect();
		let count = entries.len() as u32;
		// Scores holds at most MaxMiners entries (one per registered miner).
		let bounded = BoundedVec::truncate_from(entries);
		WeightShares::<T>::put(bounded);
		Epoch::<T>::put(epoch);
		Self::deposit_event(Event::SharesUpdated { epoch, miners: count });
		read
	}

	/// The pallet's invariants: deposits held match the records, UUID ownership and profile
	/// claim counts match the claims, every challenge belongs to an existing miner's round, the
	/// in-flight set is exactly the unfinished challenges, credits are for claimed GPUs, and the
	/// weight shares sum to 100%.
	#[cfg(any(feature = "try-runtime", test))]
	pub fn do_try_state() -> Result<(), sp_runtime::TryRuntimeError> {
		use frame_support::traits::fungible::InspectHold;
		use sp_runtime::TryRuntimeError;
		let reason: T::RuntimeHoldReason = HoldReason::MinerDeposit.into();
		let mut miners = 0u32;
		let mut claimed_per_profile: alloc::collections::BTreeMap<ProfileId, u32> = Default::default();
		let mut round_ids: alloc::collections::BTreeSet<ChallengeId> = Default::default();
		for (who, info) in Miners::<T>::iter() {
			miners += 1;
			ensure!(
				T::Currency::balance_on_hold(&reason, &who) == info.deposit,
				TryRuntimeError::Other("deposit held differs from the miner's record")
			);
			ensure!(
				info.deposit == Self::deposit_for(info.gpu_count()),
				TryRuntimeError::Other("deposit is not the rule")
			);
			for (profile, uuid) in info.gpus() {
				ensure!(
					UuidOwner::<T>::get(uuid).as_ref() == Some(&who),
					TryRuntimeError::Other("uuid owner mismatch")
				);
				*claimed_per_profile.entry(profile).or_default() += 1;
			}
			for id in info.current_round.iter().chain(info.previous_round.iter()) {
				let ch = Challenges::<T>::get(id).ok_or(TryRuntimeError::Other("round lists a missing challenge"))?;
				ensure!(ch.miner == who, TryRuntimeError::Other("challenge in another miner's round"));
				round_ids.insert(*id);
			}
			for credit in Credits::<T>::get(&who).iter() {
				ensure!(
					info.gpus().any(|(p, u)| p == credit.profile && u == credit.uuid),
					TryRuntimeError::Other("credit for an unclaimed GPU")
				);
			}
		}
		ensure!(miners == MinerCount::<T>::get(), TryRuntimeError::Other("MinerCount is wrong"));
		ensure!(
			UuidOwner::<T>::iter().count() as u32 == claimed_per_profile.values().sum::<u32>(),
			TryRuntimeError::Other("orphan UUID owner")
		);
		for (profile, count) in ProfileClaims::<T>::iter() {
			ensure!(
				claimed_per_profile.get(&profile).copied().unwrap_or(0) == count,
				TryRuntimeError::Other("ProfileClaims differs from the claims")
			);
		}
		for (id, ch) in Challenges::<T>::iter() {
			ensure!(round_ids.contains(&id), TryRuntimeError::Other("orphan challenge"));
			ensure!(
				ch.status.is_final() != InFlight::<T>::contains_key(id),
				TryRuntimeError::Other("in-flight set differs from unfinished challenges")
			);
			if let Some(root) = ch.root {
				ensure!(KnownRoots::<T>::get(root) == Some(id), TryRuntimeError::Other("root not indexed"));
			}
		}
		ensure!(
			InFlight::<T>::iter_keys().all(Challenges::<T>::contains_key),
			TryRuntimeError::Other("in-flight id without a challenge")
		);
		ensure!(
			Openings::<T>::iter_keys()
				.all(|id| Challenges::<T>::get(id).is_some_and(|c| c.status == ChallengeStatus::Revealed)),
			TryRuntimeError::Other("openings kept for a challenge not awaiting verdicts")
		);
		let shares = WeightShares::<T>::get();
		let sum: u64 = shares.iter().map(|(_, s)| u64::from(s.deconstruct())).sum();
		ensure!(
			shares.is_empty() || sum == u64::from(Perbill::one().deconstruct()),
			TryRuntimeError::Other("weight shares do not sum to 100%")
		);
		Ok(())
	}
}
