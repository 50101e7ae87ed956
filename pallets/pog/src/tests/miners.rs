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

/// The regular slots of a full registry (issue 49's F8): `MaxMiners` less the trial slots, each
/// filled by a funded one-core unit; returns the fillers.
fn fill_regular_slots() -> Vec<AccountId> {
	let regular = <<Test as Config>::MaxMiners as frame_support::traits::Get<u32>>::get() - Pog::trial_slots();
	let one_core = Hardware { cpu_cores: 1, ..hardware() };
	(0..regular)
		.map(|i| {
			let f = account(&format!("Filler{i}"));
			fund(&f, FUNDS);
			let unit = claims(vec![claim(
				CPU_CORE_PROFILE,
				&[[i as u8, (i >> 8) as u8, 0xcc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
			)]);
			assert_ok!(Pog::register_miner(RuntimeOrigin::signed(f), unit, one_core.clone()));
			f
		})
		.collect()
}

fn claim_slot(who: AccountId) -> DispatchResultOf {
	Pog::claim_slot(RuntimeOrigin::signed(who)).map(|_| ()).map_err(|e| e.error)
}

/// Issue 49, F8: a registration into a full registry evicts nobody; the newcomer is on trial,
/// and only its first pass lets it take the slot of the lowest *proven* score below its own. A
/// miner whose zero comes from rounds left undecided (here: revealed, never voted on) is not
/// that miner, one whose zero comes from changing its claims is, and the evicted one keeps its
/// unvested pay.
#[test]
fn a_newcomer_evicts_only_a_lower_proven_score_and_only_after_its_first_pass() {
	new_test_ext().execute_with(|| {
		let fillers = fill_regular_slots();
		let quiet = fillers[0];
		let plays: Vec<(AccountId, Compute)> = fillers.iter().map(|f| (*f, Compute::Honest)).collect();
		for _ in 0..crate::eviction::IMMUNITY_ROUNDS {
			play_round_unvoted(&plays, &[quiet]);
		}
		assert!(Scores::<Test>::get(quiet).is_none_or(|s| s.total.is_zero()), "undecided every round");
		assert_eq!(standing(quiet)[0].zero_reason, Some(ZeroReason::NotYetVerified));
		let proven = |f: &AccountId| Scores::<Test>::get(f).unwrap().gpu_points;
		let lowest = fillers[1..].iter().map(proven).min().unwrap();
		assert!(lowest > 0, "every other filler is proven and scored");

		// Registered on trial: nobody is evicted, and the trial slot is then taken.
		let newcomer = account("Miner1");
		register_cpu_miner(newcomer, &[uuid(1)]);
		let index = Pog::round().index;
		assert!(events().contains(&Event::MinerOnTrial { miner: newcomer, last_round: index + 4 }));
		assert!(!events().iter().any(|e| matches!(e, Event::MinerEvicted { .. })));
		assert_eq!(MinerCount::<Test>::get(), <<Test as Config>::MaxMiners as frame_support::traits::Get<u32>>::get());
		assert_noop!(
			Pog::register_miner(
				RuntimeOrigin::signed(account("Miner2")),
				claims(vec![claim(CPU_PROFILE, &[uuid(2)])]),
				hardware()
			),
			Error::<Test>::TooManyMiners
		);
		assert_noop!(claim_slot(newcomer), Error::<Test>::NotYetPassed);
		assert_noop!(claim_slot(fillers[1]), Error::<Test>::NotOnTrial);
		assert_noop!(claim_slot(account("Miner2")), Error::<Test>::NotOnTrial);

		// Its first round: it passes, and takes the lowest proven score's slot, not the quiet one's.
		let mut plays = plays;
		plays.push((newcomer, Compute::Honest));
		play_round_unvoted(&plays, &[quiet]);
		assert_eq!(settled(newcomer), vec![RoundOutcome::Passed]);
		let unvested_before: Vec<Balance> = fillers.iter().map(|f| vesting_hold(*f)).collect();
		assert_ok!(claim_slot(newcomer));
		let evicted = events()
			.into_iter()
			.find_map(|e| match e {
				Event::MinerEvicted { miner, by } if by == newcomer => Some(miner),
				_ => None,
			})
			.expect("a miner was evicted");
		assert_ne!(evicted, quiet, "a zero from undecided rounds proves nothing");
		assert!(Miners::<Test>::get(quiet).is_some());
		assert!(Miners::<Test>::get(evicted).is_none());
		assert!(events().contains(&Event::MinerAdmitted { miner: newcomer }));
		assert!(!Trial::<Test>::contains_key(newcomer));
		let i = fillers.iter().position(|f| *f == evicted).unwrap();
		assert!(unvested_before[i] > 0, "the evicted filler had pay vesting");
		assert!(
			reward_events().contains(&RewardEvent::UnvestedReleased { miner: evicted, amount: unvested_before[i] }),
			"its unvested pay was released, not forfeited"
		);
		assert_eq!(vesting_hold(evicted), 0);
		let remaining = fillers[1..].iter().filter(|f| **f != evicted).map(proven).min().unwrap();
		assert!(lowest <= remaining, "the lowest proven score went");
		try_state();

		// A regular miner that changes its claims every round (a fresh UUID each time, so it
		// never holds a credit when a slot is claimed) is not shielded by that zero: it goes first.
		let squatter = *fillers[1..].iter().find(|f| **f != evicted).unwrap();
		let one_core = Hardware { cpu_cores: 1, ..hardware() };
		let swap = |n: u8| {
			let unit = claims(vec![claim(CPU_CORE_PROFILE, &[[n, 0xdd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]])]);
			assert_ok!(Pog::update_miner(RuntimeOrigin::signed(squatter), unit, one_core.clone()));
		};
		swap(1);
		let second = account("Miner2");
		register_cpu_miner(second, &[uuid(2)]);
		let mut plays: Vec<(AccountId, Compute)> = plays.into_iter().filter(|(m, _)| *m != evicted).collect();
		plays.push((second, Compute::Honest));
		play_round_unvoted(&plays, &[quiet]);
		swap(2);
		assert_eq!(standing(squatter)[0].zero_reason, Some(ZeroReason::WaitingForRound));
		assert_ok!(claim_slot(second));
		assert!(events().contains(&Event::MinerEvicted { miner: squatter, by: second }));
		assert!(Miners::<Test>::get(quiet).is_some(), "the undecided filler is still out of reach");
		try_state();
	});
}

/// Settlement passes over miners registered for a later round, not suspended ones (the review
/// of the pass-over, F1): a newcomer suspended while on trial is settled every round all the
/// same, so its trial ends and the trial slot is free again; passed over, it would hold the
/// slot for good, and 64 such would keep every newcomer out of a full registry.
#[test]
fn a_miner_suspended_on_trial_is_settled_and_its_trial_ends() {
	use frame_support::traits::{
		fungible::Inspect,
		tokens::{Fortitude, Preservation},
	};
	new_test_ext().execute_with(|| {
		let fillers = fill_regular_slots();
		let plays: Vec<(AccountId, Compute)> = fillers.iter().map(|f| (*f, Compute::Honest)).collect();
		let newcomer = account("Miner1");
		register_cpu_miner(newcomer, &[uuid(1)]);
		let last_round = Trial::<Test>::get(newcomer).expect("on trial");
		// nothing left to top its deposit up with
		let spare = Balances::reducible_balance(&newcomer, Preservation::Preserve, Fortitude::Polite);
		assert_ok!(Balances::transfer_keep_alive(RuntimeOrigin::signed(newcomer), account("Alice"), spare));
		// it misses its first commit: slashed, it cannot top up and is suspended
		play_round(&plays);
		assert_eq!(settled(newcomer), vec![RoundOutcome::Failed(FailReason::MissedCommit)]);
		assert_eq!(Miners::<Test>::get(newcomer).expect("registered").first_round, crate::miners::NEVER);
		while Pog::round().index <= last_round {
			play_round(&plays);
			try_state();
		}
		assert!(events().contains(&Event::MinerTrialEnded { miner: newcomer }));
		assert!(Miners::<Test>::get(newcomer).is_none() && !Trial::<Test>::contains_key(newcomer));
		assert!(!Pog::regular_slots_taken() || Trial::<Test>::count() < Pog::trial_slots(), "the trial slot is free");
	});
}

/// Issue 49, F8: a newcomer that proves no more than the regular miners takes nobody's slot
/// (`NoLowerScore`), not even that of a stronger miner that just missed a commit, and is removed, its deposit back, when the round after its trial's last is
/// settled; the trial slot is then free. A slot a regular miner frees is claimed by a miner on
/// trial once it has passed.
#[test]
fn a_trial_ends_with_the_newcomer_removed_or_admitted_to_a_freed_slot() {
	new_test_ext().execute_with(|| {
		let fillers = fill_regular_slots();
		// One regular miner claims more than a one-core unit (a CPU GPU of the full machine).
		let strong = fillers[5];
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(strong),
			claims(vec![claim(CPU_PROFILE, &[uuid(9)])]),
			hardware()
		));
		let mut plays: Vec<(AccountId, Compute)> = fillers.iter().map(|f| (*f, Compute::Honest)).collect();
		for _ in 0..crate::eviction::IMMUNITY_ROUNDS {
			play_round(&plays);
		}
		let strong_points = Scores::<Test>::get(strong).unwrap().gpu_points;
		assert!(strong_points > Scores::<Test>::get(fillers[0]).unwrap().gpu_points);
		// A one-core unit like the fillers: its proven score is no lower than theirs.
		let (newcomer, free) = (account("Miner1"), Balances::free_balance(account("Miner1")));
		let unit = claims(vec![claim(CPU_CORE_PROFILE, &[uuid(1)])]);
		assert_ok!(Pog::register_miner(RuntimeOrigin::signed(newcomer), unit, Hardware { cpu_cores: 1, ..hardware() }));
		let last_round = Trial::<Test>::get(newcomer).expect("on trial");
		// The strong miner misses this round's commit (an outage): its credit goes, but a miss
		// does not open its slot to a one-point newcomer.
		let without_strong: Vec<(AccountId, Compute)> =
			plays.iter().copied().filter(|(m, _)| *m != strong).chain([(newcomer, Compute::Honest)]).collect();
		plays.push((newcomer, Compute::Honest));
		play_round(&without_strong);
		assert_eq!(settled(newcomer), vec![RoundOutcome::Passed]);
		assert_eq!(settled(strong), vec![RoundOutcome::Failed(FailReason::MissedCommit)]);
		assert_eq!(Scores::<Test>::get(strong).unwrap().gpu_points, 0);
		assert_noop!(claim_slot(newcomer), Error::<Test>::NoLowerScore);
		while Pog::round().index <= last_round {
			play_round(&plays);
		}
		assert!(events().contains(&Event::MinerTrialEnded { miner: newcomer }));
		assert!(Miners::<Test>::get(newcomer).is_none() && !Trial::<Test>::contains_key(newcomer));
		let deposit = RuntimeHoldReason::Pog(crate::HoldReason::MinerDeposit);
		assert_eq!((Balances::balance_on_hold(&deposit, &newcomer), vesting_hold(newcomer)), (0, 0));
		assert!(
			Balances::free_balance(newcomer) > free - RegistrationFee::get(),
			"its deposit and the pay it earned are back; only the fee is kept"
		);
		plays.pop();
		try_state();

		// The trial slot is free again. A regular miner leaves: the miner on trial, once it has
		// passed, takes the free slot without evicting anyone.
		let second = account("Miner2");
		register_cpu_miner(second, &[uuid(2)]);
		assert!(Trial::<Test>::contains_key(second));
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(fillers[3])));
		assert!(Trial::<Test>::contains_key(second), "a freed slot is claimed, not handed out");
		assert_noop!(claim_slot(second), Error::<Test>::NotYetPassed);
		plays.push((second, Compute::Honest));
		plays.retain(|(m, _)| *m != fillers[3]);
		play_round(&plays);
		assert_ok!(claim_slot(second));
		assert!(events().contains(&Event::MinerAdmitted { miner: second }));
		assert!(!events().iter().any(|e| matches!(e, Event::MinerEvicted { .. })));
		assert!(!Trial::<Test>::contains_key(second));
		assert_noop!(claim_slot(second), Error::<Test>::NotOnTrial);
		try_state();
	});
}
