//! What each subcommand does (the chain-less ones delegate to `pog-cuda`).

use anyhow::{anyhow, bail, Context as _};
use pog_primitives::profiles::Profile;
use tracing::{info, warn};

use crate::{
	chain::{convert, load_key, pog, Chain, RoundOutcome, ZeroReason},
	cli::{BackendChoice, BenchArgs, ChainArgs, Command, RegisterArgs, SelftestArgs, StatusArgs},
	hardware, miner,
};

/// Runs `command`.
pub async fn dispatch(command: Command) -> anyhow::Result<()> {
	match command {
		Command::Hardware { json } => show_hardware(json),
		Command::Bench(args) => tokio::task::spawn_blocking(move || bench(&args)).await?,
		Command::Selftest(args) => tokio::task::spawn_blocking(move || selftest(&args)).await?,
		Command::Register(args) => register(args).await,
		Command::Run(args) => miner::run(args.miner_config()?).await,
		Command::Status(args) => status(args).await,
		Command::Deregister(args) => deregister(args).await,
	}
}

fn bench(args: &BenchArgs) -> anyhow::Result<()> {
	let report = pog_cuda::bench::run(&args.config())?;
	if let Some(path) = &args.plot {
		std::fs::write(path, report.svg()).with_context(|| format!("writing {}", path.display()))?;
	}
	if args.json {
		println!("{}", serde_json::to_string_pretty(&report)?);
	} else {
		print!("{}", report.table());
	}
	Ok(())
}

fn selftest(args: &SelftestArgs) -> anyhow::Result<()> {
	let report = pog_cuda::selftest::run(&args.config())?;
	if let Some(path) = &args.json {
		std::fs::write(path, serde_json::to_string_pretty(&report.details)?)
			.with_context(|| format!("writing {}", path.display()))?;
	}
	print!("{}", report.table());
	match report.failed() {
		0 => Ok(()),
		failed => bail!("{failed} self-test checks failed"),
	}
}

fn show_hardware(json: bool) -> anyhow::Result<()> {
	let m = hardware::detect();
	if json {
		println!("{}", serde_json::to_string_pretty(&m)?);
		return Ok(());
	}
	println!("CPU     {} ({} logical cores)", m.cpu_model, m.cpu_cores);
	println!("Memory  {} MiB", m.ram_mib);
	println!("Disk    {} GiB", m.disk_gib);
	if m.gpus.is_empty() {
		println!("GPUs    none: {}", m.gpu_error.unwrap_or_default());
	}
	for g in &m.gpus {
		println!(
			"GPU {}   {} {} | {} MiB | SM {} MHz, memory {} MHz | {} °C | {:.0} W of {:.0} W",
			g.ordinal,
			g.name,
			g.uuid,
			g.vram_mib,
			g.sm_clock_mhz,
			g.mem_clock_mhz,
			g.temperature_c,
			g.power_w,
			g.power_limit_w
		);
	}
	Ok(())
}

async fn connect(args: &ChainArgs) -> anyhow::Result<Chain> {
	let key = load_key(args.suri.as_deref(), args.key_file.as_deref())?;
	Chain::connect(&args.url, key).await
}

/// The profile a GPU named `name` claims: the one with the same name, or the one asked for.
fn pick_profile(profiles: &[(u32, Profile<String>)], asked: Option<&str>, name: &str) -> anyhow::Result<u32> {
	let want = asked.unwrap_or(name);
	if let Ok(id) = want.parse::<u32>() {
		if profiles.iter().any(|(i, _)| *i == id) {
			return Ok(id);
		}
	}
	profiles.iter().find(|(_, p)| p.name.eq_ignore_ascii_case(want)).map(|(id, _)| *id).ok_or_else(|| {
		let names: Vec<String> = profiles.iter().map(|(id, p)| format!("{id}: {}", p.name)).collect();
		anyhow!("no GPU profile named '{want}' on chain; pass --profile with one of: {}", names.join(", "))
	})
}

