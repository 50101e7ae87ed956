//! Randomised call sequences keep the invariants.

use super::*;

/// The seeds `random_call_sequences_keep_the_invariants` plays: `POG_TEST_SEEDS` as `a..b` (b
/// excluded) or one seed, by default 1..9. `scripts/invariants-sweep.sh` runs a thousand.
fn seeds() -> std::ops::Range<u64> {
	let spec = std::env::var("POG_TEST_SEEDS").unwrap_or_default();
	let parse = |s: &str| s.trim().parse::<u64>().ok();
	match spec.split_once("..") {
		Some((a, b)) => match (parse(a), parse(b)) {
			(Some(a), Some(b)) if a < b => a..b,
			_ => panic!("POG_TEST_SEEDS={spec}: write a range a..b with a < b, or one seed"),
		},
		None if spec.is_empty() => 1..9,
		None => parse(&spec).map(|a| a..a + 1).unwrap_or_else(|| panic!("POG_TEST_SEEDS={spec}: not a seed")),
	}
}

/// Runs `call`; a call that fails must leave the state as it found it.
fn checked(what: &str, call: impl FnOnce() -> DispatchResultOf) -> DispatchResultOf {
	let before = sp_io::storage::root(sp_runtime::StateVersion::V1);
	let outcome = call();
	if outcome.is_err() {
		assert_eq!(before, sp_io::storage::root(sp_runtime::StateVersion::V1), "a failed {what} changed state");
	}
	outcome
}

/// Whether `who`'s GPU `gpu` committed, in round `index`, the root of the result computed for it.
fn own_root_committed(
	results: &std::collections::BTreeMap<(AccountId, GpuIndex), CommittedMatrix>,
	index: RoundIndex,
	who: &AccountId,
	gpu: GpuIndex,
) -> bool {
	let root = |c: &Option<crate::rounds::Commitment>| c.as_ref().map(|c| c.root);
	Commitments::<Test>::get(index, who)
		.is_some_and(|s| s.get(gpu as usize).and_then(root) == results.get(&(*who, gpu)).map(|r| r.root()))
}

/// One step of the protocol played as honest participants play it, in whatever phase the round
/// is: every taking-part miner commits each GPU not committed yet (three in ten corruptly, so
/// that failures and slashes come too), every selected GPU with a root of its own is revealed,
/// and every committee member votes on every revealed GPU as its worker would.
fn play_honestly(rng: &mut StdRng, results: &mut std::collections::BTreeMap<(AccountId, GpuIndex), CommittedMatrix>) {
	let index = Pog::round().index;
	match phase() {
		RoundPhase::Commit => {
			let part: Vec<(AccountId, u32)> = Miners::<Test>::iter()
				.filter(|(_, i)| i.takes_part_in(index))
				.map(|(w, i)| (w, i.gpu_count()))
				.collect();
			for (who, gpus) in part {
				let slots = Commitments::<Test>::get(index, who).unwrap_or_default();
				for g in (0..gpus).filter(|g| slots.get(*g as usize).is_none_or(|c| c.is_none())) {
					let how = if rng.random_bool(0.7) { Compute::Honest } else { Compute::Corrupt(60) };
					let r = compute(&params(who, g), how);
					if checked("commit", || commit(who, &[(g, r.root())])).is_ok() {
						results.insert((who, g), r);
					}
				}
			}
		},
		RoundPhase::Reveal => {
			let selection = Pog::round().selection.expect("drawn");
			let due: Vec<(AccountId, GpuIndex)> = results
				.keys()
				.filter(|(w, g)| {
					own_root_committed(results, index, w, *g)
						&& Pog::is_selected(&selection, index, w, *g)
						&& !Verifications::<Test>::contains_key((index, w, *g))
				})
				.copied()
				.collect();
			for (w, g) in due {
				let _ = checked("reveal", || reveal(w, g, &results[&(w, g)]));
			}
			let revealed: Vec<((AccountId, GpuIndex), VerificationOf<Test>)> =
				Verifications::<Test>::iter_prefix((index,)).collect();
			for ((w, g), v) in revealed {
				let Some((verdict, ..)) = offchain::verify_challenge::<Test>(index, &w, g, &[3; 32]) else { continue };
				for member in v.committee.iter().filter(|m| !v.votes.iter().any(|(x, _)| x == *m)) {
					let _ = checked("verdict", || {
						Pog::submit_verdict(RuntimeOrigin::signed(*member), index, w, g, verdict)
							.map(|_| ())
							.map_err(|e| e.error)
					});
				}
			}
		},
		_ => {},
	}
}

