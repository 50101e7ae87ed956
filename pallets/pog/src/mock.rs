//! Mock runtime for pallet-pog's tests: System, Balances (holds), Timestamp, Pog, the reward
//! ledger that pays its rounds (`pallet-pog-rewards`) and the validator set that sits on its
//! committees (`pallet-pog-validators`), with sr25519 accounts so validators' `pog!` keys are
//! their accounts.

use crate as pallet_pog;
use crate::{profiles, ProtocolConfig as PogProtocolConfig, KEY_TYPE};
use codec::{Decode, Encode};
use frame_support::{
	derive_impl, parameter_types,
	traits::{ConstU32, ConstU64, Hooks, Randomness},
};
use sp_core::{
	offchain::{testing, OffchainDbExt, OffchainWorkerExt, TransactionPoolExt},
	sr25519, H256,
};
use sp_keystore::{testing::MemoryKeystore, Keystore, KeystoreExt};
use sp_runtime::{
	generic::{Preamble, UncheckedExtrinsic},
	traits::{Dispatchable, IdentityLookup, Verify},
	BuildStorage,
};
use std::sync::Arc;

pub type AccountId = sr25519::Public;
pub type Balance = u64;
type Block = frame_system::mocking::MockBlock<Test>;
/// Extrinsics carry their signer as the address (no signature is checked in the mock).
pub type Extrinsic = UncheckedExtrinsic<AccountId, RuntimeCall, (), ()>;

frame_support::construct_runtime!(
	pub enum Test {
		System: frame_system,
		Balances: pallet_balances,
		Timestamp: pallet_timestamp,
		Pog: pallet_pog,
		PogRewards: pallet_pog_rewards,
		PogValidators: pallet_pog_validators,
	}
);

#[derive_impl(frame_system::config_preludes::TestDefaultConfig)]
impl frame_system::Config for Test {
	type Block = Block;
	type AccountId = AccountId;
	type Lookup = IdentityLookup<AccountId>;
	type AccountData = pallet_balances::AccountData<Balance>;
}

#[derive_impl(pallet_balances::config_preludes::TestDefaultConfig)]
impl pallet_balances::Config for Test {
	type AccountStore = System;
	type RuntimeHoldReason = RuntimeHoldReason;
}

impl pallet_timestamp::Config for Test {
	type Moment = u64;
	type OnTimestampSet = ();
	type MinimumPeriod = ConstU64<1>;
	type WeightInfo = ();
}

impl frame_system::offchain::SigningTypes for Test {
	type Public = <sr25519::Signature as Verify>::Signer;
	type Signature = sr25519::Signature;
}

impl<C> frame_system::offchain::CreateTransactionBase<C> for Test
where
	RuntimeCall: From<C>,
{
	type Extrinsic = Extrinsic;
	type RuntimeCall = RuntimeCall;
}

impl<C> frame_system::offchain::CreateSignedTransaction<C> for Test
where
	RuntimeCall: From<C>,
{
	fn create_signed_transaction<A: frame_system::offchain::AppCrypto<Self::Public, Self::Signature>>(
		call: RuntimeCall,
		_public: Self::Public,
		account: AccountId,
		_nonce: u32,
	) -> Option<Extrinsic> {
		Some(Extrinsic::new_signed(call, account, (), ()))
	}
}

/// Randomness of the mock: a hash of the subject and the block number.
pub struct TestRandomness;
impl Randomness<H256, u64> for TestRandomness {
	fn random(subject: &[u8]) -> (H256, u64) {
		let n = System::block_number();
		(H256(sp_io::hashing::blake2_256(&(subject, n).encode())), n)
	}
}

parameter_types! {
	pub const DepositBase: Balance = 100;
	pub const DepositPerGpu: Balance = 10;
	/// An H100 (884,677 points) bonds 10 + 88; the CPU reference (2 points) the floor alone.
	pub const DepositPerMegapoint: Balance = 100;
	pub const RegistrationFee: Balance = 5;
	/// Validators whose session keys are not set (the runtime reads pallet-session's `NextKeys`).
	pub storage Keyless: Vec<AccountId> = vec![];
	/// Served GPUs audited a round for their members' evidence ([`crate::evidence`]): none unless
	/// a test sets it (the evidence tests set it above every round's served GPUs, so that each
	/// decided one is audited).
	pub storage EvidenceAudits: u32 = 0;
}

