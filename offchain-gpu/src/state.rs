//! What the agent has done about each of its challenges (one per GPU per round), persisted on
//! disk so that a restart resumes (or cleanly abandons) a round and never submits anything twice.
//!
//! The file is JSON, rewritten atomically (write to a temporary file, then rename) after every
//! change, at `<state dir>/0x<genesis hash>/<account>.json`: keyed by the chain as well as by the
//! account, because round indices restart at 1 on every new chain. A relaunched testnet or a
//! restarted dev chain has a new genesis hash, hence a directory of its own and a fresh state;
//! keyed by account alone, the agent took the new chain's rounds for the old chain's (already done)
//! and answered none of them. The chain is in the path rather than inside the file so that the
//! states of several chains live side by side and none is ever overwritten by another's.
//!
//! A state file of an earlier agent version (`<state dir>/<account>.json`, no chain recorded) is
//! never read: [`State::load`] logs that it is ignored.

use std::{
	collections::BTreeMap,
	path::{Path, PathBuf},
};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

/// A challenge: the round and the GPU's index in the miner's claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
	/// The round.
	pub round: u32,
	/// The GPU index.
	pub gpu: u32,
}

impl std::fmt::Display for Key {
	fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
		write!(f, "{}/{}", self.round, self.gpu)
	}
}

impl std::str::FromStr for Key {
	type Err = anyhow::Error;
	fn from_str(s: &str) -> anyhow::Result<Self> {
		let (round, gpu) = s.split_once('/').context("a challenge key is round/gpu")?;
		Ok(Key { round: round.parse()?, gpu: gpu.parse()? })
	}
}

/// How a GPU's round ended, as the chain settled it (or why the agent gave up first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
	/// Verified: the GPU holds a credit.
	Passed,
	/// No root before the GPU's deadline.
	MissedCommit,
	/// Selected, but no valid openings in the reveal window.
	MissedReveal,
	/// The committee found wrong entries.
	WrongResult,
	/// The committee found an opened walk that differs from the walk recomputed from the cache.
	WrongWalk,
	/// Committed in time, not in the round's sample.
	NotSelected,
	/// Revealed, but the committee reached no majority.
	Inconclusive,
	/// The agent gave up (the log says why): no device for this GPU, C computed too late, or the
	/// recomputed C differs from the committed one after a restart.
	GaveUp,
}

impl Outcome {
	/// Whether the GPU holds (or keeps) a credit after it.
	pub fn is_pass(self) -> bool {
		self == Outcome::Passed
	}
}

/// The agent's progress on one challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
	/// The memory root (hex) landed; the GEMM seeded from it is next.
	MemoryCommitted {
		/// The committed memory root, hex.
		root: String,
	},
	/// The commitment extrinsic was sent with this root (hex); it may or may not have landed.
	CommitSent {
		/// The committed root, hex.
		root: String,
	},
	/// The commitment landed.
	Committed {
		/// The committed root, hex.
		root: String,
	},
	/// The openings were sent.
	RevealSent,
	/// Nothing more will be done.
	Done {
		/// How it ended.
		outcome: Outcome,
	},
}

/// The persisted state of one miner account.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct State {
	#[serde(skip)]
	path: PathBuf,
	/// Progress per challenge, keyed `round/gpu`.
	pub challenges: BTreeMap<String, Phase>,
}

impl State {
	/// Loads the state of `account` on the chain whose genesis hash is `genesis` from
	/// `dir/0x<genesis>/` (empty if there is none yet).
	pub fn load(dir: &Path, genesis: &[u8; 32], account: &str) -> anyhow::Result<Self> {
		let chain_dir = dir.join(format!("0x{}", hex::encode(genesis)));
		std::fs::create_dir_all(&chain_dir)
			.with_context(|| format!("cannot create the state directory {}", chain_dir.display()))?;
		let path = chain_dir.join(format!("{account}.json"));
		let legacy = dir.join(format!("{account}.json"));
		if legacy.is_file() {
			tracing::warn!(
				"ignoring {}: a state file of an earlier agent version, which does not say which chain it belongs to; \
				 this chain's state is {} (delete the old file to silence this warning)",
				legacy.display(),
				path.display()
			);
		}
		let mut state = match std::fs::read(&path) {
			Ok(bytes) => serde_json::from_slice::<State>(&bytes).with_context(|| {
				format!("{} is not a state file of this agent version; move it away", path.display())
			})?,
			Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::default(),
			Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
		};
		state.path = path;
		Ok(state)
	}

	/// The file this state is written to.
	pub fn path(&self) -> &Path {
		&self.path
	}

	/// The phase of challenge `key`, if the agent has acted on it.
	pub fn phase(&self, key: Key) -> Option<&Phase> {
		self.challenges.get(&key.to_string())
	}

