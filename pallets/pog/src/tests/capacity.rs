//! The sample's capacity: what the validators can verify and what the reveal window carries.

use super::*;
use crate::{
	capacity::{reveal_bytes, REVEAL_ENVELOPE_BYTES, REVEAL_SHARE},
	verification::{Opening, WalkOpening},
};

#[test]
fn the_sample_never_selects_more_reveals_than_the_reveal_window_carries() {
	new_test_ext().execute_with(|| {
		// One block to reveal in: the three validators (a set this small votes as a whole) could
		// verify 3 × 80 / 3 = 80 GPUs, but one block's duty space holds fewer reveals of the
		// table's largest kind (an H100's).
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { reveal_window: 1, ..test_config() }));
		let config = Configuration::<Test>::get();
		let largest = Pog::largest_reveal_bytes(&config);
		let h100 = Pog::reveal_bytes_of(&pog_primitives::profiles::H100, &config).unwrap();
		assert_eq!(largest, h100, "the H100's reveal is the table's largest");
		assert_eq!(Pog::duty_bytes(), 5 * 1024 * 1024 / 4, "the quarter of a block normal transactions cannot take");
		let space = u64::from(REVEAL_SHARE * Pog::duty_bytes());
		assert_eq!(Pog::verifier_capacity(), 80);
		assert_eq!(u64::from(Pog::capacity()), space / largest);
		assert!(Pog::capacity() < 80, "the bytes bind: {}", Pog::capacity());
		assert!(u64::from(Pog::capacity()) * largest <= space);

		// The round's draw uses it: every committed GPU is selected only while the sample fits.
		let miners = register_eight_each(&["Miner1", "Miner2", "Miner3", "Miner4", "Dave", "Eve"]);
		next_round();
		commit_eight_each(&miners);
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, Pog::capacity());
		// All 48 are new (the first draw): each is drawn with capacity / 48.
		let first = FirstDrawOf::<Test>::get(Pog::round().index);
		assert_eq!((first.newcomers, first.probability), (48, Perbill::from_rational(s.capacity, 48)));
		assert_eq!(s.probability, Perbill::zero());
	});
}

#[test]
fn with_room_in_the_window_the_validators_set_the_capacity() {
	new_test_ext().execute_with(|| {
		// The test configuration's five blocks carry more reveals than the validators' 80.
		assert_eq!(Pog::verifier_capacity(), 80);
		assert!(Pog::reveal_capacity() > 80, "{}", Pog::reveal_capacity());
		assert_eq!(Pog::capacity(), 80);
	});
}

#[test]
fn a_reveal_is_counted_at_its_encoded_size_plus_a_bounded_envelope() {
	// A reveal of 8 leaves of a depth-25 commitment and 16 walks of a height-34 one, as the
	// pallet's call encodes it.
	let (depth, height) = (25usize, 34usize);
	let opening = Opening {
		leaf: 7,
		values: vec![1u32; 256].try_into().unwrap(),
		proof: vec![[2u8; 32]; depth].try_into().unwrap(),
	};
	let walk = WalkOpening { walk: 9, result: [3; 32], proof: vec![[4u8; 32]; height].try_into().unwrap() };
	let call = crate::Call::<Test>::reveal_openings {
		round: 1,
		gpu: 0,
		openings: vec![opening; 8].try_into().unwrap(),
		walks: vec![walk; 16].try_into().unwrap(),
	};
	let payload = call.encode().len() as u64;
	let counted = reveal_bytes(8, depth as u32, 16, height as u32);
	// signer 33, signature 65, at most 25 of extensions, 5 of length prefix, 1 of version
	assert!(payload + 129 <= counted, "{payload} + an envelope within {counted}");
	assert!(counted - payload <= REVEAL_ENVELOPE_BYTES, "{counted} counts at most the envelope beyond {payload}");
	// The H100 of mainnet: 32 leaves of depth 25 and 64 walks of height 34.
	assert_eq!(reveal_bytes(32, 25, 64, 34), 256 + 32 * 1_831 + 64 * 1_129);
}

