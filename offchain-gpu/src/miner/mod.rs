//! The miner loop, following rounds from the block stream's events, by the round's phases:
//!
//! - `RoundStarted` ([`commit`]): ask the runtime API for this miner's challenges (one per GPU)
//!   and answer each on the GPU it names (one challenge per device at a time): the memory phase
//!   first where the profile has one, its root sent as soon as it is ready, then C (seeded from
//!   that root, and computed while the root lands), whose roots are committed before their
//!   deadlines; [`fees`] warns meanwhile when the balance cannot prepay the reveals.
//! - `SampleDrawn` ([`reveal`]): reveal (or serve) the sampled leaves and walks of every selected
//!   GPU; an unserved vote on a served GPU is answered by revealing it (the rebuttal).
//! - A fork that replaces the round's start block or its draw block ([`forks`]): the challenges
//!   or the samples it changed are answered again, nothing stale goes out.
//! - `MinerSettled`: record each GPU's outcome, and forget the round's [`GpuRound`] records.
//! - `RoundSettled`: while on trial in a full registry, claim a regular slot (`claim_slot`).
//!
//! Deadlines are read on the chain's clock ([`clock`]). Every step is recorded in the state file
//! first, so a restart resumes the round (recomputing the memory phase and C to open them, and
//! giving up if a root differs) and never submits anything twice.

mod clock;
mod commit;
mod fees;
mod forks;
mod reveal;

use std::{
	collections::{BTreeMap, BTreeSet},
	sync::{Arc, Mutex},
};

use anyhow::{anyhow, bail, Context as _};
use indicatif::MultiProgress;
use pog_prover::{cpu::CpuProver, memory::MemoryCommitment, Committed, Prover};
use subxt::utils::{AccountId32, H256};
use tokio::sync::watch;
use tracing::{error, info, warn};

use crate::adversary::Behaviour;
use crate::{
	chain::{pog, Chain, ChallengeView, FailReason, RoundOutcome, RoundPhase, UnverifiedReason},
	hardware,
	state::{Key, Outcome, Phase, State},
};
use forks::{Sample, Sighting, Sightings};
use reveal::Rebuttal;

/// Which device answers challenges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
	/// The GPUs if any are found, else the CPU (with a warning).
	Auto,
	/// The GPUs; fail if none is found.
	Gpu,
	/// The CPU reference backend.
	Cpu,
}

/// What [`run`] needs: built from the command line by `cli` (`RunArgs::miner_config`), so that
/// the miner loop never sees a flag.
pub struct MinerConfig {
	/// The node's RPC address.
	pub url: String,
	/// The miner's key.
	pub key: subxt_signer::sr25519::Keypair,
	/// Which device answers.
	pub backend: Backend,
	/// CPU threads of the CPU backend (0 = all cores).
	pub cpu_threads: usize,
	/// Where in-flight challenges are recorded.
	pub state_dir: std::path::PathBuf,
	/// Exit after this many challenges reached a final status (0 = run until stopped).
	pub exit_after: u32,
	/// How the miner behaves (as the protocol asks, unless a test built it to cheat).
	pub behaviour: Behaviour,
	/// Where the openings are served off chain (`None`: revealed on chain).
	pub serve: Option<crate::serve::ServeConfig>,
}

/// The default state directory: `$XDG_DATA_HOME/offchain-gpu`, else `~/.local/share/offchain-gpu`.
pub fn default_state_dir() -> std::path::PathBuf {
	let base = std::env::var_os("XDG_DATA_HOME")
		.map(std::path::PathBuf::from)
		.or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share")))
		.unwrap_or_else(|| ".".into());
	base.join("offchain-gpu")
}

/// A device and the lock that makes it answer one challenge at a time.
type Device = Arc<(Mutex<()>, Box<dyn Prover>)>;

/// Everything the round tasks need.
struct Ctx {
	chain: Chain,
	state: Mutex<State>,
	devices: BTreeMap<[u8; 16], Device>,
	behaviour: Behaviour,
	max_trace: usize,
	/// This machine's memory (bytes): no challenge's C may need more (a hostile or broken node
	/// could otherwise size an allocation that takes the machine down).
	ram_bytes: u64,
	head: watch::Receiver<(u32, H256)>,
	bars: MultiProgress,
	/// The openings served to the committees, when served off chain.
	served: Option<Arc<crate::serve::Openings>>,
	/// What is kept of each GPU's challenge until its round is settled.
	records: Records,
}

