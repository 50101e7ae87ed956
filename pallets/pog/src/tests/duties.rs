//! Duties that cannot fail, a registry that cannot be locked, stalls that slash nobody (issue 23).

use super::*;

#[test]
fn a_duty_its_dispatch_would_refuse_is_refused_in_the_pool() {
	let refused = refused_in_pool;
	new_test_ext().execute_with(|| {
		let (m, mm) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		register_memory_miner(mm, &[uuid(3)]);
		let index = next_round();
		let commit_roots = |gpus: &[GpuIndex]| Call::commit_roots { round: index, roots: made_up_roots(gpus) };
		let commit_memory = |gpus: &[GpuIndex]| Call::commit_memory { round: index, roots: made_up_memory_roots(gpus) };

		// GPUs the miner does not have: each was a fresh duty at top priority before.
		assert_eq!(check_duty(m, commit_roots(&[99])), refused(Error::UnknownGpu));
		assert_eq!(check_duty(m, commit_roots(&[0, 2])), refused(Error::UnknownGpu));
		// One GPU twice: two equal pool tags in one transaction (which crashed the node).
		assert_eq!(check_duty(m, commit_roots(&[1, 1])), refused(Error::DuplicateGpu));
		assert_eq!(check_duty(mm, commit_memory(&[0, 0])), refused(Error::DuplicateGpu));
		// A GEMM root before its memory root; a memory root for a GPU without a memory phase.
		assert_eq!(check_duty(mm, commit_roots(&[0])), refused(Error::MemoryNotCommitted));
		assert_eq!(check_duty(m, commit_memory(&[0])), refused(Error::NoMemoryPhase));
		// What is due passes, with one distinct tag per GPU.
		let valid = check_duty(m, commit_roots(&[1, 0])).expect("both GPUs are due");
		assert_eq!(valid.provides.len(), 2);
		assert_ne!(valid.provides[0], valid.provides[1]);
		assert!(check_duty(mm, commit_memory(&[0])).is_ok());

		let r = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		let openings = openings_for(m, 0, &r[0]);
		let reveal = |openings: Vec<Opening>, walks: Vec<WalkOpening>| Call::reveal_openings {
			round: index,
			gpu: 0,
			openings: openings.try_into().unwrap(),
			walks: walks.try_into().unwrap(),
		};
		// A reveal of another size than the sample: 64 openings where 32 (or so) are due.
		let mut doubled = openings.to_vec();
		doubled.extend(openings.iter().cloned());
		doubled.truncate(64);
		assert!(doubled.len() > openings.len());
		assert_eq!(check_duty(m, reveal(doubled, vec![])), refused(Error::WrongOpeningCount));
		let mut shuffled = openings.to_vec();
		shuffled.swap(0, 1);
		assert_eq!(check_duty(m, reveal(shuffled, vec![])), refused(Error::WrongOpeningIndex));
		let mut forged = openings.to_vec();
		forged[0].values[0] ^= 1;
		assert_eq!(check_duty(m, reveal(forged, vec![])), refused(Error::InvalidProof));
		let walk = WalkOpening { walk: 0, result: [0; 32], proof: Default::default() };
		assert_eq!(check_duty(m, reveal(openings.to_vec(), vec![walk])), refused(Error::WrongWalkCount));
		assert!(check_duty(m, reveal(openings.to_vec(), vec![])).is_ok());
		assert_ok!(reveal_with_walks(m, 0, &r[0], vec![]));

		// A failing verdict must name an opened leaf, in the pool as in dispatch.
		let member = committee(m, 0)[0];
		let unopened = (0..).find(|l| !openings.iter().any(|o| o.leaf == *l)).unwrap();
		let verdict = false_verdict(false, Some(unopened));
		assert_eq!(
			check_duty(member, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }),
			refused(Error::InconsistentVerdict)
		);
	});
}

