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
		let expected = if s.capacity >= 48 { Perbill::one() } else { Perbill::from_rational(s.capacity, 48) };
		assert_eq!(s.probability, expected);
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
		assert_eq!((s.capacity, s.probability), (6, Perbill::from_rational(6u32, 16u32)));
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

		// Round 2: they are selected whatever the draw, and the draw gives the others what remains.
		next_round();
		for m in &miners {
			answer(*m, Compute::Honest);
		}
		let second = run_until(RoundPhase::Reveal);
		let s = Pog::round().selection.unwrap();
		let u = undecided.len() as u32;
		assert_eq!(s.probability, Perbill::from_rational(6u32.saturating_sub(u), 16 - u));
		assert_eq!(ProbationNext::<Test>::get(), 0, "the draw took the count");
		assert!(undecided.iter().all(|(m, g)| Pog::is_selected(&s, second, m, *g)));
	});
}
