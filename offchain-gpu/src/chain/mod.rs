//! The chain client: a subxt `OnlineClient` for PoG chain with statically generated types
//! (`metadata/pog.scale`, kept current by a runtime test), the miner's signer, and the reads and
//! signed extrinsics the agent needs.

pub mod convert;

use std::{path::Path, str::FromStr};

use anyhow::Context as _;
use pog_primitives::profiles::Profile;
use subxt::{
	config::RpcConfigFor,
	rpcs::{methods::LegacyRpcMethods, RpcClient},
	tx::{Payload, TransactionStatus},
	utils::{AccountId32, H256},
	OnlineClient, PolkadotConfig,
};
use subxt_signer::{sr25519::Keypair, SecretUri};
use tracing::warn;

/// Types and calls generated from PoG chain's runtime metadata. A challenge, a profile's figures
/// and a verdict decode straight into `pog-primitives`' own types, so the agent derives its seeds,
/// sizes its units and reads votes through the same methods as the pallet
/// (`ChallengeParams::spec`, `ChallengeParams::memory_challenge`, `ProfileFigures::for_cores`,
/// `Verdict::is_unserved`).
#[subxt::subxt(
	runtime_metadata_path = "metadata/pog.scale",
	derive_for_all_types = "Clone",
	substitute_type(
		path = "pog_primitives::challenge::ChallengeParams",
		with = "::subxt::utils::Static<::pog_primitives::challenge::ChallengeParams>"
	),
	substitute_type(
		path = "pog_primitives::precision::Precision",
		with = "::subxt::utils::Static<::pog_primitives::Precision>"
	),
	substitute_type(path = "pog_primitives::sizing::Dims", with = "::subxt::utils::Static<::pog_primitives::Dims>"),
	substitute_type(
		path = "pog_primitives::profiles::ProfileFigures",
		with = "::subxt::utils::Static<::pog_primitives::profiles::ProfileFigures>"
	),
	substitute_type(
		path = "pog_primitives::verdict::Verdict",
		with = "::subxt::utils::Static<::pog_primitives::verdict::Verdict>"
	)
)]
pub mod pog {}

pub use pog::runtime_types::pallet_pog::{
	config::ProtocolConfig,
	miners::MinerInfo,
	rounds::{RoundInfo, RoundPhase},
	scoring::{FailReason, RoundOutcome, Score, UnverifiedReason, ZeroReason},
	views::{ChallengeView, MinerView},
};

/// Errors a miner can act on, each saying what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
	/// The node could not be reached.
	#[error("cannot reach a node at {url}: {source}. Is the node running, and is this its RPC address (e.g. ws://127.0.0.1:9944)?")]
	Unreachable {
		/// The URL tried.
		url: String,
		/// Why.
		source: Box<dyn std::error::Error + Send + Sync>,
	},
	/// The chain has no PoG pallet.
	#[error("the chain at {url} has no `Pog` pallet: this is not a PoG chain node")]
	NotPogChain {
		/// The URL.
		url: String,
	},
	/// The node runs a runtime other than the one this agent was built for.
	#[error("the chain's runtime differs from the one this agent was built for ({0}); update offchain-gpu")]
	Incompatible(String),
	/// The key could not be read.
	#[error(
		"bad key: {0}. Pass --suri //Alice (dev accounts), a mnemonic or 0x seed, or --key-file with one of those"
	)]
	BadKey(String),
}

/// A connected client with the miner's key.
pub struct Chain {
	api: OnlineClient<PolkadotConfig>,
	rpc: LegacyRpcMethods<RpcConfigFor<PolkadotConfig>>,
	signer: Keypair,
	account: AccountId32,
	/// The runtime's metadata when connected (names the pallet errors of pool refusals).
	metadata: subxt::ArcMetadata,
	/// The nonces of this client's transactions between signing and inclusion (held locked from
	/// choosing a nonce until the transaction is in the pool), so that concurrent submissions
	/// (one per GPU) and those signed again never share one.
	in_flight: tokio::sync::Mutex<InFlight>,
}

