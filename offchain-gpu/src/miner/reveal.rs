//! The reveal phase: every selected GPU's sampled leaves and walks opened and revealed on chain
//! or served to its committee; and the rebuttal, the reveal on chain that voids unserved votes on
//! a served GPU.

use std::sync::Arc;

use anyhow::{bail, Context as _};
use subxt::utils::AccountId32;
use tracing::{error, info, warn};

use super::{
	commit::{compute, prove_memory},
	forks::{opening, sample_current, Opening, Sample},
	give_up, of_round, skipped_by_state, Ctx,
};
use crate::{
	adversary::Behaviour,
	chain::{convert, pog, Chain, ChallengeView},
	state::{Key, Phase},
};

/// A served GPU's answer to an unserved vote.
pub(super) enum Rebuttal {
	/// The reveal of the openings served, and the sample they answer.
	Kept(Sample, Reveal),
	/// An unserved vote came while the openings served (if any) answer another sample than the
	/// chain's (a fork redrew it): the rebuttal goes out once the new ones are served.
	Wanted,
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

/// Reveals `round`'s selected GPUs on a task of their own.
pub(super) fn spawn(ctx: Arc<Ctx>, round: u32) {
	tokio::spawn(async move {
		if let Err(e) = reveal_round(&ctx, round).await {
			error!(round, "{e:#}");
		}
	});
}

/// Reveals served GPU `key` on chain, once, to void the unserved votes it drew: the openings kept
/// if they answer the chain's sample of it; else (a fork redrew it, and the new ones are not
/// served yet) once the new ones are served.
pub(super) fn spawn_rebuttal(ctx: Arc<Ctx>, key: Key) {
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
		let kept = ctx.records.with(key, |r| match r.rebuttal.take() {
			Some(Rebuttal::Kept(served, reveal)) if chains.as_ref().is_some_and(|ch| served.is_of(ch)) => {
				Some((served, reveal))
			},
			_ => {
				r.rebuttal = Some(Rebuttal::Wanted);
				None
			},
		});
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
				let wanted = ctx.records.with(key, |r| {
					let wanted = matches!(r.rebuttal, Some(Rebuttal::Wanted));
					if !matches!(r.rebuttal, Some(Rebuttal::Kept(..))) {
						r.rebuttal = Some(Rebuttal::Kept(served, (openings, walks)));
					}
					wanted
				});
				if wanted {
					spawn_rebuttal(ctx.clone(), key);
				}
			},
		}
	});
}

/// Starts the openings server of `config` and names its URL on chain as this miner's endpoint
/// (unless it is already): from the next round on, selected GPUs are served, not revealed.
pub(super) async fn serve_openings(
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
		let opened = ctx.records.with(key, |r| r.opened.clone());
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
	let kept = ctx.records.with(key, |r| r.result.take());
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
	ctx.records.with(key, |r| r.opened = Some(sample.clone()));
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
			let wanted = ctx.records.with(key, |r| r.rebuttal.replace(kept));
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
	let kept = ctx.records.with(key, |r| r.memory.take());
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

#[cfg(test)]
mod tests {
	use std::{sync::Mutex, time::Duration};

	use super::*;

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