/// What the agent keeps in memory of one GPU's challenge in one round, until the round is settled
/// (the state file keeps what a restart needs).
#[derive(Default)]
struct GpuRound {
	/// The committed C, kept to open it.
	result: Option<Box<dyn Committed>>,
	/// The memory phase, kept to open its walks.
	memory: Option<MemoryCommitment>,
	/// The sample its openings answered when they went out: a fork that redraws the sample has
	/// them opened again.
	opened: Option<Sample>,
	/// A served GPU's rebuttal: the reveal kept to answer an unserved vote on chain, or the vote's
	/// mark while no openings of the chain's sample are served yet.
	rebuttal: Option<Rebuttal>,
}

/// One [`GpuRound`] per (round, GPU), behind one lock.
#[derive(Default)]
struct Records(Mutex<BTreeMap<Key, GpuRound>>);

impl Records {
	/// Runs `f` on the record of `key` (made empty if there is none), under the lock.
	fn with<R>(&self, key: Key, f: impl FnOnce(&mut GpuRound) -> R) -> R {
		f(self.0.lock().expect("records lock").entry(key).or_default())
	}

	/// Forgets the rounds up to `round` (settled).
	fn forget_through(&self, round: u32) {
		self.0.lock().expect("records lock").retain(|k, _| k.round > round);
	}
}

/// Opens the devices that answer for the miner's claimed GPUs, by UUID; those in `int8_fp8` run
/// fp8 challenges on the int8 path.
pub fn devices(
	choice: Backend,
	cpu_threads: usize,
	claimed: &[[u8; 16]],
	int8_fp8: &BTreeSet<[u8; 16]>,
) -> anyhow::Result<BTreeMap<[u8; 16], Device>> {
	let gpus = match choice {
		Backend::Cpu => Vec::new(),
		_ => match hardware::detect() {
			m if !m.gpus.is_empty() => m.gpus,
			m if choice == Backend::Gpu => {
				bail!("--backend gpu, but no GPU was found: {}", m.gpu_error.unwrap_or_default())
			},
			m => {
				warn!(
					"NO GPU FOUND ({}): answering challenges on the CPU backend, which is far slower than any GPU",
					m.gpu_error.unwrap_or_default()
				);
				Vec::new()
			},
		},
	};
	let mut out = BTreeMap::new();
	if gpus.is_empty() {
		let cpu: Device = Arc::new((Mutex::new(()), Box::new(CpuProver::new(cpu_threads))));
		for uuid in claimed {
			out.insert(*uuid, cpu.clone());
		}
		return Ok(out);
	}
	for info in gpus {
		let Some(uuid) = hardware::uuid_bytes(&info.uuid) else { continue };
		if claimed.contains(&uuid) {
			let gpu = pog_cuda::GpuProver::new(info.ordinal as usize)?;
			if int8_fp8.contains(&uuid) {
				gpu.set_fp8_path(pog_cuda::Fp8Path::Int8);
			}
			out.insert(uuid, Arc::new((Mutex::new(()), Box::new(gpu) as Box<dyn Prover>)));
		}
	}
	Ok(out)
}

/// The devices that answer for the miner's claims, by UUID: its GPUs (fp8 on the int8 path where
/// its profile prices it so), the CPU for a per-core unit; a claimed GPU not on this machine is
/// warned about (its challenges will be missed).
fn claimed_devices(
	miner: &crate::chain::MinerInfo<u128, u32>,
	profiles: &[(u32, pog_primitives::profiles::Profile<String>)],
	backend: Backend,
	cpu_threads: usize,
) -> anyhow::Result<BTreeMap<[u8; 16], Device>> {
	let claimed: Vec<[u8; 16]> = miner.claims.0.iter().flat_map(|c| c.uuids.0.clone()).collect();
	// GPUs whose fp8 challenges are priced at an int8 rate above their native fp8 run them on the
	// int8 path (pog_primitives::pricing::fp8_on_int8_path).
	let int8_fp8: BTreeSet<[u8; 16]> = miner
		.claims
		.0
		.iter()
		.filter(|c| {
			profiles.iter().any(|(id, p)| {
				*id == c.profile && pog_primitives::pricing::fp8_on_int8_path(&p.figures.gflops, p.figures.int8_gops)
			})
		})
		.flat_map(|c| c.uuids.0.clone())
		.collect();
	// The CPU claimed as one unit of a per-core profile: answered by the CPU prover on all cores.
	let cpu_unit: BTreeSet<[u8; 16]> = miner
		.claims
		.0
		.iter()
		.filter(|c| profiles.iter().any(|(id, p)| *id == c.profile && p.figures.per_core))
		.flat_map(|c| c.uuids.0.clone())
		.collect();
	let mut devices = devices(backend, cpu_threads, &claimed, &int8_fp8)?;
	for uuid in &cpu_unit {
		devices.insert(*uuid, Arc::new((Mutex::new(()), Box::new(CpuProver::new(0)) as Box<dyn Prover>)));
	}
	for uuid in &claimed {
		if !devices.contains_key(uuid) {
			warn!("claimed GPU {} is not on this machine: its challenges will be missed", hex::encode(uuid));
		}
	}
	Ok(devices)
}

