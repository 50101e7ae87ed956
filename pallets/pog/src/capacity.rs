//! How many committed GPUs a round verifies: what the validators can check, and what the reveal
//! window is sure to carry, whichever is smaller.
//!
//! - **Verifications.** Validators × the verifications a validator does in a round, as measured
//!   from the rounds before ([`crate::throughput`]), / committee size (each selected GPU takes a
//!   committee).
//! - **Verdicts.** A GPU revealed on chain takes one verdict of each member, and a verdict is a
//!   duty too: [`VERDICT_SHARE`] of the compute that normal transactions can never take (on PoG
//!   chain 25% of a block's 2 s), over the verdict window, bounds the GPUs revealed on chain by
//!   their committees' verdicts (at mainnet settings about 4,600 GPUs a round,
//!   `docs/protocol.md` §8). A served GPU's passes come in bulk ([`crate::attestation`]: one
//!   write per member and call, whatever the GPUs), so the verdicts bound only what is revealed.
//! - **Bytes.** Every selected GPU reveals its openings on chain, in the `reveal_window` blocks
//!   after the draw. A reveal is a duty (`DispatchClass::Operational`), and the part of a block
//!   that normal transactions can never take is the operational class's length beyond the
//!   normal class's (on PoG chain 25% of 5 MiB, 1.25 MiB): what a griefer who fills every block
//!   with tipped transactions leaves to the duties. The sample is sized so that the largest
//!   reveal any profile of the table can make, times the sample, fills at most
//!   [`REVEAL_SHARE`] of that space over the window; the rest is for the verdicts sent in the
//!   same blocks. So no selected honest GPU misses its reveal for want of block space
//!   (`docs/protocol.md` §8; before, 64 validators selected 460 GPUs a round, and 10 blocks
//!   carried about 315 reveals of an H100 even when nobody else sent anything).
//! - **Served GPUs.** A GPU whose openings are served off chain ([`crate::served`]) takes no
//!   bytes of the window. With `served` of `committed` GPUs served, the window's reveals bound
//!   the sample only through the GPUs revealed on chain: the capacity is the validators', and
//!   each GPU revealed on chain that the draw selects stays in the sample with the probability
//!   [`Pallet::reveal_share`], so that the revealed part stays within the window's reveals
//!   whatever the draw gave each class.

use codec::Encode;
use frame_support::{dispatch::DispatchClass, traits::Get, BoundedVec};
use pog_primitives::{memory, profiles::ProfileFigures, LEAF_VALUES};
use sp_runtime::Perbill;

use crate::config::ProtocolConfig;
use crate::types::MaxWalkOpenings;
use crate::{
	pallet::*,
	verification::{Opening, WalkOpening},
};
use pog_primitives::Precision;
use pog_traits::Committee;

/// The share of the reveal window's duty space that the sample's reveals may fill.
pub const REVEAL_SHARE: Perbill = Perbill::from_percent(90);
/// The share of the verdict window's duty weight that the sample's verdicts may take.
pub const VERDICT_SHARE: Perbill = Perbill::from_percent(90);

/// Bytes of a signed `reveal_openings` beyond its openings and walks, bounded from above: the
/// extrinsic's length prefix, version, signer (33), signature (65) and extensions (mortality,
/// nonce, tip, metadata-hash mode: at most 25), the call's indices, round and GPU (10), and the
/// two vectors' length prefixes (10). The runtime's test of a real reveal checks the bound.
pub const REVEAL_ENVELOPE_BYTES: u64 = 256;

