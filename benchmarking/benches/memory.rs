//! The memory-hard phase's verifier cost on the CPU (`pog_primitives::memory`): making the cache
//! (a chain of Keccaks), one dataset item regenerated from it, and one walk recomputed from the
//! cache alone, at 64, 256 and 1,024 parents (mainnet's); a mainnet check's 64 walks one after the
//! other and side by side (`memory::walks_from_cache`); and, for the CPU profiles' rates, a
//! walk over a dataset held in memory (a 4 MiB unit's). Run with `cargo bench -p
//! pog-benchmarking --bench memory`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use pog_primitives::{
	lanes,
	memory::{self, MemorySpec},
};
use std::{hint::black_box, time::Duration};

fn spec(cache_items: u32, parents: u32) -> MemorySpec {
	// 0.9 × an H100's memory in 64-byte items
	MemorySpec { seed: [3; 32], cache_items, dataset_items: 1_160_000_000, parents, reads: 64, lanes: 0 }
}

fn memory(c: &mut Criterion) {
	let mut group = c.benchmark_group("memory");
	group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(3));
	let s16 = spec(1 << 18, 256); // 16 MiB
	group.bench_function("cache 16 MiB", |b| b.iter(|| black_box(memory::cache(&s16))));
	let cache = memory::cache(&s16);
	for parents in [64u32, 256, 1024] {
		let s = MemorySpec { parents, ..s16 };
		group.bench_with_input(BenchmarkId::new("item", parents), &s, |b, s| {
			b.iter(|| black_box(memory::dataset_item(s, &cache, 987_654_321)))
		});
		group.bench_with_input(BenchmarkId::new("walk of 64 reads", parents), &s, |b, s| {
			b.iter(|| black_box(memory::walk_from_cache(s, &cache, 42)))
		});
	}
	// a mainnet memory check's walks (64 at 1,024 parents) on one core: one after the other, as
	// before, and `memory::LOCKSTEP` side by side, as the verifier runs them now
	let mainnet = MemorySpec { parents: 1024, ..s16 };
	let walks: Vec<u64> = (0..64u64).map(|i| i * 1_000_003).collect();
	group.bench_function("64 walks at 1,024 parents, one after the other", |b| {
		b.iter(|| black_box(walks.iter().map(|w| memory::walk_from_cache(&mainnet, &cache, *w)).collect::<Vec<_>>()))
	});
	group.bench_function("64 walks at 1,024 parents, side by side", |b| {
		b.iter(|| black_box(memory::walks_from_cache(&mainnet, &cache, &walks)))
	});
	// the prover's side on a CPU: a walk over a 4 MiB unit's dataset in memory
	let small = MemorySpec { cache_items: 1 << 12, dataset_items: memory::dataset_items(4), parents: 64, ..s16 };
	let small_cache = memory::cache(&small);
	let dataset = memory::dataset(&small, &small_cache);
	group.bench_function("walk of 64 reads in memory, 4 MiB", |b| {
		b.iter(|| black_box(memory::walk(&small, 42, |i| dataset[i as usize])))
	});
	// a per-core unit's lane (`pog_primitives::lanes`) on one core: its 1 MiB pad, 1,000,000
	// dependent steps over it in memory (the CPU profile's step rate), and a mainnet link checked
	// as a verifier does, its pad items made on the way
	let lane = lanes::challenge(&[3; 32], 1, 20, 1, &memory::MemoryRules::mainnet()).expect("a lane");
	group.bench_function("lane pad 1 MiB", |b| b.iter(|| black_box(lanes::pad(&lane.spec.seed, 0))));
	let pad = lanes::pad(&lane.spec.seed, 0);
	let start = lanes::link_start(&lane.spec.seed, 0, 0, &lanes::digest(&[]));
	group.bench_function("lane 1,000,000 steps in memory", |b| {
		b.iter(|| black_box(lanes::run_steps(start, 1_000_000, |i| pad[i as usize])))
	});
	let result = lanes::link_result(&lanes::run_steps(start, lane.spec.reads, |i| pad[i as usize]));
	group.bench_function(format!("lane link of {} steps checked", lane.spec.reads), |b| {
		b.iter(|| black_box(lanes::link_is_right(&lane, 0, &result, &lanes::digest(&[]))))
	});
	group.finish();
}

criterion_group!(benches, memory);
criterion_main!(benches);
