//! The commit phase: every GPU's challenge answered on its device, the memory root first where
//! the profile has a memory phase, then C, each root committed as soon as it is ready and before
//! its deadline.

use std::{collections::BTreeMap, sync::Arc};

use anyhow::{bail, Context as _};
use indicatif::{ProgressBar, ProgressStyle};
use pog_primitives::{memory::MemoryChallenge, verify::ChallengeSpec};
use pog_prover::{memory::MemoryCommitment, Committed};
use subxt::utils::AccountId32;
use tracing::{error, info, warn};

use super::{
	clock::{chain_now_ms, wait_until_chain_ms},
	fees::check_reveal_fees,
	forks::still_current,
	give_up, of_round, skipped_by_state, Ctx, Device,
};
use crate::{
	chain::{convert, pog, Chain, ChallengeView},
	state::{Key, Phase},
};

/// Answers `round`'s challenges on a task of its own.
pub(super) fn spawn(ctx: Arc<Ctx>, round: u32) {
	tokio::spawn(async move {
		if let Err(e) = commit_round(&ctx, round).await {
			error!(round, "{e:#}");
		}
	});
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
			ctx.records.with(key, |r| r.memory = Some(m));
			c?
		},
	};
	Ok(still_current(ctx, key, &ch.params.seed).await?.then_some((ch.params.deadline_ms, c)))
}

/// Runs `challenge`'s memory phase on `device` (one phase or GEMM per device at a time).
pub(super) async fn prove_memory(
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
				ctx.records.with(key, |r| r.result = Some(c));
			}
		},
		Err(e) => warn!(round, "commitment rejected: {e:#}"),
	}
	Ok(())
}

/// Tunes each device for the challenge shapes its claimed profile can be given (every precision
/// the profile supports), so that no challenge pays for it.
pub(super) async fn prepare_shapes(
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
pub(super) async fn compute(
	ctx: &Arc<Ctx>,
	key: Key,
	device: &Device,
	spec: ChallengeSpec,
) -> anyhow::Result<Box<dyn Committed>> {
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
}
