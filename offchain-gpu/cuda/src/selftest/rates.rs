//! Rates: each precision's GEMM throughput and the proof's overhead at full size.

use super::*;

/// Rate of a run of chunk GEMMs in TFLOPS.
pub(super) fn rate(run: &pog_prover::trace::GemmSample) -> f64 {
	run.flops / (run.ms * 1e-3) / 1e12
}

pub(super) fn gemm_rates(
	prover: &GpuProver,
	args: &SelftestConfig,
	list: &[Precision],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<(Value, Vec<(Precision, f64)>)> {
	let torch: Option<Value> = match &args.torch {
		Some(path) => Some(serde_json::from_str(&std::fs::read_to_string(path)?)?),
		None => None,
	};
	let mut report = Vec::new();
	let mut rates = Vec::new();
	for &p in list {
		let dims = Dims { m: args.rate_dim, n: args.rate_dim, k: args.chunk_k * args.rate_gemms as u32 };
		let spec = ChallengeSpec { seed: [7; 32], precision: p, dims, chunk_k: args.chunk_k };
		let _ = prover.gemm_only(&spec, p, Some(3), false)?; // warm-up
		let plain = rate(&prover.gemm_only(&spec, p, None, false)?);
		let tflops = rate(&prover.gemm_only(&spec, p, None, true)?);
		rates.push((p, tflops));
		let reference = torch.as_ref().and_then(|t| t["gemm_tflops"][p.name()].as_f64());
		let ratio = reference.map(|r| plain / r);
		let detail = match (reference, ratio) {
			(Some(r), Some(q)) => format!("{plain:.1} TFLOPS vs PyTorch {r:.1} ({q:.3}x); accumulating {tflops:.1}"),
			_ => format!("{plain:.1} TFLOPS; accumulating {tflops:.1}"),
		};
		out.push((
			format!("GEMM {} {}x{}x{}", p.name(), args.rate_dim, args.rate_dim, args.chunk_k),
			ratio.is_none_or(|q| q >= 0.97),
			detail,
		));
		report.push(json!({"precision": p.name(), "tflops_beta0": plain, "tflops_accumulating": tflops,
			"torch_tflops": reference, "ratio_beta0": ratio, "m": args.rate_dim, "n": args.rate_dim, "kc": args.chunk_k,
			"gemms": args.rate_gemms, "fp8_path": format!("{:?}", prover.fp8_path())}));
		if p == Precision::Fp8E4M3 && prover.fp8_path() != Fp8Path::Int8 {
			// The int8 path's rate (int8 tensor cores): every int8 alias's rate follows from it.
			let before = prover.fp8_path();
			prover.set_fp8_path(Fp8Path::Int8);
			let measured = (|| -> anyhow::Result<(f64, f64)> {
				let _ = prover.gemm_only(&spec, p, Some(3), false)?;
				Ok((rate(&prover.gemm_only(&spec, p, None, false)?), rate(&prover.gemm_only(&spec, p, None, true)?)))
			})();
			prover.set_fp8_path(before);
			let (plain8, acc8) = measured?;
			out.push((
				format!("GEMM int8 (fp8's int8 path) {}x{}x{}", args.rate_dim, args.rate_dim, args.chunk_k),
				true,
				format!("{plain8:.1} TOPS; accumulating {acc8:.1}; fp8 native {tflops:.1} ({:.3}x)", acc8 / tflops),
			));
			report.push(json!({"precision": "int8", "tflops_beta0": plain8, "tflops_accumulating": acc8,
				"m": args.rate_dim, "n": args.rate_dim, "kc": args.chunk_k}));
		}
	}
	let copy = prover.copy_bandwidth(2 << 30, 20)?;
	let torch_copy = torch.as_ref().and_then(|t| t["copy_gbps"].as_f64());
	out.push((
		"device copy bandwidth".into(),
		true,
		match torch_copy {
			Some(t) => format!("{copy:.0} GB/s (read + write), PyTorch {t:.0}"),
			None => format!("{copy:.0} GB/s (read + write)"),
		},
	));
	report.push(json!({"copy_gbps": copy, "torch_copy_gbps": torch_copy}));
	Ok((Value::Array(report), rates))
}

pub(super) fn full_size(
	prover: &GpuProver,
	args: &SelftestConfig,
	rates: &[(Precision, f64)],
	out: &mut Vec<(String, bool, String)>,
) -> anyhow::Result<Value> {
	let info = prover.info();
	let list = if args.full_precisions.is_empty() { vec![Precision::Bf16] } else { args.full_precisions.clone() };
	let mut report = Vec::new();
	for p in list {
		let tflops = rates.iter().find(|r| r.0 == p).map(|r| r.1).unwrap_or(100.0);
		let dims = sizing::challenge_dims(info.vram_mib, (tflops * 1000.0) as u32, args.full_ms);
		let spec = ChallengeSpec { seed: [0xF0 ^ p.index() as u8; 32], precision: p, dims, chunk_k: args.chunk_k };
		let prepare_s = prover.prepare(&spec, p)?.as_secs_f64();
		tracing::info!(?dims, precision = p.name(), prepare_s, "full-size proof");
		let com = prover.prove_in(&spec, p, &|_| {})?;
		let timing = com.timing().clone();
		let leaves = pick_leaves(dims.num_leaves(), 4);
		let opened = com.open(&leaves)?;
		let proofs_ok = opened.iter().all(|o| verify_opening(&com.root(), &dims, o.leaf, &o.values, &o.proof));
		drop(com);
		let mut r = ratios(&spec, &opened.iter().map(|o| (o.leaf, o.values.clone())).collect::<Vec<_>>()[..1]);
		let worst = r.iter().copied().fold(0.0, f64::max);
		let _ = median(&mut r);
		let gemm_wall = prover.gemm_only(&spec, p, None, true)?.ms;
		let total_ms = timing.total.as_secs_f64() * 1e3;
		let overhead = total_ms / gemm_wall - 1.0;
		let parts_ms = (timing.generation + timing.hashing + timing.tree).as_secs_f64() * 1e3;
		let detail = format!(
			"{}x{}x{} total {:.2} s vs pure GEMM {:.2} s: +{:.2}% (gen {:.0} ms, hash {:.0} ms, tree {:.1} ms; {:.1} TFLOPS; tuning before: {:.2} s)",
			dims.m, dims.n, dims.k, total_ms / 1e3, gemm_wall / 1e3, overhead * 100.0,
			timing.generation.as_secs_f64() * 1e3, timing.hashing.as_secs_f64() * 1e3, timing.tree.as_secs_f64() * 1e3,
			dims.flops() as f64 / (timing.gemm.as_secs_f64()) / 1e12,
			prepare_s,
		);
		out.push((format!("overhead full size {}", p.name()), overhead <= 0.03 && proofs_ok && worst <= 1.0, detail));
		report.push(json!({"precision": p.name(), "dims": dims, "timing": timing, "pure_gemm_ms": gemm_wall,
			"total_ms": total_ms, "overhead": overhead, "gen_hash_tree_ms": parts_ms,
			"gen_hash_tree_over_gemm": parts_ms / (timing.gemm.as_secs_f64() * 1e3),
			"proofs_verify": proofs_ok, "worst_ratio_256_entries": worst, "prepare_s": prepare_s}));
	}
	Ok(Value::Array(report))
}
