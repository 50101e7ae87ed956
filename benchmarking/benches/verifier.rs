//! The verifier's cost per checked entry and per challenge (32 opened leaves × 2 entries, the
//! mainnet default), for the dev preset and for a two-minute H100 challenge, per precision.
//! Run with `scripts/bench-verifier.sh` (see benchmarking/README.md for the figures).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pog_benchmarking::{dev_cpu_reference, h100_two_minutes};
use pog_primitives::{
	verify::{check_openings, exact_entries},
	Precision, LEAF_VALUES,
};
use std::{hint::black_box, time::Duration};

fn per_entry(c: &mut Criterion) {
	let mut group = c.benchmark_group("entry");
	group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
	for p in Precision::ALL {
		for (preset, spec) in [("dev", dev_cpu_reference(p)), ("h100-2min", h100_two_minutes(p))] {
			group.throughput(Throughput::Elements(u64::from(spec.dims.k)));
			group.bench_with_input(
				BenchmarkId::new(preset, format!("{} k={}", p.name(), spec.dims.k)),
				&spec,
				|b, s| b.iter(|| black_box(exact_entries(s, 3, &[17]))),
			);
		}
	}
	group.finish();
}

fn per_challenge(c: &mut Criterion) {
	let mut group = c.benchmark_group("challenge");
	group.sample_size(10).warm_up_time(Duration::from_millis(100)).measurement_time(Duration::from_secs(5));
	let values = vec![0u32; LEAF_VALUES];
	for p in [Precision::Fp32, Precision::Fp16, Precision::Fp8E4M3] {
		for (preset, spec) in [("dev", dev_cpu_reference(p)), ("h100-2min", h100_two_minutes(p))] {
			let leaves: Vec<u32> = (0..32).map(|i| i * 977 % spec.dims.num_leaves()).collect();
			group.bench_with_input(BenchmarkId::new(preset, p.name()), &spec, |b, s| {
				b.iter(|| black_box(check_openings(s, leaves.iter().map(|l| (*l, &values[..])), 2, &[1; 32])))
			});
		}
	}
	group.finish();
}

criterion_group!(benches, per_entry, per_challenge);
criterion_main!(benches);