#[test]
fn gpus_left_undecided_are_selected_again_within_the_next_rounds_capacity() {
	new_test_ext().execute_with(|| {
		// 3 validators × 6 verifications / the whole set of 3 = capacity 6, of 16 committed GPUs.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 6, ..test_config() }
		));
		let miners = register_eight_each(&["Miner1", "Miner2"]);
		// Round 1: every GPU commits, the selected ones reveal, and nobody votes: they are left
		// undecided.
		next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		let first = run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		// All 16 are new: the first draw selects each with 6/16.
		assert_eq!((s.capacity, FirstDrawOf::<Test>::get(first).probability), (6, Perbill::from_rational(6u32, 16u32)));
		let mut undecided = Vec::new();
		for (m, result) in miners.iter().zip(&results) {
			for g in (0..8).filter(|g| Pog::is_selected(&s, first, m, *g)) {
				assert_ok!(reveal(*m, g, &result[g as usize]));
				undecided.push((*m, g));
			}
		}
		assert!(!undecided.is_empty(), "the draw selected some");
		run_until(RoundPhase::Idle);
		assert_eq!(ProbationNext::<Test>::get(), undecided.len() as u32);

		// Round 2: they are selected whatever the draw, and the draw gives the others what remains
		// of a capacity halved: the validators were silent on everything (`crate::throughput`).
		next_round();
		for m in &miners {
			answer(*m, Compute::Honest);
		}
		let second = run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, 3);
		let u = undecided.len() as u32;
		// The others are still new (never verified): the first draw gets what remains.
		let first = FirstDrawOf::<Test>::get(second);
		assert_eq!(first.newcomers, 16 - u, "GPUs on probation are not in the first draw");
		assert_eq!(first.probability, Perbill::from_rational(3u32.saturating_sub(u), 16 - u));
		assert_eq!(ProbationNext::<Test>::get(), 0, "the draw took the count");
		assert!(undecided.iter().all(|(m, g)| Pog::is_selected(&s, second, m, *g)));
	});
}

#[test]
fn a_new_gpu_is_drawn_at_twice_the_others_rate_and_verified_first() {
	new_test_ext().execute_with(|| {
		// Round 1: sixteen GPUs, all selected (capacity 80), verified.
		let miners = register_eight_each(&["Miner1", "Miner2"]);
		play_round(&[(miners[0], Compute::Honest), (miners[1], Compute::Honest)]);
		assert!(miners.iter().flat_map(|m| settled(*m)).all(|o| o == RoundOutcome::Passed));
		// Capacity 6 from now on; Eve claims three new GPUs.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 6, ..test_config() }
		));
		let eve = account("Eve");
		register_cpu_miner(eve, &(0..3).map(|g| uuid(200 + g)).collect::<Vec<_>>());
		// Round 2: 19 committed, 3 of them new. All three selected would leave the sixteen
		// verified ones 3/16, less than half of the newcomers' 1: so p = 6 / (2·3 + 16) for the
		// sixteen and twice that for Eve's (it was 6/19 for every GPU, Eve's included).
		let index = next_round();
		let results: Vec<(AccountId, Vec<CommittedMatrix>)> =
			[miners[0], miners[1], eve].iter().map(|m| (*m, answer(*m, Compute::Honest))).collect();
		run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		let first = FirstDrawOf::<Test>::get(index);
		assert_eq!((s.capacity, first.newcomers), (6, 3));
		assert_eq!(first.probability, Perbill::from_rational(12u32, 22u32));
		assert_eq!(s.probability, Perbill::from_rational(6u32, 22u32));
		assert!(miners.iter().all(|m| !Pog::in_first_draw(index, m, 0)), "verified GPUs are not new");
		let mut revealed = Vec::new();
		for (m, rs) in &results {
			for (g, r) in rs.iter().enumerate().filter(|(g, _)| Pog::is_selected(&s, index, m, *g as u32)) {
				assert_ok!(reveal(*m, g as u32, r));
				revealed.push((*m, g as u32));
			}
		}
		// The verifiers take the new GPUs first (after any on probation: none here).
		let eves = revealed.iter().filter(|(m, _)| *m == eve).count();
		let order = offchain::assigned_to::<Test>(&validators()[0]);
		assert_eq!(order.len(), revealed.len());
		assert!(order[..eves].iter().all(|(_, m, _)| *m == eve), "Eve's first: {order:?}");
		for (m, g) in revealed {
			for v in committee(m, g) {
				assert_ok!(verdict_by(v, m, g, 7));
			}
		}
		run_until(RoundPhase::Idle);
		let passed = settled(eve).iter().filter(|o| **o == RoundOutcome::Passed).count();
		assert_eq!(passed, eves, "Eve's drawn GPUs are credited in their first round");
	});
}