/// The client at one block.
pub type At = subxt::client::ClientAtBlock<PolkadotConfig, subxt::client::OnlineClientAtBlockImpl<PolkadotConfig>>;

/// Where a submitted extrinsic landed.
#[derive(Clone, Copy, Debug)]
pub struct Included {
	/// The block's hash.
	pub block_hash: H256,
}

/// Reads the miner's key from `--suri` or a key file (whose first line is a secret URI).
pub fn load_key(suri: Option<&str>, key_file: Option<&Path>) -> Result<Keypair, ChainError> {
	let uri = match (suri, key_file) {
		(Some(s), _) => s.to_string(),
		(None, Some(path)) => std::fs::read_to_string(path)
			.map_err(|e| ChainError::BadKey(format!("cannot read {}: {e}", path.display())))?
			.lines()
			.next()
			.unwrap_or_default()
			.trim()
			.to_string(),
		(None, None) => return Err(ChainError::BadKey("no key given".into())),
	};
	let uri = SecretUri::from_str(&uri).map_err(|e| ChainError::BadKey(e.to_string()))?;
	Keypair::from_uri(&uri).map_err(|e| ChainError::BadKey(e.to_string()))
}

impl Chain {
	/// Connects to the node at `url` and checks that it runs PoG chain.
	pub async fn connect(url: &str, signer: Keypair) -> anyhow::Result<Self> {
		let rpc_client = RpcClient::from_insecure_url(url)
			.await
			.map_err(|e| ChainError::Unreachable { url: url.to_string(), source: Box::new(e) })?;
		let api = OnlineClient::<PolkadotConfig>::from_rpc_client(rpc_client.clone())
			.await
			.map_err(|e| ChainError::Unreachable { url: url.to_string(), source: Box::new(e) })?;
		let at = api.at_current_block().await?;
		if at.metadata_ref().pallet_by_name("Pog").is_none() {
			return Err(ChainError::NotPogChain { url: url.to_string() }.into());
		}
		// The generated calls carry hashes of the types they were generated from.
		at.transactions()
			.validate(&pog::transactions().pog().deregister_miner())
			.map_err(|e| ChainError::Incompatible(e.to_string()))?;
		let account = signer.public_key().to_account_id();
		let metadata = at.metadata();
		Ok(Self {
			api,
			rpc: LegacyRpcMethods::new(rpc_client),
			signer,
			account,
			metadata,
			in_flight: Default::default(),
		})
	}

	/// The same connection signing with `signer` (another account's client, without another
	/// connection: the load benchmark's many miners share one).
	pub fn with_signer(&self, signer: Keypair) -> Self {
		let account = signer.public_key().to_account_id();
		Self {
			api: self.api.clone(),
			rpc: self.rpc.clone(),
			signer,
			account,
			metadata: self.metadata.clone(),
			in_flight: Default::default(),
		}
	}

	/// The miner's account.
	pub fn account(&self) -> &AccountId32 {
		&self.account
	}

	/// The chain's genesis hash: which chain this is (a relaunched testnet or a restarted dev chain
	/// has a new one, and its rounds count from 1 again).
	pub fn genesis_hash(&self) -> [u8; 32] {
		self.api.genesis_hash().0
	}

	/// The subxt client.
	pub fn api(&self) -> &OnlineClient<PolkadotConfig> {
		&self.api
	}

	/// The miner's record, if registered (at the best block).
	pub async fn miner(&self) -> anyhow::Result<Option<MinerInfo<u128, u32>>> {
		let at = self.best().await?;
		let v = at.storage().try_fetch(pog::storage().pog().miners(), (self.account,)).await?;
		Ok(match v {
			Some(v) => Some(v.decode()?),
			None => None,
		})
	}