/// Every account but the [`Keyless`] ones has session keys.
pub struct WithKeys;
impl frame_support::traits::Contains<AccountId> for WithKeys {
	fn contains(who: &AccountId) -> bool {
		!Keyless::get().contains(who)
	}
}

impl pallet_pog::Config for Test {
	type AuthorityId = crate::crypto::AuthorityId;
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type TimeProvider = Timestamp;
	type BlockTimeMs = frame_support::traits::ConstU64<BLOCK_MS>;
	type Randomness = TestRandomness;
	type DepositBase = DepositBase;
	type DepositPerGpu = DepositPerGpu;
	type DepositPerMegapoint = DepositPerMegapoint;
	type RegistrationFee = RegistrationFee;
	type MaxMiners = ConstU32<64>;
	type MaxClaims = ConstU32<4>;
	type MaxGpusPerMiner = ConstU32<8>;
	type MaxValidators = ConstU32<8>;
	type MaxProfiles = ConstU32<32>;
	type MaxOpenings = ConstU32<64>;
	type RoundPay = PogRewards;
	type Committee = PogValidators;
	type EvidenceAudits = EvidenceAudits;
	type WeightInfo = ();
}

impl pallet_pog_validators::Config for Test {
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type Key = crate::crypto::Public;
	type KeyAccount = crate::set::KeyAccount<Test>;
	type Rounds = Pog;
	type RoundPay = PogRewards;
	type MaxValidators = ConstU32<8>;
	type ValidatorBond = ValidatorBondAmount;
	type HasSessionKeys = WithKeys;
	#[cfg(feature = "runtime-benchmarks")]
	type BenchmarkHelper = ();
	type WeightInfo = ();
}

impl pallet_pog_rewards::Config for Test {
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type Payees = Pog;
	type Treasury = TreasuryAccount;
	type MaxPayees = ConstU32<64>;
	type MaxValidators = ConstU32<8>;
	type WeightInfo = ();
}

parameter_types! {
	pub TreasuryAccount: AccountId = account("Treasury");
	/// A validator's bond: a tenth of a funded account.
	pub const ValidatorBondAmount: Balance = 1_000;
}

/// The mock's reward schedule: 1,000 a round (a tenth of a funded account), 80% to miners, 10%
/// to validators, 10% to the treasury, vesting over 4 rounds.
pub fn test_rewards() -> pallet_pog_rewards::rules::RewardRules {
	pallet_pog_rewards::rules::RewardRules {
		cap: 10_000_000,
		per_round: 1_000,
		vesting_rounds: 4,
		..Default::default()
	}
}

/// Milliseconds between mock blocks.
pub const BLOCK_MS: u64 = 6_000;
/// Starting balance of funded accounts.
pub const FUNDS: Balance = 10_000;
/// Index of the cpu-reference profile in the default table.
pub const CPU_PROFILE: u32 = 9;
/// Id of the per-core CPU profile in the mock genesis (`cpu-core`).
pub const CPU_CORE_PROFILE: u32 = 10;
/// Index of the H100 profile in the default table.
pub const H100_PROFILE: u32 = 1;
/// Id of the CPU profile with a memory phase in the mock genesis (`cpu-memory`).
pub const CPU_MEMORY_PROFILE: u32 = 11;
/// Id of the per-core CPU profile with its lane phase in the mock genesis (`cpu-lanes`).
pub const CPU_LANES_PROFILE: u32 = 12;

/// The mock's profiles: the default table with the CPU profiles' memory rates cleared, so that
/// the tests of the GEMM, the deadlines and the scores answer a GEMM alone (as a profile without
/// measured memory rates does), and `cpu-memory` (id [`CPU_MEMORY_PROFILE`]): the dev chains'
/// `cpu-reference` as it is, memory phase included, for the memory tests, and `cpu-lanes` (id
/// [`CPU_LANES_PROFILE`]): `cpu-core` as it is, its lanes included.
pub fn mock_profiles() -> Vec<profiles::GenesisProfile> {
	let mut table = profiles::default_profiles();
	let with_memory = table[CPU_PROFILE as usize].clone();
	let with_lanes = table[CPU_CORE_PROFILE as usize].clone();
	for p in table.iter_mut().filter(|p| p.name.starts_with("cpu-")) {
		p.figures.mem_read_mps = 0;
		p.figures.mem_parent_mps = 0;
	}
	table.push(profiles::GenesisProfile { name: "cpu-memory".into(), ..with_memory });
	table.push(profiles::GenesisProfile { name: "cpu-lanes".into(), ..with_lanes });
	table
}

