//! # PoG chain runtime
//!
//! A solochain runtime: BABE block production and GRANDPA finality, Balances, TransactionPayment,
//! Sudo, Session, and PoG's three pallets: `pallet-pog` (the proof: profiles, miners, rounds and
//! verdicts, whose validators' off-chain workers issue and verify GPU challenges),
//! `pallet-pog-rewards` (the reward ledger) and `pallet-pog-validators` (the validator set). One
//! validator set for everything: pallet-pog-validators plans it, pallet-session rotates it
//! at BABE epoch boundaries, and BABE, GRANDPA and PoG's committees take it from there. The
//! session keys are `babe`, `gran` and `pog!`, so `--dev` and `--alice`…`--dave` insert them into
//! the keystore by themselves, and `session.setKeys` sets them as operators expect.
#![cfg_attr(not(feature = "std"), no_std)]
#![recursion_limit = "256"]

#[cfg(feature = "std")]
include!(concat!(env!("OUT_DIR"), "/wasm_binary.rs"));

extern crate alloc;

use alloc::vec::Vec;

// `benchmarks` defines the `list_benchmarks!`/`add_benchmarks!` macros that `apis` uses, so it
// comes first and exports its macros to the modules after it.
#[cfg(feature = "runtime-benchmarks")]
#[macro_use]
mod benchmarks;
pub mod apis;
pub mod configs;
#[cfg(test)]
mod deterrence;
pub mod genesis;
pub mod migrations;
#[cfg(test)]
mod tests;

use sp_runtime::{
	generic, impl_opaque_keys,
	traits::{BlakeTwo256, IdentifyAccount, Verify},
	MultiAddress, MultiSignature,
};
use sp_version::{runtime_version, RuntimeVersion};

pub use frame_system::Call as SystemCall;
pub use pallet_balances::Call as BalancesCall;
pub use pallet_pog;
pub use pallet_pog_rewards;
pub use pallet_pog_validators;
pub use pallet_timestamp::Call as TimestampCall;

/// Block number.
pub type BlockNumber = u32;
/// Transaction signature.
pub type Signature = MultiSignature;
/// Account id: the public key of the signature scheme.
pub type AccountId = <<Signature as Verify>::Signer as IdentifyAccount>::AccountId;
/// Balance of an account (12 decimals: 1 POG = 10^12 units).
pub type Balance = u128;
/// Transaction index.
pub type Nonce = u32;
/// Block and state hash.
pub type Hash = sp_core::H256;

/// One POG in units.
pub const UNIT: Balance = 1_000_000_000_000;
/// Existential deposit.
pub const EXISTENTIAL_DEPOSIT: Balance = UNIT / 1_000;

/// Types the node needs without knowing the runtime's details.
pub mod opaque {
	use super::*;
	pub use sp_runtime::OpaqueExtrinsic as UncheckedExtrinsic;

	/// Block header.
	pub type Header = generic::Header<BlockNumber, BlakeTwo256>;
	/// Block.
	pub type Block = generic::Block<Header, UncheckedExtrinsic>;
	/// Block id.
	pub type BlockId = generic::BlockId<Block>;
}

impl_opaque_keys! {
	/// The session keys of a validator: block authoring, finality, and the PoG off-chain worker.
	pub struct SessionKeys {
		/// BABE block authoring (its VRF outputs are PoG's randomness).
		pub babe: Babe,
		/// GRANDPA finality.
		pub grandpa: Grandpa,
		/// PoG off-chain worker signing key (`pog!`): its account sits on committees.
		pub pog: PogValidators,
	}
}

