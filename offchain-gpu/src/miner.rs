//! The miner loop, following rounds from the block stream's events.
//!
//! - `RoundStarted`: ask the runtime API for this miner's challenges (one per GPU) and answer each
//!   on the GPU it names (one challenge per device at a time): the memory phase first where the
//!   profile has one, its root sent as soon as it is ready, then C (seeded from that root, and
//!   computed while the root lands), whose roots are committed before their deadlines.
//! - `SampleDrawn`: reveal the sampled leaves and walks of every selected GPU.
//! - `MinerSettled`: record each GPU's outcome.
//! - `RoundSettled`: while on trial in a full registry, claim a regular slot (`claim_slot`).
//!
//! Every step is recorded in the state file first, so a restart resumes the round (recomputing
//! the memory phase and C to open them, and giving up if a root differs) and never submits
//! anything twice.

use std::{
	collections::{BTreeMap, BTreeSet},
	sync::{Arc, Mutex},
	time::Duration,
};

use anyhow::{anyhow, bail, Context as _};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use pog_primitives::memory::MemoryChallenge;
use pog_primitives::verify::ChallengeSpec;
use pog_prover::{cpu::CpuProver, memory::MemoryCommitment, Committed, Prover};
use subxt::utils::AccountId32;
use tokio::sync::watch;
use tracing::{debug, error, info, warn};

use crate::{
	adversary::Behaviour,
	chain::{convert, pog, Chain, ChallengeView, FailReason, RoundOutcome, RoundPhase, UnverifiedReason},
	hardware,
	state::{Key, Outcome, Phase, State},
};

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
	head: watch::Receiver<(u32, subxt::utils::H256)>,
	bars: MultiProgress,
	/// Computed results kept until their round is settled, to open them.
	results: Mutex<BTreeMap<Key, Box<dyn Committed>>>,
	/// Memory phases kept until their round is settled, to open their walks.
	memory: Mutex<BTreeMap<Key, MemoryCommitment>>,
	/// The openings served to the committees, when served off chain.
	served: Option<Arc<crate::serve::Openings>>,
	/// The sample each GPU's openings answered when they went out (dropped with the round): a
	/// fork that redraws the sample has them opened again.
	opened: Mutex<BTreeMap<Key, Sample>>,
	/// Served GPUs' rebuttals: the reveal kept to answer an unserved vote on chain, or the vote's
	/// mark while no openings of the chain's sample are served yet (dropped with the round).
	rebuttals: Mutex<BTreeMap<Key, Rebuttal>>,
}

/// The leaves and walks a selected GPU's openings answer: the chain's sample of it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sample {
	leaves: Vec<u32>,
	walks: Vec<u64>,
}

impl Sample {
	fn of(ch: &ChallengeView<AccountId32>) -> Self {
		Sample { leaves: ch.leaves.clone(), walks: ch.walks.clone() }
	}

	/// Whether `ch`'s leaves and walks are these.
	fn is_of(&self, ch: &ChallengeView<AccountId32>) -> bool {
		ch.leaves == self.leaves && ch.walks == self.walks
	}
}

/// A served GPU's answer to an unserved vote.
enum Rebuttal {
	/// The reveal of the openings served, and the sample they answer.
	Kept(Sample, Reveal),
	/// An unserved vote came while the openings served (if any) answer another sample than the
	/// chain's (a fork redrew it): the rebuttal goes out once the new ones are served.
	Wanted,
}

/// Whether a selected GPU's openings are sent: the first time, or again when a fork redrew its
/// sample after they went out.
#[derive(Debug, PartialEq, Eq)]
enum Opening {
	First,
	Redrawn,
	/// Its openings of this sample went out, or it is done.
	Skip,
}

/// Whether a selected GPU whose state file records `phase` is opened for the chain's `sample`,
/// its openings having last answered `opened` (`None`: not sent since this agent started).
fn opening(phase: Option<&Phase>, opened: Option<&Sample>, sample: &Sample) -> Opening {
	match phase {
		Some(Phase::Done { .. }) => Opening::Skip,
		Some(Phase::RevealSent) if opened.is_some_and(|o| o != sample) => Opening::Redrawn,
		Some(Phase::RevealSent) => Opening::Skip,
		_ => Opening::First,
	}
}

/// How a round event seen in a best block compares with its last sighting.
#[derive(Debug, PartialEq, Eq)]
enum Sighting {
	First,
	/// The same (the block announced again).
	Again,
	/// A fork replaced it: another round seed, another draw block.
	Replaced,
}

/// What each round's event (the start, the draw) was last seen with.
struct Sightings<V>(BTreeMap<u32, V>);

impl<V: PartialEq> Sightings<V> {
	fn new() -> Self {
		Sightings(BTreeMap::new())
	}

	fn note(&mut self, round: u32, value: V) -> Sighting {
		match self.0.insert(round, value) {
			None => Sighting::First,
			Some(old) if self.0.get(&round) == Some(&old) => Sighting::Again,
			Some(_) => Sighting::Replaced,
		}
	}

	/// Forgets the rounds up to `round` (settled).
	fn forget_through(&mut self, round: u32) {
		self.0.retain(|r, _| *r > round);
	}
}

/// What `reveal_openings` carries: the opened leaves and walks.
type Reveal = (
	pog::runtime_types::bounded_collections::bounded_vec::BoundedVec<
		pog::runtime_types::pallet_pog::verification::Opening,
	>,
	pog::runtime_types::bounded_collections::bounded_vec::BoundedVec<
		pog::runtime_types::pallet_pog::verification::WalkOpening,
	>,
);

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