/// `offchain-gpu run`.
pub async fn run(config: MinerConfig) -> anyhow::Result<()> {
	let MinerConfig { url, key, backend, cpu_threads, state_dir, exit_after, behaviour, serve } = config;
	let chain = Chain::connect(&url, key).await?;
	let account = *chain.account();
	let miner = chain.miner().await?.ok_or_else(|| {
		anyhow!("account {account} is not registered as a miner: run `offchain-gpu register` with the same key first")
	})?;
	let served = match &serve {
		Some(config) => Some(reveal::serve_openings(&chain, config, behaviour).await?),
		None => None,
	};
	let profiles = chain.profiles().await?;
	let devices = claimed_devices(&miner, &profiles, backend, cpu_threads)?;
	let config = chain.config().await?;
	commit::prepare_shapes(&chain, &miner, &devices, &config).await?;
	let genesis = chain.genesis_hash();
	let state = State::load(&state_dir, &genesis, &account.to_string())?;
	info!(
		miner = %account,
		chain = %format!("0x{}", hex::encode(genesis)),
		devices = devices.len(),
		state = %state.path().display(),
		"following rounds"
	);

	let best = chain.best().await?;
	let (head_tx, head_rx) = watch::channel((best.block_number() as u32, best.block_hash()));
	let ctx = Arc::new(Ctx {
		chain,
		state: Mutex::new(state),
		devices,
		behaviour,
		max_trace: pog_primitives::MAX_TRACE_LEN as usize,
		ram_bytes: hardware::detect().ram_mib.saturating_mul(1 << 20),
		head: head_rx,
		bars: MultiProgress::new(),
		served,
		records: Records::default(),
	});

	let mut follower =
		Follower { ctx, account, committing: Sightings::new(), revealing: Sightings::new(), settled: 0, exit_after };
	follower.resume().await?;
	let mut blocks = follower.ctx.chain.api().stream_best_blocks().await?;
	loop {
		tokio::select! {
			_ = tokio::signal::ctrl_c() => {
				info!("stopping; the round in progress is recorded and resumes on the next start");
				return Ok(());
			}
			block = blocks.next() => {
				let block = block.context("the node closed the block subscription")??;
				let Some(at) = follower.ctx.chain.at_block(block.hash()).await? else {
					warn!(block = block.number(), "a best block the client never learnt of (a fork pruned meanwhile): skipped");
					continue;
				};
				let _ = head_tx.send((block.number() as u32, block.hash()));
				let events = at.events().fetch().await?;
				if follower.on_block(block.hash(), &events)? {
					return Ok(());
				}
			}
		}
	}
}

/// What the block stream's loop keeps between blocks.
struct Follower {
	ctx: Arc<Ctx>,
	account: AccountId32,
	/// The round seed each round is answered for: a fork can replace the round's start block, and
	/// with it the seed and every challenge of the round.
	committing: Sightings<[u8; 32]>,
	/// The block that drew each round's sample (`None`: drawn before this agent started).
	revealing: Sightings<Option<H256>>,
	/// Challenges that reached a final status.
	settled: u32,
	/// Stop after this many (0: never).
	exit_after: u32,
}

type Events = subxt::events::Events<subxt::PolkadotConfig>;

impl Follower {
	/// Resumes the current round (after a restart, or when started mid-round).
	async fn resume(&mut self) -> anyhow::Result<()> {
		let round = self.ctx.chain.round().await?;
		match round.phase {
			RoundPhase::Commit => {
				self.committing.note(round.index, round.seed);
				commit::spawn(self.ctx.clone(), round.index);
			},
			RoundPhase::Reveal => {
				self.revealing.note(round.index, None);
				reveal::spawn(self.ctx.clone(), round.index);
			},
			phase => info!(round = round.index, ?phase, "no round to resume: waiting for the next one"),
		}
		Ok(())
	}