#[test]
fn draw_probabilities_keep_the_expected_sample_within_the_capacity() {
	use crate::first_draw::DrawProbabilities;
	let one = Perbill::one();
	// Everything fits.
	assert_eq!(DrawProbabilities::new(10, 10, 3, 5), DrawProbabilities { first: one, others: one });
	// Newcomers fit and leave the others at least half their probability: all drawn.
	let p = DrawProbabilities::new(10, 12, 0, 3);
	assert_eq!(p, DrawProbabilities { first: one, others: Perbill::from_rational(7u32, 9u32) });
	// Newcomers would leave the others less than half theirs: twice the others' probability,
	// room / (2·newcomers + others) for the others.
	let p = DrawProbabilities::new(10, 40, 2, 3);
	assert_eq!(
		p,
		DrawProbabilities { first: Perbill::from_rational(16u32, 41u32), others: Perbill::from_rational(8u32, 41u32) }
	);
	// More newcomers than room: re-verification is never crowded out (the review's F4).
	let p = DrawProbabilities::new(10, 40, 2, 32);
	assert_eq!(
		p,
		DrawProbabilities { first: Perbill::from_rational(16u32, 70u32), others: Perbill::from_rational(8u32, 70u32) }
	);
	// Newcomers alone: they share the whole room.
	let p = DrawProbabilities::new(10, 40, 2, 38);
	assert_eq!(p.first, Perbill::from_rational(8u32, 38u32));
	// More undecided than the capacity: nobody else.
	let p = DrawProbabilities::new(10, 40, 12, 3);
	assert_eq!(p, DrawProbabilities { first: Perbill::zero(), others: Perbill::zero() });
	// Expected sample: undecided + newcomers × first + the rest × others ≤ capacity.
	for (capacity, committed, undecided, newcomers) in
		[(10u32, 40u32, 2u32, 3u32), (10, 40, 2, 32), (7, 1000, 1, 0), (359, 100_000, 20, 5_000)]
	{
		let p = DrawProbabilities::new(capacity, committed, undecided, newcomers);
		let rest = committed - undecided - newcomers;
		let expected = u64::from(undecided) * 1_000_000_000
			+ u64::from(newcomers) * u64::from(p.first.deconstruct())
			+ u64::from(rest) * u64::from(p.others.deconstruct());
		assert!(
			expected <= u64::from(capacity) * 1_000_000_000,
			"{capacity} {committed} {undecided} {newcomers}: {expected}"
		);
	}
}