#[test]
fn a_duty_that_fails_in_its_block_is_spent_and_its_gpu_missed() {
	use crate::duty::CheckDuty;
	use frame_support::dispatch::{GetDispatchInfo, PostDispatchInfo};
	use sp_runtime::traits::{DispatchTransaction, Dispatchable, TransactionExtension};
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		let index = next_round();
		let call = RuntimeCall::Pog(Call::commit_memory { round: index, roots: made_up_memory_roots(&[0]) });
		let info = call.get_dispatch_info();
		// Dispatch failing after the pool accepted it takes checks that diverge, which the shared
		// functions rule out; the test makes it happen by moving the state between the
		// extension's checks and the dispatch, as no block does (a block re-runs the checks).
		// The pool accepts it while the memory deadline is ahead ...
		let (pre, origin) = CheckDuty::<Test>::new()
			.validate_and_prepare(RuntimeOrigin::signed(m), &call, &info, 0, 0)
			.expect("due now");
		// ... and the state moves before its block: the deadline passes.
		let memory = params(m, 0).memory.unwrap();
		while Pog::now_ms() + BLOCK_MS <= memory.deadline_ms {
			next_block();
		}
		stamp(memory.deadline_ms + 1);
		let result = call.clone().dispatch(origin);
		assert_eq!(result.map(|_| ()).map_err(|e| e.error), Err(Error::<Test>::DeadlinePassed.into()));
		let mut post = PostDispatchInfo::default();
		assert_ok!(<CheckDuty<Test> as TransactionExtension<RuntimeCall>>::post_dispatch(
			pre,
			&info,
			&mut post,
			0,
			&Err(Error::<Test>::DeadlinePassed.into())
		));
		assert!(events().iter().any(|e| matches!(
			e,
			Event::DutyFailed { round, who, gpus, .. } if *round == index && *who == m && gpus.to_vec() == vec![0]
		)));
		// Spent: the same duty is refused by name from now on, and cannot be sent again.
		let RuntimeCall::Pog(pog_call) = call else { unreachable!() };
		assert_eq!(check_duty(m, pog_call), refused_in_pool(Error::DutySpent));
		assert_eq!(commit_memory(m, &[(0, [3; 32])]), Err(Error::<Test>::DutySpent.into()));
		// The GPU missed its commit and is slashed for it at settlement.
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::MissedCommit)]);
		try_state();
		// The spent marks go with the round's other records.
		assert_eq!(SpentDuties::<Test>::iter_prefix(index).count(), 1);
		PruneRound::<Test>::put(index);
		Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
		assert_eq!(SpentDuties::<Test>::iter_prefix(index).count(), 0);
	});
}

#[test]
fn a_profile_or_configuration_change_waits_until_every_miner_of_the_round_is_settled() {
	new_test_ext().execute_with(|| {
		// More miners than are settled in one block (the mock settles 4 a block).
		let miners: Vec<AccountId> =
			["Miner1", "Miner2", "Miner3", "Miner4", "Dave"].iter().map(|n| account(n)).collect();
		for (i, m) in miners.iter().enumerate() {
			register_cpu_miner(*m, &[uuid(i as u8 + 1)]);
		}
		let index = next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		for (m, r) in miners.iter().zip(&results) {
			assert_ok!(reveal(*m, 0, &r[0]));
			for v in committee(*m, 0) {
				assert_ok!(verdict_by(v, *m, 0, 7));
			}
		}
		run_until(RoundPhase::Settle);
		next_block();
		assert_eq!(phase(), RoundPhase::Settle);
		assert!(Pog::round().settled > 0 && Pog::round().settled < 5, "settlement is under way");
		// A root change landing now would score the rest of the round's miners by other figures.
		let p = Profiles::<Test>::get(CPU_PROFILE).unwrap();
		let faster = changed(&p, |f| f.gflops = [4; 5]);
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster.clone()), Error::<Test>::RoundOpen);
		let wider = ProtocolConfig { max_unverified_rounds: test_config().max_unverified_rounds + 1, ..test_config() };
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), wider), Error::<Test>::RoundOpen);
		run_until(RoundPhase::Idle);
		let points: Vec<u32> = miners.iter().map(|m| standing(*m)[0].points).collect();
		assert!(points[0] > 0 && points.iter().all(|p| *p == points[0]), "one table for the whole round: {points:?}");
		assert!(miners.iter().all(|m| standing(*m)[0].last == Some((index, RoundOutcome::Passed))));
		// Once settled, root may change them.
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster));
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), wider));
	});
}

