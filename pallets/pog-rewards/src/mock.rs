//! Mock runtime for the reward ledger's own tests: System, Balances (holds) and the ledger, with
//! the proof stood in for by [`TestPayees`] (its shares and registered miners set by each test).
//! pallet-pog's tests run the ledger with the real proof.

use crate as pallet_pog_rewards;
use frame_support::{
	derive_impl, parameter_types,
	traits::{ConstU32, Get},
	weights::Weight,
};
use pog_traits::Payees;
use sp_runtime::{BuildStorage, Perbill};

pub type AccountId = u64;
pub type Balance = u64;
type Block = frame_system::mocking::MockBlock<Test>;

frame_support::construct_runtime!(
	pub enum Test {
		System: frame_system,
		Balances: pallet_balances,
		PogRewards: pallet_pog_rewards,
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

/// The treasury account.
pub const TREASURY: AccountId = 1_000;
/// Starting balance of funded accounts.
pub const FUNDS: Balance = 10_000;

parameter_types! {
	pub const Treasury: AccountId = TREASURY;
	/// The epoch's weight shares the stand-in proof reports.
	pub storage Shares: Vec<(AccountId, Perbill)> = vec![];
	/// The miners it reports registered.
	pub storage Registered: Vec<AccountId> = vec![];
	/// The payout pages it was told are paid out.
	pub storage PaidOut: u32 = 0;
	/// The weight a block of payments may take.
	pub storage PageBudget: Weight = Weight::from_parts(2_000_000_000, 0);
}

/// The proof, stood in for.
pub struct TestPayees;

impl Payees<AccountId> for TestPayees {
	fn shares() -> Vec<(AccountId, Perbill)> {
		Shares::get()
	}

	fn is_payee(who: &AccountId) -> bool {
		Registered::get().contains(who)
	}

	fn page_budget() -> (Weight, u32) {
		(PageBudget::get(), 1)
	}

	fn paid_out() {
		PaidOut::set(&(PaidOut::get() + 1));
	}

	fn bench_payees(n: u32) -> Vec<AccountId> {
		let max = <Test as crate::Config>::MaxPayees::get();
		let payees: Vec<AccountId> = (0..u64::from(n)).map(|i| 100 + i).collect();
		let share = Perbill::from_rational(1, max);
		Shares::set(&(0..u64::from(max)).map(|i| (100 + i, share)).collect());
		Registered::set(&payees);
		payees
	}
}

impl crate::Config for Test {
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type Payees = TestPayees;
	type Treasury = Treasury;
	type MaxPayees = ConstU32<64>;
	type MaxValidators = ConstU32<8>;
	type WeightInfo = ();
}

/// The mock's reward schedule: 1,000 a round, 80% to miners, 10% to validators, 10% to the
/// treasury, vesting over 4 rounds.
pub fn test_rules() -> crate::rules::RewardRules {
	crate::rules::RewardRules { cap: 10_000_000, per_round: 1_000, vesting_rounds: 4, ..Default::default() }
}

/// Accounts 1 to 20 funded, the treasury too, and the ledger opened at that issuance.
pub fn new_test_ext() -> sp_io::TestExternalities {
	let mut t = frame_system::GenesisConfig::<Test>::default().build_storage().expect("system genesis");
	pallet_balances::GenesisConfig::<Test> {
		balances: (1..=20).chain([TREASURY]).map(|a| (a, FUNDS)).collect(),
		..Default::default()
	}
	.assimilate_storage(&mut t)
	.expect("balances genesis");
	crate::GenesisConfig::<Test> { rules: Some(test_rules()), ..Default::default() }
		.assimilate_storage(&mut t)
		.expect("rewards genesis");
	let mut ext = sp_io::TestExternalities::new(t);
	ext.execute_with(|| System::set_block_number(1));
	ext
}
