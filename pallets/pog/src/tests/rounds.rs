//! The network-wide round: challenges, deadlines, commits and settlement.

use super::*;

#[test]
fn every_round_challenges_all_miners_at_once_whenever_they_registered() {
	new_test_ext().execute_with(|| {
		let miners = [account("Miner1"), account("Miner2"), account("Miner3")];
		for (m, at) in miners.iter().zip([2u64, 9, 16]) {
			while System::block_number() < at {
				next_block();
			}
			register_cpu_miner(*m, &[uuid(at as u8)]);
		}
		let mut starts = Vec::new();
		for _ in 0..2 {
			next_round();
			let round = Pog::round();
			starts.push(round.started_at);
			let windows: Vec<(u64, u64, u64)> = miners
				.iter()
				.map(|m| {
					let p = params(*m, 0);
					(round.start_ms, p.deadline_ms, p.expected_ms)
				})
				.collect();
			let largest_expected = windows.iter().map(|w| w.2).max().unwrap();
			for a in &windows {
				for b in &windows {
					let overlap = a.1.min(b.1).saturating_sub(a.0.max(b.0));
					assert!(overlap >= largest_expected, "windows {a:?} and {b:?} overlap for {overlap} ms only");
				}
			}
			run_until(RoundPhase::Idle);
		}
		// Started by the chain inside each period's start window.
		assert!((27..=30).contains(&starts[0]), "round 1 at {}", starts[0]);
		assert!(starts[1] >= starts[0] + 27 && starts[1] <= starts[0] + 30, "round 2 at {}", starts[1]);
	});
}

#[test]
fn profiles_and_configuration_change_only_between_open_rounds() {
	new_test_ext().execute_with(|| {
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		next_round();
		let before = params(account("Miner1"), 0);
		let p = Profiles::<Test>::get(CPU_PROFILE).unwrap();
		let faster = changed(&p, |f| f.gflops = [4; 5]);
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster.clone()), Error::<Test>::RoundOpen);
		let shorter = ProtocolConfig { target_ms: 100, ..test_config() };
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), shorter), Error::<Test>::RoundOpen);
		run_until(RoundPhase::Reveal);
		assert_noop!(Pog::set_config(RuntimeOrigin::root(), shorter), Error::<Test>::RoundOpen);
		assert_eq!(params(account("Miner1"), 0), before, "the round's challenges did not move");
		run_until(RoundPhase::Idle);
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, faster));
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), shorter));
	});
}

#[test]
fn a_failure_gives_no_new_draw_before_the_next_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let r = next_round();
		let before = params(m, 0);
		// Fail fast (a corrupted root), then try every way of getting a new draw.
		let bad = compute(&before, Compute::Corrupt(100));
		assert_ok!(commit(m, &[(0, bad.root())]));
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(CPU_PROFILE, &[uuid(1)])]),
			hardware()
		));
		assert_eq!(Pog::round().index, r, "an update does not start or re-draw a round");
		assert_eq!(params(m, 0), before, "the same challenge");
		assert_noop!(commit(m, &[(0, [9; 32])]), Error::<Test>::AlreadyCommitted);
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(m)));
		assert!(Miners::<Test>::get(m).unwrap().leaving, "leaving waits for the round to be settled");
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &[uuid(1)])]), hardware()),
			Error::<Test>::AlreadyRegistered
		);
		run_until(RoundPhase::Idle);
		assert!(!Miners::<Test>::contains_key(m));
		register_cpu_miner(m, &[uuid(1)]);
		assert_eq!(Miners::<Test>::get(m).unwrap().first_round, r + 1, "re-registering waits for the next round");
		try_state();
	});
}

#[test]
fn each_gpu_has_its_own_deadline() {
	new_test_ext().execute_with(|| {
		let mainnet = ProtocolConfig::mainnet();
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 2, ..mainnet }));
		let m = account("Miner1");
		assert_ok!(Pog::register_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(H100_PROFILE, &[uuid(1)]), claim(CPU_PROFILE, &[uuid(2)])]),
			hardware()
		));
		run_until(RoundPhase::Commit);
		let start = Pog::round().start_ms;
		let h100 = params(m, 0);
		let memory = h100.memory.expect("the H100 has measured memory rates");
		let memory_own = sizing::allowed_ms(memory.challenge.expected_ms, 10, 30_000);
		assert_eq!(memory.deadline_ms - start, memory_own);
		assert!((95_000..110_000).contains(&memory_own), "≈ 101 s of memory phase on mainnet: {memory_own}");
		let own = sizing::allowed_ms(h100.expected_ms, 15, 30_000);
		assert_eq!(h100.deadline_ms - memory.deadline_ms, own - 30_000, "one clock, one slack for both phases");
		assert!((160_000..180_000).contains(&own), "≈ 171 s on mainnet, not 270 s: {own}");
		let cpu = params(m, 1);
		assert!(cpu.deadline_ms - start > 250_000, "the cpu-reference claim keeps its own, longer window");
		assert!(
			Pog::round().commit_close_ms >= cpu.deadline_ms,
			"the commit window is the longest deadline of any profile"
		);
	});
}

