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

#[test]
fn a_gpu_bonds_in_proportion_to_its_points_and_a_failure_slashes_half_of_its_own_deposit() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let cores = hardware().cpu_cores;
		// An H100 (884,677 points) bonds the floor plus 100 a million points; the CPU reference
		// (2 points) the floor alone.
		assert_eq!(pog_primitives::profiles::H100.points(), 884_677);
		let h100 = DepositPerGpu::get() + DepositPerMegapoint::get() * 884_677 / 1_000_000;
		assert_eq!((h100, Pog::gpu_deposit(H100_PROFILE, cores)), (98, 98));
		assert_eq!(Pog::gpu_deposit(CPU_PROFILE, cores), DepositPerGpu::get());
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(H100_PROFILE, &[uuid(1)]), claim(CPU_PROFILE, &[uuid(2)])]),
			hardware()
		));
		let deposit = DepositBase::get() + h100 + DepositPerGpu::get();
		assert_eq!(Miners::<Test>::get(m).unwrap().deposit, deposit);
		assert_eq!(Pog::deposit_for([(H100_PROFILE, 1), (CPU_PROFILE, 1)], cores), deposit, "the runtime API's answer");
		// Both miss their commit: each is slashed half of its own deposit, then topped up.
		next_round();
		run_until(RoundPhase::Idle);
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::MissedCommit); 2]);
		assert_eq!(info.slashed, h100 / 2 + DepositPerGpu::get() / 2);
		assert_eq!(info.deposit, deposit);
		// Root halves the H100's rates: every claimant's deposit follows at once.
		let h100_profile = Profiles::<Test>::get(H100_PROFILE).unwrap();
		let slower = changed(&h100_profile, |f| (f.gflops, f.int8_gops) = (f.gflops.map(|g| g / 2), f.int8_gops / 2));
		let free = Balances::free_balance(m);
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), H100_PROFILE, slower));
		let lower = Pog::gpu_deposit(H100_PROFILE, cores);
		assert_eq!(lower, DepositPerGpu::get() + DepositPerMegapoint::get() * (320_000 + 244_677) / 1_000_000);
		assert_eq!(Miners::<Test>::get(m).unwrap().deposit, deposit - h100 + lower);
		assert_eq!(Balances::free_balance(m), free + h100 - lower, "the excess is released");
		try_state();
	});
}