	/// The round's clock (ms), as the chain reads deadlines (`Pallet::round_clock_ms`): the start
	/// of the best block's BABE slot, less the time the current round lost to stalls
	/// (`RoundInfo::stalled_ms`). Neither the block's timestamp (up to 6 s after the slot's
	/// start) nor the slot clock alone (ahead of the round's after a stall) is the chain's clock.
	pub async fn round_clock_ms(&self) -> anyhow::Result<u64> {
		let at = self.best().await?;
		let slot = at.storage().fetch(pog::storage().babe().current_slot(), ()).await?.decode()?.0;
		let slot_ms = at.constants().entry(pog::constants().pog().block_time_ms())?;
		let stalled = match at.storage().try_fetch(pog::storage().pog().round(), ()).await? {
			Some(round) => round.decode()?.stalled_ms,
			None => 0,
		};
		Ok(slot.saturating_mul(slot_ms).saturating_sub(stalled))
	}

	/// Whether the miner is on trial in a full registry (`None` if not), and if so whether
	/// `claim_slot` can go: it has passed (GPU points; at the best block).
	pub async fn trial_claimable(&self) -> anyhow::Result<Option<bool>> {
		let at = self.best().await?;
		if at.storage().try_fetch(pog::storage().pog().trial(), (self.account,)).await?.is_none() {
			return Ok(None);
		}
		let passed = match at.storage().try_fetch(pog::storage().pog().scores(), (self.account,)).await? {
			Some(score) => score.decode()?.gpu_points > 0,
			None => false,
		};
		Ok(Some(passed))
	}

	/// The miner's free balance.
	pub async fn free_balance(&self) -> anyhow::Result<u128> {
		let at = self.best().await?;
		let v = at.storage().try_fetch(pog::storage().system().account(), (self.account,)).await?;
		Ok(match v {
			Some(v) => v.decode()?.data.free,
			None => 0,
		})
	}

	/// The existential deposit: the least balance an account keeps (a fee is never taken below it).
	pub async fn existential_deposit(&self) -> anyhow::Result<u128> {
		let at = self.best().await?;
		Ok(at.constants().entry(pog::constants().balances().existential_deposit())?)
	}

	/// The fee `call`, signed with the miner's key, would prepay at the best block (its weight and
	/// length fee, no tip): the runtime's `TransactionPaymentApi::query_info`. Nothing is submitted.
	pub async fn estimate_fee<C: Payload>(&self, call: &C) -> anyhow::Result<u128> {
		let nonce = self.rpc.system_account_next_index(&self.account).await?;
		let params =
			subxt::config::DefaultExtrinsicParamsBuilder::<PolkadotConfig>::new().nonce(nonce).mortal(64).build();
		let tx = self.best().await?.transactions().create_signed(call, &self.signer, params).await?;
		Ok(tx.partial_fee_estimate().await?)
	}

	/// The deposit registering `claims` (profile, GPUs) with `cpu_cores` declared cores holds
	/// (runtime API `PogApi::deposit_for`: the rule lives in the pallet).
	pub async fn deposit_for(&self, claims: Vec<(u32, u32)>, cpu_cores: u32) -> anyhow::Result<u128> {
		let at = self.best().await?;
		Ok(at.runtime_apis().call(pog::runtime_apis().pog_api().deposit_for(claims, cpu_cores)).await?)
	}

	/// The GPU profile table, by id (names as text).
	pub async fn profiles(&self) -> anyhow::Result<Vec<(u32, Profile<String>)>> {
		let at = self.best().await?;
		let mut iter = at.storage().iter(pog::storage().pog().profiles(), ()).await?;
		let mut out = Vec::new();
		while let Some(entry) = iter.next().await {
			let entry = entry?;
			let (id,) = entry.key()?.decode()?;
			let profile = entry.value().decode()?;
			out.push((id, Profile { name: convert::text(&profile.name.0), figures: profile.figures.0 }));
		}
		out.sort_by_key(|(id, _)| *id);
		Ok(out)
	}

	/// Whether this miner serves round `round`'s openings off chain (`ServedIn`).
	pub async fn serves(&self, round: u32) -> anyhow::Result<bool> {
		let at = self.best().await?;
		Ok(at.storage().try_fetch(pog::storage().pog().served_in(), (round, self.account)).await?.is_some())
	}