impl SessionKeys {
	/// New session keys in the node's keystore, with their proof of possession for `owner`.
	/// From a seed (a dev node's `--alice`: `//Alice`), BABE and GRANDPA keys are the seed's and
	/// the `pog!` key is `seed//pog`: the account that signs the off-chain worker's duties is not
	/// the validator's own, whose nonce its people use (`genesis::dev_pog_key`). (A seed ending in
	/// `///password` would take `//pog` into its password: dev seeds have none.) Without a seed
	/// (`author_rotateKeys`), every key is fresh.
	pub fn generate_with_pog_derived(owner: &[u8], seed: Option<Vec<u8>>) -> sp_session::OpaqueGeneratedSessionKeys {
		use codec::Encode;
		use sp_runtime::RuntimeAppPublic;
		let pog_seed = seed.clone().map(|mut s| {
			s.extend_from_slice(b"//pog");
			s
		});
		let mut keys = SessionKeys {
			babe: <Babe as sp_runtime::BoundToRuntimeAppPublic>::Public::generate_pair(seed.clone()),
			grandpa: <Grandpa as sp_runtime::BoundToRuntimeAppPublic>::Public::generate_pair(seed),
			pog: <PogValidators as sp_runtime::BoundToRuntimeAppPublic>::Public::generate_pair(pog_seed),
		};
		// the keys were put in the keystore a moment ago; without their proof `session.setKeys`
		// refuses them with `InvalidProof`
		let proof = keys.create_ownership_proof(owner).map(|p| p.encode()).unwrap_or_else(|()| {
			log::error!(target: "runtime::pog", "no proof of possession of the session keys just made");
			Vec::new()
		});
		sp_session::OpaqueGeneratedSessionKeys { keys: keys.encode(), proof }
	}
}

/// Runtime version.
#[cfg(not(feature = "upgrade-test"))]
#[runtime_version]
pub const VERSION: RuntimeVersion = RuntimeVersion {
	spec_name: alloc::borrow::Cow::Borrowed("pog-chain"),
	impl_name: alloc::borrow::Cow::Borrowed("pog-chain"),
	authoring_version: 1,
	spec_version: 134,
	impl_version: 1,
	apis: apis::RUNTIME_API_VERSIONS,
	transaction_version: 5,
	system_version: 1,
};

/// This runtime under the next `spec_version` (always the one above plus one; `runtime_version`
/// takes literals only): the WASM that `tests/local-net.test.mjs` upgrades a live network to,
/// built beside the runtime's own when `POG_UPGRADE_TEST_WASM` is set (`build.rs`). Never a
/// release.
#[cfg(feature = "upgrade-test")]
#[runtime_version]
pub const VERSION: RuntimeVersion = RuntimeVersion {
	spec_name: alloc::borrow::Cow::Borrowed("pog-chain"),
	impl_name: alloc::borrow::Cow::Borrowed("pog-chain"),
	authoring_version: 1,
	spec_version: 135,
	impl_version: 1,
	apis: apis::RUNTIME_API_VERSIONS,
	transaction_version: 5,
	system_version: 1,
};

/// Target block time: 6 s.
pub const MILLISECS_PER_BLOCK: u64 = 6000;
/// BABE slot duration (= target block time; cannot change after the chain starts).
pub const SLOT_DURATION: u64 = MILLISECS_PER_BLOCK;
/// Blocks per minute.
pub const MINUTES: BlockNumber = 60_000 / (MILLISECS_PER_BLOCK as BlockNumber);
/// BABE epoch length: 10 minutes of slots (cannot change after the chain starts). The epoch
/// randomness that decides slot leadership is fixed one epoch ahead.
pub const EPOCH_DURATION_IN_SLOTS: u64 = 10 * MINUTES as u64;
/// BABE at genesis: a slot has a primary leader with probability 1/4 per validator share, and
/// every other slot goes to its secondary leader, whose block also carries a VRF output (so
/// every block has one: PoG's draws never fall back to anything a block author can grind).
pub const BABE_GENESIS_EPOCH_CONFIG: sp_consensus_babe::BabeEpochConfiguration =
	sp_consensus_babe::BabeEpochConfiguration {
		c: (1, 4),
		allowed_slots: sp_consensus_babe::AllowedSlots::PrimaryAndSecondaryVRFSlots,
	};