/// A dev account by name ("alice" → //Alice).
pub fn account(name: &str) -> AccountId {
	sp_core::Pair::from_string(&format!("//{name}"), None)
		.map(|p: sr25519::Pair| sp_core::Pair::public(&p))
		.expect("valid dev seed")
}

/// The test configuration: fast periods, quorum 2 of 3 validators, small chunks.
pub fn test_config() -> PogProtocolConfig {
	PogProtocolConfig {
		period: 30,
		start_jitter: 3,
		target_ms: 500,
		slack_ms: 12_000,
		openings: 8,
		entries_per_opening: 2,
		committee: 2,
		verifications_per_validator: 80,
		reveal_window: 5,
		verdict_window: 10,
		settle_per_block: 4,
		chunk_k: 512,
		// 200 ms of walks: 25,600 walks at the CPU profile's 8 M reads a second; 5 ms of lanes:
		// 100,000 steps a lane at 20 M a second, 64 links of 1,563
		memory: crate::MemoryRules { walk_ms: 200, lane_ms: 5, ..crate::MemoryRules::dev() },
		..PogProtocolConfig::dev()
	}
}

/// Accounts funded at genesis.
pub fn funded() -> Vec<AccountId> {
	["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie", "Miner1", "Miner2", "Miner3", "Miner4"]
		.iter()
		.map(|n| account(n))
		.collect()
}

/// The validators: Alice, Bob, Charlie.
pub fn validators() -> Vec<AccountId> {
	vec![account("Alice"), account("Bob"), account("Charlie")]
}

/// Test externalities; with `offchain`, the keystore holds the named validators' `pog!` keys and
/// off-chain, pool and keystore extensions are registered.
pub struct TestEnv {
	pub ext: sp_io::TestExternalities,
	pub pool: Arc<parking_lot::RwLock<testing::PoolState>>,
	/// The off-chain state: HTTP requests the worker is expected to make, with their responses.
	pub offchain: Arc<parking_lot::RwLock<testing::OffchainState>>,
}

pub fn new_test_ext() -> sp_io::TestExternalities {
	env(&[]).ext
}

pub fn env(local_keys: &[&str]) -> TestEnv {
	STALLED_MS.with(|s| s.set(0));
	let mut storage = frame_system::GenesisConfig::<Test>::default().build_storage().unwrap();
	pallet_balances::GenesisConfig::<Test> {
		balances: funded().into_iter().map(|a| (a, FUNDS)).collect(),
		..Default::default()
	}
	.assimilate_storage(&mut storage)
	.unwrap();
	pallet_pog::GenesisConfig::<Test> {
		profiles: mock_profiles(),
		validators: validators(),
		config: Some(test_config()),
		// the mock's endpoints name public hosts, as a production chain asks
		local_endpoints: false,
	}
	.assimilate_storage(&mut storage)
	.unwrap();
	pallet_pog_rewards::GenesisConfig::<Test> { rules: Some(test_rewards()), ..Default::default() }
		.assimilate_storage(&mut storage)
		.unwrap();
	let mut ext = sp_io::TestExternalities::new(storage);
	let (offchain, offchain_state) = testing::TestOffchainExt::new();
	let (pool, pool_state) = testing::TestTransactionPoolExt::new();
	let keystore = Arc::new(MemoryKeystore::new());
	for name in local_keys {
		keystore.sr25519_generate_new(KEY_TYPE, Some(&format!("//{name}"))).unwrap();
	}
	ext.register_extension(OffchainDbExt::new(offchain.clone()));
	ext.register_extension(OffchainWorkerExt::new(offchain));
	ext.register_extension(TransactionPoolExt::new(pool));
	ext.register_extension(KeystoreExt(keystore));
	ext.execute_with(|| {
		// The session's genesis: the planned validators sit, each its account as its `pog!` key.
		use frame_support::traits::OneSessionHandler;
		let keys: Vec<(AccountId, crate::crypto::Public)> =
			validators().into_iter().map(|v| (v, crate::crypto::Public::from(v))).collect();
		<PogValidators as OneSessionHandler<AccountId>>::on_genesis_session(keys.iter().map(|(v, k)| (v, k.clone())));
		System::set_block_number(1);
		Timestamp::set_timestamp(BLOCK_MS);
	});
	TestEnv { ext, pool: pool_state, offchain: offchain_state }
}

