//! Points, scores and weight shares.

use super::*;

#[test]
fn weight_shares_always_sum_to_one_hundred_percent() {
	let mut rng = StdRng::seed_from_u64(7);
	for _ in 0..2_000 {
		let n = rng.random_range(1..200);
		let totals: Vec<u32> =
			(0..n).map(|_| if rng.random_bool(0.2) { 0 } else { rng.random_range(0..1_000_000_000) }).collect();
		let shares = Pallet::<Test>::shares_of(&totals);
		if totals.iter().all(|t| *t == 0) {
			assert!(shares.is_empty());
			continue;
		}
		let sum: u64 = shares.iter().map(|s| u64::from(s.deconstruct())).sum();
		assert_eq!(sum, 1_000_000_000);
		let total: u128 = totals.iter().map(|t| u128::from(*t)).sum();
		for (t, s) in totals.iter().zip(&shares) {
			let exact = u128::from(*t) * 1_000_000_000 / total;
			assert!(u128::from(s.deconstruct()).abs_diff(exact) <= 1);
		}
	}
}

#[test]
fn gpu_points_are_capped_at_the_best_gpus() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		register_cpu_miner(m, &[uuid(1)]);
		let info = Miners::<Test>::get(m).unwrap();
		let credit = |n: u8, points| GpuStanding { points, zero_reason: None, ..GpuStanding::new(uuid(n), 0) };
		let mut config = test_config();
		config.caps.gpus = 2;
		config.caps.gpu_points = 8_000;
		let s = Pallet::<Test>::compute_score(&info, &[credit(1, 1_000), credit(2, 4_000), credit(3, 3_000)], &config);
		assert_eq!(s.gpu_points, 7_000);
		assert_eq!(s.gpu, Perbill::from_rational(7u32, 8u32));
		let none = Pallet::<Test>::compute_score(&info, &[GpuStanding::new(uuid(1), 0)], &config);
		assert_eq!(none, Score::default(), "hardware is not scored without a verified GPU");
	});
}

/// Declared hardware scales a proven score by at most `hardware_bound` and adds nothing on its
/// own: the largest declaration the chain accepts, with one verified `cpu-reference` GPU, scores
/// no more than that GPU's component, and at most 1 / (1 − bound) of the same GPU with nothing
/// declared. (Before, declared CPU, memory and disk were 45% of the score: 0.450 with one
/// `cpu-reference` GPU, 2.7× an honest single-H100 miner.)
#[test]
fn declared_hardware_only_scales_a_proven_score() {
	new_test_ext().execute_with(|| {
		let config = ProtocolConfig::mainnet();
		let cpu_points = Profiles::<Test>::get(CPU_PROFILE).unwrap().figures.points();
		let h100_points = Profiles::<Test>::get(H100_PROFILE).unwrap().figures.points();
		let mut info = {
			register_cpu_miner(account("Miner1"), &[uuid(1)]);
			Miners::<Test>::get(account("Miner1")).unwrap()
		};
		let standing = |n: u8, points| [GpuStanding { points, zero_reason: None, ..GpuStanding::new(uuid(n), 0) }];

		info.hardware = Hardware { cpu_cores: MAX_CPU_CORES, ram_mib: MAX_RAM_MIB, disk_gib: MAX_DISK_GIB, ..hardware() };
		let inflated = Pallet::<Test>::compute_score(&info, &standing(1, cpu_points), &config);
		info.hardware = Hardware { cpu_cores: 0, ram_mib: 0, disk_gib: 0, ..hardware() };
		let bare = Pallet::<Test>::compute_score(&info, &standing(1, cpu_points), &config);
		let honest_h100 = Pallet::<Test>::compute_score(&info, &standing(2, h100_points), &config);

		assert_eq!(inflated.gpu, bare.gpu);
		assert!(inflated.total <= inflated.gpu, "{inflated:?}");
		assert_eq!(bare.total, (Perbill::one() - config.hardware_bound) * bare.gpu);
		assert!(
			u128::from(inflated.total.deconstruct()) * 90 <= (u128::from(bare.total.deconstruct()) + 1) * 100,
			"a 10% bound scales by at most 1 / 0.9 (and the part per billion bare's rounding down loses): {inflated:?} vs {bare:?}"
		);
		assert!(inflated.total < Perbill::from_parts(1_000), "2 points of 5,120,000: {inflated:?}");
		assert!(inflated.total.deconstruct() * 100_000 < honest_h100.total.deconstruct(), "{inflated:?} vs {honest_h100:?}");
		let shares = Pallet::<Test>::shares_of(&[inflated.total.deconstruct(), honest_h100.total.deconstruct()]);
		// Its share against one honest H100 declaring nothing: its points over the H100's, times
		// 1 / 0.9 at most (3.4 parts per million), plus one part of rounding.
		let most = Perbill::from_rational(u64::from(cpu_points) * 10, u64::from(h100_points) * 9);
		assert!(shares[0].deconstruct() <= most.deconstruct() + 1, "{shares:?} vs {most:?}");
	});
}

