//! Pallet configurations, and the off-chain worker's transaction signing.

use codec::Encode;
use frame_support::{
	derive_impl, parameter_types,
	traits::{ConstU128, ConstU32, ConstU64, ConstU8, Randomness, UnixTime, VariantCountOf},
	weights::{
		constants::{ParityDbWeight, WEIGHT_REF_TIME_PER_SECOND},
		ConstantMultiplier, IdentityFee, Weight,
	},
};
use frame_support::{traits::tokens::imbalance::ResolveTo, PalletId};
use frame_system::limits::{BlockLength, BlockWeights};
use pallet_transaction_payment::{FungibleAdapter, Multiplier, TargetedFeeAdjustment};
use sp_core::crypto::Wraps;
use sp_runtime::{
	generic::Era,
	traits::{AccountIdConversion, Bounded, Hash as _, One, StaticLookup, Verify},
	FixedPointNumber, Perbill, Perquintill, SaturatedConversion,
};
use sp_version::RuntimeVersion;

use super::{
	AccountId, Babe, Balance, Balances, Block, BlockNumber, Hash, Historical, Nonce, Offences, PalletInfo, Pog,
	PogRewards, PogValidators, Runtime, RuntimeCall, RuntimeEvent, RuntimeFreezeReason, RuntimeHoldReason,
	RuntimeOrigin, RuntimeTask, Session, SessionKeys, Signature, SignedPayload, System, TxExtension,
	UncheckedExtrinsic, EPOCH_DURATION_IN_SLOTS, EXISTENTIAL_DEPOSIT, MILLISECS_PER_BLOCK, SLOT_DURATION, UNIT,
	VERSION,
};

const NORMAL_DISPATCH_RATIO: Perbill = Perbill::from_percent(75);

parameter_types! {
	pub const BlockHashCount: BlockNumber = 2400;
	pub const Version: RuntimeVersion = VERSION;
	/// Two seconds of compute in a six-second block.
	pub RuntimeBlockWeights: BlockWeights = BlockWeights::with_sensible_defaults(
		Weight::from_parts(2u64 * WEIGHT_REF_TIME_PER_SECOND, u64::MAX),
		NORMAL_DISPATCH_RATIO,
	);
	/// 5 MiB blocks, 75% of it for normal transactions.
	pub RuntimeBlockLength: BlockLength = BlockLength::builder()
		.max_length(5 * 1024 * 1024)
		.modify_max_length_for_class(frame_support::dispatch::DispatchClass::Normal, |m| {
			*m = NORMAL_DISPATCH_RATIO * *m
		})
		.build();
	pub const SS58Prefix: u8 = 42;
}

#[derive_impl(frame_system::config_preludes::SolochainDefaultConfig)]
impl frame_system::Config for Runtime {
	type Block = Block;
	type BlockWeights = RuntimeBlockWeights;
	type BlockLength = RuntimeBlockLength;
	type AccountId = AccountId;
	type Nonce = Nonce;
	type Hash = Hash;
	type BlockHashCount = BlockHashCount;
	/// The node's database is ParityDB.
	type DbWeight = ParityDbWeight;
	type Version = Version;
	type AccountData = pallet_balances::AccountData<Balance>;
	type SS58Prefix = SS58Prefix;
	type MaxConsumers = ConstU32<16>;
}

parameter_types! {
	/// How long (blocks) an equivocation report stays valid in the pool: a week of sessions, as
	/// long as GRANDPA keeps set ids mapped to sessions.
	pub const EquivocationReportLongevity: u64 = 1008 * EPOCH_DURATION_IN_SLOTS;
	/// Slots per BABE epoch.
	pub const EpochDuration: u64 = EPOCH_DURATION_IN_SLOTS;
	/// Every slot has a block (primary or secondary VRF slots), so the expected block time is the slot.
	pub const ExpectedBlockTime: u64 = MILLISECS_PER_BLOCK;
}

