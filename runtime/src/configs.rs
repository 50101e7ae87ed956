//! Pallet configurations, and the off-chain worker's transaction signing.

use codec::Encode;
use frame_support::{
	derive_impl, parameter_types,
	traits::{ConstBool, ConstU128, ConstU32, ConstU64, ConstU8, Randomness, VariantCountOf},
	weights::{
		constants::{ParityDbWeight, WEIGHT_REF_TIME_PER_SECOND},
		IdentityFee, Weight,
	},
};
use frame_system::limits::{BlockLength, BlockWeights};
use pallet_transaction_payment::{ConstFeeMultiplier, FungibleAdapter, Multiplier};
use sp_consensus_aura::sr25519::AuthorityId as AuraId;
use sp_runtime::{
	generic::Era,
	traits::{Hash as _, One, StaticLookup, Verify},
	Perbill, SaturatedConversion,
};
use sp_version::RuntimeVersion;

use super::{
	AccountId, Aura, Balance, Balances, Block, BlockNumber, Hash, Nonce, PalletInfo, Runtime, RuntimeCall,
	RuntimeEvent, RuntimeFreezeReason, RuntimeHoldReason, RuntimeOrigin, RuntimeTask, Signature, SignedPayload, System,
	Timestamp, TxExtension, UncheckedExtrinsic, EXISTENTIAL_DEPOSIT, SLOT_DURATION, UNIT, VERSION,
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

impl pallet_aura::Config for Runtime {
	type AuthorityId = AuraId;
	type DisabledValidators = ();
	type MaxAuthorities = ConstU32<32>;
	type AllowMultipleBlocksPerSlot = ConstBool<false>;
	type SlotDuration = pallet_aura::MinimumPeriodTimesTwo<Runtime>;
}

impl pallet_grandpa::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type WeightInfo = ();
	type MaxAuthorities = ConstU32<32>;
	type MaxNominators = ConstU32<0>;
	type MaxSetIdSessionEntries = ConstU64<0>;
	type KeyOwnerProof = sp_core::Void;
	type EquivocationReportSystem = ();
}

impl pallet_timestamp::Config for Runtime {
	type Moment = u64;
	type OnTimestampSet = Aura;
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
	pub FeeMultiplier: Multiplier = Multiplier::one();
}

impl pallet_transaction_payment::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type OnChargeTransaction = FungibleAdapter<Balances, ()>;
	type OperationalFeeMultiplier = ConstU8<5>;
	type WeightToFee = IdentityFee<Balance>;
	type LengthToFee = IdentityFee<Balance>;
	type FeeMultiplierUpdate = ConstFeeMultiplier<FeeMultiplier>;
	type WeightInfo = pallet_transaction_payment::weights::SubstrateWeight<Runtime>;
}

impl pallet_sudo::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type RuntimeCall = RuntimeCall;
	type WeightInfo = pallet_sudo::weights::SubstrateWeight<Runtime>;
}

/// Challenge-seed randomness: the parent block's hash mixed with the subject. Weak — the block
/// author can bias it by choosing what goes into its block — and documented as such
/// (docs/protocol.md); a chain with BABE or a VRF beacon plugs a better source in here.
pub struct ParentHashRandomness;
impl Randomness<Hash, BlockNumber> for ParentHashRandomness {
	fn random(subject: &[u8]) -> (Hash, BlockNumber) {
		let parent = System::parent_hash();
		let n = System::block_number();
		(Hash::from(sp_runtime::traits::BlakeTwo256::hash_of(&(subject, parent, n))), n.saturating_sub(1))
	}
}

parameter_types! {
	/// Deposit of every miner: 10 POG.
	pub const PogDepositBase: Balance = 10 * UNIT;
	/// Deposit per claimed GPU: 1 POG.
	pub const PogDepositPerGpu: Balance = UNIT;
	/// Burned at registration: filling all 4,096 miner slots costs 4,096 POG, never refunded.
	pub const PogRegistrationFee: Balance = UNIT;
}

impl pallet_pog::Config for Runtime {
	type AuthorityId = pallet_pog::crypto::AuthorityId;
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type TimeProvider = Timestamp;
	type Randomness = ParentHashRandomness;
	type DepositBase = PogDepositBase;
	type DepositPerGpu = PogDepositPerGpu;
	type RegistrationFee = PogRegistrationFee;
	type MaxMiners = ConstU32<4096>;
	type MaxClaims = ConstU32<8>;
	type MaxGpusPerMiner = ConstU32<16>;
	type MaxValidators = ConstU32<64>;
	type MaxProfiles = ConstU32<128>;
	type MaxOpenings = ConstU32<64>;
	type WeightInfo = pallet_pog::weights::SubstrateWeight<Runtime>;
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
