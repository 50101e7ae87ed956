//! pallet-pog tests against the mock runtime: the network-wide round through the off-chain
//! worker, every cheat, bad input, and randomised call sequences checked against the invariants.
//! This file holds the helpers every topic shares; each topic has its own file.

use crate::{mock::*, offchain, *};
use codec::{Decode, Encode};
use frame_support::{
	assert_noop, assert_ok,
	traits::{fungible::InspectHold, Hooks},
};
use pallet_pog_rewards::Event as RewardEvent;
use pallet_pog_validators::{
	Error as SetError, Event as SetEvent, PlannedValidators, Seated, ValidatorBonds, ValidatorStats, Validators,
};
use pog_primitives::{commitment::CommittedMatrix, cpu, sizing};
use rand::{rngs::StdRng, Rng, SeedableRng};
use sp_runtime::{DispatchError, Perbill};

type DispatchResultOf = sp_runtime::DispatchResult;

mod attestation;
mod capacity;
mod docs;
mod duties;
mod encoding;
mod evidence;
mod genesis_and_root;
mod invariants;
mod memory;
mod miners;
mod rewards;
mod rounds;
mod scores;
mod served;
mod validators;
mod verification;

/// `p` with its figures changed by `change`.
fn changed(p: &GpuProfile, change: impl FnOnce(&mut ProfileFigures)) -> GpuProfile {
	let mut p = p.clone();
	change(&mut p.figures);
	p
}

fn uuid(n: u8) -> GpuUuid {
	[n; 16]
}

fn claim(profile: ProfileId, uuids: &[GpuUuid]) -> ClaimOf<Test> {
	GpuClaim { profile, count: uuids.len() as u32, uuids: uuids.to_vec().try_into().unwrap() }
}

fn claims(list: Vec<ClaimOf<Test>>) -> ClaimsOf<Test> {
	list.try_into().unwrap()
}

fn hardware() -> Hardware {
	Hardware {
		cpu_cores: 32,
		cpu_model: b"AMD EPYC 9654".to_vec().try_into().unwrap(),
		ram_mib: 256 * 1024,
		disk_gib: 4096,
	}
}

fn register_cpu_miner(who: AccountId, uuids: &[GpuUuid]) {
	assert_ok!(Pog::register_miner(RuntimeOrigin::signed(who), claims(vec![claim(CPU_PROFILE, uuids)]), hardware()));
}

/// Registers each of `names` (funded accounts) with eight CPU GPUs; the i-th miner's GPU g has
/// UUID `10·i + g`.
fn register_eight_each(names: &[&str]) -> Vec<AccountId> {
	let miners: Vec<AccountId> = names.iter().map(|n| account(n)).collect();
	for (i, m) in miners.iter().enumerate() {
		let uuids: Vec<GpuUuid> = (0..8).map(|g| uuid(10 * i as u8 + g)).collect();
		register_cpu_miner(*m, &uuids);
	}
	miners
}

/// Commits made-up roots for GPUs 0–7 of each of `miners`.
fn commit_eight_each(miners: &[AccountId]) {
	for m in miners {
		let roots: Vec<(GpuIndex, Hash32)> = (0..8).map(|g| (g, [g as u8; 32])).collect();
		assert_ok!(commit(*m, &roots));
	}
}

fn events() -> Vec<Event<Test>> {
	System::events()
		.into_iter()
		.filter_map(|r| if let RuntimeEvent::Pog(e) = r.event { Some(e) } else { None })
		.collect()
}

/// The reward ledger's events (`pallet-pog-rewards`).
fn reward_events() -> Vec<RewardEvent<Test>> {
	System::events()
		.into_iter()
		.filter_map(|r| if let RuntimeEvent::PogRewards(e) = r.event { Some(e) } else { None })
		.collect()
}

fn try_state() {
	Pog::do_try_state().expect("invariants hold");
	PogRewards::do_try_state().expect("the reward ledger's invariants hold");
	PogValidators::do_try_state().expect("the validator set's invariants hold");
}

/// The validator set's events (`pallet-pog-validators`).
fn set_events() -> Vec<SetEvent<Test>> {
	System::events()
		.into_iter()
		.filter_map(|r| if let RuntimeEvent::PogValidators(e) = r.event { Some(e) } else { None })
		.collect()
}