impl pallet_babe::Config for Runtime {
	type EpochDuration = EpochDuration;
	type ExpectedBlockTime = ExpectedBlockTime;
	// pallet-session ends each session at BABE's epoch boundary and hands BABE the new set.
	type EpochChangeTrigger = pallet_babe::ExternalTrigger;
	type DisabledValidators = Session;
	type WeightInfo = ();
	// every validator pallet-pog-validators may seat authors (the review's F15: 32 against 64 made BABE
	// truncate the set and fail its `try_state` past 32)
	type MaxAuthorities = PogMaxValidators;
	type MaxNominators = ConstU32<0>;
	/// Two blocks in one slot by one key: proven with the historical session of the slot,
	/// reported to pallet-offences (pallet-pog-validators burns the bond by the offence's fraction).
	type KeyOwnerProof = sp_session::MembershipProof;
	type EquivocationReportSystem =
		pallet_babe::EquivocationReportSystem<Self, Offences, Historical, EquivocationReportLongevity>;
}

impl pallet_grandpa::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type WeightInfo = ();
	type MaxAuthorities = PogMaxValidators;
	type MaxNominators = ConstU32<0>;
	/// GRANDPA set ids mapped to sessions, kept for equivocation proofs (a week of sessions).
	type MaxSetIdSessionEntries = ConstU64<1008>;
	/// Two votes in one GRANDPA round by one key, proven and reported like BABE's.
	type KeyOwnerProof = sp_session::MembershipProof;
	type EquivocationReportSystem =
		pallet_grandpa::EquivocationReportSystem<Self, Offences, Historical, EquivocationReportLongevity>;
}

parameter_types! {
	/// Held from an account while it has session keys set (`session.setKeys`): storage rent.
	pub const SessionKeyDeposit: Balance = UNIT;
}

/// One validator set for everything: pallet-pog-validators plans it;
/// pallet-session rotates it at every BABE epoch boundary and hands it, with the keys each
/// validator set, to BABE, GRANDPA and PoG.
impl pallet_session::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type ValidatorId = AccountId;
	/// Any account may set session keys; only those pallet-pog-validators plans sit.
	type ValidatorIdOf = sp_runtime::traits::ConvertInto;
	type ShouldEndSession = Babe;
	type NextSessionRotation = Babe;
	type SessionManager = pallet_session::historical::NoteHistoricalRoot<Self, PogValidators>;
	type SessionHandler = <SessionKeys as sp_runtime::traits::OpaqueKeys>::KeyTypeIdProviders;
	type Keys = SessionKeys;
	type DisablingStrategy = ();
	type WeightInfo = pallet_session::weights::SubstrateWeight<Runtime>;
	type Currency = Balances;
	type KeyDeposit = SessionKeyDeposit;
}

impl pallet_session::historical::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type FullIdentification = ();
	type FullIdentificationOf = pallet_pog_validators::BondedValidator<Runtime>;
}

impl pallet_authorship::Config for Runtime {
	type FindAuthor = pallet_session::FindAccountFromAuthorIndex<Self, Babe>;
	type EventHandler = ();
}

impl pallet_offences::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type IdentificationTuple = pallet_session::historical::IdentificationTuple<Self>;
	type OnOffenceHandler = PogValidators;
}

impl pallet_timestamp::Config for Runtime {
	type Moment = u64;
	// BABE refuses a timestamp outside the block's own slot.
	type OnTimestampSet = Babe;
	type MinimumPeriod = ConstU64<{ SLOT_DURATION / 2 }>;
	type WeightInfo = ();
}

impl pallet_balances::Config for Runtime {
	type MaxLocks = ConstU32<50>;
	type MaxReserves = ();
	type ReserveIdentifier = [u8; 8];
	type Balance = Balance;
	type RuntimeEvent = RuntimeEvent;
	type DustRemoval = ();
	type ExistentialDeposit = ConstU128<EXISTENTIAL_DEPOSIT>;
	type AccountStore = System;
	type WeightInfo = pallet_balances::weights::SubstrateWeight<Runtime>;
	type FreezeIdentifier = RuntimeFreezeReason;
	type MaxFreezes = VariantCountOf<RuntimeFreezeReason>;
	type RuntimeHoldReason = RuntimeHoldReason;
	type RuntimeFreezeReason = RuntimeFreezeReason;
	type DoneSlashHandler = ();
}