	/// Acts on a best block's events; `true` once `exit_after` challenges are settled.
	fn on_block(&mut self, hash: H256, events: &Events) -> anyhow::Result<bool> {
		self.on_round_started(events)?;
		self.on_sample_drawn(hash, events)?;
		self.on_verdicts(events)?;
		if self.on_miner_settled(events)? {
			return Ok(true);
		}
		if events.has::<pog::pog::events::RoundSettled>() {
			spawn_claim_slot(self.ctx.clone());
		}
		for ev in events.find::<pog::pog::events::ScoreUpdated>() {
			let ev = ev?;
			if ev.miner == self.account {
				info!(
					total_ppb = ev.score.total.0,
					verified_gpus = ev.score.verified_gpus,
					gpu_points = ev.score.gpu_points,
					"score updated"
				);
			}
		}
		Ok(false)
	}

	fn on_round_started(&mut self, events: &Events) -> anyhow::Result<()> {
		for ev in events.find::<pog::pog::events::RoundStarted>() {
			let ev = ev?;
			match self.committing.note(ev.round, ev.seed) {
				Sighting::First => {
					info!(round = ev.round, "round started");
					commit::spawn(self.ctx.clone(), ev.round);
				},
				Sighting::Again => info!(round = ev.round, "round started event seen again: already answering it"),
				Sighting::Replaced => {
					// The challenges being computed are no longer the chain's: each is dropped
					// before its root goes out (`forks::still_current`), and the new ones are
					// answered.
					warn!(
						round = ev.round,
						"a fork replaced the round's start block and its seed: answering the new challenges"
					);
					commit::spawn(self.ctx.clone(), ev.round);
				},
			}
		}
		Ok(())
	}

	fn on_sample_drawn(&mut self, hash: H256, events: &Events) -> anyhow::Result<()> {
		for ev in events.find::<pog::pog::events::SampleDrawn>() {
			let ev = ev?;
			match self.revealing.note(ev.round, Some(hash)) {
				Sighting::First => {
					info!(round = ev.round, committed = ev.committed, capacity = ev.capacity, "sample drawn");
					reveal::spawn(self.ctx.clone(), ev.round);
				},
				Sighting::Again => info!(round = ev.round, "sample drawn event seen again: already revealing"),
				Sighting::Replaced => {
					// Each GPU whose sample the new draw changed is opened again
					// (`forks::opening`); the others are left as they are.
					warn!(round = ev.round, "a fork replaced the block that drew the sample: opening what it redrew");
					reveal::spawn(self.ctx.clone(), ev.round);
				},
			}
		}
		Ok(())
	}

	/// A member that got nothing from the endpoint voted unserved: the GPU is revealed on chain,
	/// which voids such votes (the rebuttal, `pallet_pog::served`). A failing vote on a served GPU
	/// may complete a delivery quorum with the unserved ones: a rebuttal refused before is sent
	/// again.
	fn on_verdicts(&mut self, events: &Events) -> anyhow::Result<()> {
		for ev in events.find::<pog::pog::events::VerdictSubmitted>() {
			let ev = ev?;
			if ev.miner != self.account || ev.verdict.0.passed {
				continue;
			}
			let key = Key { round: ev.round, gpu: ev.gpu };
			if ev.verdict.0.is_unserved() {
				warn!(challenge = %key, validator = %ev.validator, "voted unserved");
				reveal::spawn_rebuttal(self.ctx.clone(), key);
			} else if self.ctx.records.with(key, |r| r.rebuttal.is_some()) {
				warn!(challenge = %key, validator = %ev.validator, "voted failing on a served GPU");
				reveal::spawn_rebuttal(self.ctx.clone(), key);
			}
		}
		Ok(())
	}

	/// Records each GPU's outcome and forgets the settled round; `true` once `exit_after`
	/// challenges are settled.
	fn on_miner_settled(&mut self, events: &Events) -> anyhow::Result<bool> {
		for ev in events.find::<pog::pog::events::MinerSettled>() {
			let ev = ev?;
			if ev.miner != self.account {
				continue;
			}
			for (gpu, (uuid, outcome)) in ev.outcomes.0.iter().enumerate() {
				let key = Key { round: ev.round, gpu: gpu as u32 };
				let outcome = outcome_of(outcome);
				if outcome.is_pass() {
					info!(challenge = %key, gpu = %hex::encode(uuid), "challenge PASSED: the GPU is verified");
				} else {
					warn!(challenge = %key, gpu = %hex::encode(uuid), ?outcome, "challenge {}", describe(outcome));
				}
				self.ctx.state.lock().expect("state lock").set(key, Phase::Done { outcome })?;
				self.settled += 1;
			}
			if ev.slashed > 0 {
				warn!(round = ev.round, slashed = %ev.slashed, "deposit slashed for failed challenges");
			}
			self.ctx.records.forget_through(ev.round);
			self.committing.forget_through(ev.round);
			self.revealing.forget_through(ev.round);
			if self.exit_after > 0 && self.settled >= self.exit_after {
				info!(settled = self.settled, "done");
				return Ok(true);
			}
		}
		Ok(false)
	}
}