fn phase() -> RoundPhase {
	Pog::round().phase
}

/// Runs blocks until the round is in `want` (at most 200 blocks); returns the round index.
fn run_until(want: RoundPhase) -> RoundIndex {
	for _ in 0..200 {
		if phase() == want {
			return Pog::round().index;
		}
		next_block();
		try_state();
	}
	panic!("the round never reached {want:?}");
}

/// Runs blocks to the start of the next round; returns its index.
fn next_round() -> RoundIndex {
	if phase() != RoundPhase::Idle {
		run_until(RoundPhase::Idle);
	}
	run_until(RoundPhase::Commit)
}

fn params(who: AccountId, gpu: GpuIndex) -> ChallengeParams {
	let info = Miners::<Test>::get(who).unwrap();
	Pog::challenge_params(&Pog::round(), &who, &info, gpu).unwrap()
}

/// How a (possibly cheating) miner computes C.
#[derive(Clone, Copy, Debug)]
enum Compute {
	Honest,
	/// Operands rounded to a cheaper format's mantissa (`Precision::substitute_mantissa_bits`).
	LowerPrecision,
	/// A fraction (in percent) of the entries replaced by garbage.
	Corrupt(u32),
}

fn compute(p: &ChallengeParams, how: Compute) -> CommittedMatrix {
	let spec = p.spec(None);
	let mut c = match how {
		Compute::LowerPrecision => {
			cpu::gemm_rows_rounded(&spec, 0, spec.dims.m, Some(p.precision.substitute_mantissa_bits()))
		},
		_ => cpu::gemm(&spec),
	};
	if let Compute::Corrupt(percent) = how {
		let mut rng = StdRng::seed_from_u64(u64::from(p.seed[0]));
		for v in c.iter_mut() {
			if rng.random_range(0..100) < percent {
				*v = (f32::from_bits(*v) + rng.random_range(1.0..100.0f32)).to_bits();
			}
		}
	}
	CommittedMatrix::new(c)
}

fn report() -> AgentReport {
	AgentReport { elapsed_ms: 1_000, interval_ms: 100, trace_gflops: vec![2; 10].try_into().unwrap() }
}

fn commit(who: AccountId, roots: &[(GpuIndex, Hash32)]) -> DispatchResultOf {
	let roots: Vec<RootCommit> =
		roots.iter().map(|(gpu, root)| RootCommit { gpu: *gpu, root: *root, report: report() }).collect();
	Pog::commit_roots(RuntimeOrigin::signed(who), Pog::round().index, roots.try_into().unwrap())
		.map(|_| ())
		.map_err(|e| e.error)
}

/// Computes and commits every GPU of `who` as `how`; returns the results by GPU.
fn answer(who: AccountId, how: Compute) -> Vec<CommittedMatrix> {
	let gpus = Miners::<Test>::get(who).unwrap().gpu_count();
	let results: Vec<CommittedMatrix> = (0..gpus).map(|g| compute(&params(who, g), how)).collect();
	let roots: Vec<(GpuIndex, Hash32)> = results.iter().enumerate().map(|(g, r)| (g as u32, r.root())).collect();
	assert_ok!(commit(who, &roots));
	results
}

fn opening(result: &CommittedMatrix, leaf: u32) -> Opening {
	let (values, proof) = result.open(leaf).expect("leaf inside C");
	Opening { leaf, values: values.to_vec().try_into().unwrap(), proof: proof.try_into().unwrap() }
}

fn openings_for(who: AccountId, gpu: GpuIndex, result: &CommittedMatrix) -> OpeningsOf<Test> {
	let round = Pog::round();
	let c = Commitments::<Test>::get(round.index, who).unwrap()[gpu as usize].clone().unwrap();
	let leaves = Pog::leaves_for(round.selection.as_ref().unwrap(), &c);
	leaves.into_iter().map(|l| opening(result, l)).collect::<Vec<_>>().try_into().unwrap()
}