/// tf32 is never drawn (a tf32 challenge is the fp16 challenge of its seed, computed at the fp16
/// rate), every other precision a profile lists is, and a profile that has only tf32 is refused.
/// (Before, a tf32 challenge was sized at the tf32 rate and ran at twice its price on fp16 tensor
/// cores.)
#[test]
fn tf32_is_never_challenged() {
	new_test_ext().execute_with(|| {
		let h100 = Profiles::<Test>::get(H100_PROFILE).unwrap().figures;
		let v100 = pog_primitives::profiles::DEFAULT_PROFILES[7].figures;
		let a100 = pog_primitives::profiles::DEFAULT_PROFILES[2].figures;
		for (profile, listed) in [
			(&h100, vec![Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3]),
			(&v100, vec![Precision::Fp32, Precision::Fp16]),
			(&a100, vec![Precision::Fp16, Precision::Bf16, Precision::Fp8E4M3]),
		] {
			let mut drawn = std::collections::BTreeSet::new();
			for i in 0..2_000u32 {
				let seed = sp_io::hashing::blake2_256(&i.encode());
				drawn.insert(Pallet::<Test>::precision_for(profile, &seed).unwrap());
			}
			assert_eq!(drawn.into_iter().collect::<Vec<_>>(), listed);
		}
		let only_tf32 = named("tf32 only", ProfileFigures { gflops: [0, 100, 0, 0, 0], int8_gops: 0, ..h100 });
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), only_tf32),
			Error::<Test>::InvalidProfile(ProfileRule::NoChallengedPrecision)
		);
	});
}

/// A profile whose verified GPUs would score nothing is refused: 1 GFLOPS in fp16 alone averages
/// to 0 points over the four challenged precisions, so its miners would pass every round and be
/// paid nothing (a load benchmark's first profile did exactly that: 10,001 GPUs passed, no miner
/// paid). Four GFLOPS in fp16 score one point and are accepted.
#[test]
fn a_profile_that_would_score_no_points_is_refused() {
	new_test_ext().execute_with(|| {
		let h100 = pog_primitives::profiles::DEFAULT_PROFILES[1].figures;
		let tiny = |fp16| ProfileFigures {
			vram_mib: 1,
			gflops: [0, 0, fp16, 0, 0],
			int8_gops: 0,
			mem_read_mps: 0,
			mem_parent_mps: 0,
			..h100
		};
		assert_eq!(tiny(1).points(), 0);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), named("scores nothing", tiny(1))),
			Error::<Test>::InvalidProfile(ProfileRule::NoPoints)
		);
		assert_eq!(tiny(4).points(), 1);
		assert_ok!(Pog::add_profile(RuntimeOrigin::root(), named("one point", tiny(4))));
	});
}