/// One clock (§6), at mainnet settings and the profiles' own rates: what an H100 has left beside
/// its own memory phase and GEMM (its GEMM deadline less both phases' expected times, less a
/// block to see the start and one to land its root) holds no A100-80 or L40S claim in any
/// precision, computed at the H100's own rate in that precision. Sized like a memory profile's
/// GEMM (120 s), an A100-80's took an H100 38 s of those 51 s.
#[test]
fn an_h100_has_no_time_left_for_an_a100_or_an_l40s_claim() {
	new_test_ext().execute_with(|| {
		let config = ProtocolConfig::mainnet();
		let h100 = Profiles::<Test>::get(H100_PROFILE).unwrap().figures;
		let challenged =
			|p: &ProfileFigures| Precision::CHALLENGED.into_iter().filter(|q| p.challenged_in(*q)).collect::<Vec<_>>();
		for own in challenged(&h100) {
			let t = Pog::timing_of(&h100, own, &config, &[0; 32]);
			let (memory, _) = t.memory.expect("the H100 has a memory phase");
			let spare = t.deadline_ms - memory.expected_ms - t.expected_ms - 2 * BLOCK_MS;
			assert!((45_000..60_000).contains(&spare), "≈ 51 s: {spare}");
			for (id, name) in [(2, "NVIDIA A100-SXM4-80GB"), (4, "NVIDIA L40S")] {
				let Profile { name: other_name, figures: other } = Profiles::<Test>::get(id).unwrap();
				assert_eq!(other_name.as_slice(), name.as_bytes());
				assert!(!other.memory_measured());
				for q in challenged(&other) {
					let o = Pog::timing_of(&other, q, &config, &[0; 32]);
					let on_h100_ms = o.dims.flops() / (u128::from(h100.priced_gflops(q)) * 1_000_000);
					assert!(on_h100_ms > u128::from(spare), "{name} {q:?} takes an H100 {on_h100_ms} ms of {spare}");
				}
			}
		}
	});
}

#[test]
fn a_root_copied_from_another_miner_cannot_fail_that_miner() {
	let mut env = env(&[]);
	env.ext.execute_with(|| {
		let (thief, victim) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(thief, &[uuid(1)]);
		register_cpu_miner(victim, &[uuid(2)]);
		next_round();
		let honest = compute(&params(victim, 0), Compute::Honest);
		// The thief lands the victim's root first.
		assert_ok!(commit(thief, &[(0, honest.root())]));
		assert_ok!(commit(victim, &[(0, honest.root())]));
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(victim, 0, &honest));
		// The thief can open the copied tree, but its entries are not its own A·B.
		assert_ok!(reveal(thief, 0, &honest));
		for who in [victim, thief] {
			for v in committee(who, 0) {
				assert_ok!(verdict_by(v, who, 0, 3));
			}
		}
		run_until(RoundPhase::Idle);
		assert_eq!(settled(victim), vec![RoundOutcome::Passed]);
		assert_eq!(settled(thief), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		try_state();
	});
}