	/// The endpoint this miner serves its openings at, as named on chain.
	pub async fn openings_endpoint(&self) -> anyhow::Result<Option<String>> {
		let at = self.best().await?;
		let v = at.storage().try_fetch(pog::storage().pog().openings_endpoints(), (self.account,)).await?;
		Ok(match v {
			Some(v) => Some(String::from_utf8_lossy(&v.decode()?.0).into_owned()),
			None => None,
		})
	}

	/// The protocol configuration.
	pub async fn config(&self) -> anyhow::Result<ProtocolConfig> {
		let at = self.best().await?;
		Ok(at.storage().fetch(pog::storage().pog().configuration(), ()).await?.decode()?)
	}

	/// Most openings a reveal may carry.
	pub async fn max_openings(&self) -> anyhow::Result<u32> {
		let at = self.best().await?;
		Ok(at.constants().entry(pog::constants().pog().max_openings())?)
	}

	/// The current (or last) network-wide round (runtime API `PogApi::round`).
	pub async fn round(&self) -> anyhow::Result<RoundInfo<AccountId32, u32>> {
		let at = self.best().await?;
		Ok(at.runtime_apis().call(pog::runtime_apis().pog_api().round()).await?)
	}

	/// This miner's challenges in the current round (runtime API `PogApi::challenges_of`).
	pub async fn my_challenges(&self) -> anyhow::Result<Vec<ChallengeView<AccountId32>>> {
		let at = self.best().await?;
		Ok(at.runtime_apis().call(pog::runtime_apis().pog_api().challenges_of(self.account)).await?)
	}

	/// This miner as auditors see it: claims, deposit, each GPU's standing, score and share
	/// (runtime API `PogApi::miner`).
	pub async fn miner_view(&self) -> anyhow::Result<Option<MinerView<AccountId32, u32, u128>>> {
		let at = self.best().await?;
		Ok(at.runtime_apis().call(pog::runtime_apis().pog_api().miner(self.account)).await?)
	}

	/// The client at the best block (transactions and reads that must see the newest state).
	pub async fn best(&self) -> anyhow::Result<At> {
		let hash = self.rpc.chain_get_block_hash(None).await?.context("the node has no best block")?;
		self.at_block(hash).await?.with_context(|| format!("the node's best block {hash:?} is unknown to the client"))
	}

	/// The client at block `hash`, or `None` if the client never learns of it. The client follows
	/// blocks through the node's `chainHead` subscription, which reports a block a moment after the
	/// legacy RPC names it best (and never one pruned meanwhile, a fork's): until then its header
	/// is not found. Seen under load (hundreds of reads at a block's import, four authors).
	pub async fn at_block(&self, hash: H256) -> anyhow::Result<Option<At>> {
		for _ in 0..UNSEEN_BLOCK_ATTEMPTS {
			match self.api.at_block(hash).await {
				Err(subxt::error::OnlineClientAtBlockError::BlockHeaderNotFound { .. }) => {
					tokio::time::sleep(UNSEEN_BLOCK_PAUSE).await
				},
				at => return Ok(Some(at?)),
			}
		}
		Ok(None)
	}

	/// A transaction the node refused, by name where it is a PoG duty the pool refused: the pool
	/// refuses a duty its dispatch would fail with `InvalidTransaction::Custom(i)`, `i` the index
	/// of that pallet error (`InvalidProof`, `DeadlinePassed`, …) in the metadata.
	/// `message` is what to show, `detail` where to look for the pool's code; a rejection without
	/// one may land if signed again.
	fn refusal(&self, message: &str, detail: &str) -> Unlanded {
		let name = pool_error_code(detail).and_then(|code| {
			let pallet = self.metadata.pallet_by_name("Pog")?;
			pallet.error_variant_by_index(code).map(|v| v.name.clone())
		});
		match name {
			Some(name) => Unlanded::Final(anyhow::anyhow!("transaction refused by the pool: {name} ({message})")),
			None => Unlanded::Dropped(anyhow::anyhow!("transaction rejected: {message}")),
		}
	}

