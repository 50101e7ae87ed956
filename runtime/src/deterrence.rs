//! Deterrence over many lives (issue 50): an H100 that stops computing once credited against the
//! same card computing honestly, each for a year of mainnet rounds, over many random lives, with
//! the chain's own pieces: the reward schedule (`RewardRules::mainnet`), vesting
//! (`Earnings::add`/`settle`), the H100's deposit as the runtime computes it (`gpu_deposit` with
//! the runtime's deposit constants) and mainnet's slash share. Asserted: the cheater's 99th
//! percentile ends below the honest miner's median at every sample fraction p of the plans.
//!
//! CI plays `POG_DETERRENCE_LIVES` lives per case (default 100); `scripts/deterrence.sh` plays
//! 1,000 and prints the distribution `docs/protocol.md` §9 quotes.
//!
//! The model (§9, 'When cheating does not pay'): each round the GPU is drawn with probability p.
//! A credit is created only by a pass while drawn. The honest GPU computes every round, costing
//! it c, and is paid R every round from its first draw on. The cheater computes until it is
//! drawn and passes, then stops computing (saving c) and is paid R a round while credited; drawn
//! again while not computing, it fails: its unvested pay burns, s is slashed from its deposit,
//! its credit goes, and it computes again. Net worth at the end of the life: released plus
//! unvested pay, less computing costs and slashes.

use pallet_pog::rewards::{Earnings, RewardRules};

use crate::{configs, Runtime};

/// A year of rounds (36 minutes each).
const LIFE_ROUNDS: u32 = 14_600;

/// SplitMix64: a small, fast, seeded generator (each life its own seed).
struct Rng(u64);

impl Rng {
	fn next(&mut self) -> u64 {
		self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
		let mut z = self.0;
		z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
		z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
		z ^ (z >> 31)
	}

	/// True with probability `ppm` parts per million.
	fn chance(&mut self, ppm: u64) -> bool {
		self.next() % 1_000_000 < ppm
	}
}

/// One case: the sample fraction, the GPUs the miners' pot is shared among, and the cost of
/// computing a round as a share of the pay.
#[derive(Clone, Copy, Debug)]
struct Case {
	/// p, in parts per million.
	p_ppm: u64,
	/// Equal GPUs sharing the miners' part.
	gpus: u128,
	/// c / R, in percent.
	cost_percent: u128,
}

/// The two miners' net worth at the end of one life, in the token's smallest unit.
fn life(case: Case, rules: &RewardRules, slash: u128, seed: u64) -> (i128, i128) {
	let pay = rules.miners.mul_floor(rules.per_round) / case.gpus;
	let cost = pay * case.cost_percent / 100;
	let mut rng = Rng(seed);
	let (mut honest, mut cheat) = (Earnings::<u128>::default(), Earnings::<u128>::default());
	let (mut honest_credited, mut cheat_credited, mut cheat_computes) = (false, false, true);
	let (mut honest_costs, mut cheat_costs, mut slashed) = (0u128, 0u128, 0u128);
	for _ in 0..LIFE_ROUNDS {
		// One draw decides both: the same luck for the two cards.
		let drawn = rng.chance(case.p_ppm);
		honest_costs += cost;
		if honest_credited {
			honest.add(pay, rules.vesting_rounds);
		}
		honest.settle(0, 1);
		honest_credited |= drawn;
		if cheat_credited {
			cheat.add(pay, rules.vesting_rounds);
		}
		if cheat_computes {
			cheat_costs += cost;
		}
		if drawn && !cheat_computes {
			cheat.settle(1, 1);
			slashed += slash;
			cheat_credited = false;
			cheat_computes = true;
		} else {
			cheat.settle(0, 1);
			if drawn {
				cheat_credited = true;
				cheat_computes = false;
			}
		}
	}
	let net = |e: &Earnings<u128>, lost: u128| (e.released + e.unvested()) as i128 - lost as i128;
	(net(&honest, honest_costs), net(&cheat, cheat_costs + slashed))
}

/// The `q`-th percentile (0–100) of `values`, sorted.
fn percentile(sorted: &[i128], q: usize) -> i128 {
	sorted[(sorted.len() - 1) * q / 100]
}

/// The H100's slash on mainnet: the slash share of the deposit the runtime holds for it.
fn h100_slash() -> u128 {
	sp_io::TestExternalities::new(crate::tests::preset_storage(crate::genesis::PRODUCTION_RUNTIME_PRESET)).execute_with(
		|| {
			let (id, _) = pallet_pog::Profiles::<Runtime>::iter()
				.find(|(_, p)| p.name.starts_with(b"NVIDIA H100"))
				.expect("the production table has the H100");
			let deposit = pallet_pog::Pallet::<Runtime>::gpu_deposit(id, 0);
			assert_eq!(<Runtime as pallet_pog::Config>::DepositPerGpu::get(), configs::PogDepositPerGpu::get());
			pallet_pog::ProtocolConfig::mainnet().slash * deposit
		},
	)
}

#[test]
fn a_card_that_stops_computing_once_credited_ends_below_the_honest_median_in_99_percent_of_lives() {
	let lives: u64 = std::env::var("POG_DETERRENCE_LIVES").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
	let rules = RewardRules::mainnet();
	let slash = h100_slash();
	let unit = 1_000_000_000_000f64;
	println!(
		"H100 slash {:.2} POG; {lives} lives of {LIFE_ROUNDS} rounds per case; net worth in POG",
		slash as f64 / unit
	);
	// p = 1: every GPU verified (up to 7.2 V committed GPUs, the 10,000-GPU plan); 5% between;
	// 0.72% and 0.36%: 100,000 GPUs, bounded by the validators and by the reveals (§8).
	let cases = [
		Case { p_ppm: 1_000_000, gpus: 10_000, cost_percent: 90 },
		Case { p_ppm: 50_000, gpus: 10_000, cost_percent: 90 },
		Case { p_ppm: 7_200, gpus: 100_000, cost_percent: 90 },
		Case { p_ppm: 3_600, gpus: 100_000, cost_percent: 90 },
		Case { p_ppm: 3_600, gpus: 100_000, cost_percent: 50 },
	];
	for case in cases {
		let (mut honest, mut cheat): (Vec<i128>, Vec<i128>) =
			(0..lives).map(|seed| life(case, &rules, slash, seed.wrapping_mul(0x5851_f42d) ^ case.p_ppm)).unzip();
		honest.sort_unstable();
		cheat.sort_unstable();
		let pog = |v: i128| v as f64 / unit;
		let (honest_median, cheat_99) = (percentile(&honest, 50), percentile(&cheat, 99));
		let above = cheat.iter().filter(|c| **c >= honest_median).count();
		println!(
			"p {:.2}%, {} GPUs, c = {}% of R: honest p1 {:.1} median {:.1} p99 {:.1}; cheater p1 {:.1} median {:.1} p99 {:.1} max {:.1}; cheater at or above the honest median in {above} of {lives}",
			case.p_ppm as f64 / 1e4,
			case.gpus,
			case.cost_percent,
			pog(percentile(&honest, 1)),
			pog(honest_median),
			pog(percentile(&honest, 99)),
			pog(percentile(&cheat, 1)),
			pog(percentile(&cheat, 50)),
			pog(cheat_99),
			pog(*cheat.last().expect("lives")),
		);
		assert!(
			cheat_99 < honest_median,
			"{case:?}: cheater's 99th percentile {cheat_99} against the honest median {honest_median}"
		);
	}
}
