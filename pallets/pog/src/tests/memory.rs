//! The memory-hard phase: memory roots, walks and their checks.

use super::*;
use pog_primitives::{lanes, memory};

/// The seeds of a round's challenge, read through the runtime API's view (what the agent decodes
/// into the same `pog_primitives::challenge::ChallengeParams`) and through the pallet's own
/// parameters, are the primitives' derivations: the GPU's seed from the round seed, the miner,
/// the GPU and its UUID; the memory phase's from the GPU's; A and B's from the GPU's and the
/// committed memory root.
#[test]
fn a_challenges_seeds_are_derived_once_and_read_the_same_by_the_chain_and_the_agent() {
	use codec::{Decode, Encode};
	use pog_primitives::{challenge::gpu_seed, memory};
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		let r = next_round();
		let p = params(m, 0);
		let round_seed = Pog::round().seed;
		assert_eq!(p.seed, gpu_seed(&round_seed, &m, 0, &uuid(1)));
		let phase = p.memory_challenge().expect("cpu-memory has a memory phase");
		assert_eq!(phase.spec.seed, memory::memory_seed(&p.seed));
		let levels = memory_levels(&p, Memory::Honest);
		assert_ok!(commit_memory(m, &[(0, root_of(&levels))]));
		// What the agent reads: the runtime API's view, decoded as the primitives' type.
		let view = Pog::challenge_view(r, m, 0).expect("a challenge");
		let bytes = view.params.encode();
		let agent = pog_primitives::challenge::ChallengeParams::decode(&mut &bytes[..]).expect("the same layout");
		let root = root_of(&levels);
		assert_eq!(agent.spec(Some(&root)), params(m, 0).spec(Some(&root)));
		assert_eq!(agent.spec(Some(&root)).seed, memory::gemm_seed(&p.seed, &root));
		assert_eq!(agent.memory_challenge(), Some(phase));
	});
}

#[test]
fn a_gpu_with_a_memory_phase_proves_its_memory_then_its_gemm_and_scores_both() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		let r = next_round();
		let p = params(m, 0);
		let memory = p.memory.expect("cpu-memory has measured memory rates");
		let phase = memory.challenge;
		assert!(
			phase.walks >= 24_000 && phase.walks.is_multiple_of(1024),
			"8 M reads a second for 200 ms: {}",
			phase.walks
		);
		assert_eq!(memory.deadline_ms - Pog::round().start_ms, sizing::allowed_ms(phase.expected_ms, 50, 12_000));
		assert!(params(account("Miner1"), 0).memory.is_some());

		// The GEMM cannot be committed first: its seed follows the memory root.
		assert_eq!(commit(m, &[(0, [1; 32])]), Err(Error::<Test>::MemoryNotCommitted.into()));
		let levels = memory_levels(&p, Memory::Honest);
		let root = root_of(&levels);
		next_block();
		assert_ok!(commit_memory(m, &[(0, root)]));
		assert!(events().iter().any(
			|e| matches!(e, Event::MemoryCommitted { round, gpus, .. } if *round == r && gpus.to_vec() == vec![0])
		));
		assert_eq!(commit_memory(m, &[(0, root)]), Err(Error::<Test>::AlreadyCommitted.into()));
		let p = params(m, 0);
		assert_eq!(
			p.deadline_ms,
			memory.deadline_ms - 12_000 + sizing::allowed_ms(p.expected_ms, 50, 12_000),
			"one clock: the memory phase's allowed time less its slack, then the GEMM's"
		);
		assert_ne!(p.spec(Some(&root)).seed, p.spec(None).seed, "A and B follow the memory root");
		let gemm = CommittedMatrix::new(cpu::gemm(&p.spec(Some(&root))));
		assert_ok!(commit(m, &[(0, gemm.root())]));
		assert_eq!(Commitments::<Test>::get(r, m).unwrap()[0].as_ref().unwrap().memory_root, Some(root));

		run_until(RoundPhase::Reveal);
		let view = Pog::challenge_view(r, m, 0).unwrap();
		assert_eq!(view.walks.len(), 16, "the dev rules open 16 walks");
		assert_eq!(view.memory_commitment.map(|c| c.root), Some(root));
		// Leaves alone are not a reveal: the sampled walks come with them.
		assert_eq!(reveal(m, 0, &gemm), Err(Error::<Test>::WrongWalkCount.into()));
		assert_ok!(reveal_with_walks(m, 0, &gemm, walk_openings(m, 0, &levels)));
		assert_eq!(WalkResults::<Test>::get((r, m, 0)).unwrap().len(), 16);

		let sent = run_ocw_and_include(&pool);
		assert!(sent.len() >= 2 && sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let walks_checked: Vec<u32> = events()
			.iter()
			.filter_map(|e| match e {
				Event::VerdictSubmitted { verdict, .. } => Some(verdict.reported.walks_checked),
				_ => None,
			})
			.collect();
		assert_eq!(
			walks_checked,
			vec![16, 16, 16],
			"each member (the whole set of three) recomputed every opened walk"
		);
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Passed]);
		let profile = Profiles::<Test>::get(CPU_MEMORY_PROFILE).unwrap().figures;
		let compute = pog_primitives::pricing::compute_points(&profile.gflops, profile.int8_gops);
		assert_eq!(standing(m)[0].points, compute + 3 * profile.vram_mib, "compute and memory points");
		assert!(WalkResults::<Test>::get((r, m, 0)).is_none(), "dropped once settled");
		try_state();
	});
}

