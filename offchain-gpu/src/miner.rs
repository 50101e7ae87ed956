//! The miner loop: watch best blocks for this miner's challenges; for each, compute C on the GPU
//! that was challenged, commit the root before the deadline, reveal the sampled leaves once the
//! commitment's block is known, and follow the verdict. Every step is recorded in the state file
//! first, so a restart resumes or abandons cleanly and nothing is submitted twice.

use std::{
	collections::{BTreeMap, BTreeSet},
	sync::{Arc, Mutex},
	time::Duration,
};

use anyhow::{anyhow, bail, Context as _};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use pog_primitives::{
	commitment::Hash32,
	sampling::{opened_leaves, sample_seed},
	verify::ChallengeSpec,
};
use pog_prover::{cpu::CpuProver, Committed, Prover};
use subxt::utils::AccountId32;
use tokio::sync::watch;
use tracing::{error, info, warn};

use crate::{
	adversary::Behaviour,
	chain::{convert, pog, Chain, ChallengeStatus, FailReason},
	cli::{BackendChoice, RunArgs},
	hardware,
	state::{Phase, State},
};

/// A device and the lock that makes it answer one challenge at a time.
type Device = Arc<(Mutex<()>, Box<dyn Prover>)>;

/// Everything a challenge task needs.
struct Ctx {
	chain: Chain,
	state: Mutex<State>,
	devices: BTreeMap<[u8; 16], Device>,
	behaviour: Behaviour,
	openings: u32,
	max_trace: usize,
	head: watch::Receiver<(u32, subxt::utils::H256)>,
	bars: MultiProgress,
	finished: tokio::sync::mpsc::UnboundedSender<u64>,
}