/// A precision is priced at the fastest exact method the card has: an H100 profile listing fp32
/// at its native 50 TFLOPS is refused (six int8 GEMMs give fp32 at 213), and so is an RTX 4090
/// listing native fp8 at its fp32-accumulate 214 (one int8 GEMM: 428); an A100, without fp8, is
/// challenged in fp8 at its int8 rate; a card whose int8 alias is within the tolerance of a
/// native rate has that challenge sized at the alias. (Before, profiles had no int8 rate: an RTX 4090 passed H100 and
/// H200 fp32 challenges natively.)
#[test]
fn a_precision_an_int8_alias_outruns_is_refused_and_a_close_one_priced() {
	new_test_ext().execute_with(|| {
		let table = &pog_primitives::profiles::DEFAULT_PROFILES;
		let h100 = table[1].figures;
		let mut gflops = h100.gflops;
		gflops[Precision::Fp32.index()] = 50_000;
		let h100_fp32 = named("H100 with fp32", ProfileFigures { gflops, ..h100 });
		assert_noop!(Pog::add_profile(RuntimeOrigin::root(), h100_fp32.clone()), Error::<Test>::AliasOutrunsNative);
		assert_noop!(
			Pog::update_profile(RuntimeOrigin::root(), H100_PROFILE, h100_fp32),
			Error::<Test>::AliasOutrunsNative
		);
		let rtx4090 = table[5].figures;
		let mut gflops = rtx4090.gflops;
		gflops[Precision::Fp8E4M3.index()] = 214_000;
		let with_fp8 = named("4090 with fp8", ProfileFigures { gflops, ..rtx4090 });
		assert_noop!(Pog::add_profile(RuntimeOrigin::root(), with_fp8), Error::<Test>::AliasOutrunsNative);
		// Within the tolerance: accepted, and the challenge is sized and timed at the alias.
		let close = ProfileFigures { gflops: [0, 0, 100_000, 0, 0], int8_gops: 440_000, ..rtx4090 };
		assert_ok!(Pog::add_profile(RuntimeOrigin::root(), named("close", close)));
		assert_eq!(close.priced_gflops(Precision::Fp16), 110_000);
		assert_eq!(close.points(), (110_000 + 440_000) / 4, "fp16 at the alias, fp8 on the int8 path");
		// No native fp8, int8 tensor cores: challenged in fp8 on the int8 path at the int8 rate.
		let a100 = table[2].figures;
		assert_eq!(a100.gflops[Precision::Fp8E4M3.index()], 0);
		assert_eq!(a100.priced_gflops(Precision::Fp8E4M3), 406_000);
		assert_eq!(a100.points(), (203_000 + 203_000 + 406_000) / 4);
		// The V100 has no int8 tensor cores: fp32 stays, and no fp8.
		let v100 = table[7].figures;
		assert_eq!(v100.priced_gflops(Precision::Fp32), 11_800);
		assert_eq!(v100.priced_gflops(Precision::Fp8E4M3), 0);
	});
}

