//! The load benchmark's miners (`pog-load`, `benchmarking/load/README.md`): many registered
//! accounts answered by one process, so that a small machine can put thousands of committed GPUs
//! through a round with real roots and real openings.
//!
//! Every account is a miner as the protocol asks, with nothing left out: each of its GPUs' C is
//! computed on the CPU prover from the chain's challenge, its root committed in one signed
//! `commit_roots` per account, and the sampled leaves opened from the kept C and served off chain
//! to the committee (one HTTP server; account `i` names `{url}/{i}` as its endpoint). What makes
//! it cheap is the profile the benchmark registers the accounts with, not this code: a profile
//! whose challenges are the smallest the protocol allows. Memory phases are not answered (a
//! challenge with one is refused with its reason), nor are unserved votes rebutted.

use std::{
	collections::BTreeMap,
	sync::{Arc, Mutex},
	time::Instant,
};

use anyhow::{bail, Context};
use futures::StreamExt;
use pog_prover::{cpu::CpuProver, Committed, Prover};
use subxt::utils::AccountId32;
use subxt_signer::sr25519::Keypair;
use tracing::{info, warn};

use crate::{
	chain::{convert, pog, Chain, ChallengeView},
	serve::{self, Answers, Audience, Body, Openings, ServeConfig},
};

/// Submissions in flight at once (each watches its transaction on the shared connection, whose
/// subscriptions the node bounds).
const IN_FLIGHT: usize = 128;

/// Miners whose challenges are read at once.
const READS: usize = 16;

/// Where one submission landed: the miner, its GPUs, and the outcome.
type Sent = (usize, usize, anyhow::Result<crate::chain::Included>);

/// What [`run`] needs (built from `pog-load`'s flags).
pub struct LoadConfig {
	/// The node's RPC address.
	pub url: String,
	/// The miners' keys; miner `i` serves at `{serve.url}/{i}`.
	pub keys: Vec<Keypair>,
	/// Threads of the CPU prover (0: all cores).
	pub threads: usize,
	/// Where the one openings server listens, and the URL the endpoints start with.
	pub serve: ServeConfig,
	/// Stop after this many rounds that the miners took part in are settled (0: never).
	pub rounds: u32,
}

/// Each miner's openings, by its index: `GET /{i}/openings/{round}/{gpu}`.
struct ByMiner(Vec<Arc<Openings>>);

impl Answers for ByMiner {
	fn answer(&self, path: &str, member: Option<&str>) -> Option<Body> {
		let index: usize = path.trim_start_matches('/').split('/').next()?.parse().ok()?;
		self.0.get(index)?.answer(path, member)
	}
}

/// The miners, their served openings and the results kept to open.
struct Load {
	miners: Vec<Arc<Chain>>,
	served: Vec<Arc<Openings>>,
	prover: Arc<CpuProver>,
	/// C of each (miner, GPU) committed this round, kept until the sample is drawn.
	results: Mutex<BTreeMap<(usize, u32), Box<dyn Committed>>>,
	/// Bounds the submissions in flight.
	in_flight: Arc<tokio::sync::Semaphore>,
}

impl Load {
	/// Submits `call` signed by miner `i` on its own task (at most [`IN_FLIGHT`] at once), so that
	/// computing goes on while it lands.
	fn send<C>(&self, sends: &mut tokio::task::JoinSet<Sent>, i: usize, gpus: usize, call: C)
	where
		C: subxt::tx::Payload + Send + Sync + 'static,
	{
		let (chain, permits) = (self.miners[i].clone(), self.in_flight.clone());
		sends.spawn(async move {
			let _permit = permits.acquire_owned().await;
			(i, gpus, chain.submit(&call).await)
		});
	}
}