#[test]
fn the_measured_figure_falls_with_silence_grows_with_work_kept_up_and_holds_against_a_minority() {
	use crate::throughput::{next_figure, Measured};
	let r = |assigned: u32, silent: u32| ValidatorRecord { assigned, silent, ..Default::default() };
	let bounds = (2, 160);
	// Two of three silent on more than a tenth: the median delivered (5 of 10), at most halved.
	assert_eq!(next_figure(10, &[r(10, 6), r(10, 5), r(10, 0)], bounds), (5, Measured::Saturated));
	// Nobody delivered: halved, not emptied (an outage is not a measurement of zero).
	assert_eq!(next_figure(10, &[r(10, 10), r(10, 10), r(10, 10)], bounds), (5, Measured::Saturated));
	// One silent validator of three cannot shrink the sample; the others were loaded and kept up.
	assert_eq!(next_figure(10, &[r(10, 10), r(10, 0), r(9, 0)], bounds), (12, Measured::KeptUp));
	// A silence of a tenth is keeping up.
	assert_eq!(next_figure(10, &[r(10, 1), r(10, 1), r(10, 1)], bounds), (12, Measured::KeptUp));
	// A sample smaller than the capacity says nothing about more.
	assert_eq!(next_figure(10, &[r(6, 0), r(6, 0), r(3, 0)], bounds), (10, Measured::Unloaded));
	assert_eq!(next_figure(10, &[], bounds), (10, Measured::Unloaded));
	// Within the bounds: at least one more, at most the worker's ceiling, never under the floor.
	assert_eq!(next_figure(1, &[r(1, 0)], (1, 160)), (2, Measured::KeptUp));
	assert_eq!(next_figure(150, &[r(150, 0)], bounds), (160, Measured::KeptUp));
	assert_eq!(next_figure(3, &[r(3, 3)], bounds), (2, Measured::Saturated));
	// One step above what the validators can do leaves each silent on at most GROWTH / (1 +
	// GROWTH) of its work: under mainnet's silence tolerance, so an overshoot is no strike.
	let growth = crate::throughput::GROWTH.deconstruct();
	let silent_after_overshoot = Perbill::from_rational(growth, Perbill::one().deconstruct() + growth);
	assert!(silent_after_overshoot < pallet_pog_validators::ValidatorRules::mainnet().silence_tolerance);
	assert!(silent_after_overshoot > crate::throughput::SATURATED, "and the next settlement brings it back");
}

#[test]
fn the_sample_follows_what_the_validators_deliver_and_a_new_configuration_restarts_it() {
	use crate::throughput::Measured;
	new_test_ext().execute_with(|| {
		// 3 validators × 8 verifications / the whole set of 3 = capacity 8, of 16 committed GPUs.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 8, ..test_config() }
		));
		let miners = register_eight_each(&["Miner1", "Miner2"]);
		// Round 1: the selected GPUs reveal and nobody votes: the validators did not keep up.
		next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		let first = run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, 8);
		for (m, result) in miners.iter().zip(&results) {
			for g in (0..8).filter(|g| Pog::is_selected(&s, first, m, *g)) {
				assert_ok!(reveal(*m, g, &result[g as usize]));
			}
		}
		run_until(RoundPhase::Idle);
		System::assert_has_event(
			Event::ThroughputMeasured { round: first, per_validator: 4, measured: Measured::Saturated }.into(),
		);
		assert_eq!(Pog::verifications_per_validator(), 4, "halved, no lower in one round");

		// Round 2: capacity 4. The GPUs left undecided are selected again; every member votes on
		// everything selected: loaded, and kept up.
		next_round();
		let results: Vec<Vec<CommittedMatrix>> = miners.iter().map(|m| answer(*m, Compute::Honest)).collect();
		let second = run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		assert_eq!(s.capacity, 4);
		let mut verified = 0;
		for (m, result) in miners.iter().zip(&results) {
			for g in (0..8).filter(|g| Pog::is_selected(&s, second, m, *g)) {
				assert_ok!(reveal(*m, g, &result[g as usize]));
				for v in committee(*m, g) {
					assert_ok!(verdict_by(v, *m, g, 7));
				}
				verified += 1;
			}
		}
		assert!(verified >= 3, "at least three of every member's assignments (75% of 4): {verified}");
		run_until(RoundPhase::Idle);
		System::assert_has_event(
			Event::ThroughputMeasured { round: second, per_validator: 5, measured: Measured::KeptUp }.into(),
		);
		next_round();
		for m in &miners {
			answer(*m, Compute::Honest);
		}
		run_until(RoundPhase::Reveal);
		assert_eq!(Pog::round().selection.unwrap().capacity, 5);
		run_until(RoundPhase::Idle);

		// Governance's figure restarts the measurement.
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 6, ..test_config() }
		));
		assert_eq!(MeasuredThroughput::<Test>::get(), None);
		assert_eq!(Pog::verifier_capacity(), 6);
	});
}