async fn register(args: RegisterArgs) -> anyhow::Result<()> {
	let chain = connect(&args.chain).await?;
	let account = *chain.account();
	let machine = hardware::detect();
	let profiles = chain.profiles().await?;
	use pog::runtime_types::{bounded_collections::bounded_vec::BoundedVec, pallet_pog::miners::GpuClaim};
	let mut claims: Vec<GpuClaim> = Vec::new();
	let add = |claims: &mut Vec<GpuClaim>, profile: u32, uuid: [u8; 16]| match claims
		.iter_mut()
		.find(|c| c.profile == profile)
	{
		Some(c) => {
			c.count += 1;
			c.uuids.0.push(uuid);
		},
		None => claims.push(GpuClaim { profile, count: 1, uuids: BoundedVec(vec![uuid]) }),
	};
	let use_gpu = match args.backend {
		BackendChoice::Cpu => false,
		BackendChoice::Gpu if machine.gpus.is_empty() => {
			bail!("--backend gpu, but no GPU was found: {}", machine.gpu_error.clone().unwrap_or_default())
		},
		_ => !machine.gpus.is_empty(),
	};
	if use_gpu {
		for g in &machine.gpus {
			let uuid = hardware::uuid_bytes(&g.uuid)
				.ok_or_else(|| anyhow!("GPU {} has an unreadable UUID {}", g.ordinal, g.uuid))?;
			add(&mut claims, pick_profile(&profiles, args.profile.as_deref(), &g.name)?, uuid);
		}
	} else {
		if args.backend == BackendChoice::Auto {
			warn!(
				"NO GPU FOUND ({}): registering the CPU backend on the cpu-reference profile",
				machine.gpu_error.clone().unwrap_or_default()
			);
		}
		let profile = pick_profile(&profiles, Some(args.profile.as_deref().unwrap_or("cpu-reference")), "")?;
		for i in 0..args.cpu_units.max(1) {
			add(&mut claims, profile, hardware::cpu_uuid(&account.0, i));
		}
	}
	if args.cpu {
		let (id, _) = profiles
			.iter()
			.find(|(_, p)| p.figures.per_core)
			.ok_or_else(|| anyhow!("--cpu: this chain has no per-core CPU profile (cpu-core) to claim the CPU with"))?;
		if machine.cpu_cores == 0 {
			bail!("--cpu: the number of CPU cores could not be read on this machine");
		}
		add(&mut claims, *id, hardware::cpu_uuid(&account.0, hardware::CPU_CLAIM_INDEX));
	}
	#[cfg(feature = "adversary")]
	for uuid in crate::adversary::phantom_uuids(&account.0, args.adversary_extra_gpus) {
		let profile = claims[0].profile;
		add(&mut claims, profile, uuid);
	}
	let gpus: u32 = claims.iter().map(|c| c.count).sum();
	let existing = chain.miner().await?;
	if existing.is_some() && !args.update {
		bail!("account {account} is already registered; pass --update to change its claims, or `deregister` first");
	}
	let hw = convert::hardware(&machine);
	let deposit = chain.deposit_for(claims.iter().map(|c| (c.profile, c.count)).collect(), hw.cpu_cores).await?;
	let free = chain.free_balance().await?;
	if existing.is_none() && free <= deposit {
		bail!(
			"account {account} has {free} free units, and registering {gpus} GPU(s) holds a deposit of {deposit} plus fees; fund it first"
		);
	}
	for c in &claims {
		let name = profiles.iter().find(|(id, _)| *id == c.profile).map(|(_, p)| p.name.clone()).unwrap_or_default();
		info!(profile = %name, count = c.count, "claiming");
	}
	let claims = BoundedVec(claims);
	if existing.is_some() {
		chain.submit(&pog::transactions().pog().update_miner(claims, hw)).await.context("update_miner")?;
	} else {
		chain.submit(&pog::transactions().pog().register_miner(claims, hw)).await.context("register_miner")?;
	}
	println!(
		"registered {account}: {gpus} GPU(s), deposit {deposit} held; now run `offchain-gpu run` with the same key"
	);
	Ok(())
}

async fn deregister(args: ChainArgs) -> anyhow::Result<()> {
	let chain = connect(&args).await?;
	if chain.miner().await?.is_none() {
		bail!("account {} is not registered", chain.account());
	}
	chain.submit(&pog::transactions().pog().deregister_miner()).await.context("deregister_miner")?;
	println!(
		"deregistered {}: the deposit is released now, or once the round in progress is settled if the miner takes part in it",
		chain.account()
	);
	Ok(())
}

/// Why a GPU scores zero, in words.
fn zero_reason(z: &ZeroReason) -> String {
	match z {
		ZeroReason::WaitingForRound => "waiting for the next round".into(),
		ZeroReason::NotYetVerified => "committed, not verified yet".into(),
		ZeroReason::Failed(r) => format!("failed: {r:?}"),
		ZeroReason::CreditExpired => "credit expired (too many rounds without a verification)".into(),
		ZeroReason::DepositShort => "deposit short after a slash: run `register --update` to hold it again".into(),
	}
}