	/// Records `phase` for challenge `key` and writes the file.
	pub fn set(&mut self, key: Key, phase: Phase) -> anyhow::Result<()> {
		self.challenges.insert(key.to_string(), phase);
		// Keep the file small: only the newest 256 challenges.
		while self.challenges.len() > 256 {
			let oldest = self
				.challenges
				.keys()
				.min_by_key(|k| k.parse::<Key>().map(|k| (k.round, k.gpu)).unwrap_or_default())
				.cloned()
				.expect("non-empty");
			self.challenges.remove(&oldest);
		}
		let tmp = self.path.with_extension("json.tmp");
		std::fs::write(&tmp, serde_json::to_vec_pretty(self)?)
			.with_context(|| format!("cannot write {}", tmp.display()))?;
		std::fs::rename(&tmp, &self.path).with_context(|| format!("cannot write {}", self.path.display()))?;
		Ok(())
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	const CHAIN_A: [u8; 32] = [0xaa; 32];
	const CHAIN_B: [u8; 32] = [0xbb; 32];

	#[test]
	fn state_survives_a_restart() {
		let dir = tempfile::tempdir().unwrap();
		let mut s = State::load(dir.path(), &CHAIN_A, "alice").unwrap();
		let (a, b) = (Key { round: 7, gpu: 0 }, Key { round: 7, gpu: 1 });
		assert!(s.phase(a).is_none());
		s.set(a, Phase::CommitSent { root: "ab".into() }).unwrap();
		s.set(b, Phase::Done { outcome: Outcome::Passed }).unwrap();
		let again = State::load(dir.path(), &CHAIN_A, "alice").unwrap();
		assert_eq!(again.phase(a), Some(&Phase::CommitSent { root: "ab".into() }));
		assert_eq!(again.phase(b), Some(&Phase::Done { outcome: Outcome::Passed }));
		assert!(State::load(dir.path(), &CHAIN_A, "bob").unwrap().phase(a).is_none());
	}

	/// The same key on a new chain (a relaunched testnet, a restarted dev chain) starts afresh:
	/// round 1 done on chain A is not done on chain B, and each chain's state survives the other's.
	#[test]
	fn each_chain_has_its_own_state() {
		let dir = tempfile::tempdir().unwrap();
		let round1 = Key { round: 1, gpu: 0 };
		let mut on_a = State::load(dir.path(), &CHAIN_A, "alice").unwrap();
		on_a.set(round1, Phase::Done { outcome: Outcome::Passed }).unwrap();

		let mut on_b = State::load(dir.path(), &CHAIN_B, "alice").unwrap();
		assert_eq!(on_b.phase(round1), None, "chain A's round 1 is taken for chain B's");
		assert!(on_b.challenges.is_empty());
		assert_ne!(on_a.path(), on_b.path());
		on_b.set(round1, Phase::CommitSent { root: "cd".into() }).unwrap();

		let a_again = State::load(dir.path(), &CHAIN_A, "alice").unwrap();
		assert_eq!(a_again.phase(round1), Some(&Phase::Done { outcome: Outcome::Passed }));
		let b_again = State::load(dir.path(), &CHAIN_B, "alice").unwrap();
		assert_eq!(b_again.phase(round1), Some(&Phase::CommitSent { root: "cd".into() }));
		assert!(b_again.path().starts_with(dir.path().join(format!("0x{}", "bb".repeat(32)))));
	}

	/// A file of the agent version that keyed state by account alone (the chain it came from is
	/// unknown) is left alone and not read.
	#[test]
	fn a_state_file_without_a_chain_is_ignored() {
		let dir = tempfile::tempdir().unwrap();
		let legacy = dir.path().join("alice.json");
		std::fs::write(&legacy, br#"{"challenges":{"1/0":{"phase":"done","outcome":"passed"}}}"#).unwrap();
		let s = State::load(dir.path(), &CHAIN_A, "alice").unwrap();
		assert_eq!(s.phase(Key { round: 1, gpu: 0 }), None);
		assert!(legacy.is_file(), "the old file is the user's to delete");
	}

	#[test]
	fn the_oldest_rounds_are_dropped_first() {
		let dir = tempfile::tempdir().unwrap();
		let mut s = State::load(dir.path(), &CHAIN_A, "alice").unwrap();
		for round in 1..=300u32 {
			s.set(Key { round, gpu: 0 }, Phase::RevealSent).unwrap();
		}
		assert_eq!(s.challenges.len(), 256);
		assert!(s.phase(Key { round: 44, gpu: 0 }).is_none());
		assert!(s.phase(Key { round: 45, gpu: 0 }).is_some());
	}

	#[test]
	fn a_foreign_file_is_a_clear_error() {
		let dir = tempfile::tempdir().unwrap();
		let chain_dir = dir.path().join(format!("0x{}", "aa".repeat(32)));
		std::fs::create_dir_all(&chain_dir).unwrap();
		std::fs::write(chain_dir.join("alice.json"), b"not json").unwrap();
		let err = State::load(dir.path(), &CHAIN_A, "alice").unwrap_err().to_string();
		assert!(err.contains("not a state file"), "{err}");
	}
}