#[test]
fn made_up_walks_and_a_gemm_that_skips_the_memory_root_are_caught() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let (honest, made_up, skipper) = (account("Miner1"), account("Miner2"), account("Miner3"));
		register_memory_miner(honest, &[uuid(1)]);
		register_memory_miner(made_up, &[uuid(2)]);
		register_memory_miner(skipper, &[uuid(3)]);
		let r = next_round();
		let answers = [
			(honest, answer_memory(honest, Memory::Honest, true)),
			(made_up, answer_memory(made_up, Memory::MadeUp, true)),
			(skipper, answer_memory(skipper, Memory::Honest, false)),
		];
		run_until(RoundPhase::Reveal);
		for (m, a) in &answers {
			// The made-up walks' paths lead to their root: only recomputing them shows the lie.
			assert_ok!(reveal_with_walks(*m, 0, &a[0].0, walk_openings(*m, 0, &a[0].1)));
		}
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		let named_walk = events().iter().any(|e| {
			matches!(e, Event::VerdictSubmitted { miner, verdict, .. }
				if *miner == made_up && !verdict.passed && verdict.failed_walk.is_some())
		});
		assert!(named_walk, "the committee names a wrong walk");
		run_until(RoundPhase::Idle);
		assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
		assert_eq!(settled(made_up), vec![RoundOutcome::Failed(FailReason::WrongWalk)]);
		assert_eq!(settled(skipper), vec![RoundOutcome::Failed(FailReason::WrongResult)]);
		assert_eq!(standing(made_up)[0].zero_reason, Some(ZeroReason::Failed(FailReason::WrongWalk)));
		assert_eq!(Scores::<Test>::get(made_up).unwrap_or_default().total, Perbill::zero());
		assert!(Miners::<Test>::get(made_up).unwrap().slashed > 0, "slashed");
		let _ = r;
		try_state();
	});
}