#[test]
fn an_honest_miner_is_verified_credited_scored_and_weighted() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let r = next_round();
		assert!(events().iter().any(|e| matches!(e, Event::RoundStarted { round, .. } if *round == r)));
		let results = answer(m, Compute::Honest);
		run_until(RoundPhase::Reveal);
		for (g, res) in results.iter().enumerate() {
			assert_ok!(reveal(m, g as u32, res));
		}
		// The validators' off-chain workers verify and vote.
		let sent = run_ocw_and_include(&pool);
		assert_eq!(verdicts_in(&sent), 6, "each GPU's committee of three voted: {sent:?}");
		assert_eq!(sent.len(), 3, "one transaction a validator");
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		assert!(offchain::sent_marks() > 0);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed, RoundOutcome::Passed]);
		let s = standing(m);
		let points = Profiles::<Test>::get(CPU_PROFILE).unwrap().figures.points();
		assert_eq!(points, 2, "cpu-reference: 2 GFLOPS in every precision");
		assert!(s.iter().all(|g| g.credited() && g.points == points && g.verified_round == Some(r)));
		let score = Scores::<Test>::get(m).unwrap();
		assert_eq!(score.verified_gpus, 2);
		assert!(score.total > Perbill::zero());
		assert_eq!(WeightShares::<Test>::get().to_vec(), vec![(m, Perbill::one())]);
		assert_eq!(Epoch::<Test>::get(), r);
		let stats = ValidatorStats::<Test>::iter().map(|(_, s)| s).fold(0, |a, s| a + s.agreed);
		assert_eq!(stats, 6, "the whole set of three agreed on each of two GPUs");
		// The sent-marks entry is pruned: after the resend window it holds nothing old.
		run_blocks(u64::from(offchain::RESEND_AFTER) + 1);
		Pog::offchain_worker(System::block_number());
		assert_eq!(offchain::sent_marks(), 0, "sent-marks do not grow");
		try_state();
	});
}

#[test]
fn every_cheat_fails_is_slashed_and_earns_nothing() {
	new_test_ext().execute_with(|| {
		let [corrupt, lower, forged, late, silent] = ["Miner1", "Miner2", "Miner3", "Miner4", "Dave"].map(account);
		for (i, m) in [corrupt, lower, forged, late, silent].iter().enumerate() {
			register_cpu_miner(*m, &[uuid(i as u8 + 1)]);
		}
		next_round();
		let c = answer(corrupt, Compute::Corrupt(60));
		let l = answer(lower, Compute::LowerPrecision);
		let f = answer(forged, Compute::Honest);
		let _ = answer(silent, Compute::Honest);
		// The late miner's root lands after its deadline.
		let p = params(late, 0);
		while pallet_timestamp::Now::<Test>::get() <= p.deadline_ms {
			next_block();
		}
		assert_noop!(commit(late, &[(0, [1; 32])]), Error::<Test>::DeadlinePassed);
		run_until(RoundPhase::Reveal);
		assert_noop!(commit(corrupt, &[(0, [1; 32])]), Error::<Test>::DeadlinePassed);
		assert_ok!(reveal(corrupt, 0, &c[0]));
		assert_ok!(reveal(lower, 0, &l[0]));
		// Forged Merkle paths and wrong indices are refused on chain.
		let mut o = openings_for(forged, 0, &f[0]);
		o[0].proof[0][0] ^= 1;
		assert_noop!(
			Pog::reveal_openings(RuntimeOrigin::signed(forged), Pog::round().index, 0, o.clone(), Default::default()),
			Error::<Test>::InvalidProof
		);
		o = openings_for(forged, 0, &f[0]);
		o[0].leaf += 1;
		assert_noop!(
			Pog::reveal_openings(RuntimeOrigin::signed(forged), Pog::round().index, 0, o, Default::default()),
			Error::<Test>::WrongOpeningIndex
		);
		for who in [corrupt, lower] {
			for v in committee(who, 0) {
				assert_ok!(verdict_by(v, who, 0, 1));
			}
		}
		run_until(RoundPhase::Idle);
		let slash = Perbill::from_percent(50) * DepositPerGpu::get();
		for (who, why) in [
			(corrupt, FailReason::WrongResult),
			(lower, FailReason::WrongResult),
			(forged, FailReason::MissedReveal),
			(late, FailReason::MissedCommit),
			(silent, FailReason::MissedReveal),
		] {
			assert_eq!(settled(who), vec![RoundOutcome::Failed(why)], "{why:?}");
			assert_eq!(standing(who)[0].zero_reason, Some(ZeroReason::Failed(why)));
			assert_eq!(Miners::<Test>::get(who).unwrap().slashed, slash);
			assert_eq!(Scores::<Test>::get(who).unwrap_or_default().total, Perbill::zero());
		}
		try_state();
	});
}

