//! Randomised call sequences keep the invariants.

use super::*;

#[test]
fn random_call_sequences_keep_the_invariants() {
	// The default seed is one whose 400 steps reach both passes and failures (asserted at the
	// end); other seeds are run with POG_TEST_SEED.
	let seed = std::env::var("POG_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(12u64);
	let mut rng = StdRng::seed_from_u64(seed);
	new_test_ext().execute_with(|| {
		let miners: Vec<AccountId> =
			["Miner1", "Miner2", "Miner3", "Miner4", "Nobody"].iter().map(|n| account(n)).collect();
		let vals = validators();
		let mut results: std::collections::BTreeMap<(AccountId, GpuIndex), CommittedMatrix> = Default::default();
		let mut outcomes: Vec<RoundOutcome> = Vec::new();
		for step in 0..400 {
			let m = miners[rng.random_range(0..miners.len())];
			let gpu = rng.random_range(0..3u32);
			let before = sp_io::storage::root(sp_runtime::StateVersion::V1);
			let outcome: DispatchResultOf = match rng.random_range(0..10u8) {
				0 => {
					let list: Vec<GpuUuid> =
						(0..rng.random_range(0..4u8)).map(|_| uuid(rng.random_range(1..12))).collect();
					let c = if list.is_empty() { vec![] } else { vec![claim(CPU_PROFILE, &list)] };
					Pog::register_miner(RuntimeOrigin::signed(m), claims(c), hardware())
						.map(|_| ())
						.map_err(|e| e.error)
				},
				1 => {
					let list: Vec<GpuUuid> = (1..=rng.random_range(1..4u8)).map(uuid).collect();
					Pog::update_miner(RuntimeOrigin::signed(m), claims(vec![claim(CPU_PROFILE, &list)]), hardware())
				},
				2 if rng.random_bool(0.3) => Pog::deregister_miner(RuntimeOrigin::signed(m)),
				2 | 3 => {
					// A participating miner commits one of its GPUs (honest or corrupt), or anyone
					// commits anything.
					let index = Pog::round().index;
					let part: Vec<(AccountId, u32)> = Miners::<Test>::iter()
						.filter(|(_, i)| i.takes_part_in(index))
						.map(|(w, i)| (w, i.gpu_count()))
						.collect();
					match part.get(rng.random_range(0..part.len().max(1))) {
						Some((who, gpus)) if phase() == RoundPhase::Commit && rng.random_bool(0.9) => {
							let g = rng.random_range(0..*gpus);
							let how = if rng.random_bool(0.7) { Compute::Honest } else { Compute::Corrupt(60) };
							let r = compute(&params(*who, g), how);
							let res = commit(*who, &[(g, r.root())]);
							if res.is_ok() {
								results.insert((*who, g), r);
							}
							res
						},
						_ => commit(m, &[(gpu, [step as u8; 32])]),
					}
				},
				4 => {
					// A committed miner reveals (if selected), or anyone reveals nothing.
					let index = Pog::round().index;
					let committed: Vec<(AccountId, GpuIndex)> = results
						.keys()
						.filter(|(w, g)| {
							Commitments::<Test>::get(index, w).is_some_and(|s| {
								s.get(*g as usize)
									.is_some_and(|c| c.as_ref().is_some_and(|c| c.root == results[&(*w, *g)].root()))
							})
						})
						.copied()
						.collect();
					match committed.get(rng.random_range(0..committed.len().max(1))) {
						Some((w, g)) if phase() == RoundPhase::Reveal && rng.random_bool(0.9) => {
							reveal(*w, *g, &results[&(*w, *g)])
						},
						_ => Pog::reveal_openings(
							RuntimeOrigin::signed(m),
							index,
							gpu,
							Default::default(),
							Default::default(),
						)
						.map(|_| ())
						.map_err(|e| e.error),
					}
				},
				5 | 6 => {
					let index = Pog::round().index;
					let revealed: Vec<((AccountId, GpuIndex), Vec<AccountId>)> =
						Verifications::<Test>::iter_prefix((index,)).map(|(k, v)| (k, v.committee.to_vec())).collect();
					let v = vals[rng.random_range(0..vals.len())];
					match revealed.get(rng.random_range(0..revealed.len().max(1))) {
						Some(((w, g), members)) if rng.random_bool(0.9) => {
							let voter = members[rng.random_range(0..members.len())];
							let verdict = offchain::verify_challenge::<Test>(index, w, *g, &[step as u8; 32])
								.map_or(false_verdict(true, None), |(v, ..)| v);
							Pog::submit_verdict(RuntimeOrigin::signed(voter), index, *w, *g, verdict)
								.map(|_| ())
								.map_err(|e| e.error)
						},
						_ => Pog::submit_verdict(RuntimeOrigin::signed(v), index, m, gpu, false_verdict(true, None))
							.map(|_| ())
							.map_err(|e| e.error),
					}
				},
				_ => {
					run_blocks(rng.random_range(1..4));
					Ok(())
				},
			};
			if outcome.is_err() {
				assert_eq!(
					before,
					sp_io::storage::root(sp_runtime::StateVersion::V1),
					"a failed call changed state at step {step}"
				);
			}
			try_state();
			for e in events() {
				if let Event::MinerSettled { outcomes: o, .. } = e {
					outcomes.extend(o.iter().map(|(_, x)| *x));
				}
			}
			System::reset_events();
		}
		assert!(outcomes.contains(&RoundOutcome::Passed), "the sequence reached passes: {outcomes:?}");
		assert!(outcomes.iter().any(|o| matches!(o, RoundOutcome::Failed(_))), "and failures: {outcomes:?}");
	});
}

#[test]
fn the_validator_count_bounds_committees() {
	new_test_ext().execute_with(|| {
		let seed = [1u8; 32];
		// A validator never sits on its own GPUs' committee.
		let alice = account("Alice");
		assert!(!Pog::committee_for(&seed, &alice, 0).contains(&alice));
		// Three validators vote as a whole (at most seven do), the miner's own account excepted.
		assert_eq!(Pog::committee_for(&seed, &alice, 0).len(), 2);
		assert_eq!(Pog::committee_for(&seed, &account("Miner1"), 0).len(), 3);
	});
}

#[test]
fn duties_are_first_while_owed_and_refused_once_not() {
	use crate::duty::DUTY_PRIORITY;
	let check = check_duty;
	let refused = refused_in_pool;
	new_test_ext().execute_with(|| {
		let (m, stranger) = (account("Miner1"), account("Miner2"));
		register_cpu_miner(m, &[uuid(1), uuid(2)]);
		let roots = |gpus: &[GpuIndex]| -> RootsOf<Test> {
			gpus.iter()
				.map(|g| RootCommit { gpu: *g, root: [1; 32], report: Default::default() })
				.collect::<Vec<_>>()
				.try_into()
				.unwrap()
		};
		// Idle: nothing to commit yet.
		assert_eq!(check(m, Call::commit_roots { round: 1, roots: roots(&[0]) }), refused(Error::WrongRound));
		next_round();
		let index = Pog::round().index;
		let valid = check(m, Call::commit_roots { round: index, roots: roots(&[0, 1]) }).expect("a commit is due");
		assert_eq!(valid.priority, DUTY_PRIORITY);
		assert_eq!(valid.provides.len(), 2, "one pool tag per GPU");
		assert_eq!(
			check(stranger, Call::commit_roots { round: index, roots: roots(&[0]) }),
			refused(Error::NotRegistered)
		);
		let r = answer(m, Compute::Honest);
		assert_eq!(check(m, Call::commit_roots { round: index, roots: roots(&[1]) }), refused(Error::AlreadyCommitted));

		run_until(RoundPhase::Reveal);
		assert_eq!(check(m, Call::commit_roots { round: index, roots: roots(&[0]) }), refused(Error::DeadlinePassed));
		let openings = openings_for(m, 0, &r[0]);
		assert!(check(
			m,
			Call::reveal_openings { round: index, gpu: 0, openings: openings.clone(), walks: Default::default() }
		)
		.is_ok());
		assert_eq!(
			check(
				stranger,
				Call::reveal_openings { round: index, gpu: 0, openings: openings.clone(), walks: Default::default() }
			),
			refused(Error::NotCommitted)
		);
		assert_ok!(reveal(m, 0, &r[0]));
		assert_eq!(
			check(m, Call::reveal_openings { round: index, gpu: 0, openings, walks: Default::default() }),
			refused(Error::AlreadyRevealed)
		);

		let member = committee(m, 0)[0];
		let verdict = false_verdict(true, None);
		assert!(check(member, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }).is_ok());
		assert_eq!(
			check(stranger, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }),
			refused(Error::NotValidator)
		);
		assert_ok!(Pog::submit_verdict(RuntimeOrigin::signed(member), index, m, 0, verdict));
		assert_eq!(
			check(member, Call::submit_verdict { round: index, miner: m, gpu: 0, verdict }),
			refused(Error::AlreadyVoted)
		);

		// Not a duty: no priority, no refusal.
		let other = check(stranger, Call::deregister_miner {}).expect("not a duty");
		assert_eq!(other.priority, 0);
	});
}