#[test]
fn a_stall_in_the_commit_window_slashes_nobody() {
	new_test_ext().execute_with(|| {
		let (m, mm) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m, &[uuid(1)]);
		register_memory_miner(mm, &[uuid(2)]);
		let index = next_round();
		let levels = memory_levels(&params(mm, 0), Memory::Honest);
		assert_ok!(commit_memory(mm, &[(0, root_of(&levels))]));
		let gemm = compute(&params(m, 0), Compute::Honest);

		// The chain produces no block for 60 s, longer than either GPU's margin.
		stall(60_000);
		next_block();
		let (p, pm) = (params(m, 0), params(mm, 0));
		assert!(
			Pog::now_ms() > p.deadline_ms && Pog::now_ms() > pm.deadline_ms,
			"the slot clock passed both deadlines"
		);
		assert_eq!(Pog::round().stalled_ms, 60_000 + BLOCK_MS - 2 * BLOCK_MS, "the stall beyond two block times");
		assert_eq!(phase(), RoundPhase::Commit, "the commit window is stretched by the stall too");
		assert_ok!(commit(m, &[(0, gemm.root())]));
		let memory_gemm = CommittedMatrix::new(cpu::gemm(&pm.spec(Some(&root_of(&levels)))));
		assert_ok!(commit(mm, &[(0, memory_gemm.root())]));

		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &gemm));
		assert_ok!(reveal_with_walks(mm, 0, &memory_gemm, walk_openings(mm, 0, &levels)));
		for who in [m, mm] {
			for v in committee(who, 0) {
				assert_ok!(verdict_by(v, who, 0, 7));
			}
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		assert_eq!(settled(mm), vec![RoundOutcome::Passed]);
		assert!(events().iter().all(|e| !matches!(e, Event::MinerSettled { slashed, .. } if *slashed > 0)));
		assert_eq!(Pog::round().index, index);

		// One missed slot is ordinary: the next round counts no stall for it.
		next_round();
		stall(BLOCK_MS);
		next_block();
		assert_eq!(Pog::round().stalled_ms, 0);
		try_state();
	});
}

#[test]
fn lowering_declared_cores_reprices_at_once_and_a_departed_miner_leaves_the_shares() {
	new_test_ext().execute_with(|| {
		let (m, other) = (account("Miner1"), account("Miner2"));
		let cpu = |cores: u32| {
			let mut h = hardware();
			h.cpu_cores = cores;
			(claims(vec![claim(CPU_PROFILE, &[uuid(1)]), claim(CPU_CORE_PROFILE, &[uuid(2)])]), h)
		};
		let (c, h) = cpu(4);
		assert_ok!(Pog::register_miner(RuntimeOrigin::signed(m), c, h));
		register_cpu_miner(other, &[uuid(3)]);
		play_round(&[(m, Compute::Honest), (other, Compute::Honest)]);
		// Both miners hold a share; the one that leaves is out of the shares once the payout being
		// paid is done (its pages index the shares by position).
		let shares = WeightShares::<Test>::get();
		assert!(shares.iter().any(|(w, _)| *w == other) && shares.len() == 2, "{shares:?}");
		assert!(pallet_pog_rewards::PendingPayout::<Test>::exists(), "the round's payout is paid from the next block");
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(other)));
		assert_eq!(WeightShares::<Test>::get().len(), 2, "not while the payout is paid");
		while pallet_pog_rewards::PendingPayout::<Test>::exists() {
			next_block();
		}
		let shares = WeightShares::<Test>::get();
		assert_eq!(shares.iter().map(|(w, s)| (*w, *s)).collect::<Vec<_>>(), vec![(m, Perbill::one())]);
		let per_core = Profiles::<Test>::get(CPU_CORE_PROFILE).unwrap();
		let per_core = per_core.figures;
		assert_eq!(standing(m)[1].points, per_core.for_cores(4).points());
		// A per-core unit scores its cores' compute only, also where it runs a memory phase (as
		// the runtime's `cpu-core` does): 1 point per core and GFLOPS, no memory points.
		let measured = ProfileFigures { mem_read_mps: 8, mem_parent_mps: 8, ..per_core }.for_cores(4);
		assert!(measured.memory_measured());
		assert_eq!(measured.memory_points(), 0);
		assert_eq!(measured.points(), pog_primitives::pricing::compute_points(&measured.gflops, measured.int8_gops));

		// Fewer cores, declared while a round is open: the update waits, the lower price does not.
		next_round();
		let (c, h) = cpu(1);
		assert_ok!(Pog::update_miner(RuntimeOrigin::signed(m), c, h));
		assert!(Miners::<Test>::get(m).unwrap().pending.is_some(), "the claims wait for the round");
		assert_eq!(standing(m)[1].points, per_core.for_cores(1).points(), "re-priced at once");
		// More cores than proven are not scored before a pass.
		let (c, h) = cpu(8);
		assert_ok!(Pog::update_miner(RuntimeOrigin::signed(m), c, h));
		assert_eq!(standing(m)[1].points, per_core.for_cores(1).points());
		run_until(RoundPhase::Idle);

		try_state();
	});
}

