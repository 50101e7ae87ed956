//! What the agent has done about each challenge, persisted on disk so that a restart resumes (or
//! cleanly abandons) in-flight challenges and never submits anything twice.
//!
//! The file is JSON, rewritten atomically (write to a temporary file, then rename) after every
//! change, at `<state dir>/<account>.json`.

use std::{
	collections::BTreeMap,
	path::{Path, PathBuf},
};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

/// The agent's progress on one challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
	/// The commitment extrinsic was sent with this root (hex); it may or may not have landed.
	CommitSent {
		/// The committed root, hex.
		root: String,
	},
	/// The commitment landed in the block with this hash (hex).
	Committed {
		/// The committed root, hex.
		root: String,
		/// Hash of the block it landed in, hex.
		block: String,
	},
	/// The openings were sent.
	RevealSent,
	/// Nothing more will be done (finished on chain, or given up for the reason given).
	Done {
		/// What happened.
		outcome: String,
	},
}

/// The persisted state of one miner account.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct State {
	#[serde(skip)]
	path: PathBuf,
	/// Progress per challenge id.
	pub challenges: BTreeMap<u64, Phase>,
}

impl State {
	/// Loads the state of `account` from `dir` (empty if there is none yet).
	pub fn load(dir: &Path, account: &str) -> anyhow::Result<Self> {
		std::fs::create_dir_all(dir).with_context(|| format!("cannot create the state directory {}", dir.display()))?;
		let path = dir.join(format!("{account}.json"));
		let mut state = match std::fs::read(&path) {
			Ok(bytes) => serde_json::from_slice::<State>(&bytes)
				.with_context(|| format!("{} is not a state file of this agent; move it away", path.display()))?,
			Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::default(),
			Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
		};
		state.path = path;
		Ok(state)
	}

	/// The phase of challenge `id`, if the agent has acted on it.
	pub fn phase(&self, id: u64) -> Option<&Phase> {
		self.challenges.get(&id)
	}

	/// Records `phase` for challenge `id` and writes the file.
	pub fn set(&mut self, id: u64, phase: Phase) -> anyhow::Result<()> {
		self.challenges.insert(id, phase);
		// Keep the file small: only the newest 256 challenges.
		while self.challenges.len() > 256 {
			let first = *self.challenges.keys().next().expect("non-empty");
			self.challenges.remove(&first);
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

	#[test]
	fn state_survives_a_restart() {
		let dir = tempfile::tempdir().unwrap();
		let mut s = State::load(dir.path(), "alice").unwrap();
		assert!(s.phase(7).is_none());
		s.set(7, Phase::CommitSent { root: "ab".into() }).unwrap();
		s.set(8, Phase::Done { outcome: "passed".into() }).unwrap();
		let again = State::load(dir.path(), "alice").unwrap();
		assert_eq!(again.phase(7), Some(&Phase::CommitSent { root: "ab".into() }));
		assert_eq!(again.phase(8), Some(&Phase::Done { outcome: "passed".into() }));
		assert!(State::load(dir.path(), "bob").unwrap().phase(7).is_none());
	}

	#[test]
	fn a_foreign_file_is_a_clear_error() {
		let dir = tempfile::tempdir().unwrap();
		std::fs::write(dir.path().join("alice.json"), b"not json").unwrap();
		let err = State::load(dir.path(), "alice").unwrap_err().to_string();
		assert!(err.contains("not a state file"), "{err}");
	}
}