	/// Signs `call` with the miner's key, submits it, and waits until it is in a best block;
	/// returns that block, or the dispatch error by name. A transaction the pool drops without a
	/// refusal of the pallet (a runtime upgrade makes every pending signature stale: the spec
	/// version is in the signed payload; a fork's retracted transactions return to the pool and
	/// hold their nonces at equal priority) is signed again at the best block, up to
	/// [`SUBMIT_ATTEMPTS`] times, after pauses that double ([`resubmit_pause`]) so that the
	/// attempts span more than a block, in which the pool settles; a duty past its deadline is
	/// refused by the pallet's code then.
	pub async fn submit<C: Payload>(&self, call: &C) -> anyhow::Result<Included> {
		let mut attempt = 1;
		loop {
			match self.submit_once(call).await {
				Ok(included) => return Ok(included),
				Err(Unlanded::Dropped(why)) if attempt < SUBMIT_ATTEMPTS => {
					warn!(
						attempt,
						"the pool dropped the transaction ({why:#}), not a refusal: signing it again at the best block"
					);
					tokio::time::sleep(resubmit_pause(attempt)).await;
					attempt += 1;
				},
				Err(Unlanded::Dropped(why) | Unlanded::Final(why)) => {
					self.fill_nonce_gap().await;
					return Err(why);
				},
			}
		}
	}

	/// After a transaction that will not land: if the node's next nonce for the miner is free
	/// while a later one is in flight (signed while this one was pending: a late root's reveals),
	/// those wait in the pool's future queue for a nonce nothing would send, and would miss
	/// their windows. A remark signed with it lets them land.
	async fn fill_nonce_gap(&self) {
		let in_flight = self.in_flight.lock().await;
		let Ok(floor) = self.rpc.system_account_next_index(&self.account).await else { return };
		let Some(gap) = in_flight.gap(floor) else { return };
		let remark = pog::transactions().system().remark(b"pog: nonce gap".to_vec());
		let sent = match self.best().await {
			Ok(best) => {
				let params = self.params(gap, &best).await;
				best.transactions().sign_and_submit(&remark, &self.signer, params).await.map_err(anyhow::Error::from)
			},
			Err(e) => Err(e),
		};
		match sent {
			Ok(_) => warn!(
				nonce = gap,
				"a transaction that will not land left its nonce free below others in flight: a remark takes it so that \
				 they can land"
			),
			Err(e) => warn!(nonce = gap, "could not fill the nonce gap below the transactions in flight: {e:#}"),
		}
	}

	/// The transaction parameters of a signature at `best` with `nonce`: mortal for
	/// [`MORTAL_PERIOD`] blocks from the finalized block when it is at most [`FINALIZED_BIRTH_LAG`]
	/// blocks behind `best`, else from `best`. A transaction born at a best block that a fork then
	/// replaces is refused everywhere ("ancient birth block": the block its era names is not in
	/// the chain); the finalized block is in every fork. (An agent's rebuttal, signed at a block
	/// of the fork that drew the sample, was refused three times so in a four-node test.) The
	/// spec version and metadata are still `best`'s, the runtime the pool checks against.
	async fn params(&self, nonce: u64, best: &At) -> subxt::config::ParamsFor<PolkadotConfig> {
		let builder = subxt::config::DefaultExtrinsicParamsBuilder::<PolkadotConfig>::new().nonce(nonce);
		let builder = match self.finalized_within(best.block_number(), FINALIZED_BIRTH_LAG).await {
			Some((number, hash)) => builder.mortal_from_unchecked(MORTAL_PERIOD, number, hash),
			None => builder.mortal(MORTAL_PERIOD),
		};
		builder.build()
	}

	/// The finalized block's number and hash, if it is at most `lag` blocks behind block `best`
	/// (`None` also when the node cannot say).
	async fn finalized_within(&self, best: u64, lag: u64) -> Option<(u64, H256)> {
		let hash = self.rpc.chain_get_finalized_head().await.ok()?;
		let number = self.rpc.chain_get_header(Some(hash)).await.ok()??.number;
		(best.saturating_sub(number) <= lag).then_some((number, hash))
	}

