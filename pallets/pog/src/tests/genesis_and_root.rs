//! Genesis and root: profiles, validators and the configuration.

use super::*;

#[test]
fn genesis_has_profiles_validators_config_and_the_first_start_window() {
	new_test_ext().execute_with(|| {
		assert_eq!(ProfileCount::<Test>::get(), 13);
		assert_eq!(Profiles::<Test>::get(CPU_LANES_PROFILE).unwrap().name.to_vec(), b"cpu-lanes".to_vec());
		assert_eq!(Profiles::<Test>::get(CPU_PROFILE).unwrap().name.to_vec(), b"cpu-reference".to_vec());
		assert_eq!(Profiles::<Test>::get(CPU_CORE_PROFILE).unwrap().name.to_vec(), b"cpu-core".to_vec());
		assert_eq!(Validators::<Test>::get().to_vec(), validators());
		assert_eq!(Configuration::<Test>::get(), test_config());
		let round = Pog::round();
		assert_eq!((round.index, round.phase), (0, RoundPhase::Idle));
		assert_eq!(round.next_start, (27, 30), "round 1 starts in the last start_jitter blocks of the first period");
		try_state();
	});
}

#[test]
fn root_manages_profiles_validators_and_config() {
	new_test_ext().execute_with(|| {
		let mut p = Profiles::<Test>::get(H100_PROFILE).unwrap();
		assert_noop!(Pog::add_profile(RuntimeOrigin::signed(account("Alice")), p.clone()), DispatchError::BadOrigin);
		p.name = b"Test GPU".to_vec().try_into().unwrap();
		assert_ok!(Pog::add_profile(RuntimeOrigin::root(), p.clone()));
		assert_eq!(Profiles::<Test>::get(13), Some(p.clone()));
		assert_ok!(Pog::update_profile(RuntimeOrigin::root(), 13, changed(&p, |f| f.tolerance_percent = 20)));
		assert_noop!(Pog::update_profile(RuntimeOrigin::root(), 99, p.clone()), Error::<Test>::UnknownProfile);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), changed(&p, |f| (f.gflops, f.int8_gops) = ([0; 5], 0))),
			Error::<Test>::InvalidProfile(ProfileRule::NoChallengedPrecision)
		);
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), changed(&p, |f| (f.mem_read_mps, f.mem_parent_mps) = (5, 0))),
			Error::<Test>::InvalidProfile(ProfileRule::OneMemoryRate)
		);
		assert_ok!(Pog::remove_profile(RuntimeOrigin::root(), 13));
		assert_noop!(Pog::remove_profile(RuntimeOrigin::root(), 13), Error::<Test>::UnknownProfile);
		register_cpu_miner(account("Miner1"), &[uuid(1)]);
		assert_noop!(Pog::remove_profile(RuntimeOrigin::root(), CPU_PROFILE), Error::<Test>::ProfileInUse);

		assert_ok!(PogValidators::add_validator(RuntimeOrigin::root(), account("Dave")));
		assert_noop!(
			PogValidators::add_validator(RuntimeOrigin::root(), account("Dave")),
			SetError::<Test>::AlreadyValidator
		);
		assert_ok!(PogValidators::remove_validator(RuntimeOrigin::root(), account("Dave")));
		assert_noop!(
			PogValidators::remove_validator(RuntimeOrigin::root(), account("Dave")),
			SetError::<Test>::NotValidator
		);

		let mut c = test_config();
		c.hardware_bound = Perbill::from_percent(60);
		assert_noop!(
			Pog::set_config(RuntimeOrigin::root(), c),
			Error::<Test>::InvalidConfig(ConfigRule::HardwareBound)
		);
		// Each broken rule is named, so a chain runner sees which field to fix.
		for (bad, rule) in [
			(ProtocolConfig { period: 0, ..test_config() }, ConfigRule::ZeroPeriod),
			(ProtocolConfig { start_jitter: 30, ..test_config() }, ConfigRule::JitterNotBelowPeriod),
			(ProtocolConfig { committee: 0, ..test_config() }, ConfigRule::Committee),
			(ProtocolConfig { committee: 9, ..test_config() }, ConfigRule::Committee),
			(ProtocolConfig { settle_per_block: 0, ..test_config() }, ConfigRule::ZeroSettlePerBlock),
			(ProtocolConfig { openings: 65, ..test_config() }, ConfigRule::Openings),
			(ProtocolConfig { chunk_k: 100, ..test_config() }, ConfigRule::ChunkK),
			(
				ProtocolConfig {
					verifications_per_validator: test_config().verifications_ceiling() + 1,
					..test_config()
				},
				ConfigRule::VerificationsPerValidator,
			),
			(
				ProtocolConfig { memory: MemoryRules { cache_items: 3, ..test_config().memory }, ..test_config() },
				ConfigRule::MemoryCache,
			),
		] {
			assert_noop!(Pog::set_config(RuntimeOrigin::root(), bad), Error::<Test>::InvalidConfig(rule));
		}
		assert_noop!(Pog::set_config(RuntimeOrigin::signed(account("Alice")), test_config()), DispatchError::BadOrigin);
		assert_ok!(Pog::set_config(RuntimeOrigin::root(), ProtocolConfig { committee: 3, ..test_config() }));
		assert_eq!(Configuration::<Test>::get().committee, 3);
		try_state();
	});
}

