//! Accuracy: honest results pass the verifier, results computed in a cheaper format fail it.

use super::*;

pub(super) fn ratios(spec: &ChallengeSpec, opened: &[(u32, Vec<u32>)]) -> Vec<f64> {
	signed_ratios(spec, opened).into_iter().map(f64::abs).collect()
}

/// (claimed − exact)·sign(exact) / threshold: negative when the error is toward zero.
pub(super) fn signed_ratios(spec: &ChallengeSpec, opened: &[(u32, Vec<u32>)]) -> Vec<f64> {
	let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(4);
	let next = AtomicUsize::new(0);
	let mut all: Vec<Vec<f64>> = vec![Vec::new(); opened.len()];
	let slots: Vec<std::sync::Mutex<Vec<f64>>> = (0..opened.len()).map(|_| std::sync::Mutex::new(Vec::new())).collect();
	std::thread::scope(|s| {
		for _ in 0..threads {
			s.spawn(|| loop {
				let i = next.fetch_add(1, Ordering::Relaxed);
				if i >= opened.len() {
					break;
				}
				let (leaf, values) = &opened[i];
				let (row, col0) = pog_primitives::commitment::leaf_position(&spec.dims, *leaf);
				let cols: Vec<u32> = (col0..col0 + 256).collect();
				let exact = exact_entries(spec, row, &cols);
				let r: Vec<f64> = exact
					.iter()
					.zip(values)
					.map(|(e, v)| {
						let claimed = f64::from(f32::from_bits(*v));
						if !claimed.is_finite() {
							return f64::INFINITY;
						}
						(claimed - e.value) * e.value.signum() / tolerance_sq(spec, e.sum_sq).sqrt()
					})
					.collect();
				*slots[i].lock().expect("slot") = r;
			});
		}
	});
	for (a, s) in all.iter_mut().zip(slots) {
		*a = s.into_inner().expect("slot");
	}
	all.concat()
}

pub(super) fn median(v: &mut [f64]) -> f64 {
	v.sort_by(|a, b| a.total_cmp(b));
	if v.is_empty() {
		0.0
	} else {
		v[v.len() / 2]
	}
}

pub(super) fn pick_leaves(num_leaves: u32, count: usize) -> Vec<u32> {
	let mut x = 0x9E37_79B9_7F4A_7C15u64;
	let mut out = Vec::with_capacity(count);
	while out.len() < count.min(num_leaves as usize) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		let l = (x % u64::from(num_leaves)) as u32;
		if !out.contains(&l) {
			out.push(l);
		}
	}
	out
}

pub(super) fn tolerance_checks(
	prover: &GpuProver,
	args: &SelftestConfig,
	list: &[Precision],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<Value> {
	let mut report = Vec::new();
	let dims = Dims { m: args.dim, n: args.dim, k: args.k };
	let leaves = pick_leaves(dims.num_leaves(), (args.entries as usize).div_ceil(256));
	// (precision, computed in, fp8 path): honest, fp8 also on the int8 path (and with FAST_ACCUM,
	// which must be caught), and in the next lower precision (must be caught).
	let default_path = prover.fp8_path();
	let has_fp8 = default_path != Fp8Path::Int8;
	let mut modes: Vec<(Precision, Precision, Fp8Path)> = Vec::new();
	for &p in list {
		modes.push((p, p, default_path));
		if p == Precision::Fp8E4M3 && has_fp8 {
			modes.push((p, p, Fp8Path::Int8));
			if args.fp8_fast_accum_check {
				modes.push((p, p, Fp8Path::NativeFastAccum));
			}
		}
		if let Some(lower) = p.next_lower().filter(|l| *l != Precision::Fp8E4M3 || has_fp8) {
			modes.push((p, lower, default_path));
		}
	}
	for (p, compute, path) in modes {
		let spec = ChallengeSpec { seed: [p.index() as u8 + 0x41; 32], precision: p, dims, chunk_k: args.chunk_k };
		prover.set_fp8_path(path);
		let t = Instant::now();
		let com = prover.prove_in(&spec, compute, &|_| {});
		prover.set_fp8_path(default_path);
		let com = com?;
		let prove_s = t.elapsed().as_secs_f64();
		let fast = path == Fp8Path::NativeFastAccum;
		let int8 = p == Precision::Fp8E4M3 && path == Fp8Path::Int8;
		let opened = com.open(&leaves)?;
		let proofs_ok = opened.iter().all(|o| verify_opening(&com.root(), &dims, o.leaf, &o.values, &o.proof));
		drop(com);
		let t = Instant::now();
		let signed = signed_ratios(&spec, &opened.into_iter().map(|o| (o.leaf, o.values)).collect::<Vec<_>>());
		let bias = signed.iter().sum::<f64>() / signed.len().max(1) as f64;
		let rms = (signed.iter().map(|x| x * x).sum::<f64>() / signed.len().max(1) as f64).sqrt();
		let mut r: Vec<f64> = signed.iter().map(|x| x.abs()).collect();
		let verify_s = t.elapsed().as_secs_f64();
		let n = r.len();
		let failing = r.iter().filter(|x| **x > 1.0).count();
		let worst = r.iter().copied().fold(0.0, f64::max);
		let med = median(&mut r);
		let honest = compute == p && !fast;
		let label = if fast {
			format!("{} with FAST_ACCUM (14-bit accumulator: caught)", p.name())
		} else if int8 {
			format!("{} honest, int8 path", p.name())
		} else if honest {
			format!("{} honest", p.name())
		} else {
			format!("{} computed in {}", p.name(), compute.name())
		};
		let (ok, detail) = if fast {
			(failing > 0 && proofs_ok, format!("worst {worst:.1} of threshold, {failing}/{n} fail (median {med:.2})"))
		} else if honest {
			(
				failing == 0 && proofs_ok,
				format!(
					"worst {worst:.3} of threshold, {failing}/{n} fail (mean toward-zero {bias:+.3}, rms {rms:.3})"
				),
			)
		} else if !Precision::CHALLENGED.contains(&p) {
			// Never challenged (tf32: its challenge would be the fp16 one, section "Pricing"), so
			// what computing it lower does is reported, and fails nothing.
			(
				proofs_ok,
				format!(
					"median {med:.1}x threshold, {failing}/{n} fail (reported only: {} is never challenged)",
					p.name()
				),
			)
		} else {
			(med >= 5.0 && proofs_ok, format!("median {med:.1}x threshold, {failing}/{n} fail"))
		};
		tracing::info!(label, ok, detail, prove_s, verify_s, "tolerance check");
		out.push((label.clone(), ok, detail));
		report.push(json!({
			"precision": p.name(), "compute": compute.name(), "fp8_path": format!("{path:?}"), "dims": dims,
			"chunk_k": args.chunk_k, "entries": n, "failing": failing, "worst_ratio": worst, "median_ratio": med, "mean_signed_ratio": bias, "rms_ratio": rms,
			"proofs_verify": proofs_ok, "prove_s": prove_s, "verify_s": verify_s,
		}));
	}
	Ok(Value::Array(report))
}