/// `offchain-gpu run`.
pub async fn run(config: MinerConfig) -> anyhow::Result<()> {
	let MinerConfig { url, key, backend, cpu_threads, state_dir, exit_after, behaviour, serve } = config;
	let chain = Chain::connect(&url, key).await?;
	let account = *chain.account();
	let miner = chain.miner().await?.ok_or_else(|| {
		anyhow!("account {account} is not registered as a miner: run `offchain-gpu register` with the same key first")
	})?;
	let served = match &serve {
		Some(config) => Some(serve_openings(&chain, config, behaviour).await?),
		None => None,
	};
	let claimed: Vec<[u8; 16]> = miner.claims.0.iter().flat_map(|c| c.uuids.0.clone()).collect();
	let profiles = chain.profiles().await?;
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
	let config = chain.config().await?;
	prepare_shapes(&chain, &miner, &devices, &config).await?;
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
		results: Mutex::new(BTreeMap::new()),
		memory: Mutex::new(BTreeMap::new()),
		served,
		opened: Mutex::new(BTreeMap::new()),
		rebuttals: Mutex::new(BTreeMap::new()),
	});

	// Resume the current round (after a restart, or when started mid-round).
	// The round seed each round is answered for: a fork can replace the round's start block, and
	// with it the seed and every challenge of the round. Likewise the block that drew each round's
	// sample (`None`: drawn before this agent started).
	let mut committing = Sightings::<[u8; 32]>::new();
	let mut revealing = Sightings::<Option<subxt::utils::H256>>::new();
	let round = ctx.chain.round().await?;
	match round.phase {
		RoundPhase::Commit => {
			committing.note(round.index, round.seed);
			spawn_commit(ctx.clone(), round.index);
		},
		RoundPhase::Reveal => {
			revealing.note(round.index, None);
			spawn_reveal(ctx.clone(), round.index);
		},
		phase => info!(round = round.index, ?phase, "no round to resume: waiting for the next one"),
	}
	let mut blocks = ctx.chain.api().stream_best_blocks().await?;
	let mut settled = 0u32;
	loop {
		tokio::select! {
			_ = tokio::signal::ctrl_c() => {
				info!("stopping; the round in progress is recorded and resumes on the next start");
				return Ok(());
			}
			block = blocks.next() => {
				let block = block.context("the node closed the block subscription")??;
				let Some(at) = ctx.chain.at_block(block.hash()).await? else {
					warn!(block = block.number(), "a best block the client never learnt of (a fork pruned meanwhile): skipped");
					continue;
				};
				let _ = head_tx.send((block.number() as u32, block.hash()));
				let events = at.events().fetch().await?;
				for ev in events.find::<pog::pog::events::RoundStarted>() {
					let ev = ev?;
					match committing.note(ev.round, ev.seed) {
						Sighting::First => {
							info!(round = ev.round, "round started");
							spawn_commit(ctx.clone(), ev.round);
						},
						Sighting::Again => {
							info!(round = ev.round, "round started event seen again: already answering it")
						},
						Sighting::Replaced => {
							// The challenges being computed are no longer the chain's: each is
							// dropped before its root goes out (`still_current`), and the new ones
							// are answered.
							warn!(round = ev.round, "a fork replaced the round's start block and its seed: answering the new challenges");
							spawn_commit(ctx.clone(), ev.round);
						},
					}
				}
				for ev in events.find::<pog::pog::events::SampleDrawn>() {
					let ev = ev?;
					match revealing.note(ev.round, Some(block.hash())) {
						Sighting::First => {
							info!(round = ev.round, committed = ev.committed, capacity = ev.capacity, "sample drawn");
							spawn_reveal(ctx.clone(), ev.round);
						},
						Sighting::Again => info!(round = ev.round, "sample drawn event seen again: already revealing"),
						Sighting::Replaced => {
							// Each GPU whose sample the new draw changed is opened again
							// (`opening`); the others are left as they are.
							warn!(round = ev.round, "a fork replaced the block that drew the sample: opening what it redrew");
							spawn_reveal(ctx.clone(), ev.round);
						},
					}
				}
				// A member that got nothing from the endpoint voted unserved: the GPU is revealed
				// on chain, which voids such votes (the rebuttal, `pallet_pog::served`). A failing
				// vote on a served GPU may complete a delivery quorum with the unserved ones: a
				// rebuttal refused before is sent again.
				for ev in events.find::<pog::pog::events::VerdictSubmitted>() {
					let ev = ev?;
					if ev.miner != account || ev.verdict.0.passed {
						continue;
					}
					let key = Key { round: ev.round, gpu: ev.gpu };
					if ev.verdict.0.is_unserved() {
						warn!(challenge = %key, validator = %ev.validator, "voted unserved");
						spawn_rebuttal(ctx.clone(), key);
					} else if ctx.rebuttals.lock().expect("rebuttals lock").contains_key(&key) {
						warn!(challenge = %key, validator = %ev.validator, "voted failing on a served GPU");
						spawn_rebuttal(ctx.clone(), key);
					}
				}
				for ev in events.find::<pog::pog::events::MinerSettled>() {
					let ev = ev?;
					if ev.miner != account {
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
						ctx.state.lock().expect("state lock").set(key, Phase::Done { outcome })?;
						settled += 1;
					}
					if ev.slashed > 0 {
						warn!(round = ev.round, slashed = %ev.slashed, "deposit slashed for failed challenges");
					}
					ctx.results.lock().expect("results lock").retain(|k, _| k.round > ev.round);
					ctx.memory.lock().expect("memory lock").retain(|k, _| k.round > ev.round);
					ctx.opened.lock().expect("opened lock").retain(|k, _| k.round > ev.round);
					ctx.rebuttals.lock().expect("rebuttals lock").retain(|k, _| k.round > ev.round);
					committing.forget_through(ev.round);
					revealing.forget_through(ev.round);
					if exit_after > 0 && settled >= exit_after {
						info!(settled, "done");
						return Ok(());
					}
				}
				if events.has::<pog::pog::events::RoundSettled>() {
					spawn_claim_slot(ctx.clone());
				}
				for ev in events.find::<pog::pog::events::ScoreUpdated>() {
					let ev = ev?;
					if ev.miner == account {
						info!(total_ppb = ev.score.total.0, verified_gpus = ev.score.verified_gpus, gpu_points = ev.score.gpu_points, "score updated");
					}
				}
			}
		}
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

fn spawn_commit(ctx: Arc<Ctx>, round: u32) {
	tokio::spawn(async move {
		if let Err(e) = commit_round(&ctx, round).await {
			error!(round, "{e:#}");
		}
	});
}

fn spawn_reveal(ctx: Arc<Ctx>, round: u32) {
	tokio::spawn(async move {
		if let Err(e) = reveal_round(&ctx, round).await {
			error!(round, "{e:#}");
		}
	});
}

/// Reveals served GPU `key` on chain, once, to void the unserved votes it drew: the openings kept
/// if they answer the chain's sample of it; else (a fork redrew it, and the new ones are not
/// served yet) once the new ones are served.
fn spawn_rebuttal(ctx: Arc<Ctx>, key: Key) {
	if !ctx.behaviour.rebuts() {
		return;
	}
	tokio::spawn(async move {
		let chains = match ctx.chain.my_challenges().await {
			Ok(challenges) => challenges.into_iter().find(|c| c.round == key.round && c.params.gpu == key.gpu),
			Err(e) => {
				error!(challenge = %key, "the rebuttal: cannot read the chain's sample of it: {e:#}");
				return;
			},
		};
		let kept = {
			let mut rebuttals = ctx.rebuttals.lock().expect("rebuttals lock");
			match rebuttals.remove(&key) {
				Some(Rebuttal::Kept(served, reveal)) if chains.as_ref().is_some_and(|ch| served.is_of(ch)) => {
					Some((served, reveal))
				},
				_ => {
					rebuttals.insert(key, Rebuttal::Wanted);
					None
				},
			}
		};
		let Some((served, (openings, walks))) = kept else {
			warn!(challenge = %key, "the rebuttal waits for the openings of the chain's sample to be served (a fork redrew it)");
			return;
		};
		let call = pog::transactions().pog().reveal_openings(key.round, key.gpu, openings.clone(), walks.clone());
		match ctx.chain.submit(&call).await {
			Ok(_) => info!(challenge = %key, "openings revealed on chain: the unserved votes are void"),
			Err(e) => {
				// Refused while the unserved votes so far would not fail the GPU
				// (`pallet_pog::served::rebuttable`): kept for the next vote that does not pass, and
				// sent again at once if one came meanwhile.
				warn!(challenge = %key, "the rebuttal was refused, kept for the next vote that does not pass: {e:#}");
				// A fork redraw may have kept newer openings meanwhile: those stay.
				let mut rebuttals = ctx.rebuttals.lock().expect("rebuttals lock");
				let wanted = matches!(rebuttals.get(&key), Some(Rebuttal::Wanted));
				if !matches!(rebuttals.get(&key), Some(Rebuttal::Kept(..))) {
					rebuttals.insert(key, Rebuttal::Kept(served, (openings, walks)));
				}
				drop(rebuttals);
				if wanted {
					spawn_rebuttal(ctx.clone(), key);
				}
			},
		}
	});
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

/// The size of a GPU's reveal, which sets its fee: opened leaves and walks and their proofs' lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RevealShape {
	leaves: u32,
	leaf_proof: u32,
	walks: u32,
	walk_proof: u32,
}

impl RevealShape {
	/// The largest reveal a challenge of `dims` (with a memory phase of `memory_walks` walks) may
	/// owe: `openings` leaves (fewer if C has fewer) and `walk_openings` walks (with a memory
	/// phase), with proofs as deep as their trees.
	fn of(dims: pog_primitives::Dims, memory_walks: Option<u64>, openings: u32, walk_openings: u32) -> Self {
		let (walks, walk_proof) = match memory_walks {
			Some(w) => (u64::from(walk_openings).min(w) as u32, pog_primitives::memory::tree_height(w)),
			None => (0, 0),
		};
		Self { leaves: openings.min(dims.num_leaves()), leaf_proof: dims.tree_depth(), walks, walk_proof }
	}

	/// A reveal of this size for `gpu` of `round` (zeros for the values and hashes: only its size
	/// and weight matter for its fee).
	fn reveal(&self, round: u32, gpu: u32) -> subxt::tx::StaticPayload<pog::pog::calls::RevealOpenings> {
		use pog::runtime_types::{
			bounded_collections::bounded_vec::BoundedVec,
			pallet_pog::verification::{Opening, WalkOpening},
		};
		let opening = Opening {
			leaf: 0,
			values: BoundedVec(vec![0; pog_primitives::commitment::LEAF_VALUES]),
			proof: BoundedVec(vec![[0; 32]; self.leaf_proof as usize]),
		};
		let walk = WalkOpening { walk: 0, result: [0; 32], proof: BoundedVec(vec![[0; 32]; self.walk_proof as usize]) };
		pog::transactions().pog().reveal_openings(
			round,
			gpu,
			BoundedVec(vec![opening; self.leaves as usize]),
			BoundedVec(vec![walk; self.walks as usize]),
		)
	}
}

/// Warns when the miner's free balance cannot prepay the fees of the reveals this round's
/// `challenges` may owe. A reveal's fee is withdrawn when it is applied and refunded in the same
/// extrinsic when it succeeds, and never below the existential deposit: the pool refuses a reveal
/// the balance cannot pay, and its GPU fails MissedReveal and is slashed. Each fee is the
/// runtime's own figure (`TransactionPaymentApi::query_info`'s partial fee) for a reveal of the
/// largest size the GPU may send; nothing is submitted.
async fn check_reveal_fees(ctx: &Ctx, round: u32, challenges: &[ChallengeView<AccountId32>]) -> anyhow::Result<()> {
	let config = ctx.chain.config().await?;
	let openings = config.openings.min(ctx.chain.max_openings().await?);
	let mut by_shape: BTreeMap<RevealShape, u128> = BTreeMap::new();
	let mut fees = Vec::with_capacity(challenges.len());
	for ch in challenges {
		let memory_walks = ch.params.memory.as_ref().map(|m| m.challenge.walks);
		let shape = RevealShape::of(ch.params.dims, memory_walks, openings, config.memory.openings);
		let fee = match by_shape.get(&shape) {
			Some(fee) => *fee,
			None => {
				let fee = ctx
					.chain
					.estimate_fee(&shape.reveal(round, ch.params.gpu))
					.await
					.with_context(|| format!("cannot estimate the fee of a reveal of {shape:?}"))?;
				by_shape.insert(shape, fee);
				fee
			},
		};
		fees.push(fee);
	}
	let Some(&largest) = fees.iter().max() else { return Ok(()) };
	let total = fees.iter().fold(0u128, |sum, fee| sum.saturating_add(*fee));
	let free = ctx.chain.free_balance().await?;
	let existential = ctx.chain.existential_deposit().await?;
	let account = ctx.chain.account();
	if free < existential.saturating_add(largest) {
		warn!(
			round,
			free,
			existential_deposit = existential,
			reveal_fee = largest,
			"LOW BALANCE: account {account} cannot prepay a reveal's fee ({largest} units) and keep the existential \
			 deposit: the pool will refuse this round's reveals and every selected GPU will fail MissedReveal and be \
			 slashed. Transfer {} units to {account} (enough for all of them) before the sample is drawn",
			existential.saturating_add(total).saturating_sub(free)
		);
	} else if free < existential.saturating_add(total) {
		warn!(
			round,
			free,
			existential_deposit = existential,
			reveal_fees = total,
			gpus = fees.len(),
			"low balance: account {account} can prepay any one reveal's fee but not all {} (a successful reveal is \
			 refunded in its own extrinsic, so this is enough unless one fails and pays); transfer {} units to {account} \
			 to cover them all",
			fees.len(),
			existential.saturating_add(total).saturating_sub(free)
		);
	} else {
		debug!(round, free, reveal_fees = total, "the free balance covers the fees this round's reveals may prepay");
	}
	Ok(())
}

/// Answers every challenge of `round` on its device and commits each root as soon as it is ready.
async fn commit_round(ctx: &Arc<Ctx>, round: u32) -> anyhow::Result<()> {
	let challenges = ctx.chain.my_challenges().await?;
	let Some(challenges) = of_round(challenges, round) else { return Ok(()) };
	// Off the deadline's path: a warning, in time to top up before the sample is drawn.
	let (fee_ctx, all) = (ctx.clone(), challenges.clone());
	tokio::spawn(async move {
		if let Err(e) = check_reveal_fees(&fee_ctx, round, &all).await {
			warn!(round, "cannot check that the free balance covers the reveals' fees: {e:#}");
		}
	});
	let mut todo = Vec::new();
	for c in challenges {
		let key = Key { round, gpu: c.params.gpu };
		if c.commitment.is_some() {
			info!(challenge = %key, "skipped: its root is already committed on chain");
			continue;
		}
		let phase = ctx.state.lock().expect("state lock").phase(key).cloned();
		match phase {
			None | Some(Phase::MemoryCommitted { .. }) => todo.push(c),
			Some(phase) => skipped_by_state(ctx, key, &phase, "no root on chain"),
		}
	}
	if todo.is_empty() {
		info!(round, "nothing to compute in this round");
		return Ok(());
	}
	let mut tasks = tokio::task::JoinSet::new();
	for ch in todo {
		let key = Key { round, gpu: ch.params.gpu };
		let Some(device) = ctx.devices.get(&ch.params.uuid).cloned() else {
			give_up(ctx, key, &format!("GPU {} is not on this machine", hex::encode(ch.params.uuid)))?;
			continue;
		};
		// The first deadline ahead: the memory root's while it is not committed, else the GEMM's.
		let first_deadline = match (&ch.params.memory, &ch.memory_commitment) {
			(Some(m), None) => m.deadline_ms,
			_ => ch.params.deadline_ms,
		};
		let deadline_in_s = (first_deadline as i64 - chain_now_ms(ctx).await? as i64) / 1000;
		if deadline_in_s < 0 {
			// Started (or restarted) after this GPU's deadline: nothing can be committed.
			give_up(ctx, key, &format!("its deadline passed {} s ago, before the agent saw it", -deadline_in_s))?;
			continue;
		}
		let p = &ch.params;
		info!(
			challenge = %key,
			precision = p.precision.name(),
			m = p.dims.m,
			n = p.dims.n,
			k = p.dims.k,
			memory_walks = p.memory.as_ref().map_or(0, |m| m.challenge.walks),
			deadline_in_s,
			"challenge issued"
		);
		let ctx2 = ctx.clone();
		tasks.spawn(async move { (key, prove_gpu(&ctx2, key, &device, ch).await) });
	}
	// Each root is committed as soon as it is ready, with those ready at the same moment in one
	// extrinsic: a GPU that takes longer never makes the others miss their deadlines. Nor does a
	// commit waiting for its block: each is sent on its own task (with its own nonce), so roots
	// ready a moment later go out at once, not a block later.
	let mut commits = tokio::task::JoinSet::new();
	while let Some(first) = tasks.join_next().await {
		let mut ready = vec![first.context("the compute task panicked")?];
		while let Some(more) = tasks.try_join_next() {
			ready.push(more.context("the compute task panicked")?);
		}
		let mut roots = Vec::new();
		for (key, answer) in ready {
			// A GPU whose computation failed is given up alone; the others still commit.
			match answer {
				Ok(Some((deadline_ms, c))) => roots.push((key, deadline_ms, c)),
				Ok(None) => warn!(
					challenge = %key,
					"not committed: a fork replaced the round's start block, and this answers a challenge the chain no \
					 longer has"
				),
				Err(e) => give_up(ctx, key, &format!("its computation failed: {e:#}"))?,
			}
		}
		let ctx = ctx.clone();
		commits.spawn(async move { commit_roots(&ctx, round, roots).await });
	}
	while let Some(done) = commits.join_next().await {
		done.context("the commit task panicked")??;
	}
	Ok(())
}

/// Whether the chain's challenge of `key` (at the best block) still has the seed `seed`: a fork
/// that replaces the round's start block draws another round seed, and a root of the old
/// challenge would fail its verification (and keep the new one from being committed).
async fn still_current(ctx: &Arc<Ctx>, key: Key, seed: &[u8; 32]) -> anyhow::Result<bool> {
	let now = ctx.chain.my_challenges().await?;
	Ok(now.iter().any(|ch| ch.round == key.round && ch.params.gpu == key.gpu && ch.params.seed == *seed))
}

/// Whether the chain's sample of `key` (at the best block) is still `sample`: a fork that replaces
/// the block that drew it draws another, and openings of the old one would fail.
async fn sample_current(ctx: &Arc<Ctx>, key: Key, sample: &Sample) -> anyhow::Result<bool> {
	let now = ctx.chain.my_challenges().await?;
	Ok(now.iter().any(|ch| ch.round == key.round && ch.params.gpu == key.gpu && sample.is_of(ch)))
}

/// Answers one GPU's challenge up to its GEMM root: the memory phase first where its profile has
/// one, its root sent as soon as it is ready, then C seeded from that root, computed while the
/// root lands (C's deadline is fixed on the round's clock, so the block that carries the root
/// takes nothing from it). Returns the GEMM's deadline and the committed C, or `None` when a fork
/// replaced the round's start block meanwhile: the challenge is no longer the chain's, nothing of
/// it is sent or recorded, and the new challenge is answered by the task its `RoundStarted`
/// started.
async fn prove_gpu(
	ctx: &Arc<Ctx>,
	key: Key,
	device: &Device,
	ch: ChallengeView<AccountId32>,
) -> anyhow::Result<Option<(u64, Box<dyn Committed>)>> {
	// The memory root C is seeded from, and the memory phase whose root is still to be sent.
	let (root, unsent) = match (ch.params.memory_challenge(), &ch.memory_commitment) {
		(None, _) => (None, None),
		// Resumed after the memory root landed: to open its walks, the phase is run again at the
		// reveal.
		(Some(_), Some(committed)) => (Some(committed.root), None),
		(Some(challenge), None) => {
			let m = prove_memory(ctx, key, device, challenge).await?;
			let deadline_ms = ch.params.memory.as_ref().map_or(0, |p| p.deadline_ms);
			let now = chain_now_ms(ctx).await?;
			if now > deadline_ms {
				bail!(
					"the memory phase took {:.1} s and the chain's time is {:.1} s past its deadline; the device is \
					 slower than its profile's memory rates require, so no memory root is sent",
					(m.fill + m.walks).as_secs_f64(),
					(now - deadline_ms) as f64 / 1000.0
				);
			}
			if !still_current(ctx, key, &ch.params.seed).await? {
				return Ok(None);
			}
			(Some(m.root()), Some(m))
		},
	};
	let spec = ch.params.spec(root.as_ref());
	let c = match unsent {
		None => compute(ctx, key, device, spec).await?,
		Some(m) => {
			let root = m.root();
			let memory_root = pog::runtime_types::pallet_pog::rounds::MemoryRoot { gpu: key.gpu, root };
			let call = pog::transactions().pog().commit_memory(
				key.round,
				pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(vec![memory_root]),
			);
			let landing = async {
				ctx.chain.submit(&call).await.context("the memory root was rejected")?;
				info!(
					challenge = %key,
					root = %hex::encode(root),
					fill_ms = m.fill.as_millis() as u64,
					walks_ms = m.walks.as_millis() as u64,
					"memory root committed"
				);
				ctx.state.lock().expect("state lock").set(key, Phase::MemoryCommitted { root: hex::encode(root) })
			};
			info!(challenge = %key, "computing C while the memory root lands");
			let (landed, c) = tokio::join!(landing, compute(ctx, key, device, spec));
			// No GEMM root goes out before its memory root is on chain: a rejected one discards C.
			landed?;
			ctx.memory.lock().expect("memory lock").insert(key, m);
			c?
		},
	};
	Ok(still_current(ctx, key, &ch.params.seed).await?.then_some((ch.params.deadline_ms, c)))
}

/// Runs `challenge`'s memory phase on `device` (one phase or GEMM per device at a time).
async fn prove_memory(
	ctx: &Arc<Ctx>,
	key: Key,
	device: &Device,
	challenge: MemoryChallenge,
) -> anyhow::Result<MemoryCommitment> {
	let challenge = ctx.behaviour.memory_challenge(challenge);
	info!(
		challenge = %key,
		dataset_mib = challenge.spec.dataset_bytes() >> 20,
		walks = challenge.walks,
		expected_ms = challenge.expected_ms,
		"memory phase"
	);
	let device = device.clone();
	tokio::task::spawn_blocking(move || {
		let _one_at_a_time = device.0.lock().expect("device lock");
		device.1.prove_memory(&challenge)
	})
	.await
	.context("the memory thread panicked")?
	.with_context(|| format!("challenge {key}: the memory phase failed"))
}

/// Commits the roots of `round` computed so far; a root whose deadline has passed is given up.
async fn commit_roots(ctx: &Arc<Ctx>, round: u32, computed: Vec<(Key, u64, Box<dyn Committed>)>) -> anyhow::Result<()> {
	let mut roots = Vec::new();
	for (key, deadline_ms, c) in computed {
		let now = chain_now_ms(ctx).await?;
		info!(challenge = %key, margin_ms = deadline_ms as i64 - now as i64, "C ready: the time left before its deadline");
		if now > deadline_ms {
			give_up(
				ctx,
				key,
				&format!(
					"C took {:.1} s and the chain's time is {:.1} s past the deadline; the device is slower than its \
					 profile requires, so no commitment is sent",
					c.timing().total.as_secs_f64(),
					(now - deadline_ms) as f64 / 1000.0
				),
			)?;
			continue;
		}
		roots.push((key, deadline_ms, c));
	}
	if roots.is_empty() {
		return Ok(());
	}
	if ctx.behaviour.commits_late() {
		let latest = roots.iter().map(|(_, d, _)| *d).max().unwrap_or_default();
		wait_until_chain_ms(ctx, latest + 1).await?;
	}
	let mut calls = Vec::new();
	for (key, _, c) in &roots {
		ctx.state.lock().expect("state lock").set(*key, Phase::CommitSent { root: hex::encode(c.root()) })?;
		calls.push(convert::root_commit(key.gpu, c.as_ref(), ctx.max_trace));
	}
	let call = pog::transactions()
		.pog()
		.commit_roots(round, pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(calls));
	match ctx.chain.submit(&call).await {
		Ok(_) => {
			for (key, _, c) in roots {
				info!(challenge = %key, root = %hex::encode(c.root()), elapsed_ms = c.timing().total.as_millis() as u64, "root committed");
				ctx.state.lock().expect("state lock").set(key, Phase::Committed { root: hex::encode(c.root()) })?;
				ctx.results.lock().expect("results lock").insert(key, c);
			}
		},
		Err(e) => warn!(round, "commitment rejected: {e:#}"),
	}
	Ok(())
}

/// Starts the openings server of `config` and names its URL on chain as this miner's endpoint
/// (unless it is already): from the next round on, selected GPUs are served, not revealed.
async fn serve_openings(
	chain: &Chain,
	config: &crate::serve::ServeConfig,
	behaviour: Behaviour,
) -> anyhow::Result<Arc<crate::serve::Openings>> {
	let openings = Arc::new(crate::serve::Openings::new(behaviour.audience()));
	crate::serve::spawn(config, openings.clone())?;
	if chain.openings_endpoint().await?.as_deref() != Some(config.url.as_str()) {
		let endpoint = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(config.url.as_bytes().to_vec());
		let call = pog::transactions().pog().set_openings_endpoint(Some(endpoint));
		chain.submit(&call).await.context("cannot name the openings endpoint on chain")?;
		info!(url = %config.url, "openings endpoint named on chain: selected GPUs are served from the next round on");
	}
	Ok(openings)
}

/// Reveals the sampled leaves (and walks) of every selected GPU of `round`, all at once: each GPU's
/// reveal is opened and submitted as soon as it is ready ([`Chain::submit`] hands out consecutive
/// nonces, so they are all in the pool together) and their inclusion is watched concurrently. A
/// GPU whose reveal fails (opening its result, recording it, building or submitting the
/// extrinsic) is logged with its index and the reason; the others go on.
async fn reveal_round(ctx: &Arc<Ctx>, round: u32) -> anyhow::Result<()> {
	let Some(challenges) = of_round(ctx.chain.my_challenges().await?, round) else { return Ok(()) };
	let mut selected = Vec::new();
	for ch in challenges {
		let key = Key { round, gpu: ch.params.gpu };
		if ch.commitment.is_none() {
			warn!(challenge = %key, "skipped: no root was committed in time, so there is nothing to reveal");
			continue;
		}
		if ch.selected != Some(true) {
			info!(challenge = %key, "committed, not in this round's sample: nothing to reveal");
			continue;
		}
		if ch.sample_seed.is_some() {
			info!(challenge = %key, "skipped: its openings are already revealed on chain");
			continue;
		}
		let phase = ctx.state.lock().expect("state lock").phase(key).cloned();
		let opened = ctx.opened.lock().expect("opened lock").get(&key).cloned();
		match (opening(phase.as_ref(), opened.as_ref(), &Sample::of(&ch)), &phase) {
			(Opening::First, _) => {},
			(Opening::Redrawn, _) => {
				warn!(challenge = %key, "a fork redrew its sample after its openings went out: opening the new one")
			},
			(Opening::Skip, Some(phase)) => {
				skipped_by_state(ctx, key, phase, "no reveal");
				continue;
			},
			(Opening::Skip, None) => continue,
		}
		selected.push(ch);
	}
	if selected.is_empty() {
		return Ok(());
	}
	let gpus: Vec<u32> = selected.iter().map(|ch| ch.params.gpu).collect();
	info!(round, ?gpus, "revealing {} selected GPU(s)", gpus.len());
	let selected = selected.into_iter().map(|ch| (Key { round, gpu: ch.params.gpu }, ch)).collect();
	let missing = each_gpu(selected, |key, ch| reveal_gpu(ctx, key, ch)).await;
	if !missing.is_empty() {
		warn!(
			round,
			revealed = gpus.len() - missing.len(),
			not_revealed = ?missing.iter().map(|k| k.gpu).collect::<Vec<_>>(),
			"not every selected GPU revealed (the reasons are logged above); those will fail MissedReveal"
		);
	}
	Ok(())
}

/// Runs `act` on every GPU's item at once (not one after another) and waits for all: a GPU whose
/// `act` fails is logged with its index and the reason, and never stops the others. Returns the
/// GPUs that failed or were given up (`Ok(false)`), in `items`' order.
async fn each_gpu<T, F, Fut>(items: Vec<(Key, T)>, act: F) -> Vec<Key>
where
	F: Fn(Key, T) -> Fut,
	Fut: std::future::Future<Output = anyhow::Result<bool>>,
{
	let done = futures::future::join_all(items.into_iter().map(|(key, item)| {
		let fut = act(key, item);
		async move {
			match fut.await {
				Ok(done) => (key, done),
				Err(e) => {
					error!(challenge = %key, gpu = key.gpu, "GPU {} failed: {e:#}", key.gpu);
					(key, false)
				},
			}
		}
	}))
	.await;
	done.into_iter().filter(|(_, ok)| !ok).map(|(key, _)| key).collect()
}

/// Opens challenge `key` (selected, committed, not yet revealed) and submits its reveal; waits
/// until it is in a best block. `Ok(false)` when it was given up (logged); an error says which
/// step failed.
async fn reveal_gpu(ctx: &Arc<Ctx>, key: Key, ch: ChallengeView<AccountId32>) -> anyhow::Result<bool> {
	let Some(commitment) = &ch.commitment else { bail!("reveal: it has no committed root to open") };
	let Some(walks) = open_walks(ctx, key, &ch).await.context("reveal: cannot open its walks")? else {
		return Ok(false);
	};
	let kept = ctx.results.lock().expect("results lock").remove(&key);
	let c = match kept {
		Some(c) => c,
		None => {
			let Some(device) = ctx.devices.get(&ch.params.uuid).cloned() else {
				bail!(
					"reveal: GPU {} is not on this machine, so its C cannot be recomputed to open it",
					hex::encode(ch.params.uuid)
				);
			};
			info!(challenge = %key, "recomputing C to open it (after a restart, or a fork redrew its sample)");
			let c = compute(ctx, key, &device, ch.params.spec(commitment.memory_root.as_ref()))
				.await
				.context("reveal: cannot recompute C to open it")?;
			if c.root() != commitment.root {
				give_up(ctx, key, "the recomputed C differs from the committed one; cannot open it")?;
				return Ok(false);
			}
			c
		},
	};
	let mut opened = c.open(&ch.leaves).context("reveal: cannot open its sampled leaves")?;
	ctx.behaviour.tamper(&mut opened);
	let sample = Sample::of(&ch);
	if !sample_current(ctx, key, &sample).await.context("reveal: cannot read the chain's sample")? {
		// The task that the new draw's `SampleDrawn` started opens the new sample.
		info!(challenge = %key, "a fork redrew its sample while it was being opened: these openings are dropped");
		return Ok(true);
	}
	ctx.state
		.lock()
		.expect("state lock")
		.set(key, Phase::RevealSent)
		.context("reveal: cannot record it in the state file, so it is not sent")?;
	ctx.opened.lock().expect("opened lock").insert(key, sample.clone());
	let openings = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(
		opened.into_iter().map(convert::opening).collect(),
	);
	let walks = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(
		walks.into_iter().map(convert::walk_opening).collect(),
	);
	if ctx.chain.serves(key.round).await.context("reveal: cannot read whether the round is served")? {
		let Some(served) = &ctx.served else {
			bail!(
				"round {} is served off chain (the endpoint was named when its first root landed), but this agent \
				 runs without --serve-openings: its committee will vote it unserved",
				key.round
			);
		};
		served.keep(key.round, key.gpu, convert::served_openings(&openings.0, &walks.0));
		if ctx.behaviour.rebuts() {
			let kept = Rebuttal::Kept(sample, (openings, walks));
			let wanted = ctx.rebuttals.lock().expect("rebuttals lock").insert(key, kept);
			if matches!(wanted, Some(Rebuttal::Wanted)) {
				spawn_rebuttal(ctx.clone(), key);
			}
		}
		info!(challenge = %key, leaves = ch.leaves.len(), walks = ch.walks.len(), "openings served to the committee");
		return Ok(true);
	}
	let call = pog::transactions().pog().reveal_openings(key.round, key.gpu, openings, walks);
	ctx.chain.submit(&call).await.context("reveal: the extrinsic was rejected")?;
	info!(challenge = %key, leaves = ch.leaves.len(), walks = ch.walks.len(), "openings revealed");
	Ok(true)
}

/// The sampled walks of a selected challenge, opened from its memory phase (none without one):
/// their groups recomputed on the GPU that ran it (64 groups of an H100: about 235 core-seconds
/// on the CPU). After a restart the phase is run again; `None` (given up, logged) if its root
/// differs from the committed one.
async fn open_walks(
	ctx: &Arc<Ctx>,
	key: Key,
	ch: &ChallengeView<AccountId32>,
) -> anyhow::Result<Option<Vec<pog_prover::memory::OpenedWalk>>> {
	if ch.walks.is_empty() {
		return Ok(Some(Vec::new()));
	}
	let Some(device) = ctx.devices.get(&ch.params.uuid).cloned() else {
		bail!("GPU {} is not on this machine, so its walks cannot be opened", hex::encode(ch.params.uuid));
	};
	let kept = ctx.memory.lock().expect("memory lock").remove(&key);
	let m = match kept {
		Some(m) => m,
		None => {
			let Some(challenge) = ch.params.memory_challenge() else {
				bail!("its challenge has no memory phase, so its walks cannot be opened");
			};
			info!(
				challenge = %key,
				"running the memory phase again to open its walks (after a restart, or a fork redrew its sample)"
			);
			let m = prove_memory(ctx, key, &device, challenge).await?;
			if Some(m.root()) != ch.memory_commitment.as_ref().map(|c| c.root) {
				give_up(ctx, key, "the memory phase run again differs from the committed one; cannot open it")?;
				return Ok(None);
			}
			m
		},
	};
	let walks = ch.walks.clone();
	let started = std::time::Instant::now();
	let opened = tokio::task::spawn_blocking(move || {
		let _one_at_a_time = device.0.lock().expect("device lock");
		m.open(&walks, device.1.as_ref())
	})
	.await
	.context("the opening thread panicked")??;
	info!(challenge = %key, walks = opened.len(), ms = started.elapsed().as_millis() as u64, "walks opened");
	Ok(Some(opened))
}

/// Tunes each device for the challenge shapes its claimed profile can be given (every precision
/// the profile supports), so that no challenge pays for it.
async fn prepare_shapes(
	chain: &Chain,
	miner: &crate::chain::MinerInfo<u128, u32>,
	devices: &BTreeMap<[u8; 16], Device>,
	config: &crate::chain::ProtocolConfig,
) -> anyhow::Result<()> {
	let profiles = chain.profiles().await?;
	for claim in &miner.claims.0 {
		let Some((_, profile)) = profiles.iter().find(|(id, _)| *id == claim.profile) else { continue };
		let unit = profile.figures.for_cores(miner.hardware.cpu_cores);
		for uuid in &claim.uuids.0 {
			let Some(device) = devices.get(uuid) else { continue };
			for p in pog_primitives::Precision::CHALLENGED {
				if !unit.challenged_in(p) {
					continue;
				}
				let (dims, _) = unit.gemm(p, config.target_ms, config.memory.walk_ms, unit.memory_measured());
				let spec = ChallengeSpec { seed: [0; 32], precision: p, dims, chunk_k: config.chunk_k };
				let device = device.clone();
				tokio::task::spawn_blocking(move || device.1.prepare(&spec)).await??;
			}
		}
	}
	Ok(())
}

/// Runs the device on `spec` (one challenge per device at a time) with a progress bar.
async fn compute(ctx: &Arc<Ctx>, key: Key, device: &Device, spec: ChallengeSpec) -> anyhow::Result<Box<dyn Committed>> {
	fits_in_memory(&spec.dims, ctx.ram_bytes).with_context(|| format!("challenge {key}"))?;
	let bar = ctx.bars.add(ProgressBar::new(1000));
	bar.set_style(
		ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta}")
			.expect("valid template")
			.progress_chars("=> "),
	);
	bar.set_prefix(format!("round {} GPU {} on {}", key.round, key.gpu, device.1.name()));
	let (device, behaviour, b) = (device.clone(), ctx.behaviour, bar.clone());
	let result = tokio::task::spawn_blocking(move || {
		let _one_at_a_time = device.0.lock().expect("device lock");
		behaviour.prove(device.1.as_ref(), &spec, &|f| b.set_position((f * 1000.0) as u64))
	})
	.await
	.context("the compute thread panicked")?;
	bar.finish_and_clear();
	result.with_context(|| format!("challenge {key}: cannot compute C"))
}

