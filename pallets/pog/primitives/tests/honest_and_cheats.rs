//! Randomised verification tests: honest fp32 results in other summation orders than the
//! verifier's are always accepted, and results computed in a lower precision or corrupted are
//! always rejected. Seeded, so a failure reproduces; `POG_TEST_SEED` picks another seed.

use pog_primitives::{
	cpu::round_mantissa,
	generator::{Generator, Matrix},
	verify::{chain_length, check_leaf, ChallengeSpec},
	Dims, Precision,
};
use rand::{rngs::StdRng, Rng, SeedableRng};

fn rng() -> StdRng {
	let seed = std::env::var("POG_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_261_122_u64);
	StdRng::seed_from_u64(seed)
}

/// Summation orders an honest GPU or CPU may use.
#[derive(Clone, Copy, Debug)]
enum Order {
	Serial,
	Reversed,
	/// The protocol's chunking: serial inside chunks of `chunk_k`, chunks added serially.
	Blocked,
	/// k split into `splits` parts summed serially, then the parts summed serially.
	SplitK(usize),
	/// Pairwise (tree) summation, as a reduction kernel does.
	Pairwise,
}

fn line(g: &Generator, matrix: Matrix, index: u32, k: u32, round_to: Option<u32>) -> Vec<f32> {
	let mut v = vec![0f32; k as usize];
	g.fill_line_f32(matrix, index, 0, &mut v);
	if let Some(bits) = round_to {
		for x in v.iter_mut() {
			*x = round_mantissa(*x, bits);
		}
	}
	v
}

fn pairwise(p: &[f32]) -> f32 {
	if p.len() <= 8 {
		return p.iter().fold(0f32, |a, b| a + b);
	}
	let (l, r) = p.split_at(p.len() / 2);
	pairwise(l) + pairwise(r)
}

fn dot(a: &[f32], b: &[f32], order: Order, chunk: usize) -> f32 {
	let products: Vec<f32> = a.iter().zip(b).map(|(x, y)| x * y).collect();
	match order {
		Order::Serial => products.iter().fold(0f32, |s, p| s + p),
		Order::Reversed => products.iter().rev().fold(0f32, |s, p| s + p),
		Order::Blocked => products.chunks(chunk).map(|c| c.iter().fold(0f32, |s, p| s + p)).fold(0f32, |s, p| s + p),
		Order::SplitK(parts) => {
			let len = products.len().div_ceil(parts);
			products.chunks(len).map(|c| c.iter().fold(0f32, |s, p| s + p)).fold(0f32, |s, p| s + p)
		},
		Order::Pairwise => pairwise(&products),
	}
}

struct Case {
	spec: ChallengeSpec,
	row: u32,
	leaf: u32,
	offsets: Vec<u16>,
}

fn random_case(rng: &mut StdRng, precision: Precision, order: Order) -> Case {
	let k = 256 * rng.random_range(1..=16u32);
	// Serial-like orders are honest only when the protocol's chain bound covers all of k.
	let chunk_k = match order {
		Order::Serial | Order::Reversed | Order::Pairwise => k,
		Order::Blocked => 32 * rng.random_range(1..=64u32),
		Order::SplitK(parts) => k.div_ceil(parts as u32),
	};
	let dims = Dims { m: 256, n: 512, k };
	let mut seed = [0u8; 32];
	rng.fill(&mut seed);
	let leaf = rng.random_range(0..dims.num_leaves());
	let offsets: Vec<u16> = (0..4).map(|_| rng.random_range(0..256u16)).collect();
	let row = leaf / dims.leaves_per_row();
	Case { spec: ChallengeSpec { seed, precision, dims, chunk_k }, row, leaf, offsets }
}

/// Claimed leaf values: only the offsets the check reads are filled in.
fn claimed_leaf(case: &Case, order: Order, lower: Option<u32>) -> Vec<u32> {
	let g = Generator::new(&case.spec.seed, case.spec.precision);
	let k = case.spec.dims.k;
	let a = line(&g, Matrix::A, case.row, k, lower);
	let col0 = (case.leaf % case.spec.dims.leaves_per_row()) * 256;
	let mut values = vec![0f32.to_bits(); 256];
	for off in &case.offsets {
		let b = line(&g, Matrix::B, col0 + u32::from(*off), k, lower);
		values[usize::from(*off)] = dot(&a, &b, order, case.spec.chunk_k as usize).to_bits();
	}
	values
}

#[test]
fn two_thousand_honest_challenges_in_other_orders_are_all_accepted() {
	let mut rng = rng();
	let orders = [Order::Serial, Order::Reversed, Order::Blocked, Order::SplitK(4), Order::SplitK(16), Order::Pairwise];
	let mut worst = [0f64; 5];
	for i in 0..2000 {
		let precision = Precision::ALL[i % 5];
		let order = orders[rng.random_range(0..orders.len())];
		let case = random_case(&mut rng, precision, order);
		let values = claimed_leaf(&case, order, None);
		let report = check_leaf(&case.spec, case.leaf, &values, &case.offsets);
		assert!(report.passed(), "honest {precision:?} {order:?} k={} rejected: {report:?}", case.spec.dims.k);
		let w = &mut worst[precision.index()];
		*w = w.max(report.worst_ratio_sq.sqrt());
	}
	println!("worst honest |error|/threshold per precision (fp32, tf32, fp16, bf16, fp8): {worst:.4?}");
}

#[test]
fn results_in_a_lower_precision_are_rejected() {
	let mut rng = rng();
	for i in 0..500 {
		let precision = Precision::ALL[i % 5];
		let lower_bits = precision.substitute_mantissa_bits();
		let mut case = random_case(&mut rng, precision, Order::Blocked);
		case.offsets = (0..64).map(|o| o * 4).collect(); // a whole challenge's worth of entries
		let values = claimed_leaf(&case, Order::Blocked, Some(lower_bits));
		let report = check_leaf(&case.spec, case.leaf, &values, &case.offsets);
		assert!(!report.passed(), "{precision:?} computed with {lower_bits} mantissa bits passed: {report:?}");
	}
}

#[test]
fn corrupted_entries_are_rejected() {
	let mut rng = rng();
	for i in 0..500 {
		let precision = Precision::ALL[i % 5];
		let case = random_case(&mut rng, precision, Order::Blocked);
		let mut values = claimed_leaf(&case, Order::Blocked, None);
		let victim = usize::from(case.offsets[rng.random_range(0..case.offsets.len())]);
		let honest = f32::from_bits(values[victim]);
		let forged = match i % 5 {
			0 => 0.0,
			1 => -honest,
			2 => honest + 0.05 * (case.spec.dims.k as f32).sqrt(),
			3 => f32::NAN,
			_ => rng.random_range(-100.0..100.0f32) * (case.spec.dims.k as f32).sqrt(),
		};
		if forged == honest {
			continue;
		}
		values[victim] = forged.to_bits();
		let report = check_leaf(&case.spec, case.leaf, &values, &case.offsets);
		assert!(!report.passed(), "forged {forged} for {honest} ({precision:?}) passed");
	}
}

#[test]
fn chain_bound_is_what_the_protocol_says() {
	assert_eq!(chain_length(4096, 4096), 4096);
	assert_eq!(chain_length(4096, 512), 520);
}