/// Account address format.
pub type Address = MultiAddress<AccountId, ()>;
/// Block header.
pub type Header = generic::Header<BlockNumber, BlakeTwo256>;
/// Block.
pub type Block = generic::Block<Header, UncheckedExtrinsic>;
/// The transaction extensions, checked in this order.
pub type TxExtension = (
	frame_system::CheckNonZeroSender<Runtime>,
	frame_system::CheckSpecVersion<Runtime>,
	frame_system::CheckTxVersion<Runtime>,
	frame_system::CheckGenesis<Runtime>,
	frame_system::CheckMortality<Runtime>,
	frame_system::CheckNonce<Runtime>,
	frame_system::CheckWeight<Runtime>,
	pallet_transaction_payment::ChargeTransactionPayment<Runtime>,
	frame_metadata_hash_extension::CheckMetadataHash<Runtime>,
	pallet_pog::CheckDuty<Runtime>,
	// Last: gives back the weight a call did not use, once every extension before it has run.
	frame_system::WeightReclaim<Runtime>,
);
/// Unchecked extrinsic.
pub type UncheckedExtrinsic = generic::UncheckedExtrinsic<Address, RuntimeCall, Signature, TxExtension>;
/// The payload being signed.
pub type SignedPayload = generic::SignedPayload<RuntimeCall, TxExtension>;
/// Dispatches calls and runs the block's hooks.
pub type Executive = frame_executive::Executive<
	Runtime,
	Block,
	frame_system::ChainContext<Runtime>,
	Runtime,
	AllPalletsWithSystem,
	migrations::Migrations,
>;

#[frame_support::runtime]
mod runtime {
	#[runtime::runtime]
	#[runtime::derive(
		RuntimeCall,
		RuntimeEvent,
		RuntimeError,
		RuntimeOrigin,
		RuntimeFreezeReason,
		RuntimeHoldReason,
		RuntimeSlashReason,
		RuntimeLockId,
		RuntimeTask,
		RuntimeViewFunction
	)]
	pub struct Runtime;

	#[runtime::pallet_index(0)]
	pub type System = frame_system;
	// BABE comes before pallet-pog: its `on_initialize` reads this block's VRF pre-digest,
	// which PoG's `on_initialize` turns into randomness.
	#[runtime::pallet_index(1)]
	pub type Babe = pallet_babe;
	#[runtime::pallet_index(2)]
	pub type Timestamp = pallet_timestamp;
	#[runtime::pallet_index(3)]
	pub type Grandpa = pallet_grandpa;
	#[runtime::pallet_index(4)]
	pub type Balances = pallet_balances;
	#[runtime::pallet_index(5)]
	pub type TransactionPayment = pallet_transaction_payment;
	#[runtime::pallet_index(6)]
	pub type Sudo = pallet_sudo;
	#[runtime::pallet_index(7)]
	pub type Pog = pallet_pog;
	// At a BABE epoch boundary, Session's `on_initialize` rotates the set after the block's PoG
	// work (committees drawn in that block are the old session's). Its genesis comes after
	// Balances' (genesis validators bond) and PoG's (which plans the validators).
	#[runtime::pallet_index(8)]
	pub type Session = pallet_session;
	// Keeps each session's validator set as a Merkle root, so that an equivocation report can
	// prove who held a key in the session of the offence.
	#[runtime::pallet_index(9)]
	pub type Historical = pallet_session::historical;
	// Offences (BABE and GRANDPA equivocations) reported through the standard path; the
	// validator set burns the offender's bond and plans it out.
	#[runtime::pallet_index(10)]
	pub type Offences = pallet_offences;
	// The block's author (from BABE's pre-digest), the reporter of an offence it includes.
	#[runtime::pallet_index(11)]
	pub type Authorship = pallet_authorship;

	/// The reward ledger that pays PoG's settled rounds.
	#[runtime::pallet_index(12)]
	pub type PogRewards = pallet_pog_rewards;
	/// The validator set: pallet-session's manager, the `pog!` key's handler, bonds and strikes.
	/// (Genesis runs in index order, after pallet-session's: pallet-pog's genesis plans the set.)
	#[runtime::pallet_index(13)]
	pub type PogValidators = pallet_pog_validators;
}