#[test]
fn walk_openings_and_memory_commits_are_checked_on_chain() {
	new_test_ext().execute_with(|| {
		let (m, plain) = (account("Miner1"), account("Miner2"));
		register_memory_miner(m, &[uuid(1)]);
		register_cpu_miner(plain, &[uuid(2)]);
		let r = next_round();
		// A GPU whose profile has no measured memory rates has no memory phase.
		assert!(params(plain, 0).memory.is_none());
		assert_eq!(commit_memory(plain, &[(0, [1; 32])]), Err(Error::<Test>::NoMemoryPhase.into()));
		assert_eq!(commit_memory(m, &[(5, [1; 32])]), Err(Error::<Test>::UnknownGpu.into()));
		let plain_c = answer(plain, Compute::Honest);
		let a = answer_memory(m, Memory::Honest, true);
		let (gemm, levels) = &a[0];
		run_until(RoundPhase::Reveal);
		let honest = walk_openings(m, 0, levels);

		let mut fewer = honest.clone();
		fewer.pop();
		assert_eq!(reveal_with_walks(m, 0, gemm, fewer), Err(Error::<Test>::WrongWalkCount.into()));
		let mut swapped = honest.clone();
		swapped.swap(0, 1);
		assert_eq!(reveal_with_walks(m, 0, gemm, swapped), Err(Error::<Test>::WrongWalkIndex.into()));
		let mut wrong_result = honest.clone();
		wrong_result[3].result[0] ^= 1;
		assert_eq!(reveal_with_walks(m, 0, gemm, wrong_result), Err(Error::<Test>::InvalidWalkProof.into()));
		let mut short_path = honest.clone();
		short_path[2].proof.pop();
		assert_eq!(reveal_with_walks(m, 0, gemm, short_path), Err(Error::<Test>::InvalidWalkProof.into()));
		// A GPU without a memory phase reveals no walks.
		assert_eq!(reveal_with_walks(plain, 0, &plain_c[0], honest.clone()), Err(Error::<Test>::WrongWalkCount.into()));
		assert_ok!(reveal(plain, 0, &plain_c[0]));
		assert_ok!(reveal_with_walks(m, 0, gemm, honest));
		assert!(Verifications::<Test>::contains_key((r, m, 0)));
		try_state();
	});
}

/// One clock (§6): a memory root held back to the memory deadline buys no GEMM time, and one
/// committed at once loses none. (Before, the GEMM's deadline counted from the memory root's
/// block, so a miner that finished its walks early and held the root back had its GEMM window
/// stretched by the memory phase's tolerance and slack: an H100's 171 s became 207 s.)
#[test]
fn a_memory_root_held_back_to_its_deadline_does_not_move_the_gemm_deadline() {
	new_test_ext().execute_with(|| {
		let (prompt, late) = (account("Miner1"), account("Miner2"));
		register_memory_miner(prompt, &[uuid(1)]);
		register_memory_miner(late, &[uuid(2)]);
		let r = next_round();
		let start = Pog::round().start_ms;
		let (p, q) = (params(prompt, 0), params(late, 0));
		let memory = q.memory.unwrap();
		let rule = memory.deadline_ms - 12_000 + sizing::allowed_ms(q.expected_ms, 50, 12_000);
		assert_eq!((p.deadline_ms, q.deadline_ms), (rule, rule), "the same profile, the same end");

		next_block();
		let prompt_root = root_of(&memory_levels(&p, Memory::Honest));
		assert_ok!(commit_memory(prompt, &[(0, prompt_root)]));
		let late_root = root_of(&memory_levels(&q, Memory::Honest));
		while Pog::now_ms() + BLOCK_MS <= memory.deadline_ms {
			next_block();
		}
		assert_ok!(commit_memory(late, &[(0, late_root)]));
		let landed = Pog::memory_commitment(r, &late, 0).unwrap().committed_ms;
		assert!(
			landed + BLOCK_MS > memory.deadline_ms && landed > start + BLOCK_MS,
			"in the last block before its deadline"
		);
		assert_eq!(params(prompt, 0).deadline_ms, rule, "committing at once costs no GEMM time");
		assert_eq!(params(late, 0).deadline_ms, rule, "holding the root back buys none");

		// Past the rule the late miner's GEMM root is refused, however late its memory root was.
		while Pog::now_ms() + BLOCK_MS <= rule {
			next_block();
		}
		stamp(rule + 1);
		assert_eq!(Pog::round().phase, RoundPhase::Commit);
		assert_eq!(commit(late, &[(0, [1; 32])]), Err(Error::<Test>::DeadlinePassed.into()));
		try_state();
	});
}