	/// One signature and submission of `call`, with the lowest nonce free to this client.
	async fn submit_once<C: Payload>(&self, call: &C) -> Result<Included, Unlanded> {
		let mut in_flight = self.in_flight.lock().await;
		let floor = self.rpc.system_account_next_index(&self.account).await.map_err(|e| Unlanded::Final(e.into()))?;
		let nonce = in_flight.lowest_free(floor);
		let best = self.best().await.map_err(Unlanded::Final)?;
		let params = self.params(nonce, &best).await;
		let mut progress = best
			.transactions()
			.sign_and_submit_then_watch(call, &self.signer, params)
			.await
			// The pool's reason is in the RPC error's data, which only its `Debug` form shows.
			.map_err(|e| self.refusal(&format!("{e}"), &format!("{e:?}")))?;
		in_flight.hold(nonce);
		drop(in_flight);
		let outcome = async {
			while let Some(status) = progress.next().await {
				match status.map_err(|e| Unlanded::Dropped(e.into()))? {
					TransactionStatus::InBestBlock(in_block) | TransactionStatus::InFinalizedBlock(in_block) => {
						// The events are read at the block, which the client may not have seen
						// yet, or never will if a fork replaced it (as in `at_block`): then the
						// next status tells where it landed.
						for _ in 0..UNSEEN_BLOCK_ATTEMPTS {
							match in_block.wait_for_success().await {
								Err(subxt::error::TransactionEventsError::CannotInstantiateClientAtBlock(
									subxt::error::OnlineClientAtBlockError::BlockHeaderNotFound { .. },
								)) => tokio::time::sleep(UNSEEN_BLOCK_PAUSE).await,
								done => {
									done.map_err(|e| Unlanded::Final(e.into()))?;
									return Ok(Included { block_hash: in_block.block_hash() });
								},
							}
						}
					},
					TransactionStatus::Error { message }
					| TransactionStatus::Invalid { message }
					| TransactionStatus::Dropped { message } => return Err(self.refusal(&message, &message)),
					_ => continue,
				}
			}
			Err(Unlanded::Dropped(anyhow::anyhow!("the node stopped reporting the transaction's status")))
		}
		.await;
		// Included, or its nonce is free again: the next submission takes it, so that those sent
		// after this one (a late commit's reveals) are not left waiting behind a gap.
		self.in_flight.lock().await.release(nonce);
		outcome
	}
}

/// Blocks a signed transaction stays valid for.
pub const MORTAL_PERIOD: u64 = 64;

/// How far behind the best block the finalized block may be for a transaction to be born at it
/// ([`MORTAL_PERIOD`] minus this is the least time it has to land).
const FINALIZED_BIRTH_LAG: u64 = 32;

/// How many times [`Chain::at_block`] asks for a block the client has not seen yet.
const UNSEEN_BLOCK_ATTEMPTS: u32 = 20;

/// The pause between those asks.
const UNSEEN_BLOCK_PAUSE: std::time::Duration = std::time::Duration::from_millis(100);

/// How many times [`Chain::submit`] signs a transaction that the pool keeps dropping.
pub const SUBMIT_ATTEMPTS: u32 = 5;

/// The pause before signing a transaction dropped at attempt `attempt` (from 1) again: 0.5 s,
/// doubling. A fork at a round's start once left a memory root's three attempts, 0.5 s apart,
/// all refused ("priority too low": the retracted signature held the nonce) within one block,
/// and the GPU missed its commit; the pauses now add up to 7.5 s, more than a block.
fn resubmit_pause(attempt: u32) -> std::time::Duration {
	std::time::Duration::from_millis(500u64 << attempt.saturating_sub(1).min(8))
}

/// Why a submission did not land.
enum Unlanded {
	/// The pool dropped it, or did not take it, without a refusal of the pallet: signing it again
	/// may land it.
	Dropped(anyhow::Error),
	/// Refused by the pallet's code, failed in dispatch, or the node could not be asked.
	Final(anyhow::Error),
}

/// The nonces of a client's transactions in flight. Each submission takes the lowest nonce at or
/// above the node's next index (which counts the pool's ready transactions) that none of them
/// holds: after a drop, the dropped nonce is taken again first, and never twice.
#[derive(Debug, Default)]
struct InFlight(std::collections::BTreeSet<u64>);

