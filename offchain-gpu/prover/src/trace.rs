//! The throughput-over-time trace: achieved GFLOPS per interval of a proof, from the start and
//! duration of each unit of work (a chunk GEMM on a GPU, a block of rows on the CPU). A falling
//! line shows throttling. One rule for every device, the benchmark and the chain's report.

/// Shortest interval of a trace when none is asked for, in milliseconds.
pub const MIN_INTERVAL_MS: f64 = 100.0;

/// One unit of work's place in time (from the phase's start) and its floating-point operations.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GemmSample {
	/// Start, ms after the phase began.
	pub start_ms: f64,
	/// Duration in ms.
	pub ms: f64,
	/// Floating-point operations.
	pub flops: f64,
}

/// Achieved GFLOPS per interval: each sample's work is spread over the intervals its time
/// overlaps. The interval is `interval_ms`, or the mean sample duration but at least
/// [`MIN_INTERVAL_MS`]. Returns `(interval ms, trace)`.
pub fn resample(samples: &[GemmSample], interval_ms: Option<f64>) -> (u32, Vec<u32>) {
	let Some(end) = samples.iter().map(|s| s.start_ms + s.ms).reduce(f64::max) else {
		return (interval_ms.unwrap_or(MIN_INTERVAL_MS) as u32, Vec::new());
	};
	let mean = samples.iter().map(|s| s.ms).sum::<f64>() / samples.len() as f64;
	let interval = interval_ms.unwrap_or_else(|| mean.ceil().max(MIN_INTERVAL_MS)).max(1.0);
	let bins = (end / interval).ceil().max(1.0) as usize;
	let mut flops = vec![0f64; bins];
	for s in samples {
		if s.ms <= 0.0 {
			continue;
		}
		let (a, b) = (s.start_ms, s.start_ms + s.ms);
		let first = (a / interval).floor() as usize;
		let last = ((b / interval).ceil() as usize).min(bins);
		for (bin, f) in flops.iter_mut().enumerate().take(last).skip(first) {
			let (lo, hi) = (bin as f64 * interval, (bin + 1) as f64 * interval);
			let overlap = (b.min(hi) - a.max(lo)).max(0.0);
			*f += s.flops * overlap / s.ms;
		}
	}
	let trace = flops
		.iter()
		.enumerate()
		.map(|(bin, f)| {
			let len = (end - bin as f64 * interval).min(interval).max(1e-3);
			(f / (len * 1e-3) / 1e9).round().min(f64::from(u32::MAX)) as u32
		})
		.collect();
	(interval.round() as u32, trace)
}

/// The trace with at most `max_len` intervals: neighbouring intervals are averaged in pairs and
/// the interval doubled until it fits (what the chain stores is bounded).
pub fn cap(interval_ms: u32, mut trace: Vec<u32>, max_len: usize) -> (u32, Vec<u32>) {
	let mut interval_ms = interval_ms;
	while trace.len() > max_len.max(1) {
		trace =
			trace.chunks(2).map(|c| (c.iter().map(|&v| u64::from(v)).sum::<u64>() / c.len() as u64) as u32).collect();
		interval_ms = interval_ms.saturating_mul(2);
	}
	(interval_ms, trace)
}

#[cfg(test)]
mod tests {
	use super::*;

	fn tflops(start_ms: f64, ms: f64) -> GemmSample {
		GemmSample { start_ms, ms, flops: 1e12 * ms / 1e3 }
	}

	#[test]
	fn work_is_spread_over_the_intervals_it_overlaps() {
		let (interval, trace) = resample(&[tflops(0.0, 150.0), tflops(150.0, 150.0)], Some(100.0));
		assert_eq!(interval, 100);
		assert_eq!(trace, vec![1000, 1000, 1000]);
		assert_eq!(resample(&[], None).1, Vec::<u32>::new());
	}

	#[test]
	fn the_default_interval_is_the_mean_work_unit_but_at_least_the_minimum() {
		assert_eq!(resample(&[tflops(0.0, 40.0)], None).0, MIN_INTERVAL_MS as u32);
		assert_eq!(resample(&[tflops(0.0, 400.0), tflops(400.0, 600.0)], None).0, 500);
	}

	#[test]
	fn a_capped_trace_averages_neighbours_and_doubles_the_interval() {
		assert_eq!(cap(100, vec![10, 20, 30, 40, 50], 2), (400, vec![25, 50]));
		assert_eq!(cap(100, vec![1, 2], 4), (100, vec![1, 2]));
	}
}