/// Refuses a challenge whose C (m × n 4-byte values, kept on the host to open it) would not fit
/// in `ram_bytes` of memory, before anything is allocated.
fn fits_in_memory(dims: &pog_primitives::Dims, ram_bytes: u64) -> anyhow::Result<()> {
	let need = u128::from(dims.m) * u128::from(dims.n) * 4;
	if need > u128::from(ram_bytes) {
		bail!(
			"its C ({}×{}) needs {:.1} GiB of host memory and this machine has {:.1} GiB: either the node \
			 serves challenges this chain would not ask for (check --url), or this machine cannot answer its \
			 claimed profile",
			dims.m,
			dims.n,
			need as f64 / f64::from(1u32 << 30),
			ram_bytes as f64 / f64::from(1u32 << 30)
		);
	}
	Ok(())
}

/// The chain's time as it reads deadlines: the round's clock at the best block (ms).
async fn chain_now_ms(ctx: &Ctx) -> anyhow::Result<u64> {
	ctx.chain.round_clock_ms().await
}

async fn wait_until_chain_ms(ctx: &Ctx, ms: u64) -> anyhow::Result<()> {
	while chain_now_ms(ctx).await? < ms {
		next_block(ctx).await?;
	}
	Ok(())
}

/// Waits for the next best block (or 12 s, whichever is first).
async fn next_block(ctx: &Ctx) -> anyhow::Result<()> {
	let mut head = ctx.head.clone();
	let _ = tokio::time::timeout(Duration::from_secs(12), head.changed()).await;
	Ok(())
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn a_challenge_larger_than_the_machine_is_refused_before_allocating() {
		let dims = pog_primitives::Dims { m: 65_536, n: 65_536, k: 256 };
		let err = fits_in_memory(&dims, 8 << 30).unwrap_err().to_string();
		assert!(err.contains("needs 16.0 GiB of host memory and this machine has 8.0 GiB"), "{err}");
		assert!(fits_in_memory(&dims, 16 << 30).is_ok());
	}

	/// A fork that replaces the block that drew the sample redraws it: a GPU whose openings went
	/// out for the first draw is opened again for the second (before, the second `SampleDrawn`
	/// was "seen again: already revealing", the committee was served openings of a sample no
	/// longer the chain's, and the GPU failed); the same sample is never sent twice, and a GPU
	/// done is left alone. After a restart (nothing opened since) the state file decides.
	#[test]
	fn a_redrawn_sample_is_opened_again_and_the_same_one_never() {
		let first = Sample { leaves: vec![3, 17], walks: vec![5] };
		let redrawn = Sample { leaves: vec![9, 17], walks: vec![5] };
		let sent = Some(&Phase::RevealSent);
		assert_eq!(opening(None, None, &first), Opening::First);
		let committed = Phase::Committed { root: "00".into() };
		assert_eq!(opening(Some(&committed), None, &first), Opening::First);
		assert_eq!(opening(sent, Some(&first), &first), Opening::Skip);
		assert_eq!(opening(sent, Some(&first), &redrawn), Opening::Redrawn);
		assert_eq!(opening(sent, None, &redrawn), Opening::Skip);
		let done = Phase::Done { outcome: Outcome::Passed };
		assert_eq!(opening(Some(&done), Some(&first), &redrawn), Opening::Skip);
	}

	/// A round's start or draw seen again in the same block is answered once; seen with another
	/// seed or block (a fork replaced it), it is answered again; settled rounds are forgotten.
	#[test]
	fn a_round_event_replaced_by_a_fork_is_told_from_one_seen_again() {
		let mut draws = Sightings::new();
		assert_eq!(draws.note(4, Some([1u8; 32])), Sighting::First);
		assert_eq!(draws.note(4, Some([1u8; 32])), Sighting::Again);
		assert_eq!(draws.note(4, Some([2u8; 32])), Sighting::Replaced);
		assert_eq!(draws.note(4, Some([2u8; 32])), Sighting::Again);
		assert_eq!(draws.note(5, None), Sighting::First);
		draws.forget_through(4);
		assert_eq!(draws.note(4, Some([2u8; 32])), Sighting::First);
		assert_eq!(draws.note(5, None), Sighting::Again);
	}

	fn keys(gpus: &[u32]) -> Vec<Key> {
		gpus.iter().map(|&gpu| Key { round: 3, gpu }).collect()
	}

	/// The first GPU's reveal fails and the third is given up: the others are still acted on, and
	/// exactly the two are reported.
	#[tokio::test]
	async fn one_gpu_failing_does_not_stop_the_others() {
		let acted = Mutex::new(Vec::new());
		let items = keys(&[0, 1, 2, 3]).into_iter().map(|k| (k, k.gpu)).collect();
		let missing = each_gpu(items, |_, gpu| {
			let acted = &acted;
			async move {
				acted.lock().unwrap().push(gpu);
				match gpu {
					0 => bail!("the node refused it"),
					2 => Ok(false),
					_ => Ok(true),
				}
			}
		})
		.await;
		assert_eq!(missing, keys(&[0, 2]));
		let mut acted = acted.into_inner().unwrap();
		acted.sort();
		assert_eq!(acted, vec![0, 1, 2, 3]);
	}

	/// The reveal whose fee is estimated has the size of a real one: as many leaves and walks, each
	/// leaf's values and proof, each walk's proof as long as the prover's (a C of 128 leaves, 1,000
	/// walks: not a power of two).
	#[test]
	fn the_fee_is_estimated_on_a_reveal_of_the_real_size() {
		use pog_primitives::{commitment::CommittedMatrix, memory, Dims};
		let dims = Dims { m: 64, n: 512, k: 256 };
		let c = CommittedMatrix::new(vec![7; (dims.m * dims.n) as usize]);
		let (values, proof) = c.open(127).expect("a leaf of C");
		let levels = memory::levels_from(vec![[1; 32]; 1000], 0);
		let walk_proof = memory::proof_from(&levels, 0, 999);

		let shape = RevealShape::of(dims, Some(1000), 32, 16);
		assert_eq!(shape, RevealShape { leaves: 32, leaf_proof: proof.len() as u32, walks: 16, walk_proof: 10 });
		assert_eq!(walk_proof.len(), 10);
		assert_eq!(values.len(), pog_primitives::commitment::LEAF_VALUES);
		let call = shape.reveal(3, 1);
		let args = call.call_data();
		assert_eq!((args.round, args.gpu), (3, 1));
		assert_eq!(args.openings.0.len(), 32);
		assert!(args.openings.0.iter().all(|o| o.values.0.len() == values.len() && o.proof.0.len() == proof.len()));
		assert_eq!(args.walks.0.len(), 16);
		assert!(args.walks.0.iter().all(|w| w.proof.0.len() == walk_proof.len()));

		// Without a memory phase no walk; a C with fewer leaves than the protocol opens opens them all.
		let small = Dims { m: 16, n: 256, k: 256 };
		assert_eq!(
			RevealShape::of(small, None, 32, 16),
			RevealShape { leaves: 16, leaf_proof: 4, walks: 0, walk_proof: 0 }
		);
	}

	/// Every GPU is acted on at once: GPU 0's reveal completes only once GPU 1's has started, which
	/// a loop awaiting each in turn never reaches.
	#[tokio::test]
	async fn every_gpu_is_acted_on_at_once() {
		let started = tokio::sync::Notify::new();
		let items = keys(&[0, 1]).into_iter().map(|k| (k, k.gpu)).collect();
		let run = each_gpu(items, |_, gpu| {
			let started = &started;
			async move {
				if gpu == 0 {
					started.notified().await;
				} else {
					started.notify_one();
				}
				Ok(true)
			}
		});
		let missing = tokio::time::timeout(Duration::from_secs(10), run).await.expect("GPU 0 waited for GPU 1 forever");
		assert!(missing.is_empty());
	}
}