/// Points are the profile's mean priced rate: over the genesis table, a profile whose rates (int8
/// included) are all at least another's never has fewer points, equal rates give equal points,
/// and the claims of another profile that one card answers in a window (its fastest method in
/// each precision, native or int8 alias, slowed by the tolerance, at least N times the claim's
/// priced rate in every precision the claim can be challenged in) earn no more than the card's
/// own points, up to the same tolerance. (An A100 answers one L40S claim, fp16 at 86% and fp8
/// through int8 at 85% of the L40S's: the tolerance band, 236,500 against its own 203,000.)
/// (Before, a hand table gave 3.6 to 9.4 points per expected fp16 TFLOP, and one H100 answering
/// A100 80GB claims earned 2.3× its own score.)
/// Declared CPU cores are earned by a CPU challenge of all of them: a miner claims its CPU as
/// one unit of the per-core profile, which is sized at the per-core memory and rate times the
/// declared cores, and scores the points of that many cores once it passes. Two CPU units, or
/// one without declared cores, are refused. (Before, cores were either scored as declared or,
/// since the scoring rewrite, not at all.)
#[test]
fn declared_cpu_cores_are_earned_by_a_cpu_challenge_of_all_of_them() {
	new_test_ext().execute_with(|| {
		let m = account("Miner1");
		let cores = 2;
		let cpu = Hardware { cpu_cores: cores, ..hardware() };
		let both = claims(vec![claim(CPU_PROFILE, &[uuid(1)]), claim(CPU_CORE_PROFILE, &[uuid(2)])]);
		assert_noop!(
			Pog::register_miner(RuntimeOrigin::signed(m), both.clone(), Hardware { cpu_cores: 0, ..hardware() }),
			Error::<Test>::InvalidCpuClaim
		);
		assert_noop!(
			Pog::register_miner(
				RuntimeOrigin::signed(m),
				claims(vec![claim(CPU_CORE_PROFILE, &[uuid(2), uuid(3)])]),
				cpu.clone()
			),
			Error::<Test>::InvalidCpuClaim
		);
		assert_ok!(Pog::register_miner(RuntimeOrigin::signed(m), both, cpu));
		next_round();
		let per_core = Profiles::<Test>::get(CPU_CORE_PROFILE).unwrap().figures;
		assert!(per_core.per_core);
		let p = params(m, 1);
		// The mock's cpu-core has no memory phase: its GEMM is sized to the walks' time too.
		let target =
			pog_primitives::sizing::gemm_target_ms(test_config().target_ms, test_config().memory.walk_ms, false);
		let rate = per_core.gflops[p.precision.index()] * cores;
		assert_eq!(p.dims, pog_primitives::sizing::challenge_dims(per_core.vram_mib * cores, rate, target));
		assert_eq!(p.expected_ms, pog_primitives::sizing::expected_ms(&p.dims, rate));
		assert!(p.dims.flops() >= u128::from(rate) * u128::from(target) * 1_000_000, "all declared cores' work");
		let one_core =
			pog_primitives::sizing::challenge_dims(per_core.vram_mib, per_core.gflops[p.precision.index()], target);
		assert!(p.dims.flops() >= u128::from(cores) * one_core.flops() / 2, "{:?} vs one core's {one_core:?}", p.dims);
		run_until(RoundPhase::Idle);
		let r = play_round(&[(m, Compute::Honest)]);
		assert_eq!(settled(m), vec![RoundOutcome::Passed, RoundOutcome::Passed]);
		let s = standing(m);
		assert_eq!(s[1].points, per_core.for_cores(cores).points());
		assert_eq!(
			s[1].points,
			pog_primitives::profiles::CPU_CORE_GFLOPS * cores,
			"one GFLOPS per core in every precision"
		);
		assert_eq!(s[1].verified_round, Some(r));
		assert_eq!(Scores::<Test>::get(m).unwrap().verified_gpus, 2);
		try_state();
	});
}

#[test]
fn points_follow_the_profile_rates() {
	use pog_primitives::pricing::{alias_gflops, compute_points as points};
	let table = pog_primitives::profiles::DEFAULT_PROFILES;
	for Profile { name: a_name, figures: a } in &table {
		for Profile { name: b_name, figures: b } in &table {
			let dominates = a.gflops.iter().zip(&b.gflops).all(|(x, y)| x >= y) && a.int8_gops >= b.int8_gops;
			if dominates {
				assert!(a.compute_points() >= b.compute_points(), "{a_name} dominates {b_name} but has fewer points");
			}
			if a.gflops == b.gflops && a.int8_gops == b.int8_gops {
				assert_eq!(a.compute_points(), b.compute_points(), "{a_name} and {b_name}");
			}
			// How many claims of `b` one `a` answers in a window: the claim allows
			// 1 / (1 − tolerance) of its expected time in each precision it is challenged in,
			// and the card runs its fastest method there.
			let keep = 100 - u64::from(b.tolerance_percent);
			let answers = Precision::CHALLENGED
				.iter()
				.filter(|q| b.priced_gflops(**q) > 0)
				.map(|q| {
					let card = a.gflops[q.index()].max(alias_gflops(a.int8_gops, *q));
					u64::from(card) * 100 / (u64::from(b.priced_gflops(*q)) * keep)
				})
				.min()
				.unwrap_or(0);
			assert!(
				answers * u64::from(b.compute_points()) * keep <= u64::from(a.compute_points()) * 100,
				"one {a_name} answers {answers} claims of {b_name}: {} points against its own {}",
				answers * u64::from(b.compute_points()),
				a.compute_points()
			);
		}
	}
	// The same over random rate vectors.
	let mut rng = StdRng::seed_from_u64(7);
	for _ in 0..10_000 {
		let b: [u32; 5] =
			core::array::from_fn(|_| if rng.random_bool(0.2) { 0 } else { rng.random_range(1..2_000_000) });
		let a: [u32; 5] = core::array::from_fn(|i| {
			if b[i] == 0 && rng.random_bool(0.5) {
				0
			} else {
				b[i].saturating_add(rng.random_range(0..1_000_000))
			}
		});
		let b8 = rng.random_range(0..4_000_000);
		let a8 = b8 + rng.random_range(0..1_000_000);
		assert!(points(&a, a8) >= points(&b, b8), "{a:?} {a8} ≥ {b:?} {b8}");
		if a == b {
			assert_eq!(points(&a, b8), points(&b, b8));
		}
	}
}