/// Opens the devices that answer for the miner's claimed GPUs, by UUID.
pub fn devices(
	choice: BackendChoice,
	cpu_threads: usize,
	claimed: &[[u8; 16]],
) -> anyhow::Result<BTreeMap<[u8; 16], Device>> {
	let gpus = match choice {
		BackendChoice::Cpu => Vec::new(),
		_ => match hardware::detect() {
			m if !m.gpus.is_empty() => m.gpus,
			m if choice == BackendChoice::Gpu => {
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
			out.insert(uuid, Arc::new((Mutex::new(()), Box::new(gpu) as Box<dyn Prover>)));
		}
	}
	Ok(out)
}

/// `offchain-gpu run`.
pub async fn run(args: RunArgs) -> anyhow::Result<()> {
	let key = crate::chain::load_key(args.chain.suri.as_deref(), args.chain.key_file.as_deref())?;
	let chain = Chain::connect(&args.chain.url, key).await?;
	let account = *chain.account();
	let miner = chain.miner().await?.ok_or_else(|| {
		anyhow!("account {account} is not registered as a miner: run `offchain-gpu register` with the same key first")
	})?;
	let claimed: Vec<[u8; 16]> = miner.claims.0.iter().flat_map(|c| c.uuids.0.clone()).collect();
	let devices = devices(args.backend, args.cpu_threads, &claimed)?;
	for uuid in &claimed {
		if !devices.contains_key(uuid) {
			warn!("claimed GPU {} is not on this machine: its challenges will be missed", hex::encode(uuid));
		}
	}
	let config = chain.config().await?;
	let openings = config.openings.min(chain.max_openings().await?);
	prepare_shapes(&chain, &miner, &devices, config.target_ms, config.chunk_k).await?;
	let state_dir = args.state_dir.clone().unwrap_or_else(default_state_dir);
	let state = State::load(&state_dir, &account.to_string())?;
	info!(miner = %account, devices = devices.len(), state = %state_dir.display(), "answering challenges");

	let best = chain.best().await?;
	let (head_tx, head_rx) = watch::channel((best.block_number() as u32, best.block_hash()));
	let (finished_tx, mut finished_rx) = tokio::sync::mpsc::unbounded_channel();
	let ctx = Arc::new(Ctx {
		chain,
		state: Mutex::new(state),
		devices,
		behaviour: args.behaviour(),
		openings,
		max_trace: pog_primitives::MAX_TRACE_LEN as usize,
		head: head_rx,
		bars: MultiProgress::new(),
		finished: finished_tx,
	});

	let mut started = BTreeSet::new();
	// Resume the current round (after a restart).
	for id in miner.current_round.0 {
		started.insert(id);
		spawn(ctx.clone(), id);
	}
	let mut blocks = ctx.chain.api().stream_best_blocks().await?;
	let mut finished = 0u32;
	loop {
		tokio::select! {
			_ = tokio::signal::ctrl_c() => {
				info!("stopping; in-flight challenges are recorded and resume on the next start");
				return Ok(());
			}
			Some(_) = finished_rx.recv() => {
				finished += 1;
				if args.exit_after > 0 && finished >= args.exit_after {
					info!(finished, "done");
					return Ok(());
				}
			}
			block = blocks.next() => {
				let block = block.context("the node closed the block subscription")??;
				let at = block.at().await?;
				let _ = head_tx.send((block.number() as u32, block.hash()));
				let events = at.events().fetch().await?;
				for ev in events.find::<pog::pog::events::ChallengeIssued>() {
					let ev = ev?;
					if ev.miner == account && started.insert(ev.id) {
						spawn(ctx.clone(), ev.id);
					}
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

/// Tunes each device for the challenge shapes its claimed profile can be given (every precision
/// the profile supports), so that no challenge pays for it.
async fn prepare_shapes(
	chain: &Chain,
	miner: &crate::chain::MinerInfo<u128, u32>,
	devices: &BTreeMap<[u8; 16], Device>,
	target_ms: u32,
	chunk_k: u32,
) -> anyhow::Result<()> {
	let profiles = chain.profiles().await?;
	for claim in &miner.claims.0 {
		let Some((_, profile)) = profiles.iter().find(|(id, _)| *id == claim.profile) else { continue };
		for uuid in &claim.uuids.0 {
			let Some(device) = devices.get(uuid) else { continue };
			for p in pog_primitives::Precision::ALL {
				let gflops = profile.gflops[p.index()];
				if gflops == 0 {
					continue;
				}
				let dims = pog_primitives::sizing::challenge_dims(profile.vram_mib, gflops, target_ms);
				let spec = ChallengeSpec { seed: [0; 32], precision: p, dims, chunk_k };
				let device = device.clone();
				tokio::task::spawn_blocking(move || device.1.prepare(&spec)).await??;
			}
		}
	}
	Ok(())
}

fn default_state_dir() -> std::path::PathBuf {
	let base = std::env::var_os("XDG_DATA_HOME")
		.map(std::path::PathBuf::from)
		.or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share")))
		.unwrap_or_else(|| ".".into());
	base.join("offchain-gpu")
}

fn spawn(ctx: Arc<Ctx>, id: u64) {
	tokio::spawn(async move {
		let outcome = match answer(&ctx, id).await {
			Ok(outcome) => outcome,
			Err(e) => {
				error!(challenge = id, "{e:#}");
				format!("error: {e:#}")
			},
		};
		let _ = ctx.state.lock().expect("state lock").set(id, Phase::Done { outcome });
		let _ = ctx.finished.send(id);
	});
}

/// Takes challenge `id` from wherever it stands to its final status; returns the outcome.
async fn answer(ctx: &Arc<Ctx>, id: u64) -> anyhow::Result<String> {
	let phase = ctx.state.lock().expect("state lock").phase(id).cloned();
	if let Some(Phase::Done { outcome }) = phase {
		return Ok(outcome);
	}
	let ch = ctx.chain.challenge(id, None).await?.ok_or_else(|| anyhow!("challenge {id} is not on chain"))?;
	let spec = convert::spec(&ch);
	let device = ctx.devices.get(&ch.uuid).cloned().ok_or_else(|| {
		anyhow!("challenge {id} is for GPU {}, which is not on this machine; it will be missed", hex::encode(ch.uuid))
	})?;
	let mut committed: Option<Box<dyn Committed>> = None;

	if matches!(ch.status, ChallengeStatus::Issued) {
		if let Some(Phase::CommitSent { .. }) = phase {
			info!(challenge = id, "a commitment was sent before a restart; waiting for it rather than sending another");
		} else {
			let deadline_in_s = (ch.deadline_ms as i64 - chain_now_ms(ctx).await? as i64) / 1000;
			info!(
				challenge = id,
				precision = spec.precision.name(),
				m = spec.dims.m,
				n = spec.dims.n,
				k = spec.dims.k,
				deadline_in_s,
				"challenge issued"
			);
			let c = compute(ctx, id, &device, spec).await?;
			let root = c.root();
			if let Some(reason) = too_late(ctx, ch.deadline_ms, c.timing().total).await? {
				return Ok(format!("abandoned: {reason}"));
			}
			if ctx.behaviour.commits_late() {
				wait_until_chain_ms(ctx, ch.deadline_ms + 1).await?;
			}
			ctx.state.lock().expect("state lock").set(id, Phase::CommitSent { root: hex::encode(root) })?;
			let report = convert::report(c.timing(), ctx.max_trace);
			let call = pog::transactions().pog().commit_root(id, root, report);
			let included = ctx.chain.submit(&call).await.with_context(|| format!("commit of challenge {id}"))?;
			ctx.state
				.lock()
				.expect("state lock")
				.set(id, Phase::Committed { root: hex::encode(root), block: hex::encode(included.block_hash.0) })?;
			info!(challenge = id, root = %hex::encode(root), elapsed_ms = c.timing().total.as_millis() as u64, "root committed");
			committed = Some(c);
		}
	}

	// Wait until the commitment is on chain and the block after it exists.
	let ch = loop {
		let ch = ctx.chain.challenge(id, None).await?.ok_or_else(|| anyhow!("challenge {id} vanished"))?;
		match (&ch.status, ch.committed_at) {
			(ChallengeStatus::Issued, _) => {
				if chain_now_ms(ctx).await? > ch.deadline_ms + 12_000 {
					return Ok("abandoned: the commitment did not land before the deadline".into());
				}
			},
			(ChallengeStatus::Committed, Some((block, _))) if ctx.head.borrow().0 > block => break ch,
			(ChallengeStatus::Committed, _) => {},
			_ => return finish(ctx, id).await,
		}
		next_block(ctx).await?;
	};
	let root = ch.root.ok_or_else(|| anyhow!("challenge {id} is committed without a root"))?;
	let committed = match committed {
		Some(c) => c,
		None => {
			info!(challenge = id, "recomputing C after a restart to open it");
			let c = compute(ctx, id, &device, spec).await?;
			if c.root() != root {
				return Ok("abandoned: the recomputed C differs from the committed one; cannot open it".into());
			}
			c
		},
	};
	let (commit_block, _) = ch.committed_at.expect("matched above");
	let block_hash = block_hash(ctx, commit_block).await?;
	let leaves = opened_leaves(&sample_seed(&block_hash, &spec.seed, &root), spec.dims.num_leaves(), ctx.openings);
	let mut opened = committed.open(&leaves)?;
	ctx.behaviour.tamper(&mut opened);
	ctx.state.lock().expect("state lock").set(id, Phase::RevealSent)?;
	let openings = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(
		opened.into_iter().map(convert::opening).collect(),
	);
	match ctx.chain.submit(&pog::transactions().pog().reveal_openings(id, openings)).await {
		Ok(_) => info!(challenge = id, leaves = leaves.len(), "openings revealed"),
		Err(e) => warn!(challenge = id, "reveal rejected: {e:#}"),
	}
	finish(ctx, id).await
}

/// Follows the challenge to its final status and describes it.
async fn finish(ctx: &Ctx, id: u64) -> anyhow::Result<String> {
	loop {
		let ch = ctx.chain.challenge(id, None).await?.ok_or_else(|| anyhow!("challenge {id} vanished"))?;
		let outcome = match ch.status {
			ChallengeStatus::Passed => "passed".to_string(),
			ChallengeStatus::Failed(reason) => format!("failed: {}", fail_reason(&reason)),
			ChallengeStatus::Inconclusive => "inconclusive (no quorum of verdicts)".to_string(),
			_ => {
				next_block(ctx).await?;
				continue;
			},
		};
		if outcome == "passed" {
			info!(challenge = id, "challenge PASSED: the GPU is verified");
		} else {
			warn!(challenge = id, "challenge {outcome}");
		}
		return Ok(outcome);
	}
}

/// Describes why a challenge failed.
pub fn fail_reason(r: &FailReason) -> &'static str {
	match r {
		FailReason::MissedDeadline => "missed the deadline (no root in time)",
		FailReason::RevealMissed => "openings not revealed in the window",
		FailReason::WrongResult => "validators found wrong entries",
		FailReason::Withdrawn => "withdrawn",
	}
}

/// Runs the device on `spec` (one challenge per device at a time) with a progress bar.
async fn compute(ctx: &Arc<Ctx>, id: u64, device: &Device, spec: ChallengeSpec) -> anyhow::Result<Box<dyn Committed>> {
	let bar = ctx.bars.add(ProgressBar::new(1000));
	bar.set_style(
		ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta}")
			.expect("valid template")
			.progress_chars("=> "),
	);
	bar.set_prefix(format!("challenge {id} on {}", device.1.name()));
	let (device, behaviour, b) = (device.clone(), ctx.behaviour, bar.clone());
	let result = tokio::task::spawn_blocking(move || {
		let _one_at_a_time = device.0.lock().expect("device lock");
		behaviour.prove(device.1.as_ref(), &spec, &|f| b.set_position((f * 1000.0) as u64))
	})
	.await
	.context("the compute thread panicked")?;
	bar.finish_and_clear();
	result.with_context(|| format!("challenge {id}: cannot compute C"))
}

/// Why committing now is pointless (the root would land after the deadline), if it is.
async fn too_late(ctx: &Ctx, deadline_ms: u64, took: Duration) -> anyhow::Result<Option<String>> {
	let now = chain_now_ms(ctx).await?;
	if now > deadline_ms {
		return Ok(Some(format!(
			"C took {:.1} s and the chain's time is {:.1} s past the deadline; the device is slower than its profile \
			 requires, so no commitment is sent",
			took.as_secs_f64(),
			(now - deadline_ms) as f64 / 1000.0
		)));
	}
	Ok(None)
}

/// The chain's time: the best block's timestamp (ms).
async fn chain_now_ms(ctx: &Ctx) -> anyhow::Result<u64> {
	let at = ctx.chain.best().await?;
	Ok(at.storage().fetch(pog::storage().timestamp().now(), ()).await?.decode()?)
}

async fn wait_until_chain_ms(ctx: &Ctx, ms: u64) -> anyhow::Result<()> {
	while chain_now_ms(ctx).await? < ms {
		next_block(ctx).await?;
	}
	Ok(())
}

/// The 32-byte hash of block `number`.
async fn block_hash(ctx: &Ctx, number: u32) -> anyhow::Result<Hash32> {
	let at = ctx.chain.best().await?;
	let h = at.storage().fetch(pog::storage().system().block_hash(), (number,)).await?.decode()?;
	Ok(h.0)
}

/// Waits for the next best block (or 12 s, whichever is first).
async fn next_block(ctx: &Ctx) -> anyhow::Result<()> {
	let mut head = ctx.head.clone();
	let _ = tokio::time::timeout(Duration::from_secs(12), head.changed()).await;
	Ok(())
}

/// The account as the chain's generated types hold it.
pub fn account_bytes(a: &AccountId32) -> [u8; 32] {
	a.0
}