#[test]
fn an_undecided_verification_keeps_no_credit_and_is_decided_in_the_next_round() {
	new_test_ext().execute_with(|| {
		let miners = [account("Miner1"), account("Miner2")];
		for (i, m) in miners.iter().enumerate() {
			let uuids: Vec<GpuUuid> = (0..8).map(|g| uuid(10 * i as u8 + g)).collect();
			register_cpu_miner(*m, &uuids);
		}
		let all: Vec<(AccountId, GpuIndex)> = miners.iter().flat_map(|m| (0..8).map(move |g| (*m, g))).collect();
		// Round 1: every GPU verified and credited.
		play_round(&[(miners[0], Compute::Honest), (miners[1], Compute::Honest)]);
		assert!(all.iter().all(|(m, g)| standing(*m)[*g as usize].credited()));

		// Round 2: capacity 3 of 16; the selected GPUs reveal, and no member votes in time.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 2, ..test_config() }
		));
		let r2 = next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert!(s.probability < Perbill::one());
		let undecided: Vec<(AccountId, GpuIndex)> =
			all.iter().copied().filter(|(m, g)| Pog::is_selected(&s, r2, m, *g)).collect();
		assert!(!undecided.is_empty() && undecided.len() < 16, "{undecided:?}");
		for (m, g) in &undecided {
			let i = miners.iter().position(|x| x == m).unwrap();
			assert_ok!(reveal(*m, *g, &results[i][*g as usize]));
		}
		run_until(RoundPhase::Idle);
		for (m, g) in &all {
			let s = &standing(*m)[*g as usize];
			if undecided.contains(&(*m, *g)) {
				assert_eq!(s.last, Some((r2, RoundOutcome::Unverified(UnverifiedReason::Inconclusive))));
				assert_eq!(s.points, 0, "an undecided verification keeps no credit");
			} else {
				assert!(s.credited(), "not selected: the credit stands");
			}
		}

		// Round 3: each undecided GPU is verified again, whatever the sample draws.
		let r3 = next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		for (m, g) in &undecided {
			assert!(Pog::is_selected(&s, r3, m, *g), "{m:?} GPU {g} is on probation");
			let i = miners.iter().position(|x| x == m).unwrap();
			assert_ok!(reveal(*m, *g, &results[i][*g as usize]));
			for v in committee(*m, *g) {
				assert_ok!(verdict_by(v, *m, *g, 7));
			}
		}
		run_until(RoundPhase::Idle);
		for (m, g) in &undecided {
			assert_eq!(standing(*m)[*g as usize].last, Some((r3, RoundOutcome::Passed)));
			assert!(standing(*m)[*g as usize].credited(), "re-earned");
		}
		try_state();
	});
}