parameter_types! {
	/// 10 µPOG per byte: filling the 3.75 MiB that ordinary transactions may use in a block costs
	/// 39 POG in length fees alone (docs/protocol.md §15).
	pub const TransactionByteFee: Balance = UNIT / 100_000;
	/// The fee multiplier rises while blocks are more than a quarter full (of ordinary weight)…
	pub const TargetBlockFullness: Perquintill = Perquintill::from_percent(25);
	/// …by 1 + v·s + v²s²/2 per block, s the excess fullness (Polkadot's v): full blocks double
	/// the weight fee in about 12,300 blocks (20 hours).
	pub AdjustmentVariable: Multiplier = Multiplier::saturating_from_rational(75, 1_000_000);
	/// Fees never fall below the schedule.
	pub MinimumMultiplier: Multiplier = Multiplier::one();
	pub MaximumMultiplier: Multiplier = Bounded::max_value();
}

impl pallet_transaction_payment::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	// Fees go to the treasury (not to the miners' pot: a round's payment is the schedule's,
	// whatever the round's traffic).
	type OnChargeTransaction = FungibleAdapter<Balances, ResolveTo<PogTreasury, Balances>>;
	type OperationalFeeMultiplier = ConstU8<5>;
	/// 1 POG per second of block compute (a picosecond of weight is one unit of 10⁻¹² POG).
	type WeightToFee = IdentityFee<Balance>;
	type LengthToFee = ConstantMultiplier<Balance, TransactionByteFee>;
	type FeeMultiplierUpdate =
		TargetedFeeAdjustment<Self, TargetBlockFullness, AdjustmentVariable, MinimumMultiplier, MaximumMultiplier>;
	type WeightInfo = pallet_transaction_payment::weights::SubstrateWeight<Runtime>;
}

impl pallet_sudo::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type RuntimeCall = RuntimeCall;
	type WeightInfo = pallet_sudo::weights::SubstrateWeight<Runtime>;
}

/// PoG's randomness: the VRF output of the block being executed, from its BABE pre-digest.
///
/// Only the block's author knows it before the block is published (from the moment the epoch's
/// randomness is fixed), and it cannot choose it: the VRF is a function of its key, the slot and
/// the epoch randomness, all fixed before the slot. It can only withhold its block, which lets the
/// next slot's author draw instead. pallet-pog chains it with every earlier block's output
/// (`Entropy`), so one author alone learns a draw at most one block early (docs/protocol.md, 'Randomness').
pub struct BlockVrfRandomness;

impl BlockVrfRandomness {
	/// This block's VRF output, as BABE computes it in `on_finalize` (BABE's own per-block
	/// randomness is the parent's during execution). `None` only for a block without a VRF
	/// pre-digest, which this chain's epoch configuration (`PrimaryAndSecondaryVRFSlots`) never
	/// produces after genesis.
	pub fn current_output() -> Option<sp_consensus_babe::Randomness> {
		let pre_digest = pallet_babe::Initialized::<Runtime>::get().flatten()?;
		let signature = pre_digest.vrf_signature()?;
		let authorities = pallet_babe::Authorities::<Runtime>::get();
		let (authority, _) = authorities.get(pre_digest.authority_index() as usize)?;
		let transcript = sp_consensus_babe::make_vrf_transcript(
			&pallet_babe::Randomness::<Runtime>::get(),
			pallet_babe::CurrentSlot::<Runtime>::get(),
			pallet_babe::EpochIndex::<Runtime>::get(),
		);
		authority
			.as_inner_ref()
			.make_bytes(sp_consensus_babe::RANDOMNESS_VRF_CONTEXT, &transcript, &signature.pre_output)
			.ok()
	}
}

impl Randomness<Hash, BlockNumber> for BlockVrfRandomness {
	fn random(subject: &[u8]) -> (Hash, BlockNumber) {
		let output = Self::current_output();
		(sp_runtime::traits::BlakeTwo256::hash_of(&(subject, output)), System::block_number())
	}
}

