//! Registration, updates and deregistration: deposits, fees and named errors.

use super::*;

#[test]
fn register_holds_the_deposit_burns_the_fee_and_waits_for_the_next_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let issuance = Balances::total_issuance();
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let deposit = DepositBase::get() + 2 * DepositPerGpu::get();
		assert_eq!(Balances::balance_on_hold(&RuntimeHoldReason::Pog(crate::HoldReason::MinerDeposit), &m), deposit);
		assert_eq!(Balances::free_balance(m), FUNDS - deposit - RegistrationFee::get());
		assert_eq!(Balances::total_issuance(), issuance - RegistrationFee::get(), "the fee is burned");
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.first_round, 1);
		assert!(standing(m).iter().all(|s| s.zero_reason == Some(ZeroReason::WaitingForRound)));
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(3)])]), hardware()),
			Error::<Test>::AlreadyRegistered
		);
		// Registered during round 1: takes part from round 2.
		let r = next_round();
		let late = account("Miner2");
		register_cpu_miner(late, &[uuid(9)]);
		assert_eq!(Miners::<Test>::get(late).unwrap().first_round, r + 1);
		assert_noop!(commit(late, &[(0, [1; 32])]), Error::<Test>::NotTakingPart);
		assert!(Pog::challenges_of(&late).is_empty());
		assert_eq!(Pog::challenges_of(&m).len(), 2);
		// Deregistering gives the deposit back, never the fee.
		run_until(RoundPhase::Idle);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(late)));
		assert_eq!(Balances::free_balance(late), FUNDS - RegistrationFee::get());
		try_state();
	});
}

#[test]
fn bad_registrations_are_named_errors_and_change_nothing() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let o = RuntimeOrigin::signed(m);
		assert_noop!(Pog::register_miner(o.clone(), claims(vec![]), hardware()), Error::<Test>::NoClaims);
		let zero = GpuClaim { profile: CPU_PROFILE, count: 0, uuids: Default::default() };
		assert_noop!(Pog::register_miner(o.clone(), claims(vec![zero]), hardware()), Error::<Test>::ZeroCount);
		let mismatch = GpuClaim { profile: CPU_PROFILE, count: 2, uuids: vec![uuid(1)].try_into().unwrap() };
		assert_noop!(Pog::register_miner(o.clone(), claims(vec![mismatch]), hardware()), Error::<Test>::CountMismatch);
		assert_noop!(
			Pog::register_miner(o.clone(), claims(vec![claim(77, &[uuid(1)])]), hardware()),
			Error::<Test>::UnknownProfile
		);
		assert_noop!(
			Pog::register_miner(o.clone(), claims(vec![claim(CPU_PROFILE, &[uuid(1), uuid(1)])]), hardware()),
			Error::<Test>::DuplicateUuid
		);
		let eight: Vec<GpuUuid> = (1..=8).map(uuid).collect();
		assert_noop!(
			Pog::register_miner(
				o.clone(),
				claims(vec![claim(CPU_PROFILE, &eight), claim(CPU_PROFILE, &[uuid(9)])]),
				hardware()
			),
			Error::<Test>::TooManyGpus
		);
		// Counted before any profile is read: an unknown profile in an oversized call is TooManyGpus.
		assert_noop!(
			Pog::register_miner(o.clone(), claims(vec![claim(77, &eight), claim(78, &[uuid(9)])]), hardware()),
			Error::<Test>::TooManyGpus
		);
		for (bad, err) in [
			(Hardware { cpu_cores: MAX_CPU_CORES + 1, ..hardware() }, Error::<Test>::ImplausibleCpuCores),
			(Hardware { ram_mib: MAX_RAM_MIB + 1, ..hardware() }, Error::<Test>::ImplausibleRam),
			(Hardware { disk_gib: MAX_DISK_GIB + 1, ..hardware() }, Error::<Test>::ImplausibleDisk),
		] {
			assert_noop!(Pog::register_miner(o.clone(), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), bad), err);
		}
		let poor = account("Nobody");
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(poor), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::InsufficientDeposit
		);
		assert_noop!(Pog::deregister_miner(o.clone()), Error::<Test>::NotRegistered);
		assert_noop!(
			Pog::update_miner(o, claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::NotRegistered
		);
	});
}

#[test]
fn a_uuid_claimed_by_several_miners_is_counted_not_refused() {
	new_test_ext().execute_with(|| {
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		// A squatter copying Miner1's UUID from the pool cannot lock Miner2 (or Miner1) out.
		register_cpu_miner(account("Miner2"), &[uuid(1)]);
		assert_eq!(UuidClaimants::<Test>::get(uuid(1)), 2);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(account("Miner2"))));
		assert_eq!(UuidClaimants::<Test>::get(uuid(1)), 1);
		// Both accounts are challenged separately: the same UUID gets a different seed per miner.
		register_cpu_miner(account("Miner3"), &[uuid(1)]);
		next_round();
		assert_ne!(params(account("Miner1"), 0).seed, params(account("Miner3"), 0).seed);
		try_state();
	});
}