/// `pog-load`: sets every miner's endpoint, then answers every round's challenges of every miner
/// until `rounds` rounds they took part in are settled.
pub async fn run(config: LoadConfig) -> anyhow::Result<()> {
	let LoadConfig { url, keys, threads, serve: serve_config, rounds } = config;
	let Some(first) = keys.first() else { bail!("no miner keys: --accounts must be at least 1") };
	let chain = Chain::connect(&url, first.clone()).await?;
	let miners: Vec<Arc<Chain>> = keys.into_iter().map(|k| Arc::new(chain.with_signer(k))).collect();
	let in_flight = Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT));
	let served: Vec<Arc<Openings>> = miners.iter().map(|_| Arc::new(Openings::new(Audience::Everyone))).collect();
	serve::spawn(&serve_config, Arc::new(ByMiner(served.clone())))?;
	let load = Arc::new(Load {
		miners,
		served,
		prover: Arc::new(CpuProver::new(threads)),
		results: Default::default(),
		in_flight,
	});
	name_endpoints(&load, serve_config.url.trim_end_matches('/')).await?;

	let mut blocks = chain.api().stream_best_blocks().await?;
	let mut taken_part = BTreeMap::new();
	let mut settled = 0;
	while let Some(block) = blocks.next().await {
		let block = block?;
		let Some(at) = chain.at_block(block.hash()).await? else {
			warn!(block = block.number(), "a best block the client never learnt of (a fork pruned meanwhile): skipped");
			continue;
		};
		let events = at.events().fetch().await?;
		for ev in events.find::<pog::pog::events::RoundStarted>() {
			let round = ev?.round;
			info!(round, "round started: computing every miner's GPUs");
			let load = load.clone();
			taken_part.insert(round, tokio::spawn(async move { commit_round(&load, round).await }));
		}
		for ev in events.find::<pog::pog::events::SampleDrawn>() {
			let ev = ev?;
			info!(
				round = ev.round,
				committed = ev.committed,
				capacity = ev.capacity,
				"sample drawn: opening the selected GPUs"
			);
			let load = load.clone();
			tokio::spawn(async move {
				if let Err(e) = open_round(&load, ev.round).await {
					warn!(round = ev.round, "opening the selected GPUs failed: {e:#}");
				}
			});
		}
		for ev in events.find::<pog::pog::events::RoundSettled>() {
			let round = ev?.round;
			load.results.lock().expect("results lock").clear();
			if let Some(task) = taken_part.remove(&round) {
				task.await.context("the commit task panicked")??;
				settled += 1;
				info!(round, settled, "round settled");
				if rounds > 0 && settled >= rounds {
					return Ok(());
				}
			}
		}
	}
	bail!("the node closed the block subscription")
}

/// Names each miner's endpoint on chain where it is not named already.
async fn name_endpoints(load: &Arc<Load>, base: &str) -> anyhow::Result<()> {
	let started = Instant::now();
	let named = futures::stream::iter(load.miners.iter().enumerate())
		.map(|(i, chain)| async move {
			let url = format!("{base}/{i}");
			if chain.miner().await?.is_none() {
				bail!("miner {i} ({}) is not registered: register every account first", chain.account());
			}
			if chain.openings_endpoint().await?.as_deref() == Some(url.as_str()) {
				return Ok(false);
			}
			let endpoint = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(url.into_bytes());
			let call = pog::transactions().pog().set_openings_endpoint(Some(endpoint));
			chain.submit(&call).await.with_context(|| format!("miner {i}: cannot name its endpoint"))?;
			Ok(true)
		})
		.buffer_unordered(IN_FLIGHT)
		.collect::<Vec<anyhow::Result<bool>>>()
		.await
		.into_iter()
		.collect::<anyhow::Result<Vec<bool>>>()?;
	let new = named.iter().filter(|n| **n).count();
	info!(miners = named.len(), new, ms = started.elapsed().as_millis() as u64, "openings endpoints named");
	Ok(())
}

/// The challenges of `chain`'s miner in `round`.
async fn challenges_in(chain: &Chain, round: u32) -> anyhow::Result<Vec<ChallengeView<AccountId32>>> {
	Ok(chain.my_challenges().await?.into_iter().filter(|ch| ch.round == round).collect())
}

/// Computes every miner's uncommitted GPUs of `round`, one GEMM at a time on all the prover's
/// threads, and commits each miner's roots in one extrinsic as soon as they are computed (sent
/// while the next miner's are computed).
async fn commit_round(load: &Arc<Load>, round: u32) -> anyhow::Result<()> {
	let started = Instant::now();
	let mut sends = tokio::task::JoinSet::new();
	let (mut computed, mut committed, mut refused) = (0usize, 0usize, 0usize);
	for (i, chain) in load.miners.iter().enumerate() {
		let mut roots = Vec::new();
		for ch in challenges_in(chain, round).await? {
			if ch.commitment.is_some() {
				continue;
			}
			let gpu = ch.params.gpu;
			if ch.params.memory_challenge().is_some() {
				bail!("miner {i} GPU {gpu}: its profile has a memory phase, which the load miners do not answer");
			}
			let (spec, prover) = (ch.params.spec(None), load.prover.clone());
			let c = tokio::task::spawn_blocking(move || prover.prove(&spec, &|_| {}))
				.await
				.context("the compute thread panicked")?
				.with_context(|| format!("miner {i} GPU {gpu}: cannot compute C"))?;
			roots.push(convert::root_commit(gpu, c.as_ref(), pog_primitives::MAX_TRACE_LEN as usize));
			load.results.lock().expect("results lock").insert((i, gpu), c);
			computed += 1;
		}
		if roots.is_empty() {
			continue;
		}
		let gpus = roots.len();
		let call = pog::transactions()
			.pog()
			.commit_roots(round, pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(roots));
		load.send(&mut sends, i, gpus, call);
		while let Some(sent) = sends.try_join_next() {
			tally(sent.context("a commit task panicked")?, &mut committed, &mut refused);
		}
		if (i + 1) % 100 == 0 {
			info!(round, miners = i + 1, gpus = computed, s = started.elapsed().as_secs(), "computed");
		}
	}
	while let Some(sent) = sends.join_next().await {
		tally(sent.context("a commit task panicked")?, &mut committed, &mut refused);
	}
	info!(round, computed, committed, refused, s = started.elapsed().as_secs(), "every miner's roots sent");
	Ok(())
}