/// A session change as pallet-session makes it, with its one-session delay collapsed: the
/// planned set is handed over (if it changed) and sits at once, each validator's account being
/// its `pog!` key.
pub fn change_session() {
	use frame_support::traits::OneSessionHandler;
	let handed = <PogValidators as pallet_session::SessionManager<AccountId>>::new_session(0);
	let sitting =
		handed.unwrap_or_else(|| pallet_pog_validators::Seated::<Test>::get().into_iter().map(|(v, _)| v).collect());
	let keys: Vec<(AccountId, crate::crypto::Public)> =
		sitting.iter().map(|v| (*v, crate::crypto::Public::from(*v))).collect();
	let iter = || keys.iter().map(|(v, k)| (v, k.clone()));
	<PogValidators as OneSessionHandler<AccountId>>::on_new_session(true, iter(), iter());
}

/// Move to the next block: finalize this one, initialize the next with a timestamp 6 s later.
pub fn next_block() {
	let n = System::block_number();
	Pog::on_finalize(n);
	System::finalize();
	System::initialize(&(n + 1), &System::parent_hash(), &Default::default());
	// The hash of block n as frame-system records it for block n + 1.
	frame_system::BlockHash::<Test>::insert(n, H256(sp_io::hashing::blake2_256(&n.to_le_bytes())));
	System::set_block_number(n + 1);
	pallet_timestamp::Now::<Test>::put((n + 1) * BLOCK_MS + STALLED_MS.with(|s| s.get()));
	Pog::on_initialize(n + 1);
}

std::thread_local! {
	/// Time the mock chain has lost to stalls: added to every later block's timestamp.
	static STALLED_MS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// The chain stalls for `ms`: no block is produced, and the next one comes `ms` later than it
/// would have.
pub fn stall(ms: u64) {
	STALLED_MS.with(|s| s.set(s.get() + ms));
}

/// Stamp the current block `ms` (a block whose timestamp lands between two 6 s steps, for a test
/// that needs the first moment past a deadline while the phase set at the block's start holds).
pub fn stamp(ms: u64) {
	pallet_timestamp::Now::<Test>::put(ms);
}

/// Advance `count` blocks.
pub fn run_blocks(count: u64) {
	for _ in 0..count {
		next_block();
	}
}

/// Run the off-chain worker of the current block and dispatch the signed transactions it put
/// in the pool, each from its signer, as if included in the next block. Returns the calls with
/// their dispatch results.
pub fn run_ocw_and_include(pool: &Arc<parking_lot::RwLock<testing::PoolState>>) -> Vec<Included> {
	run_ocw_with_budget_and_include(pool, crate::config::MAX_VERIFICATIONS_PER_RUN)
}

/// A transaction the off-chain worker sent: its signer, its call and its dispatch result.
pub type Included =
	(AccountId, RuntimeCall, sp_runtime::DispatchResultWithInfo<frame_support::dispatch::PostDispatchInfo>);

/// [`run_ocw_and_include`] with each local validator verifying at most `budget` challenges.
pub fn run_ocw_with_budget_and_include(
	pool: &Arc<parking_lot::RwLock<testing::PoolState>>,
	budget: usize,
) -> Vec<Included> {
	let n = System::block_number();
	// A run with nothing to do (no local key, the lock held) sends nothing; the pool says so.
	let _ = crate::offchain::run_with_budget::<Test>(n, budget);
	let txs: Vec<Vec<u8>> = std::mem::take(&mut pool.write().transactions);
	next_block();
	txs.into_iter()
		.map(|raw| {
			let xt = Extrinsic::decode(&mut &raw[..]).expect("pool holds our extrinsics");
			let Preamble::Signed(who, (), ()) = xt.preamble else { panic!("OCW sends signed transactions") };
			let result = xt.function.clone().dispatch(RuntimeOrigin::signed(who));
			(who, xt.function, result)
		})
		.collect()
}