fn reveal(who: AccountId, gpu: GpuIndex, result: &CommittedMatrix) -> DispatchResultOf {
	Pog::reveal_openings(
		RuntimeOrigin::signed(who),
		Pog::round().index,
		gpu,
		openings_for(who, gpu, result),
		Default::default(),
	)
	.map(|_| ())
	.map_err(|e| e.error)
}

fn verdict_by(validator: AccountId, who: AccountId, gpu: GpuIndex, entropy: u8) -> DispatchResultOf {
	let index = Pog::round().index;
	let (v, ..) = offchain::verify_challenge::<Test>(index, &who, gpu, &[entropy; 32]).expect("revealed");
	Pog::submit_verdict(RuntimeOrigin::signed(validator), index, who, gpu, v).map(|_| ()).map_err(|e| e.error)
}

fn false_verdict(passed: bool, leaf: Option<u32>) -> Verdict {
	Verdict {
		passed,
		failed_leaf: leaf,
		failed_walk: None,
		reported: SelfReported { entries_checked: 16, worst_permille: 0, walks_checked: 0 },
	}
}

fn committee(who: AccountId, gpu: GpuIndex) -> Vec<AccountId> {
	Verifications::<Test>::get((Pog::round().index, who, gpu)).unwrap().committee.to_vec()
}

/// The outcomes of `who` in the last `MinerSettled` event for it.
fn settled(who: AccountId) -> Vec<RoundOutcome> {
	events()
		.into_iter()
		.rev()
		.find_map(|e| match e {
			Event::MinerSettled { miner, outcomes, .. } if miner == who => {
				Some(outcomes.iter().map(|(_, o)| *o).collect())
			},
			_ => None,
		})
		.expect("the miner was settled")
}

/// Runs blocks until the pending payout of the last settled round is paid.
fn until_paid() {
	for _ in 0..50 {
		if !pallet_pog_rewards::PendingPayout::<Test>::exists() {
			return;
		}
		next_block();
		try_state();
	}
	panic!("the payout never finished");
}

/// Funds `who` with `amount` as if at genesis: the money ledger's baseline grows with it.
fn fund(who: &AccountId, amount: Balance) {
	use frame_support::traits::fungible::Mutate;
	assert_ok!(Balances::mint_into(who, amount));
	pallet_pog_rewards::Ledger::<Test>::mutate(|l| l.as_mut().expect("opened at genesis").baseline += amount);
}

/// What `who` holds as unvested pay.
fn vesting_hold(who: AccountId) -> Balance {
	Balances::balance_on_hold(&RuntimeHoldReason::PogRewards(pallet_pog_rewards::HoldReason::Vesting), &who)
}

fn standing(who: AccountId) -> Vec<GpuStanding> {
	Standing::<Test>::get(who).to_vec()
}

/// Plays one whole round: every listed miner answers as told, every committee votes by
/// recomputation; returns when the round is settled.
fn play_round(miners: &[(AccountId, Compute)]) -> RoundIndex {
	play_round_unvoted(miners, &[])
}

/// [`play_round`], but no member votes on the GPUs of the `unvoted` miners: revealed, they are
/// left `Inconclusive`.
fn play_round_unvoted(miners: &[(AccountId, Compute)], unvoted: &[AccountId]) -> RoundIndex {
	let index = next_round();
	let results: Vec<(AccountId, Vec<CommittedMatrix>)> =
		miners.iter().map(|(m, how)| (*m, answer(*m, *how))).collect();
	run_until(RoundPhase::Reveal);
	for (m, rs) in &results {
		for (g, r) in rs.iter().enumerate() {
			assert_ok!(reveal(*m, g as u32, r));
		}
	}
	for (m, rs) in results.iter().filter(|(m, _)| !unvoted.contains(m)) {
		for g in 0..rs.len() as u32 {
			for v in committee(*m, g) {
				assert_ok!(verdict_by(v, *m, g, 7));
			}
		}
	}
	run_until(RoundPhase::Idle);
	index
}