/// PoG's clock: the start of the block's BABE slot. A block author cannot move it (the slot is
/// the one its VRF or the secondary assignment gave it), whereas a timestamp may sit anywhere in
/// the 6 s of the slot. Deadlines are checked against it (docs/protocol.md §6).
pub struct SlotClock;

impl UnixTime for SlotClock {
	fn now() -> core::time::Duration {
		let slot: u64 = *pallet_babe::CurrentSlot::<Runtime>::get();
		core::time::Duration::from_millis(slot.saturating_mul(SLOT_DURATION))
	}
}

parameter_types! {
	/// Deposit of every miner: 10 POG.
	pub const PogDepositBase: Balance = 10 * UNIT;
	/// Deposit per claimed GPU: 1 POG, plus 4 POG per million points it scores once proven
	/// (an H100, 884,677 points, bonds 4.54 POG; a 16-core CPU unit 1.00006 POG).
	pub const PogDepositPerGpu: Balance = UNIT;
	pub const PogDepositPerMegapoint: Balance = 4 * UNIT;
	/// Burned at registration: filling all 4,096 miner slots costs 4,096 POG, never refunded.
	pub const PogRegistrationFee: Balance = UNIT;
	/// Held from every validator: 100 POG. A contradiction strike burns 10 POG of it, a silence
	/// strike 1 POG (`pallet_pog_validators::ValidatorRules::mainnet`).
	pub const PogValidatorBond: Balance = 100 * UNIT;
	/// Most validators pallet-pog-validators seats; BABE and GRANDPA take as many authorities.
	pub const PogMaxValidators: u32 = 64;
}

impl pallet_pog::Config for Runtime {
	type AuthorityId = pallet_pog::crypto::AuthorityId;
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type TimeProvider = SlotClock;
	type BlockTimeMs = ConstU64<SLOT_DURATION>;
	type Randomness = BlockVrfRandomness;
	type DepositBase = PogDepositBase;
	type DepositPerGpu = PogDepositPerGpu;
	type DepositPerMegapoint = PogDepositPerMegapoint;
	type RegistrationFee = PogRegistrationFee;
	type MaxMiners = ConstU32<4096>;
	type MaxClaims = ConstU32<8>;
	type MaxGpusPerMiner = ConstU32<16>;
	type MaxValidators = PogMaxValidators;
	type MaxProfiles = ConstU32<128>;
	type MaxOpenings = ConstU32<64>;
	type RoundPay = PogRewards;
	type Committee = PogValidators;
	// 16 served GPUs audited a round on average (`docs/protocol.md` §8, "Evidence of a fetch"):
	// at 64 validators and committees of five, 1.25 audits a member a round
	type EvidenceAudits = ConstU32<16>;
	type WeightInfo = pallet_pog::weights::SubstrateWeight<Runtime>;
}

impl pallet_pog_rewards::Config for Runtime {
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type Payees = Pog;
	type Treasury = PogTreasury;
	type MaxPayees = <Runtime as pallet_pog::Config>::MaxMiners;
	type MaxValidators = PogMaxValidators;
	type WeightInfo = pallet_pog_rewards::weights::SubstrateWeight<Runtime>;
}

impl pallet_pog_validators::Config for Runtime {
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type Key = pallet_pog::crypto::Public;
	type KeyAccount = pallet_pog::set::KeyAccount<Runtime>;
	type Rounds = Pog;
	type RoundPay = PogRewards;
	type MaxValidators = PogMaxValidators;
	type ValidatorBond = PogValidatorBond;
	type HasSessionKeys = WithSessionKeys;
	#[cfg(feature = "runtime-benchmarks")]
	type BenchmarkHelper = WithSessionKeys;
	type WeightInfo = pallet_pog_validators::weights::SubstrateWeight<Runtime>;
}

/// Accounts whose session keys are set: what pallet-session seats of a set handed to it.
pub struct WithSessionKeys;
impl frame_support::traits::Contains<AccountId> for WithSessionKeys {
	fn contains(validator: &AccountId) -> bool {
		pallet_session::NextKeys::<Runtime>::contains_key(validator)
	}
}