/// The encoded size, envelope included, of a reveal that opens `openings` leaves of a commitment
/// of depth `leaf_depth` and `walks` walks of a memory commitment of height `walk_height`.
pub fn reveal_bytes(openings: u32, leaf_depth: u32, walks: u32, walk_height: u32) -> u64 {
	let leaf = Opening {
		leaf: 0,
		values: BoundedVec::truncate_from(alloc::vec![0; LEAF_VALUES]),
		proof: BoundedVec::truncate_from(alloc::vec![[0; 32]; leaf_depth as usize]),
	};
	let walk = WalkOpening {
		walk: 0,
		result: [0; 32],
		proof: BoundedVec::truncate_from(alloc::vec![[0; 32]; walk_height as usize]),
	};
	REVEAL_ENVELOPE_BYTES
		.saturating_add(u64::from(openings).saturating_mul(leaf.encoded_size() as u64))
		.saturating_add(u64::from(walks).saturating_mul(walk.encoded_size() as u64))
}

impl<T: Config> Pallet<T> {
	/// GPUs a round verifies when all reveal on chain: the smaller of
	/// [`Self::verifier_capacity`] and [`Self::onchain_capacity`].
	pub fn capacity() -> u32 {
		Self::capacity_for(0)
	}

	/// GPUs a round verifies when `served` of its committed GPUs are served off chain: with
	/// nothing served, [`Self::capacity`]; else the validators' capacity, the GPUs revealed on
	/// chain kept within the window by [`Self::reveal_share`].
	pub fn capacity_for(served: u32) -> u32 {
		if served == 0 {
			Self::verifier_capacity().min(Self::onchain_capacity())
		} else {
			Self::verifier_capacity()
		}
	}

	/// GPUs revealed on chain that a round carries: the reveal window's reveals
	/// ([`Self::reveal_capacity`]) and the verdict window's verdicts ([`Self::verdict_capacity`]),
	/// whichever is fewer.
	pub fn onchain_capacity() -> u32 {
		Self::reveal_capacity().min(Self::verdict_capacity())
	}

	/// The probability with which a GPU revealing on chain that the draw selected stays in a
	/// sample of `capacity` from `committed` GPUs, `served` of them served off chain and
	/// `forced_on_chain` selected whatever the draw (left undecided, or due:
	/// [`crate::scoring::GpuStanding::on_probation_in`]) and committed by miners revealing on
	/// chain ([`ForcedOnChain`]): one while the drawn revealing GPUs, however many the draw takes
	/// (at most min(revealing, capacity) − the forced ones), fit the window's reveals that the
	/// forced ones leave; else the share that fits. With nothing served it is one, since the
	/// capacity, forced GPUs included, is within the window's reveals already.
	pub fn reveal_share(capacity: u32, committed: u32, served: u32, forced_on_chain: u32) -> Perbill {
		// the forced GPUs count toward the capacity only as far as they committed (the count of
		// all of them, `ProbationNext`, may hold some that did not): with every GPU drawn the
		// others drawn are all the others
		let revealing = committed.saturating_sub(served).saturating_sub(forced_on_chain);
		let drawn_at_most = revealing.min(capacity.saturating_sub(forced_on_chain));
		let reveals = Self::onchain_capacity().saturating_sub(forced_on_chain);
		if drawn_at_most <= reveals {
			Perbill::one()
		} else {
			Perbill::from_rational(reveals, drawn_at_most)
		}
	}

	/// Verifications the validators can do in a round: validators × the measured verifications
	/// per validator ([`crate::throughput`]) / committee size.
	pub fn verifier_capacity() -> u32 {
		let (_, validators, committee) = Self::committees();
		validators.saturating_mul(Self::verifications_per_validator()) / committee
	}

	/// The configuration, the validators' count and the size of a committee drawn from them.
	fn committees() -> (ProtocolConfig, u32, u32) {
		let config = Configuration::<T>::get();
		let validators = T::Committee::seated().len() as u32;
		let committee = crate::verification::committee_size(config.committee, validators).max(1);
		(config, validators, committee)
	}

	/// GPUs whose committees' verdicts fit [`VERDICT_SHARE`] of the duty weight of the verdict
	/// window's blocks: each GPU revealed on chain takes a committee's verdicts, each weighed as
	/// `submit_verdicts` charges one.
	pub fn verdict_capacity() -> u32 {
		let (config, _, committee) = Self::committees();
		Self::verdict_capacity_of(&config, committee)
	}