/// Issue 11: `CheckDuty` gives each duty the highest priority and a pool tag while it is owed, and
/// refuses it with the dispatch's own error index once it is not: commits outside the commit phase,
/// from an account not taking part, or for GPUs all committed; reveals of unselected or already
/// revealed GPUs; verdicts from validators off the committee or that already voted. Other calls
/// pass through untouched.
/// What the pool's duty check ([`crate::duty::CheckDuty`]) says of `call` signed by `who`.
/// The verdicts the transactions `sent` carry (each `submit_verdicts` several).
fn verdicts_in(sent: &[Included]) -> usize {
	sent.iter()
		.map(|(_, call, _)| match call {
			RuntimeCall::Pog(crate::Call::submit_verdicts { verdicts, .. }) => verdicts.len(),
			RuntimeCall::Pog(crate::Call::submit_verdict { .. }) => 1,
			_ => 0,
		})
		.sum()
}

fn check_duty(
	who: AccountId,
	call: Call<Test>,
) -> Result<
	sp_runtime::transaction_validity::ValidTransaction,
	sp_runtime::transaction_validity::TransactionValidityError,
> {
	use crate::duty::CheckDuty;
	use frame_support::dispatch::GetDispatchInfo;
	use sp_runtime::{traits::DispatchTransaction, transaction_validity::TransactionSource};
	let call = RuntimeCall::Pog(call);
	CheckDuty::<Test>::new()
		.validate_only(RuntimeOrigin::signed(who), &call, &call.get_dispatch_info(), 0, TransactionSource::External, 0)
		.map(|(valid, _, _)| valid)
}

/// The pool's refusal of a duty whose dispatch would fail with `e`: `Custom(e's index)`.
fn refused_in_pool(
	e: Error<Test>,
) -> Result<
	sp_runtime::transaction_validity::ValidTransaction,
	sp_runtime::transaction_validity::TransactionValidityError,
> {
	use sp_runtime::transaction_validity::{InvalidTransaction, TransactionValidityError};
	let DispatchError::Module(m) = DispatchError::from(e) else { unreachable!() };
	Err(TransactionValidityError::Invalid(InvalidTransaction::Custom(m.error[0])))
}

/// How a (possibly cheating) miner answers a memory phase.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Memory {
	/// Every walk through the dataset.
	Honest,
	/// Results made up without the dataset (a commitment with valid paths over wrong walks).
	MadeUp,
	/// A lane phase's links each run from no parents, as a prover running them all at once would.
	OutOfOrder,
}

/// A CPU's answer to `p`'s memory phase: every level of its walk commitment.
fn memory_levels(p: &ChallengeParams, how: Memory) -> Vec<Vec<Hash32>> {
	use pog_primitives::{lanes, memory};
	let ch = p.memory_challenge().expect("a memory phase");
	let results: Vec<Hash32> = match how {
		Memory::MadeUp => (0..ch.walks).map(|w| sp_io::hashing::keccak_256(&w.to_le_bytes())).collect(),
		Memory::Honest if matches!(ch.spec.kind(), memory::MemoryKind::Lanes(_)) => {
			let links = lanes::links_per_lane(&ch);
			(0..ch.spec.lanes)
				.flat_map(|l| lanes::lane_results(&ch.spec, l, links, &lanes::pad(&ch.spec.seed, l)))
				.collect()
		},
		Memory::OutOfOrder => (0..ch.walks)
			.map(|w| {
				let (lane, link) = lanes::lane_and_link(w, lanes::links_per_lane(&ch));
				let start = lanes::link_start(&ch.spec.seed, lane, link, &lanes::digest(&[]));
				lanes::link_result(&lanes::run_steps(start, ch.spec.reads, |i| lanes::pad_item(&ch.spec.seed, lane, i)))
			})
			.collect(),
		Memory::Honest => {
			let cache = memory::cache(&ch.spec);
			let data = memory::dataset(&ch.spec, &cache);
			(0..ch.walks).map(|w| memory::walk(&ch.spec, w, |i| data[i as usize])).collect()
		},
	};
	memory::levels_from(results, 0)
}

fn root_of(levels: &[Vec<Hash32>]) -> Hash32 {
	levels.last().unwrap()[0]
}