#[test]
fn slashes_are_topped_up_or_suspend_and_leaving_waits_for_the_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let deposit = DepositBase::get() + 2 * DepositPerGpu::get();
		let issuance = Balances::total_issuance();
		// Round 1: both GPUs miss their commit.
		next_round();
		run_until(RoundPhase::Idle);
		let slash = 2 * (Perbill::from_percent(50) * DepositPerGpu::get());
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.slashed, slash);
		assert_eq!(info.deposit, deposit, "topped up from the free balance");
		assert_eq!(
			Balances::total_issuance(),
			issuance + pallet_pog_rewards::Emitted::<Test>::get() - slash,
			"slashes are burned"
		);
		assert!(events().iter().any(|e| matches!(e, Event::MinerSettled { slashed, .. } if *slashed == slash)));
		// Round 2: leaving during the round waits for its settlement, and its failures still cost.
		next_round();
		assert_ok!(Pog::deregister_miner(RuntimeOrigin::signed(m)));
		assert_noop!(Pog::deregister_miner(RuntimeOrigin::signed(m)), Error::<Test>::AlreadyLeaving);
		let hold = |who| Balances::balance_on_hold(&RuntimeHoldReason::Pog(crate::HoldReason::MinerDeposit), &who);
		assert_eq!(hold(m), deposit, "nothing released before the round is final");
		run_until(RoundPhase::Idle);
		assert!(!Miners::<Test>::contains_key(m));
		assert_eq!(hold(m), 0);
		assert!(events().iter().any(
			|e| matches!(e, Event::MinerDeregistered { miner, released } if *miner == m && *released == deposit - slash)
		));
		assert_eq!(Balances::free_balance(m), FUNDS - RegistrationFee::get() - 2 * slash);

		// A miner that cannot top up is suspended until it holds the deposit again.
		let poor = account("Miner2");
		let need = DepositBase::get() + DepositPerGpu::get() + RegistrationFee::get();
		assert_ok!(Balances::force_set_balance(RuntimeOrigin::root(), poor, need + 1));
		register_cpu_miner(poor, &[uuid(3)]);
		next_round();
		run_until(RoundPhase::Idle);
		let info = Miners::<Test>::get(poor).unwrap();
		assert_eq!(info.first_round, NEVER);
		assert_eq!(standing(poor)[0].zero_reason, Some(ZeroReason::DepositShort));
		let r = next_round();
		assert!(Pog::challenges_of(&poor).is_empty(), "a suspended miner is not challenged");
		assert_noop!(
			Pog::update_miner(RuntimeOrigin::signed(poor), claims(vec![claim(CPU_PROFILE, &[uuid(3)])]), hardware()),
			Error::<Test>::InsufficientDeposit
		);
		assert_ok!(Balances::force_set_balance(RuntimeOrigin::root(), poor, 1_000));
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(poor),
			claims(vec![claim(CPU_PROFILE, &[uuid(3)])]),
			hardware()
		));
		assert_eq!(Miners::<Test>::get(poor).unwrap().first_round, r + 1);
		try_state();
	});
}

#[test]
fn an_update_during_a_round_applies_once_it_is_settled() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		play_round(&[(m, Compute::Honest)]);
		assert!(standing(m)[0].credited());
		next_round();
		let results = answer(m, Compute::Honest);
		// Add a GPU mid-round: the increase is held now, the claims change after settlement.
		assert_ok!(Pog::update_miner(
			RuntimeOrigin::signed(m),
			claims(vec![claim(CPU_PROFILE, &[uuid(1), uuid(2)])]),
			hardware()
		));
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.gpu_count(), 1);
		assert_eq!(info.deposit, DepositBase::get() + 2 * DepositPerGpu::get());
		assert!(info.pending.is_some());
		run_until(RoundPhase::Reveal);
		assert_ok!(reveal(m, 0, &results[0]));
		for v in committee(m, 0) {
			assert_ok!(verdict_by(v, m, 0, 2));
		}
		run_until(RoundPhase::Idle);
		let info = Miners::<Test>::get(m).unwrap();
		assert_eq!(info.gpu_count(), 2);
		let s = standing(m);
		assert!(s[0].credited(), "the unchanged GPU keeps its credit");
		assert_eq!(s[1].zero_reason, Some(ZeroReason::WaitingForRound));
		try_state();
	});
}