/// 400 random steps a seed: registrations, updates, departures, commits and reveals honest,
/// corrupt or made up, verdicts right or wrong, blocks; and three steps in thirteen, and about
/// half the blocks, played honestly by everyone ([`play_honestly`]), so that seeds reach passes
/// and failures for a wrong result.
/// After every step every `try_state` check holds, and a failed call changed nothing. Each seed
/// is deterministic: a seed that breaks an invariant fails the same way every run.
#[test]
fn random_call_sequences_keep_the_invariants() {
	let seeds = seeds();
	let count = seeds.end - seeds.start;
	// (seed, reached a pass, reached a wrong result) of each seed that missed one
	let missed: Vec<(u64, bool, bool)> = seeds
		.map(|seed| (seed, play_seed(seed)))
		.filter(|(_, r)| *r != (true, true))
		.map(|(s, (p, f))| (s, p, f))
		.collect();
	// The sequences explore the protocol, not only its refusals: at least 95% of the seeds reach
	// both a pass and a wrong result caught (a seed may miss one: its corrupt commits may all come
	// to nothing), all but one of a short run.
	let allowed = if count >= 20 { count / 20 } else { 1 };
	assert!(
		missed.len() as u64 <= allowed,
		"{} of {count} seeds reached no pass or no wrong result (seed, passed, failed): {missed:?}",
		missed.len()
	);
}

/// Plays seed `seed`; returns whether its sequence reached a pass and a failure.
fn play_seed(seed: u64) -> (bool, bool) {
	let mut rng = StdRng::seed_from_u64(seed);
	new_test_ext().execute_with(|| {
		// Challenges of 50 ms at the CPU profile's rates: the same rules at a tenth of the GEMM.
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { target_ms: 50, ..test_config() }));
		let miners: Vec<AccountId> =
			["Miner1", "Miner2", "Miner3", "Miner4", "Nobody"].iter().map(|n| account(n)).collect();
		let vals = validators();
		let mut results: std::collections::BTreeMap<(AccountId, GpuIndex), CommittedMatrix> = Default::default();
		let mut outcomes: Vec<RoundOutcome> = Vec::new();
		for step in 0..400 {
			let m = miners[rng.random_range(0..miners.len())];
			let gpu = rng.random_range(0..3u32);
			let before = sp_io::storage::root(sp_runtime::StateVersion::V1);
			let outcome: DispatchResultOf = match rng.random_range(0..13u8) {
				0 => {
					let list: Vec<GpuUuid> =
						(0..rng.random_range(0..4u8)).map(|_| uuid(rng.random_range(1..12))).collect();
					let c = if list.is_empty() { vec![] } else { vec![claim(CPU_PROFILE, &list)] };
					Pog::register_miner(RuntimeOrigin::signed(m), claims(c), hardware())
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
					let committed: Vec<(AccountId, GpuIndex)> =
						results.keys().filter(|(w, g)| own_root_committed(&results, index, w, *g)).copied().collect();
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
				10..=12 => {
					play_honestly(&mut rng, &mut results);
					Ok(())
				},
				_ => {
					// time passes, and the honest participants act in about half of its blocks
					for _ in 0..rng.random_range(1..4) {
						if rng.random_bool(0.5) {
							play_honestly(&mut rng, &mut results);
						}
						run_blocks(1);
					}
					Ok(())
				},
			};
			if outcome.is_err() {
				assert_eq!(
					before,
					sp_io::storage::root(sp_runtime::StateVersion::V1),
					"seed {seed}: a failed call changed state at step {step}"
				);
			}
			if let Err(e) = Pog::do_try_state().and_then(|()| PogRewards::do_try_state()) {
				panic!("seed {seed}, step {step}: {e:?}");
			}
			for e in events() {
				if let Event::MinerSettled { outcomes: o, .. } = e {
					outcomes.extend(o.iter().map(|(_, x)| *x));
				}
			}
			System::reset_events();
		}
		(outcomes.contains(&RoundOutcome::Passed), outcomes.contains(&RoundOutcome::Failed(FailReason::WrongResult)))
	})
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
fn a_validator_mining_under_its_own_account_is_not_on_its_gpus_committee_whatever_its_pog_key() {
	new_test_ext().execute_with(|| {
		let seed = [1u8; 32];
		let alice = account("Alice");
		// Alice's `pog!` key is a session key of its own: its account sits on committees, and
		// Alice mines under her validator account.
		let alice_pog = account("Alice//pog");
		let seats: alloc::vec::Vec<_> = pallet_pog_validators::Seated::<Test>::get()
			.into_iter()
			.map(|(v, m)| if v == alice { (v, alice_pog) } else { (v, m) })
			.collect();
		pallet_pog_validators::Seated::<Test>::put(frame_support::BoundedVec::truncate_from(seats));
		assert!(Pog::committee_pool().contains(&alice_pog), "Alice sits under her pog! account");
		for miner in [alice, alice_pog] {
			let committee = Pog::committee_for(&seed, &miner, 0);
			assert_eq!(committee.len(), 2, "the two other validators");
			assert!(!committee.contains(&alice_pog) && !committee.contains(&alice));
		}
		assert!(Pog::committee_for(&seed, &account("Miner1"), 0).contains(&alice_pog));
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