/// Counts one commit's outcome: its GPUs committed, or its refusal logged.
fn tally(sent: Sent, committed: &mut usize, refused: &mut usize) {
	match sent {
		(_, gpus, Ok(_)) => *committed += gpus,
		(i, gpus, Err(e)) => {
			*refused += gpus;
			warn!(miner = i, gpus, "commit refused: {e:#}");
		},
	}
}

/// Opens every selected GPU of `round` from its kept C: served to its committee where the round
/// is served, else revealed on chain.
async fn open_round(load: &Arc<Load>, round: u32) -> anyhow::Result<()> {
	let started = Instant::now();
	let (mut served, mut revealed) = (0usize, 0usize);
	let mut reveals = tokio::task::JoinSet::new();
	// Each miner's selected challenges and whether its round is served, read [`READS`] miners at
	// a time: one after another, a thousand miners' reads outlast the reveal window.
	let mut selected = futures::stream::iter(load.miners.iter().cloned().enumerate())
		.map(|(i, chain)| async move {
			let selected: Vec<_> = challenges_in(&chain, round)
				.await?
				.into_iter()
				.filter(|ch| ch.commitment.is_some() && ch.selected == Some(true) && ch.sample_seed.is_none())
				.collect();
			let serves = if selected.is_empty() { false } else { chain.serves(round).await? };
			anyhow::Ok((i, selected, serves))
		})
		.buffer_unordered(READS);
	while let Some(miner) = selected.next().await {
		let (i, selected, serves) = miner?;
		for ch in selected {
			let gpu = ch.params.gpu;
			let Some(c) = load.results.lock().expect("results lock").remove(&(i, gpu)) else {
				warn!(miner = i, gpu, "selected, but its C is not kept (committed by another process?)");
				continue;
			};
			let opened = c.open(&ch.leaves).with_context(|| format!("miner {i} GPU {gpu}: cannot open"))?;
			let openings = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(
				opened.into_iter().map(convert::opening).collect(),
			);
			let walks = pog::runtime_types::bounded_collections::bounded_vec::BoundedVec(Vec::new());
			if serves {
				load.served[i].keep(round, gpu, convert::served_openings(&openings.0, &walks.0));
				served += 1;
			} else {
				let call = pog::transactions().pog().reveal_openings(round, gpu, openings, walks);
				load.send(&mut reveals, i, 1, call);
				revealed += 1;
			}
		}
	}
	info!(round, served, revealed, ms = started.elapsed().as_millis() as u64, "selected GPUs opened");
	while let Some(sent) = reveals.join_next().await {
		if let (i, _, Err(e)) = sent.context("a reveal task panicked")? {
			warn!(miner = i, "reveal refused: {e:#}");
		}
	}
	Ok(())
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn each_miner_is_served_its_own_openings_under_its_index() {
		let served: Vec<Arc<Openings>> = (0..2).map(|_| Arc::new(Openings::new(Audience::Everyone))).collect();
		served[0].keep(3, 1, vec![10]);
		served[1].keep(3, 1, vec![11]);
		let by_miner = ByMiner(served);
		let body = |path: &str| by_miner.answer(path, Some("aa")).map(|b| b.to_vec());
		assert_eq!(body("/0/openings/3/1"), Some(vec![10]));
		assert_eq!(body("/1/openings/3/1"), Some(vec![11]));
		assert_eq!(body("/1/openings/3/2"), None, "a GPU the miner did not keep");
		assert_eq!(body("/2/openings/3/1"), None, "no such miner");
		assert_eq!(body("/openings/3/1"), None, "no miner named");
		assert_eq!(body("/x/openings/3/1"), None);
	}
}