/// The agent's outcome for the chain's.
fn outcome_of(o: &RoundOutcome) -> Outcome {
	match o {
		RoundOutcome::Passed => Outcome::Passed,
		RoundOutcome::Failed(FailReason::MissedCommit) => Outcome::MissedCommit,
		RoundOutcome::Failed(FailReason::MissedReveal) => Outcome::MissedReveal,
		RoundOutcome::Failed(FailReason::WrongResult) => Outcome::WrongResult,
		RoundOutcome::Failed(FailReason::WrongWalk) => Outcome::WrongWalk,
		RoundOutcome::Unverified(UnverifiedReason::NotSelected) => Outcome::NotSelected,
		RoundOutcome::Unverified(UnverifiedReason::Inconclusive) => Outcome::Inconclusive,
	}
}

/// What an outcome means, for the log.
pub fn describe(o: Outcome) -> &'static str {
	match o {
		Outcome::Passed => "passed",
		Outcome::MissedCommit => "failed: missed the deadline (no root in time)",
		Outcome::MissedReveal => "failed: openings not revealed (or not proven) in the window",
		Outcome::WrongResult => "failed: validators found wrong entries",
		Outcome::WrongWalk => {
			"failed: validators found a wrong walk (the memory phase's dataset was not the one asked for)"
		},
		Outcome::NotSelected => "committed in time, not in this round's sample (credit kept, one round older)",
		Outcome::Inconclusive => "inconclusive (no committee majority; credit one round older)",
		Outcome::GaveUp => "given up by the agent",
	}
}

/// A miner registered on trial into a full registry (`pallet_pog::eviction`) takes a regular
/// slot once it has passed: at every settled round (every miner is then within reach), while it
/// is on trial and has a pass, it claims one. The chain takes a free slot or evicts the fewest
/// proven points below its own, or refuses while nobody is lower.
fn spawn_claim_slot(ctx: Arc<Ctx>) {
	tokio::spawn(async move {
		match ctx.chain.trial_claimable().await {
			Ok(None) => {},
			Ok(Some(false)) => info!("on trial: no pass yet; claiming a slot after the next settled round"),
			Ok(Some(true)) => match ctx.chain.submit(&pog::transactions().pog().claim_slot()).await {
				Ok(_) => info!("on trial and passed: took a regular slot in the registry"),
				Err(e) => info!("on trial: no regular slot yet ({e:#}); trying again after the next round"),
			},
			Err(e) => error!("cannot read whether the miner is on trial: {e:#}"),
		}
	});
}

fn give_up(ctx: &Ctx, key: Key, why: &str) -> anyhow::Result<()> {
	warn!(challenge = %key, "giving up: {why}");
	ctx.state.lock().expect("state lock").set(key, Phase::Done { outcome: Outcome::GaveUp })
}

/// This miner's challenges of `round` among `challenges` (the runtime API's, which are the current
/// round's), or `None`, logged, when there are none.
fn of_round(challenges: Vec<ChallengeView<AccountId32>>, round: u32) -> Option<Vec<ChallengeView<AccountId32>>> {
	let listed: BTreeSet<u32> = challenges.iter().map(|c| c.round).collect();
	let ours: Vec<_> = challenges.into_iter().filter(|c| c.round == round).collect();
	if ours.is_empty() {
		if listed.is_empty() {
			warn!(
				round,
				"skipped: the chain holds no challenge for this miner in this round (registered after the round \
				 started, or no GPU claimed?)"
			);
		} else {
			warn!(round, chain_rounds = ?listed, "skipped: the chain's challenges for this miner are of another round");
		}
		return None;
	}
	Some(ours)
}

/// Logs that challenge `key` is skipped because the state file records `phase` for it, while the
/// chain shows `on_chain`.
fn skipped_by_state(ctx: &Ctx, key: Key, phase: &Phase, on_chain: &str) {
	let path = ctx.state.lock().expect("state lock").path().display().to_string();
	let recorded = match phase {
		Phase::MemoryCommitted { .. } => "its memory root committed".to_string(),
		Phase::CommitSent { .. } => "its root sent (it may not have landed)".to_string(),
		Phase::Committed { .. } => "its root committed".to_string(),
		Phase::RevealSent => "its openings revealed".to_string(),
		Phase::Done { outcome } => format!("it done ({})", describe(*outcome)),
	};
	warn!(challenge = %key, state = %path, "skipped: the state file records {recorded}, and the chain shows {on_chain}");
}