async fn status(args: StatusArgs) -> anyhow::Result<()> {
	let chain = connect(&args.chain).await?;
	let account = *chain.account();
	let view = chain.miner_view().await?.ok_or_else(|| anyhow!("account {account} is not registered as a miner"))?;
	let round = chain.round().await?;
	let challenges: Vec<_> = chain
		.my_challenges()
		.await?
		.iter()
		.map(|c| {
			serde_json::json!({
				"round": c.round,
				"gpu": c.params.gpu,
				"uuid": hex::encode(c.params.uuid),
				"precision": c.params.precision.name(),
				"dims": [c.params.dims.m, c.params.dims.n, c.params.dims.k],
				"deadline_ms": c.params.deadline_ms,
				"root": c.commitment.as_ref().map(|x| hex::encode(x.root)),
				"selected": c.selected,
				"verdicts": c.votes.iter().map(|(_, v)| v.passed).collect::<Vec<_>>(),
			})
		})
		.collect();
	let standing: Vec<_> = view
		.standing
		.iter()
		.enumerate()
		.map(|(gpu, s)| {
			serde_json::json!({
				"gpu": gpu,
				"uuid": hex::encode(s.uuid),
				"profile": s.profile,
				"points": s.points,
				"verified_round": s.verified_round,
				"last": s.last.as_ref().map(|(r, o)| format!("round {r}: {}", outcome_text(o))),
				"zero_reason": s.zero_reason.as_ref().map(zero_reason),
			})
		})
		.collect();
	let verified: Vec<_> = standing.iter().filter(|s| s["zero_reason"].is_null()).cloned().collect();
	let s = &view.score;
	let out = serde_json::json!({
		"miner": account.to_string(),
		"gpus_claimed": view.claimed.len(),
		"deposit": view.deposit.to_string(),
		"slashed": view.slashed.to_string(),
		"first_round": view.first_round,
		"leaving": view.leaving,
		"round": { "index": round.index, "phase": format!("{:?}", round.phase) },
		"standing": standing,
		"verified": verified,
		"challenges": challenges,
		"score": {
			"verified_gpus": s.verified_gpus, "gpu_points": s.gpu_points,
			"gpu_ppb": s.gpu.0, "hardware_ppb": s.hardware.0, "total_ppb": s.total.0,
		},
		"weight_share_ppb": view.share.0,
		"earnings": {
			"paid": view.paid.to_string(), "vesting": view.vesting.to_string(),
			"released": view.released.to_string(), "unvested_burned": view.unvested_burned.to_string(),
		},
	});
	if args.json {
		println!("{}", serde_json::to_string_pretty(&out)?);
		return Ok(());
	}
	println!("miner     {account}");
	println!("claimed   {} GPU(s), deposit {}, slashed {}", view.claimed.len(), view.deposit, view.slashed);
	println!("round     {} ({:?})", round.index, round.phase);
	for g in &standing {
		println!(
			"gpu {}     {} profile {}: {}",
			g["gpu"],
			g["uuid"].as_str().unwrap_or_default(),
			g["profile"],
			match g["zero_reason"].as_str() {
				Some(why) => format!("0 points, {why}"),
				None => format!("{} points, verified in round {}", g["points"], g["verified_round"]),
			}
		);
	}
	for c in &challenges {
		let dims: Vec<String> = c["dims"].as_array().into_iter().flatten().map(|d| d.to_string()).collect();
		println!(
			"challenge round {} gpu {} {} {}: root {}, selected {}",
			c["round"],
			c["gpu"],
			c["precision"].as_str().unwrap_or_default(),
			dims.join("×"),
			c["root"].as_str().unwrap_or("not committed"),
			c["selected"]
		);
	}
	println!(
		"score     {:.4} (gpu {:.4}, scaled by declared memory and disk {:.4})",
		f64::from(s.total.0) / 1e9,
		f64::from(s.gpu.0) / 1e9,
		f64::from(s.hardware.0) / 1e9
	);
	println!("share     {:.4}% of the epoch's weight", f64::from(view.share.0) / 1e7);
	println!(
		"earnings  paid {}, vesting {} (held; released a part each settlement), released {}, burned for failures {}",
		view.paid, view.vesting, view.released, view.unvested_burned
	);
	Ok(())
}

fn outcome_text(o: &RoundOutcome) -> String {
	match o {
		RoundOutcome::Passed => "passed".into(),
		RoundOutcome::Failed(r) => format!("failed ({r:?})"),
		RoundOutcome::Unverified(r) => format!("not verified ({r:?})"),
	}
}