/// The review's "careless root": each value that would freeze rounds (a start window a lifetime
/// away, a round open for weeks during which `RoundOpen` refuses the `set_config` that undoes it)
/// or exhaust every verifier (a 128 GiB cache, u32::MAX cache reads a walk) is refused by name,
/// and the configuration stays as it was.
#[test]
fn root_cannot_set_a_config_that_freezes_rounds_or_exhausts_verifiers() {
	new_test_ext().execute_with(|| {
		let c = test_config();
		let memory = |m: MemoryRules| ProtocolConfig { memory: m, ..c };
		for (bad, rule) in [
			(ProtocolConfig { period: u32::MAX, ..c }, ConfigRule::PeriodTooLong),
			(ProtocolConfig { target_ms: u32::MAX, ..c }, ConfigRule::DeadlineTooLong),
			(ProtocolConfig { slack_ms: u32::MAX, ..c }, ConfigRule::DeadlineTooLong),
			(ProtocolConfig { reveal_window: u32::MAX, ..c }, ConfigRule::WindowTooLong),
			(ProtocolConfig { verdict_window: u32::MAX, ..c }, ConfigRule::WindowTooLong),
			(ProtocolConfig { verdict_window: 2, ..c }, ConfigRule::VerdictWindowTooShort),
			(memory(MemoryRules { cache_items: 1 << 31, ..c.memory }), ConfigRule::MemoryTooCostly),
			(memory(MemoryRules { parents: u32::MAX, ..c.memory }), ConfigRule::MemoryTooCostly),
			(memory(MemoryRules { reads: u32::MAX, ..c.memory }), ConfigRule::MemoryTooCostly),
			(memory(MemoryRules { walk_ms: u32::MAX, ..c.memory }), ConfigRule::MemoryTooLong),
			(memory(MemoryRules { lane_ms: u32::MAX, ..c.memory }), ConfigRule::MemoryTooLong),
			(ProtocolConfig { settle_per_block: u32::MAX, ..c }, ConfigRule::SettlePerBlockTooLarge),
			// every value of 64 leaves at ten-minute GEMMs: the cpu-reference profile's k = 1,144,064
			// × 16,384 entries, 94–187 s of one core
			(
				ProtocolConfig { openings: 64, entries_per_opening: 256, target_ms: crate::config::MAX_TARGET_MS, ..c },
				ConfigRule::VerifierTooCostly,
			),
		] {
			assert_noop!(Pog::set_config(RuntimeOrigin::root(), bad), Error::<Test>::InvalidConfig(rule));
		}
		for preset in [ProtocolConfig::mainnet(), ProtocolConfig::dev()] {
			assert_eq!(preset.validate(64, 64, 64), Ok(()), "{preset:?}");
		}
	});
}

/// A profile whose GEMM no verifier can afford is refused by name, and so is a configuration that
/// makes a stored profile's so; the default table at mainnet and dev settings stays within the
/// 10 s of one core a challenge's entries may take (the costliest, the RTX 4090's fp8 challenge on
/// its int8 rate, about two thirds of it).
#[test]
fn root_cannot_add_a_profile_that_exhausts_verifiers() {
	new_test_ext().execute_with(|| {
		use pog_primitives::{profiles::default_profile, verify::MAX_VERIFY_NS};
		let h100 = default_profile("NVIDIA H100 80GB HBM3").unwrap().figures;
		// an H100's rates over 1 MiB: k at its cap of 2²⁸, 16 entries, 26 s of one core in fp8
		let tiny = crate::profiles::on_chain("tiny H100", ProfileFigures { vram_mib: 1, ..h100 }).unwrap();
		assert_noop!(
			Pog::add_profile(RuntimeOrigin::root(), tiny.clone()),
			Error::<Test>::InvalidProfile(ProfileRule::VerifierTooCostly)
		);
		assert_noop!(
			Pog::update_profile(RuntimeOrigin::root(), CPU_PROFILE, tiny),
			Error::<Test>::InvalidProfile(ProfileRule::VerifierTooCostly)
		);
		for preset in [ProtocolConfig::mainnet(), ProtocolConfig::dev()] {
			let costliest = crate::profiles::default_profiles()
				.into_iter()
				.flat_map(|p| Pog::sizes_of(p.figures).into_iter().map(move |s| (p.name.clone(), s)))
				.map(|(name, s)| (Pog::verifier_ns(&s, &preset), name))
				.max()
				.unwrap();
			assert!(costliest.0 <= MAX_VERIFY_NS / 10 * 7, "{costliest:?} at {preset:?}");
			if preset == ProtocolConfig::mainnet() {
				assert_eq!(costliest.1, "NVIDIA GeForce RTX 4090", "{costliest:?}");
				assert!(costliest.0 > MAX_VERIFY_NS / 2, "{costliest:?}");
			}
		}
	});
}