#[test]
fn a_late_memory_root_is_refused_and_misses_the_round() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_memory_miner(m, &[uuid(1)]);
		next_round();
		let memory = params(m, 0).memory.unwrap();
		while Pog::now_ms() + BLOCK_MS <= memory.deadline_ms {
			next_block();
		}
		stamp(memory.deadline_ms + 1);
		assert_eq!(Pog::round().phase, RoundPhase::Commit, "the commit window is still open for the GEMM");
		assert_eq!(commit_memory(m, &[(0, [1; 32])]), Err(Error::<Test>::DeadlinePassed.into()));
		assert_eq!(commit(m, &[(0, [1; 32])]), Err(Error::<Test>::MemoryNotCommitted.into()));
		run_until(RoundPhase::Idle);
		assert_eq!(settled(m), vec![RoundOutcome::Failed(FailReason::MissedCommit)]);
		try_state();
	});
}

#[test]
fn an_old_rounds_memory_roots_and_walk_results_are_pruned() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let slot = MemoryCommitment { root: [1; 32], committed_ms: 6_000 };
		MemoryCommitments::<Test>::insert(1, m, frame_support::BoundedVec::truncate_from(vec![Some(slot)]));
		WalkResults::<Test>::insert(
			(1, m, 0),
			frame_support::BoundedVec::truncate_from(vec![(7u64, [2u8; 32], [0u8; 32])]),
		);
		MemoryCommitments::<Test>::insert(2, m, frame_support::BoundedVec::truncate_from(vec![Some(slot)]));
		PruneRound::<Test>::put(1);
		Pog::on_idle(System::block_number(), frame_support::weights::Weight::MAX);
		assert!(!MemoryCommitments::<Test>::contains_key(1, m), "round 1's memory roots pruned");
		assert!(WalkResults::<Test>::get((1, m, 0)).is_none(), "round 1's walk results pruned");
		assert!(MemoryCommitments::<Test>::contains_key(2, m), "a newer round kept");
		assert!(PruneRound::<Test>::get().is_none(), "done");
	});
}

/// A per-core unit's memory phase is a lane a declared core (issue 27): the chain sizes it from
/// the cores, stores each opened link's parents from its path, and the committee runs each link
/// from them. Links run all at once from made-up parents (a GPU hiding its memory latency behind
/// parallel threads) fail `WrongWalk`; the honest lanes pass.
#[test]
fn a_cpu_units_lanes_are_checked_link_by_link_from_their_paths() {
	let mut e = env(&["Alice", "Bob", "Charlie"]);
	let pool = e.pool.clone();
	e.ext.execute_with(|| {
		let (honest, parallel) = (account("Miner1"), account("Miner2"));
		register_lanes_miner(honest, uuid(1));
		register_lanes_miner(parallel, uuid(2));
		let r = next_round();
		let phase = params(honest, 0).memory_challenge().expect("a lane phase");
		let cores = hardware().cpu_cores;
		assert_eq!((phase.spec.lanes, phase.walks), (cores, u64::from(cores) * 64), "a lane a core, 64 links each");
		let answers = [
			(honest, answer_memory(honest, Memory::Honest, true)),
			(parallel, answer_memory(parallel, Memory::OutOfOrder, true)),
		];
		run_until(RoundPhase::Reveal);
		for (m, a) in &answers {
			assert_ok!(reveal_with_walks(*m, 0, &a[0].0, walk_openings(*m, 0, &a[0].1)));
		}
		// each opened link is stored with its parents' digest, from its path
		let stored = WalkResults::<Test>::get((r, honest, 0)).unwrap();
		assert_eq!(stored.len(), 16);
		let levels = &answers[0].1[0].1;
		for (walk, result, parents) in &stored {
			let proof = memory::proof_from(levels, 0, *walk);
			assert_eq!(*parents, lanes::parents_digest(&phase, *walk, &proof), "walk {walk}");
			assert!(lanes::link_is_right(&phase, *walk, result, parents));
		}
		let sent = run_ocw_and_include(&pool);
		assert!(sent.iter().all(|(_, _, res)| res.is_ok()), "{sent:?}");
		run_until(RoundPhase::Idle);
		assert_eq!(settled(honest), vec![RoundOutcome::Passed]);
		assert_eq!(settled(parallel), vec![RoundOutcome::Failed(FailReason::WrongWalk)]);
		try_state();
	});
}