#[cfg(feature = "runtime-benchmarks")]
impl pallet_pog_validators::benchmarking::BenchmarkHelper<AccountId> for WithSessionKeys {
	fn set_session_keys(validator: &AccountId) {
		use codec::Decode;
		// zeroed keys decode (each is 32 bytes); the benchmark's assertion fails if they did not
		if let Ok(keys) = crate::SessionKeys::decode(&mut sp_runtime::traits::TrailingZeroInput::zeroes()) {
			pallet_session::NextKeys::<Runtime>::insert(validator, keys);
		}
	}
}

parameter_types! {
	/// The treasury: 10% of every round's emission, what no miner or validator earned, forfeited
	/// unvested earnings and transaction fees. No key controls it; root spends from it
	/// (`balances.forceTransfer`).
	pub PogTreasury: AccountId = PalletId(*b"pog/trsy").into_account_truncating();
}

// ---- Off-chain worker transactions, as polkadot-sdk's runtimes build them in this release.

impl frame_system::offchain::SigningTypes for Runtime {
	type Public = <Signature as Verify>::Signer;
	type Signature = Signature;
}

impl<C> frame_system::offchain::CreateTransactionBase<C> for Runtime
where
	RuntimeCall: From<C>,
{
	type Extrinsic = UncheckedExtrinsic;
	type RuntimeCall = RuntimeCall;
}

impl<C> frame_system::offchain::CreateTransaction<C> for Runtime
where
	RuntimeCall: From<C>,
{
	type Extension = TxExtension;

	fn create_transaction(call: RuntimeCall, extension: TxExtension) -> UncheckedExtrinsic {
		UncheckedExtrinsic::new_transaction(call, extension)
	}
}

impl<C> frame_system::offchain::CreateSignedTransaction<C> for Runtime
where
	RuntimeCall: From<C>,
{
	fn create_signed_transaction<A: frame_system::offchain::AppCrypto<Self::Public, Self::Signature>>(
		call: RuntimeCall,
		public: <Signature as Verify>::Signer,
		account: AccountId,
		nonce: Nonce,
	) -> Option<UncheckedExtrinsic> {
		// Valid for 64 blocks (the period is rounded up to a power of two).
		let period = BlockHashCount::get().checked_next_power_of_two().map(|p| p.min(64)).unwrap_or(64) as u64;
		let current = System::block_number().saturated_into::<u64>().saturating_sub(1);
		let extension: TxExtension = (
			frame_system::CheckNonZeroSender::<Runtime>::new(),
			frame_system::CheckSpecVersion::<Runtime>::new(),
			frame_system::CheckTxVersion::<Runtime>::new(),
			frame_system::CheckGenesis::<Runtime>::new(),
			frame_system::CheckMortality::<Runtime>::from(Era::mortal(period, current)),
			frame_system::CheckNonce::<Runtime>::from(nonce),
			frame_system::CheckWeight::<Runtime>::new(),
			pallet_transaction_payment::ChargeTransactionPayment::<Runtime>::from(0),
			// The metadata-hash mode is off: this signer does not show the transaction to a device.
			frame_metadata_hash_extension::CheckMetadataHash::<Runtime>::new(false),
			pallet_pog::CheckDuty::<Runtime>::new(),
			frame_system::WeightReclaim::<Runtime>::new(),
		);
		let raw_payload = SignedPayload::new(call, extension)
			.map_err(|e| log::warn!(target: pallet_pog::LOG_TARGET, "cannot build the signed payload: {e:?}"))
			.ok()?;
		let signature = raw_payload.using_encoded(|payload| A::sign(payload, public))?;
		let (call, extension, _) = raw_payload.deconstruct();
		let address = <Runtime as frame_system::Config>::Lookup::unlookup(account);
		Some(UncheckedExtrinsic::new_signed(call, address, signature, extension))
	}
}

impl<C> frame_system::offchain::CreateBare<C> for Runtime
where
	RuntimeCall: From<C>,
{
	fn create_bare(call: RuntimeCall) -> UncheckedExtrinsic {
		UncheckedExtrinsic::new_bare(call)
	}
}