	fn verdict_capacity_of(config: &ProtocolConfig, committee: u32) -> u32 {
		let per_gpu = Self::verdicts_weight(1).ref_time().saturating_mul(u64::from(committee));
		if per_gpu == 0 {
			return u32::MAX; // weightless verdicts (a test runtime): the weight bounds nothing
		}
		let window = u64::from(config.verdict_window).saturating_mul(VERDICT_SHARE * Self::duty_ref_time());
		u32::try_from(window / per_gpu).unwrap_or(u32::MAX)
	}

	/// The compute of a block (ref time) that normal transactions cannot take: the operational
	/// class's share beyond the normal class's, as [`Self::duty_bytes`] is for length.
	pub fn duty_ref_time() -> u64 {
		let weights = <T as frame_system::Config>::BlockWeights::get();
		let total = |class| weights.get(class).max_total.unwrap_or(weights.max_block).ref_time();
		total(DispatchClass::Operational).saturating_sub(total(DispatchClass::Normal))
	}

	/// Reveals of the table's largest kind that fit [`REVEAL_SHARE`] of the duty space of the
	/// reveal window's blocks.
	pub fn reveal_capacity() -> u32 {
		let config = Configuration::<T>::get();
		Self::reveals_in(&config, config.reveal_window)
	}

	/// Rebuttals of the table's largest kind that fit [`REVEAL_SHARE`] of the duty space of the
	/// blocks a rebuttal can land in ([`crate::served::rebuttal_blocks`]): what sets the members'
	/// unserved quota ([`crate::served::unserved_quota`]).
	pub fn rebuttal_capacity() -> u32 {
		let config = Configuration::<T>::get();
		Self::reveals_in(&config, crate::served::rebuttal_blocks(config.verdict_window))
	}

	/// Reveals of the table's largest kind under `config` that fit [`REVEAL_SHARE`] of the duty
	/// space of `blocks` blocks.
	fn reveals_in(config: &ProtocolConfig, blocks: u32) -> u32 {
		let window = u64::from(blocks).saturating_mul(u64::from(REVEAL_SHARE * Self::duty_bytes()));
		let capacity = window / Self::largest_reveal_bytes(config).max(1);
		u32::try_from(capacity).unwrap_or(u32::MAX)
	}

	/// The bytes of a block that normal transactions cannot take: the operational class's
	/// length beyond the normal class's.
	pub fn duty_bytes() -> u32 {
		let length = <T as frame_system::Config>::BlockLength::get();
		length.max.get(DispatchClass::Operational).saturating_sub(*length.max.get(DispatchClass::Normal))
	}

	/// The largest reveal a GPU of any profile of the table makes under `config` (a per-core
	/// profile at one core and at the most cores a miner may declare).
	pub fn largest_reveal_bytes(config: &ProtocolConfig) -> u64 {
		Self::profile_sizes().into_iter().filter_map(|p| Self::reveal_bytes_of(&p, config)).max().unwrap_or(0)
	}

	/// The reveal of a GPU of profile `p` under `config` (`None`: the profile is challenged in
	/// no precision). Its commitment's depth follows from C's shape, which the memory alone sets;
	/// its walks' height from the walks its memory phase runs.
	pub fn reveal_bytes_of(p: &ProfileFigures, config: &ProtocolConfig) -> Option<u64> {
		let precision = Precision::CHALLENGED.into_iter().find(|q| p.challenged_in(*q))?;
		let (dims, _) = p.gemm(precision, config.target_ms, config.memory.walk_ms, p.memory_measured());
		let openings = config.openings.min(T::MaxOpenings::get());
		let (walks, height) = match p.memory_challenge(&[0; 32], &config.memory) {
			Some(challenge) => {
				(config.memory.openings.min(<MaxWalkOpenings as Get<u32>>::get()), memory::tree_height(challenge.walks))
			},
			None => (0, 0),
		};
		Some(reveal_bytes(openings, dims.tree_depth(), walks, height))
	}
}
