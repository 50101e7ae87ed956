//! Mock runtime for pallet-pog-validators' tests: System, Balances (holds) and the set, with a
//! stand-in for the rounds (`Rounds`) and for the reward ledger's count of burns. The proof's
//! own tests run this pallet against the real rounds (`pallet-pog`'s mock).

use crate as pallet_pog_validators;
use frame_support::{derive_impl, parameter_types, traits::ConstU32};
use pog_traits::{Earned, RoundIndex, RoundPay, Rounds};
use sp_runtime::{testing::UintAuthorityId, traits::Convert, BuildStorage};

pub type AccountId = u64;
pub type Balance = u64;
type Block = frame_system::mocking::MockBlock<Test>;

frame_support::construct_runtime!(
	pub enum Test {
		System: frame_system,
		Balances: pallet_balances,
		PogValidators: pallet_pog_validators,
	}
);

#[derive_impl(frame_system::config_preludes::TestDefaultConfig)]
impl frame_system::Config for Test {
	type Block = Block;
	type AccountData = pallet_balances::AccountData<Balance>;
}

#[derive_impl(pallet_balances::config_preludes::TestDefaultConfig)]
impl pallet_balances::Config for Test {
	type AccountStore = System;
	type RuntimeHoldReason = RuntimeHoldReason;
}

parameter_types! {
	/// The stand-in rounds: the latest round, whether it is open, who owes evidence.
	pub storage LatestRound: RoundIndex = 0;
	pub storage RoundOpen: bool = false;
	pub storage Owing: Vec<AccountId> = vec![];
	/// Validators whose session keys are not set.
	pub storage Keyless: Vec<AccountId> = vec![];
	/// What burned bonds took out of the supply, as the reward ledger counts it.
	pub storage Burned: Balance = 0;
	pub const Bond: Balance = 1_000;
}

/// The rounds as the stand-in storage above says.
pub struct TestRounds;
impl Rounds<AccountId> for TestRounds {
	fn latest_round() -> RoundIndex {
		LatestRound::get()
	}
	fn round_open() -> bool {
		RoundOpen::get()
	}
	fn owing_evidence() -> Vec<AccountId> {
		Owing::get()
	}
}

/// Counts burns; pays nothing (the reward ledger's tests pay).
pub struct CountBurns;
impl RoundPay<AccountId, Balance> for CountBurns {
	fn vest(_: &AccountId, _: u64, _: u64) -> Balance {
		0
	}
	fn forfeit(_: &AccountId) {}
	fn release(_: &AccountId) {}
	fn agreed(_: &AccountId) {}
	fn round_settled(_: RoundIndex, _: &[(AccountId, AccountId)]) {}
	fn round_settled_weight() -> frame_support::weights::Weight {
		Default::default()
	}
	fn paying() -> bool {
		false
	}
	fn pay_some() -> frame_support::weights::Weight {
		Default::default()
	}
	fn burned(amount: Balance) {
		Burned::set(&(Burned::get() + amount));
	}
	fn earnings(_: &AccountId) -> Earned<Balance> {
		Default::default()
	}
}

/// Every account but the [`Keyless`] ones has session keys.
pub struct WithKeys;
impl frame_support::traits::Contains<AccountId> for WithKeys {
	fn contains(who: &AccountId) -> bool {
		!Keyless::get().contains(who)
	}
}

/// A validator's `pog!` key signs as account 100 + its number.
pub struct KeyAccount;
impl Convert<UintAuthorityId, AccountId> for KeyAccount {
	fn convert(key: UintAuthorityId) -> AccountId {
		100 + key.0
	}
}

impl pallet_pog_validators::Config for Test {
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type Key = UintAuthorityId;
	type KeyAccount = KeyAccount;
	type Rounds = TestRounds;
	type RoundPay = CountBurns;
	type MaxValidators = ConstU32<8>;
	type ValidatorBond = Bond;
	type HasSessionKeys = WithKeys;
	#[cfg(feature = "runtime-benchmarks")]
	type BenchmarkHelper = ();
	type WeightInfo = ();
}

/// Starting balance of accounts 1 to 9.
pub const FUNDS: Balance = 10_000;

/// Accounts 1 to 4 validate from genesis, seated with keys 1 to 4 (members 101 to 104), bonded.
pub fn new_test_ext() -> sp_io::TestExternalities {
	let mut storage = frame_system::GenesisConfig::<Test>::default().build_storage().unwrap();
	pallet_balances::GenesisConfig::<Test> { balances: (1..10).map(|a| (a, FUNDS)).collect(), ..Default::default() }
		.assimilate_storage(&mut storage)
		.unwrap();
	let mut ext = sp_io::TestExternalities::new(storage);
	ext.execute_with(|| {
		use frame_support::traits::OneSessionHandler;
		// pallet-pog's genesis plans them; then pallet-session's seats them
		<PogValidators as pog_traits::Committee<AccountId>>::plan_genesis(vec![1, 2, 3, 4]);
		let keys: Vec<(AccountId, UintAuthorityId)> = (1..5).map(|v| (v, UintAuthorityId(v))).collect();
		<PogValidators as OneSessionHandler<AccountId>>::on_genesis_session(keys.iter().map(|(v, k)| (v, k.clone())));
		System::set_block_number(1);
	});
	ext
}

/// A session change with pallet-session's one-session delay collapsed: the planned set is
/// handed over (if it changed) and sits at once, validator v with key v.
pub fn change_session() {
	use frame_support::traits::OneSessionHandler;
	let handed = <PogValidators as pallet_session::SessionManager<AccountId>>::new_session(0);
	let sitting =
		handed.unwrap_or_else(|| crate::Seated::<Test>::get().into_iter().map(|(v, _)| v).collect::<Vec<_>>());
	let keys: Vec<(AccountId, UintAuthorityId)> = sitting.iter().map(|v| (*v, UintAuthorityId(*v))).collect();
	let iter = || keys.iter().map(|(v, k)| (v, k.clone()));
	<PogValidators as OneSessionHandler<AccountId>>::on_new_session(true, iter(), iter());
}