/// Registering ahead of the settlement cursor cannot hold a round open (the review of the
/// validator set's move): a miner registered during settlement, with a key ground to sort after
/// the cursor, takes part from the next round and is passed over, so more arrivals a block than
/// a batch still let the round finish on time, each miner of the round settled once.
#[test]
fn registrations_ahead_of_the_settlement_cursor_do_not_hold_the_round_open() {
	new_test_ext().execute_with(|| {
		let budget = test_config().settle_per_block;
		let donors = funded();
		let fund = |m: AccountId, i: usize| {
			let donor = RuntimeOrigin::signed(donors[i % donors.len()]);
			assert_ok!(Balances::transfer_keep_alive(donor, m, FUNDS / 8));
		};
		let taking_part = 3 * budget;
		for i in 0..taking_part {
			let m = account(&format!("Settled{i}"));
			fund(m, i as usize);
			register_cpu_miner(m, &[uuid(i as u8 + 1)]);
		}
		let round = next_round();
		run_until(RoundPhase::Settle);
		let (mut blocks, mut arrivals, mut seed) = (0u32, Vec::new(), 0u32);
		let mut settled = None;
		while phase() == RoundPhase::Settle {
			assert!(blocks <= taking_part.div_ceil(budget) + 1, "the round is held open after {blocks} blocks");
			// more arrivals than a batch, every one sorting after the cursor
			let cursor = Pog::round().settle_cursor.map(Miners::<Test>::hashed_key_for).unwrap_or_default();
			for _ in 0..budget + 2 {
				let m = loop {
					seed += 1;
					let mut raw = [7u8; 32];
					raw[..4].copy_from_slice(&seed.to_le_bytes());
					let m = AccountId::from_raw(raw);
					if Miners::<Test>::hashed_key_for(m) > cursor {
						break m;
					}
				};
				fund(m, arrivals.len());
				register_cpu_miner(m, &[uuid(100 + arrivals.len() as u8)]);
				arrivals.push(m);
			}
			next_block();
			try_state();
			blocks += 1;
			settled = settled.or(events().iter().find_map(|e| match e {
				Event::RoundSettled { round: r, miners } if *r == round => Some(*miners),
				_ => None,
			}));
		}
		assert_eq!(settled, Some(taking_part), "every miner of the round settled once, no arrival");
		for m in &arrivals {
			let info = Miners::<Test>::get(m).expect("registered");
			assert_eq!(
				(info.first_round, info.settled_round),
				(round + 1, 0),
				"an arrival takes part from the next round"
			);
		}
	});
}

/// The block that finishes a round also recomputes the shares, mints the pay and judges the
/// validators, so it settles at most `finishing_batch` miners and weighs no more than a full
/// batch: a short last batch above that settles over two blocks, each miner once, and the round
/// finishes in the second.
#[test]
fn a_last_batch_too_heavy_to_finish_with_settles_over_two_blocks_each_miner_once() {
	new_test_ext().execute_with(|| {
		let max = <<Test as Config>::MaxMiners as frame_support::traits::Get<u32>>::get();
		// the smallest batch whose finishing block holds fewer than all but one of it
		let batch = (2..=max).find(|b| Pog::finishing_batch(*b) + 1 < *b).expect("a batch the finishing work crowds");
		let room = Pog::finishing_batch(batch);
		let full = Pog::settle_weight(batch, None).ref_time();
		assert!(Pog::settle_weight(room, Some(max)).ref_time() <= full, "the finishing block weighs a batch at most");
		assert!(Pog::settle_weight(room + 1, Some(max)).ref_time() > full, "and settles as many as fit");
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { settle_per_block: batch, ..test_config() }));
		// a short batch: fewer miners than `batch`, more than the finishing block holds
		let n = room + 1;
		let donors = funded();
		for i in 0..n {
			let m = account(&format!("Short{i}"));
			let donor = RuntimeOrigin::signed(donors[i as usize % donors.len()]);
			assert_ok!(Balances::transfer_keep_alive(donor, m, FUNDS / 8));
			register_cpu_miner(m, &[uuid(i as u8 + 1)]);
		}
		next_round();
		run_until(RoundPhase::Settle);
		let (mut blocks, mut settled) = (0, None);
		while phase() == RoundPhase::Settle {
			assert!(blocks < 3, "settled within two blocks");
			next_block();
			try_state();
			blocks += 1;
			settled = settled.or(events().iter().find_map(|e| match e {
				Event::RoundSettled { miners, .. } => Some(*miners),
				_ => None,
			}));
		}
		assert_eq!(settled, Some(n), "every miner settled once, the round finished");
		assert_eq!(blocks, 2, "{room} miners, then the last with the round's finishing work");
	});
}
