//! How this miner departs from the protocol: not at all in a production build. With the cargo
//! feature `adversary` (the integration tests build the agent with it), `run --adversary <cheat>`
//! and `register --adversary-extra-gpus N` make a cheating miner, so that the tests can show the
//! chain catches each cheat. Every such behaviour is here; the miner loop only calls the hooks of
//! [`Behaviour`], which are the honest steps without the feature.

use pog_primitives::{memory::MemoryChallenge, verify::ChallengeSpec};
use pog_prover::{Committed, OpenedLeaf, Progress, Prover};

/// The ways a cheating miner answers (tests only).
#[cfg(feature = "adversary")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Adversary {
	/// Add large errors to C before committing, at as many positions as half its entries, drawn
	/// with repeats: 1 − e^(−1/2) ≈ 39% of them. Every committee member checks the same 64
	/// entries at the dev and mainnet settings (32 openings × 2), so the cheat goes unseen with
	/// probability 0.61⁶⁴ ≈ 1.3 × 10⁻¹⁴; at 5% it went unseen with 0.95⁶⁴ = 3.7%, and a cold CI
	/// saw it pass. Smaller shares are for the pallet's tests, which fix what the members check.
	Corrupt,
	/// Compute with operands rounded to a cheaper format (the next lower precision; FP4 E2M1
	/// for fp8 challenges): every challenge is answered wrongly.
	LowerPrecision,
	/// Reveal openings with a forged Merkle path.
	ForgedPath,
	/// Commit after the deadline.
	LateCommit,
	/// Commit a constant C at once, computing nothing (also measures the validators' cost of a
	/// full-size challenge without a GPU).
	Constant,
	/// Answer every memory phase from one dataset made once from a fixed seed, instead of the
	/// dataset the round's seed demands (a miner reusing a stale dataset): the walks' paths lead
	/// to the committed root, their results are not the demanded walks'.
	StaleDataset,
	/// Serve the openings (with `--serve-openings`) to the first two committee members that ask
	/// only, fewer than a committee of four's quorum, and never rebut the unserved votes on chain.
	ServeTwo,
	/// Serve the openings (with `--serve-openings`) to no one, as a miner whose endpoint the
	/// validators cannot reach, and rebut the unserved votes by revealing on chain: honest
	/// results, so it passes.
	Unreachable,
	/// Commit a constant C (computing nothing) and answer every member's request with the head
	/// of a `200` and its `Content-Length`, then nothing; never rebut (an endpoint that would hang
	/// a member whose read had no deadline).
	Stall,
	/// Commit a constant C and accept every member's request without ever answering; never
	/// rebut.
	Silent,
}

/// What the miner does at each step where a cheater would differ.
#[derive(Clone, Copy, Debug, Default)]
pub struct Behaviour {
	#[cfg(feature = "adversary")]
	cheat: Option<Adversary>,
}

#[cfg(feature = "adversary")]
impl Behaviour {
	/// A miner that cheats as `cheat` says (honest with `None`).
	pub fn new(cheat: Option<Adversary>) -> Self {
		if let Some(cheat) = cheat {
			tracing::warn!(?cheat, "ADVERSARIAL MODE (tests only): this miner cheats on purpose");
		}
		Self { cheat }
	}

	/// Computes and commits C.
	pub fn prove(
		self,
		prover: &dyn Prover,
		spec: &ChallengeSpec,
		progress: Progress,
	) -> anyhow::Result<Box<dyn Committed>> {
		use pog_prover::adversary::{self, Cheat};
		let cheat = match self.cheat {
			Some(Adversary::Corrupt) => Cheat::Corrupt { permille: 500 },
			Some(Adversary::LowerPrecision) => Cheat::LowerPrecision,
			Some(Adversary::Constant | Adversary::Stall | Adversary::Silent) => Cheat::Constant,
			_ => return prover.prove(spec, progress),
		};
		if let Some(bits) = cheat.rounded_mantissa_bits(spec) {
			tracing::warn!(
				precision = spec.precision.name(),
				"adversary: computing with operands rounded to {bits} mantissa bits (the challenge's precision has {})",
				spec.precision.mantissa_bits()
			);
		}
		adversary::prove(prover, spec, cheat, progress)
	}

	/// Whether the root is sent only after the deadline.
	pub fn commits_late(self) -> bool {
		self.cheat == Some(Adversary::LateCommit)
	}

	/// The memory phase this miner runs for `challenge`.
	pub fn memory_challenge(self, challenge: MemoryChallenge) -> MemoryChallenge {
		if self.cheat != Some(Adversary::StaleDataset) {
			return challenge;
		}
		tracing::warn!("adversary: answering the memory phase from a stale dataset");
		let mut stale = challenge;
		stale.spec.seed = [0x5a; 32];
		stale
	}

	/// Whom the openings server answers.
	pub fn audience(self) -> crate::serve::Audience {
		match self.cheat {
			Some(Adversary::ServeTwo) => {
				tracing::warn!("adversary: serving the openings to two committee members only");
				return crate::serve::Audience::FirstMembers(2);
			},
			Some(Adversary::Unreachable) => {
				tracing::warn!("adversary: serving the openings to no one");
				return crate::serve::Audience::FirstMembers(0);
			},
			Some(Adversary::Stall) => return crate::serve::Audience::Stall,
			Some(Adversary::Silent) => return crate::serve::Audience::Silent,
			_ => {},
		}
		crate::serve::Audience::Everyone
	}

	/// Whether an unserved vote is rebutted by revealing the GPU on chain.
	pub fn rebuts(self) -> bool {
		!matches!(self.cheat, Some(Adversary::ServeTwo | Adversary::Stall | Adversary::Silent))
	}

	/// Changes the openings before they are revealed.
	pub fn tamper(self, opened: &mut [OpenedLeaf]) {
		if self.cheat == Some(Adversary::ForgedPath) {
			if let Some(node) = opened.first_mut().and_then(|o| o.proof.first_mut()) {
				node[0] ^= 0xff;
			}
		}
	}
}

#[cfg(not(feature = "adversary"))]
impl Behaviour {
	/// Computes and commits C as the protocol asks.
	pub fn prove(
		self,
		prover: &dyn Prover,
		spec: &ChallengeSpec,
		progress: Progress,
	) -> anyhow::Result<Box<dyn Committed>> {
		prover.prove(spec, progress)
	}

	/// Whether the root is sent only after the deadline: never.
	pub fn commits_late(self) -> bool {
		false
	}

	/// The memory phase this miner runs for `challenge`: the one demanded.
	pub fn memory_challenge(self, challenge: MemoryChallenge) -> MemoryChallenge {
		challenge
	}

	/// Whom the openings server answers: every committee member that asks.
	pub fn audience(self) -> crate::serve::Audience {
		crate::serve::Audience::Everyone
	}

	/// Whether an unserved vote is rebutted by revealing the GPU on chain: always.
	pub fn rebuts(self) -> bool {
		true
	}

	/// Changes the openings before they are revealed: never.
	pub fn tamper(self, _opened: &mut [OpenedLeaf]) {}
}

/// UUIDs of `extra` claimed GPUs that are not on this machine (a miner claiming more units than
/// it has; tests only), made like the CPU backend's from the account.
#[cfg(feature = "adversary")]
pub fn phantom_uuids(account: &[u8; 32], extra: u32) -> Vec<[u8; 16]> {
	if extra > 0 {
		tracing::warn!(extra, "ADVERSARIAL MODE (tests only): claiming GPUs that are not present");
	}
	(0..extra).map(|i| crate::hardware::cpu_uuid(account, 1000 + i)).collect()
}