/// Off-chain workers out of time: three validators, each on every committee (quorum 3 of 3),
/// 30 revealed challenges and time for 20 each. Every member goes in the round's verification
/// order, so the same 20 are decided and the same 10 are left; those keep no credit and come
/// first in the next round, where they are decided.
#[test]
fn workers_with_time_for_20_of_30_leave_10_undecided_which_keep_no_credit_and_are_verified_next() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 3, ..test_config() }));
		let miners = ["Miner1", "Miner2", "Miner3", "Miner4"].map(account);
		for (i, (m, count)) in miners.iter().zip([8u8, 8, 8, 6]).enumerate() {
			let uuids: Vec<GpuUuid> = (0..count).map(|g| uuid(10 * i as u8 + g)).collect();
			register_cpu_miner(*m, &uuids);
		}
		let all: Vec<(AccountId, GpuIndex)> = miners
			.iter()
			.flat_map(|m| (0..Miners::<Test>::get(m).unwrap().gpu_count()).map(move |g| (*m, g)))
			.collect();
		assert_eq!(all.len(), 30);
		// Round 1: every GPU verified and credited.
		play_round(&miners.map(|m| (m, Compute::Honest)));
		assert!(all.iter().all(|(m, g)| standing(*m)[*g as usize].credited()));

		// Rounds 2 and 3: all 30 selected and revealed; each worker verifies 10 a block in two
		// blocks of the Reveal phase, and nothing else votes.
		let play = |undecided: &[(AccountId, GpuIndex)]| {
			let r = next_round();
			let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
			run_until(RoundPhase::Reveal);
			let s = Pog::round().selection.unwrap();
			assert_eq!(s.probability, Perbill::one(), "capacity 3 × 80 / 3 covers all 30");
			for (m, g) in &all {
				let i = miners.iter().position(|x| x == m).unwrap();
				assert_ok!(reveal(*m, *g, &results[i][*g as usize]));
			}
			for (m, g) in undecided {
				assert!(Pog::on_probation(r, m, *g), "{m:?} GPU {g} is on probation");
			}
			let mut sent = run_ocw_with_budget_and_include(&pool, 10);
			sent.extend(run_ocw_with_budget_and_include(&pool, 10));
			assert_eq!(verdicts_in(&sent), 60, "20 verdicts from each of the three workers");
			assert_eq!(sent.len(), 6, "in one transaction a worker a run");
			assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
			run_until(RoundPhase::Idle);
			(r, s.seed)
		};
		let (r2, seed) = play(&[]);
		let mut by_rank = all.clone();
		by_rank.sort_by_key(|(m, g)| crate::attestation::verification_rank(&seed, m, *g));
		let (decided, undecided) = by_rank.split_at(20);
		for (m, g) in decided {
			assert_eq!(standing(*m)[*g as usize].last, Some((r2, RoundOutcome::Passed)), "{m:?} GPU {g}");
		}
		for (m, g) in undecided {
			let s = &standing(*m)[*g as usize];
			assert_eq!(s.last, Some((r2, RoundOutcome::Unverified(UnverifiedReason::Inconclusive))), "{m:?} GPU {g}");
			assert_eq!(s.points, 0, "an undecided verification keeps no credit");
		}
		let score_of = |m: &AccountId| Scores::<Test>::get(m).map_or(0, |s| s.verified_gpus);
		assert_eq!(miners.iter().map(score_of).sum::<u32>(), 20, "only the 20 decided GPUs score");

		// Round 3: the 10 left undecided come first for every worker, and are decided.
		let (r3, _) = play(undecided);
		for (m, g) in undecided {
			assert_eq!(standing(*m)[*g as usize].last, Some((r3, RoundOutcome::Passed)), "{m:?} GPU {g} re-earned");
			assert!(standing(*m)[*g as usize].credited());
		}
		try_state();
	});
}
