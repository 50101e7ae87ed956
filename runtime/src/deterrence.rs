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
//! The model (§9, 'When cheating does not pay'): each round a verified GPU is drawn with
//! probability p, one never verified (in the first draw) with twice that (`NEWCOMER_ADVANTAGE`,
//! at most 1), and a credited GPU whose expected draws since its pass reached two is selected
//! whatever the draw (`scoring::undrawn`, `scoring::is_due`). A credit is created only by a pass
//! while drawn. Both GPUs compute every round they hold no credit, costing them c, and are paid R
//! a round while credited. The honest GPU computes always. The cheater stops computing (saving
//! c) once credited, but computes the round its due credit is selected in (announced by the
//! settlement before) and passes; drawn at random while not computing, it fails: its unvested pay
//! burns, s is slashed from its deposit, its credit goes, and it computes again. Net worth at the end of the
//! life: released plus unvested pay, less computing costs and slashes.

use pallet_pog::{
	first_draw::NEWCOMER_ADVANTAGE,
	scoring::{is_due, undrawn},
};
use pallet_pog_rewards::{earnings::Earnings, rules::RewardRules};
use sp_runtime::Perbill;

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

/// What a life's rounds pay and cost, and the probability a verified GPU is drawn with.
struct Terms {
	pay: u128,
	cost: u128,
	slash: u128,
	vesting_rounds: u32,
	p: Perbill,
}

/// One card's state through a life.
#[derive(Default)]
struct Card {
	earnings: Earnings<u128>,
	credited: bool,
	/// Draws it could expect since its last pass (`GpuStanding::expected_draws`).
	expected_draws: u32,
	/// Whether it has been verified once (outside the first draw: drawn with p, not
	/// `NEWCOMER_ADVANTAGE`·p).
	verified: bool,
	/// Whether it computes its challenges.
	computes: bool,
	costs: u128,
	slashed: u128,
}

impl Card {
	/// One round: paid while credited, drawn (with `drawn`, `drawn_first` in the first draw, or
	/// whatever the draw once its credit is due), failed when drawn while not computing, credited
	/// by a pass. A cheater (`honest` false) stops computing once credited and computes again
	/// once it has lost the credit.
	fn round(&mut self, honest: bool, (drawn, drawn_first): (bool, bool), terms: &Terms) {
		if self.credited {
			self.earnings.add(terms.pay, terms.vesting_rounds);
		}
		// A due credit is selected whatever the draw, and the settlement before said so: the
		// cheater computes that one round and passes.
		let due = self.credited && is_due(self.expected_draws);
		self.computes |= due;
		if self.computes {
			self.costs += terms.cost;
		}
		let drawn = due || if self.verified { drawn } else { drawn_first };
		if drawn && !self.computes {
			self.earnings.settle(1, 1);
			self.slashed += terms.slash;
			(self.credited, self.computes) = (false, true);
			return;
		}
		self.earnings.settle(0, 1);
		if drawn {
			(self.credited, self.expected_draws, self.verified, self.computes) = (true, 0, true, honest);
		} else if self.credited {
			self.expected_draws = undrawn(self.expected_draws, terms.p);
		}
	}

	fn net(&self) -> i128 {
		(self.earnings.released + self.earnings.unvested()) as i128 - (self.costs + self.slashed) as i128
	}
}

/// The two miners' net worth at the end of one life, in the token's smallest unit.
fn life(case: Case, rules: &RewardRules, slash: u128, seed: u64) -> (i128, i128) {
	let pay = rules.miners.mul_floor(rules.per_round) / case.gpus;
	let terms = Terms {
		pay,
		cost: pay * case.cost_percent / 100,
		slash,
		vesting_rounds: rules.vesting_rounds,
		p: Perbill::from_parts((case.p_ppm * 1_000) as u32),
	};
	let first_ppm = (case.p_ppm * u64::from(NEWCOMER_ADVANTAGE)).min(1_000_000);
	let mut rng = Rng(seed);
	let (mut honest, mut cheat) =
		(Card { computes: true, ..Card::default() }, Card { computes: true, ..Card::default() });
	for _ in 0..LIFE_ROUNDS {
		// One draw decides both: the same luck for the two cards.
		let luck = rng.next() % 1_000_000;
		let drawn = (luck < case.p_ppm, luck < first_ppm);
		honest.round(true, drawn, &terms);
		cheat.round(false, drawn, &terms);
	}
	(honest.net(), cheat.net())
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