impl InFlight {
	/// The lowest nonce at or above `floor` that no transaction in flight holds.
	fn lowest_free(&self, floor: u64) -> u64 {
		(floor..).find(|n| !self.0.contains(n)).unwrap_or(floor)
	}

	fn hold(&mut self, nonce: u64) {
		self.0.insert(nonce);
	}

	fn release(&mut self, nonce: u64) {
		self.0.remove(&nonce);
	}

	/// `floor` (the node's next nonce), if no transaction in flight holds it while a later one
	/// does: a gap that holds back every later one.
	fn gap(&self, floor: u64) -> Option<u64> {
		(!self.0.contains(&floor) && self.0.iter().any(|n| *n > floor)).then_some(floor)
	}
}

/// The code of an `InvalidTransaction::Custom` refusal in a node's error: the node's RPC error
/// data reads `Custom error: <code>`, subxt's own message `... with custom error: <code>`, and a
/// `Debug` form may show `Custom(<code>)`.
fn pool_error_code(detail: &str) -> Option<u8> {
	let lower = detail.to_ascii_lowercase();
	let rest = ["custom error: ", "custom("].iter().find_map(|marker| lower.split(marker).nth(1))?;
	rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

#[cfg(test)]
mod refusal_tests {
	#[test]
	fn a_pool_refusal_code_is_read_from_the_rpc_error_data() {
		let debug = r#"Rpc(User(UserError { code: 1010, message: "Invalid Transaction", data: Some(RawValue("Custom error: 23")) }))"#;
		assert_eq!(super::pool_error_code(debug), Some(23));
		// subxt's status message for a transaction the pool refused.
		assert_eq!(super::pool_error_code("Invalid transaction with custom error: 32"), Some(32));
		assert_eq!(super::pool_error_code("Invalid(Custom(32))"), Some(32));
		assert_eq!(super::pool_error_code("Invalid Transaction (1010)"), None);
		assert_eq!(super::pool_error_code("Custom error: 300"), None, "not a u8");
	}

	#[test]
	fn a_free_nonce_below_one_in_flight_is_a_gap() {
		let mut in_flight = super::InFlight::default();
		assert_eq!(in_flight.gap(7), None, "nothing in flight");
		for n in [8, 9] {
			in_flight.hold(n);
		}
		assert_eq!(in_flight.gap(7), Some(7), "7 will not land and 8, 9 wait for it");
		assert_eq!(in_flight.gap(9), None, "9 is in flight");
		assert_eq!(in_flight.gap(10), None, "nothing in flight above 10");
	}

	#[test]
	fn the_attempts_to_sign_a_dropped_transaction_again_span_more_than_a_block() {
		let pauses: Vec<u64> =
			(1..super::SUBMIT_ATTEMPTS).map(|a| super::resubmit_pause(a).as_millis() as u64).collect();
		assert_eq!(pauses, [500, 1_000, 2_000, 4_000]);
		assert!(pauses.iter().sum::<u64>() > 6_000, "a block is 6 s");
	}

	#[test]
	fn a_dropped_nonce_is_taken_again_first_and_never_twice() {
		let mut in_flight = super::InFlight::default();
		// Sixteen reveals at once from nonce 10.
		for expected in 10..26 {
			let n = in_flight.lowest_free(10);
			assert_eq!(n, expected);
			in_flight.hold(n);
		}
		// The pool drops 12 and everything after it (its subtree); they are released in any order
		// and signed again, each with a nonce no other holds.
		for n in [20, 12, 25, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24] {
			in_flight.release(n);
		}
		let mut again = Vec::new();
		for _ in 0..14 {
			// The node's next index stays 12 while 12 is missing.
			let n = in_flight.lowest_free(12);
			in_flight.hold(n);
			again.push(n);
		}
		assert_eq!(again, (12..26).collect::<Vec<_>>());
		// An included transaction moves the node's index past it.
		in_flight.release(10);
		assert_eq!(in_flight.lowest_free(11), 26);
	}
}