fn commit_memory(who: AccountId, roots: &[(GpuIndex, Hash32)]) -> DispatchResultOf {
	let roots: Vec<MemoryRoot> = roots.iter().map(|(gpu, root)| MemoryRoot { gpu: *gpu, root: *root }).collect();
	Pog::commit_memory(RuntimeOrigin::signed(who), Pog::round().index, roots.try_into().unwrap())
		.map(|_| ())
		.map_err(|e| e.error)
}

/// The sampled walks of `who`'s GPU `gpu`, opened from `levels`.
fn walk_openings(who: AccountId, gpu: GpuIndex, levels: &[Vec<Hash32>]) -> Vec<WalkOpening> {
	let round = Pog::round();
	let c = Commitments::<Test>::get(round.index, who).unwrap()[gpu as usize].clone().unwrap();
	Pog::walks_for(round.selection.as_ref().unwrap(), &c)
		.into_iter()
		.map(|walk| WalkOpening {
			walk,
			result: levels[0][walk as usize],
			proof: pog_primitives::memory::proof_from(levels, 0, walk).try_into().unwrap(),
		})
		.collect()
}

fn reveal_with_walks(
	who: AccountId,
	gpu: GpuIndex,
	result: &CommittedMatrix,
	walks: Vec<WalkOpening>,
) -> DispatchResultOf {
	let openings = openings_for(who, gpu, result);
	Pog::reveal_openings(RuntimeOrigin::signed(who), Pog::round().index, gpu, openings, walks.try_into().unwrap())
		.map(|_| ())
		.map_err(|e| e.error)
}

/// Answers every GPU of `who` (all with a memory phase): the memory phase as `memory`, its root
/// committed, then the GEMM seeded from the root (or, with `gemm_from_root` false, from the GPU's
/// seed alone) committed. Returns each GPU's C and walk commitment.
fn answer_memory(who: AccountId, memory: Memory, gemm_from_root: bool) -> Vec<(CommittedMatrix, Vec<Vec<Hash32>>)> {
	let gpus = Miners::<Test>::get(who).unwrap().gpu_count();
	let levels: Vec<Vec<Vec<Hash32>>> = (0..gpus).map(|g| memory_levels(&params(who, g), memory)).collect();
	let roots: Vec<(GpuIndex, Hash32)> = levels.iter().enumerate().map(|(g, l)| (g as u32, root_of(l))).collect();
	assert_ok!(commit_memory(who, &roots));
	let answers: Vec<(CommittedMatrix, Vec<Vec<Hash32>>)> = levels
		.into_iter()
		.enumerate()
		.map(|(g, l)| {
			let p = params(who, g as u32);
			let root = root_of(&l);
			let spec = p.spec(gemm_from_root.then_some(&root));
			(CommittedMatrix::new(cpu::gemm(&spec)), l)
		})
		.collect();
	let gemm: Vec<(GpuIndex, Hash32)> = answers.iter().enumerate().map(|(g, a)| (g as u32, a.0.root())).collect();
	assert_ok!(commit(who, &gemm));
	answers
}

fn register_memory_miner(who: AccountId, uuids: &[GpuUuid]) {
	let c = claims(vec![claim(CPU_MEMORY_PROFILE, uuids)]);
	assert_ok!(Pog::register_miner(RuntimeOrigin::signed(who), c, hardware()));
}

/// Registers `who` with its CPU ([`hardware`]'s cores) as one unit of `cpu-lanes`.
fn register_lanes_miner(who: AccountId, uuid: GpuUuid) {
	let c = claims(vec![claim(CPU_LANES_PROFILE, &[uuid])]);
	assert_ok!(Pog::register_miner(RuntimeOrigin::signed(who), c, hardware()));
}

/// A `commit_roots` of `gpus` with made-up roots.
fn made_up_roots(gpus: &[GpuIndex]) -> RootsOf<Test> {
	gpus.iter().map(|g| RootCommit { gpu: *g, root: [1; 32], report: report() }).collect::<Vec<_>>().try_into().unwrap()
}

/// A `commit_memory` of `gpus` with made-up roots.
fn made_up_memory_roots(gpus: &[GpuIndex]) -> MemoryRootsOf<Test> {
	gpus.iter().map(|g| MemoryRoot { gpu: *g, root: [2; 32] }).collect::<Vec<_>>().try_into().unwrap()
}