/// `figures` under `name`, as the chain stores a profile.
fn named(name: &str, figures: ProfileFigures) -> GpuProfile {
	crate::profiles::on_chain(name, figures).expect("a short name")
}

/// Issue 49's item 4, the upgrade: a v3 chain's standings gain their expected draws, a credit's
/// spread below the bound by its UUID (so that old credits fall due over the next 2/p rounds, not
/// in one) and an uncredited GPU's zero; nothing else changes, checked by the migration's
/// `pre_upgrade`/`post_upgrade` under try-runtime; it runs once.
#[test]
fn a_v3_chain_upgrades_to_v4_with_its_credits_due_spread_over_the_next_draws() {
	use crate::migrations::v4;
	use codec::Encode;
	use frame_support::traits::{GetStorageVersion, OnRuntimeUpgrade, StorageVersion};
	new_test_ext().execute_with(|| {
		let miners = register_eight_each(&["Miner1", "Miner2"]);
		play_round(&[(miners[0], Compute::Honest), (miners[1], Compute::Corrupt(100))]);
		let before: Vec<Vec<GpuStanding>> = miners.iter().map(|m| standing(*m)).collect();
		assert!(before[0].iter().all(|g| g.credited()) && before[1].iter().all(|g| !g.credited()));
		// The v3 layout: each GPU's standing without its expected draws (the last field).
		for (m, gpus) in miners.iter().zip(&before) {
			let old: Vec<Vec<u8>> = gpus
				.iter()
				.map(|g| {
					let mut e = g.encode();
					e.truncate(e.len() - 4);
					e
				})
				.collect();
			let mut raw = codec::Compact(old.len() as u32).encode();
			old.iter().for_each(|e| raw.extend_from_slice(e));
			frame_support::storage::unhashed::put_raw(&Standing::<Test>::hashed_key_for(m), &raw);
		}
		StorageVersion::new(3).put::<Pog>();

		#[cfg(feature = "try-runtime")]
		v4::CountDraws::<Test>::try_on_runtime_upgrade(true).expect("checks pass");
		#[cfg(not(feature = "try-runtime"))]
		v4::CountDraws::<Test>::on_runtime_upgrade();

		assert_eq!(Pog::on_chain_storage_version(), 4);
		#[cfg(feature = "try-runtime")]
		Pog::do_try_state().expect("the pallet's invariants hold after the last migration");
		PogRewards::do_try_state().expect("so do the reward ledger's");
		for (m, gpus) in miners.iter().zip(&before) {
			let now = standing(*m);
			for (old, new) in gpus.iter().zip(&now) {
				let expected = if old.credited() { v4::initial_draws(&old.uuid) } else { 0 };
				assert_eq!(*new, GpuStanding { expected_draws: expected, ..old.clone() });
				assert!(!new.due());
			}
		}
		let spread: std::collections::BTreeSet<u32> =
			standing(miners[0]).iter().map(|g| g.expected_draws / (crate::scoring::DRAW / 4)).collect();
		assert!(spread.len() >= 4, "eight credits spread over at least four of the eight quarter-draws: {spread:?}");
		try_state();
		// Once: a second run finds version 4 and changes nothing.
		let after = standing(miners[0]);
		v4::CountDraws::<Test>::on_runtime_upgrade();
		assert_eq!(standing(miners[0]), after);
	});
}