/// The review's F4: a miner that answers one fresh claim per card every round, as many as the
/// room holds, cannot switch re-verification off. Sixteen credited GPUs commit made-up roots
/// round after round while six fresh GPUs a round crowd the first draw: the sixteen are drawn
/// with p = 6 / (2·6 + 16) = 0.21 each (a newcomer with twice that), so some are drawn, cannot
/// reveal and fail; and a credit not drawn for two expected draws (about 10 rounds here) is due
/// and selected in the next round whatever the draw (issue 49's item 4), so after 16 rounds every
/// one of the sixteen has failed and none is credited or paid. Without the bound each undrawn
/// credit stayed, paid, until the sample happened to draw it.
#[test]
fn fresh_claims_every_round_cannot_switch_re_verification_off() {
	new_test_ext().execute_with(|| {
		let credited = register_eight_each(&["Miner1", "Miner2"]);
		play_round(&[(credited[0], Compute::Honest), (credited[1], Compute::Honest)]);
		assert!(credited.iter().flat_map(|m| settled(*m)).all(|o| o == RoundOutcome::Passed));
		assert_ok!(Pog::set_config(
			RuntimeOrigin::root(),
			ProtocolConfig { verifications_per_validator: 6, ..test_config() }
		));
		let all: Vec<GpuIndex> = (0..8).collect();
		let mut failed = std::collections::BTreeSet::new();
		let mut due: Vec<(AccountId, GpuIndex)> = Vec::new();
		for n in 0..16u8 {
			let fresh = account(&format!("Fresh{n}"));
			fund(&fresh, FUNDS);
			register_cpu_miner(fresh, &(0..6).map(|g| uuid(100 + 6 * n + g)).collect::<Vec<_>>());
			let index = next_round();
			let results = answer(fresh, Compute::Honest);
			for m in &credited {
				assert_ok!(Pog::commit_roots(RuntimeOrigin::signed(*m), index, made_up_roots(&all)));
			}
			run_until(RoundPhase::Reveal);
			let s = Pog::round().selection.unwrap();
			let first = FirstDrawOf::<Test>::get(index);
			assert_eq!(first.newcomers, 6);
			assert!(s.probability > Perbill::zero(), "round {index}: {s:?}");
			let (p_first, p_others) =
				(u64::from(first.probability.deconstruct()), u64::from(s.probability.deconstruct()));
			assert!(p_first <= 2 * p_others + 2, "round {index}: a newcomer's advantage is bounded: {first:?} {s:?}");
			for (m, g) in &due {
				assert!(Pog::is_selected(&s, index, m, *g), "round {index}: a due credit is selected");
			}
			for (g, r) in results.iter().enumerate().filter(|(g, _)| Pog::is_selected(&s, index, &fresh, *g as u32)) {
				assert_ok!(reveal(fresh, g as u32, r));
				for v in committee(fresh, g as u32) {
					assert_ok!(verdict_by(v, fresh, g as u32, 7));
				}
			}
			run_until(RoundPhase::Idle);
			due.clear();
			for m in &credited {
				for (g, o) in settled(*m).iter().enumerate() {
					if *o == RoundOutcome::Failed(FailReason::MissedReveal) {
						failed.insert((*m, g));
					}
				}
				for (g, st) in standing(*m).iter().enumerate() {
					if st.due() {
						due.push((*m, g as GpuIndex));
					}
				}
			}
		}
		assert_eq!(failed.len(), 16, "every credited GPU committing made-up roots was drawn or due, and failed");
		for m in &credited {
			assert!(standing(*m).iter().all(|g| !g.credited()), "{:?}", standing(*m));
			assert_eq!(Scores::<Test>::get(m).unwrap().gpu_points, 0, "nothing paid without a pass");
		}
		try_state();
	});
}
