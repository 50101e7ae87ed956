//! Benchmarks of every pallet-pog call (frame-benchmarking v2), each in its worst case.

use super::*;
use crate::pallet::Pallet as Pog;
use alloc::{vec, vec::Vec};
use frame_benchmarking::v2::*;
use frame_support::{
	traits::{
		fungible::{Inspect, Mutate},
		Get,
	},
	BoundedVec,
};
use frame_system::RawOrigin;
use pog_primitives::{commitment, LEAF_VALUES};
use sp_runtime::{Perbill, Saturating};

const SEED: u32 = 0;

fn funded<T: Config>(name: &'static str, index: u32) -> T::AccountId
where
	T::Currency: Mutate<T::AccountId>,
{
	let who: T::AccountId = account(name, index, SEED);
	let deposit = Pog::<T>::deposit_for([(bench_profile::<T>(), T::MaxGpusPerMiner::get())], hardware().cpu_cores);
	let ed = T::Currency::minimum_balance();
	let _ = T::Currency::set_balance(&who, deposit.saturating_add(ed).saturating_mul(100u32.into()));
	who
}

/// The largest card of the default table (the largest challenges), under its own name.
fn profile() -> GpuProfile {
	profiles::on_chain("bench GPU", pog_primitives::profiles::H200).expect("a short name")
}

fn ensure_profile<T: Config>() -> ProfileId {
	Pog::<T>::insert_profile(profile()).expect("a valid profile within MaxProfiles")
}

/// The bench profile, added once.
fn bench_profile<T: Config>() -> ProfileId {
	Profiles::<T>::iter().find(|(_, p)| *p == profile()).map(|(id, _)| id).unwrap_or_else(ensure_profile::<T>)
}

fn gpu_uuid(miner: u32, gpu: u32) -> GpuUuid {
	let mut u = [0u8; 16];
	u[..4].copy_from_slice(&miner.to_le_bytes());
	u[4..8].copy_from_slice(&gpu.to_le_bytes());
	u[15] = 0xb0;
	u
}

fn claims_for<T: Config>(profile: ProfileId, miner: u32, gpus: u32, salt: u32) -> ClaimsOf<T> {
	let uuids: Vec<GpuUuid> = (0..gpus).map(|g| gpu_uuid(miner, g + salt)).collect();
	let claim = GpuClaim { profile, count: gpus, uuids: uuids.try_into().expect("gpus ≤ MaxGpusPerMiner") };
	vec![claim].try_into().expect("one claim")
}

fn hardware() -> Hardware {
	Hardware {
		cpu_cores: 64,
		cpu_model: vec![b'x'; 96].try_into().expect("96 bytes fit"),
		ram_mib: 512 * 1024,
		disk_gib: 8_192,
	}
}

/// The first of the validators the validator set seats for benchmarks, each its own committee
/// member (the round's committees are drawn from them: [`Pallet::committee_pool`] falls back to
/// the seated set without a draw).
fn validator<T: Config>() -> T::AccountId {
	if T::Committee::seated().is_empty() {
		seat::<T>(1);
	}
	T::Committee::seated()
		.first()
		.map(|(_, member)| member.clone())
		.expect("the validator set seats benchmarks' validators")
}

/// Seats `n` validators (the validator set's `bench_seat`), each its own committee member.
fn seat<T: Config>(n: u32) -> Vec<T::AccountId> {
	T::Committee::bench_seat(n).into_iter().map(|(_, member)| member).collect()
}

fn miner_with<T: Config>(index: u32, gpus: u32) -> T::AccountId
where
	T::Currency: Mutate<T::AccountId>,
{
	let profile = bench_profile::<T>();
	let who = funded::<T>("miner", index);
	Pog::<T>::do_register(who.clone(), claims_for::<T>(profile, index, gpus, 0), hardware()).expect("registers");
	who
}

/// Weight shares of a full registry: `paid` first (each 1/`MaxMiners`), then unregistered
/// accounts.
fn full_shares<T: Config>(paid: &[T::AccountId]) {
	let max = T::MaxMiners::get();
	let share = Perbill::from_rational(1, max);
	let shares: Vec<(T::AccountId, Perbill)> = paid
		.iter()
		.cloned()
		.chain((paid.len() as u32..max).map(|i| account("share", i, SEED)))
		.map(|who| (who, share))
		.collect();
	WeightShares::<T>::put(BoundedVec::truncate_from(shares));
}

/// `n` registered miners of one GPU each, with the first shares of a full registry's weight
/// shares (the reward ledger's benchmarks pay them: `Payees::bench_payees`).
pub(crate) fn payees<T: Config>(n: u32) -> Vec<T::AccountId> {
	let miners: Vec<T::AccountId> = (0..n).map(|i| miner_with::<T>(i, 1)).collect();
	full_shares::<T>(&miners);
	miners
}

/// Opens round 1 in its commit phase, as `on_initialize` would, with a commit window that is
/// still open.
fn open_round<T: Config>() {
	let mut round = Pog::<T>::genesis_round();
	round.index = 1;
	round.phase = RoundPhase::Commit;
	round.seed = [3u8; 32];
	round.started_at = frame_system::Pallet::<T>::block_number();
	round.start_ms = 0;
	round.commit_close_ms = u64::MAX;
	Round::<T>::put(round);
}

/// Draws round 1's sample with every committed GPU selected and the windows open.
fn select_all<T: Config>() {
	let mut round = Pog::<T>::round();
	let far = frame_system::Pallet::<T>::block_number().saturating_add(1000u32.into());
	round.phase = RoundPhase::Reveal;
	round.selection = Some(Selection {
		seed: [5u8; 32],
		at: frame_system::Pallet::<T>::block_number(),
		probability: Perbill::one(),
		capacity: u32::MAX,
		reveal_deadline: far,
		verdict_deadline: far,
	});
	Round::<T>::put(round);
}

/// The deepest tree the protocol allows, C all zeros: its root and the one shared path.
fn zero_commitment() -> (Dims, Hash32, Vec<Hash32>) {
	let dims = Dims { m: pog_primitives::sizing::MAX_DIM, n: pog_primitives::sizing::MAX_DIM, k: 256 };
	let zero_c = commitment::ConstantCommitment::new(0, &dims);
	(dims, zero_c.root(), zero_c.proof())
}

/// Walks of the memory commitments the benchmarks open: 2^40, a deeper tree than any profile's
/// (an H200's 6.8 G walks make 33 levels).
const ZERO_WALKS_LOG2: u32 = 40;

/// The memory commitment over 2^40 all-zero walk results: its root and the path every walk
/// shares.
fn zero_walk_tree() -> (Hash32, Vec<Hash32>) {
	let path = (0..ZERO_WALKS_LOG2).map(pog_primitives::memory::empty_node).collect();
	(pog_primitives::memory::empty_node(ZERO_WALKS_LOG2), path)
}

/// Stores `miner`'s memory roots of its first `gpus` GPUs in round 1.
fn commit_memory_zero<T: Config>(miner: &T::AccountId, gpus: u32) {
	let info = Miners::<T>::get(miner).expect("registered");
	let (root, _) = zero_walk_tree();
	let mut slots = vec![None; info.gpu_count() as usize];
	for slot in slots.iter_mut().take(gpus as usize) {
		*slot = Some(MemoryCommitment { root, committed_ms: 0 });
	}
	MemoryCommitments::<T>::insert(1, miner, BoundedVec::<_, T::MaxGpusPerMiner>::truncate_from(slots));
}

/// Stores `miner`'s commitment of GPU `gpu` in round 1 with an all-zero C of the deepest tree,
/// after an all-zero memory commitment of 2^40 walks.
fn commit_zero<T: Config>(miner: &T::AccountId, gpu: GpuIndex) -> Commitment {
	let info = Miners::<T>::get(miner).expect("registered");
	let mut params = Pog::<T>::challenge_params(&Pog::<T>::round(), miner, &info, gpu).expect("claimed GPU");
	let (dims, root, _) = zero_commitment();
	params.dims = dims;
	if let Some(memory) = params.memory.as_mut() {
		memory.challenge.walks = 1 << ZERO_WALKS_LOG2;
	}
	let memory_root = params.memory.map(|_| zero_walk_tree().0);
	let c = Commitment { params, root, committed_ms: 0, report: AgentReport::default(), memory_root };
	Commitments::<T>::mutate(1, miner, |slots| {
		let slots = slots.get_or_insert_with(|| BoundedVec::truncate_from(vec![None; info.gpu_count() as usize]));
		slots[gpu as usize] = Some(c.clone());
	});
	c
}

/// The openings of a zero commitment that round 1's sample asks for.
fn zero_openings<T: Config>(c: &Commitment) -> Vec<Opening> {
	let selection = Pog::<T>::round().selection.expect("sample drawn");
	let (_, _, path) = zero_commitment();
	let zeros = vec![0u32; LEAF_VALUES];
	Pog::<T>::leaves_for(&selection, c)
		.into_iter()
		.map(|leaf| Opening {
			leaf,
			values: zeros.clone().try_into().expect("one leaf"),
			proof: path.clone().try_into().expect("depth ≤ 32"),
		})
		.collect()
}

/// The opened walks of a zero memory commitment that round 1's sample asks for.
fn zero_walks<T: Config>(c: &Commitment) -> Vec<WalkOpening> {
	let selection = Pog::<T>::round().selection.expect("sample drawn");
	let (_, path) = zero_walk_tree();
	Pog::<T>::walks_for(&selection, c)
		.into_iter()
		.map(|walk| WalkOpening { walk, result: [0; 32], proof: path.clone().try_into().expect("depth ≤ 64") })
		.collect()
}

/// A passing verdict.
fn pass() -> Verdict {
	Verdict {
		passed: true,
		failed_leaf: None,
		failed_walk: None,
		reported: SelfReported { entries_checked: 64, worst_permille: 300, walks_checked: 64 },
	}
}

#[benchmarks(where T::Currency: Mutate<T::AccountId>)]
mod benchmarks {
	use super::*;

	#[benchmark]
	fn register_miner(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let profile = ensure_profile::<T>();
		let who = funded::<T>("miner", 0);
		let claims = claims_for::<T>(profile, 0, g, 0);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), claims, hardware());
		assert!(Miners::<T>::contains_key(&who));
	}

	#[benchmark]
	fn update_miner(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		// Worst case: applied at once (claims, counters and standing rewritten).
		let who = miner_with::<T>(0, g);
		let profile = ensure_profile::<T>();
		let claims = claims_for::<T>(profile, 0, g, 1000);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), claims, hardware());
		assert_eq!(Miners::<T>::get(&who).expect("registered").claims[0].profile, profile);
	}

	#[benchmark]
	fn deregister_miner(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let who = miner_with::<T>(0, g);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()));
		assert!(!Miners::<T>::contains_key(&who));
	}

	#[benchmark]
	fn commit_memory(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		let miner = miner_with::<T>(0, g);
		open_round::<T>();
		let roots: Vec<MemoryRoot> = (0..g).map(|gpu| MemoryRoot { gpu, root: [7u8; 32] }).collect();
		let roots: BoundedVec<_, _> = roots.try_into().expect("g ≤ MaxGpusPerMiner");
		#[extrinsic_call]
		_(RawOrigin::Signed(miner.clone()), 1, roots);
		let slots = MemoryCommitments::<T>::get(1, &miner).expect("committed");
		assert!(slots.iter().all(|s| s.is_some()));
	}

	#[benchmark]
	fn commit_roots(g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		// Worst case: every GPU has a memory phase, whose root is read.
		let miner = miner_with::<T>(0, g);
		open_round::<T>();
		commit_memory_zero::<T>(&miner, g);
		let report = AgentReport {
			elapsed_ms: 1,
			interval_ms: 1_000,
			trace_gflops: vec![1; pog_primitives::MAX_TRACE_LEN as usize].try_into().expect("max trace"),
		};
		let roots: Vec<RootCommit> =
			(0..g).map(|gpu| RootCommit { gpu, root: [7u8; 32], report: report.clone() }).collect();
		let roots: BoundedVec<_, _> = roots.try_into().expect("g ≤ MaxGpusPerMiner");
		#[extrinsic_call]
		_(RawOrigin::Signed(miner.clone()), 1, roots);
		assert_eq!(Pog::<T>::round().committed, g);
	}

	#[benchmark]
	fn reveal_openings(o: Linear<1, { T::MaxOpenings::get() }>, w: Linear<1, { MaxWalkOpenings::get() }>) {
		let mut config = Configuration::<T>::get();
		config.openings = o;
		config.memory.openings = w;
		Configuration::<T>::put(config);
		let _ = validator::<T>();
		let miner = miner_with::<T>(1, 1);
		open_round::<T>();
		let c = commit_zero::<T>(&miner, 0);
		select_all::<T>();
		let openings: BoundedVec<_, _> = zero_openings::<T>(&c).try_into().expect("o ≤ MaxOpenings");
		let walks: BoundedVec<_, _> = zero_walks::<T>(&c).try_into().expect("w ≤ MaxWalkOpenings");
		#[extrinsic_call]
		_(RawOrigin::Signed(miner.clone()), 1, 0, openings, walks);
		assert!(Verifications::<T>::contains_key((1, &miner, 0)));
		assert_eq!(WalkResults::<T>::get((1, &miner, 0)).expect("walks stored").len() as u32, w);
	}

	#[benchmark]
	fn submit_verdict(v: Linear<1, { T::MaxValidators::get() }>) {
		// Worst case: a committee of `v`, and this verdict completes its ⌊2v/3⌋+1 quorum.
		seat::<T>(v);
		let mut config = Configuration::<T>::get();
		config.committee = v;
		Configuration::<T>::put(config);
		let miner = miner_with::<T>(1, 1);
		open_round::<T>();
		let c = commit_zero::<T>(&miner, 0);
		select_all::<T>();
		let (openings, walks) = (zero_openings::<T>(&c), zero_walks::<T>(&c));
		Pog::<T>::do_reveal(
			miner.clone(),
			1,
			0,
			openings.try_into().expect("bounded"),
			walks.try_into().expect("bounded"),
		)
		.expect("valid openings");
		let committee = Verifications::<T>::get((1, &miner, 0)).expect("revealed").committee;
		let verdict = pass();
		let quorum = Pog::<T>::quorum_of(committee.len() as u32) as usize;
		for member in committee.iter().take(quorum - 1) {
			Pog::<T>::do_verdict(member.clone(), 1, miner.clone(), 0, verdict).expect("member votes");
		}
		let last = committee[quorum - 1].clone();
		#[extrinsic_call]
		_(RawOrigin::Signed(last), 1, miner.clone(), 0, verdict);
		assert_eq!(Verifications::<T>::get((1, &miner, 0)).expect("revealed").status, VerificationStatus::Passed);
	}

	/// An attestation that leaves `o` served GPUs open, each of its own miner (every check reads
	/// new keys), moved forward from one that left the same GPUs open at a lower `upto`: each
	/// open GPU's position (standing, first draw), served marker, rebuttal (openings), the
	/// member's votes on it, and the last attestation's open list, scanned whole. The verdicts an
	/// attestation carries weigh what `submit_verdict` does ([`Pallet::attest_weight`]).
	#[benchmark]
	fn attest(o: Linear<0, { <attestation::MaxOpen as Get<u32>>::get() }>) {
		let v = validator::<T>();
		let miners: Vec<T::AccountId> = (0..o).map(|i| miner_with::<T>(i, 1)).collect();
		open_round::<T>();
		select_all::<T>();
		let endpoint: served::Endpoint =
			vec![b'a'; pog_primitives::endpoint::MAX_ENDPOINT_LEN as usize].try_into().expect("the longest endpoint");
		for miner in &miners {
			ServedIn::<T>::insert(1, miner, endpoint.clone());
		}
		let open: attestation::OpenOf<T> =
			miners.iter().map(|m| (m.clone(), 0)).collect::<Vec<_>>().try_into().expect("o ≤ MaxOpen");
		let before = attestation::Attestation { upto: (2, [0x80; 32]), open: open.clone() };
		Attestations::<T>::insert(1, &v, before);
		let upto = (2, [0xff; 32]);
		#[extrinsic_call]
		_(RawOrigin::Signed(v.clone()), 1, upto, open, BoundedVec::new(), Default::default());
		let now = Attestations::<T>::get(1, &v).expect("attested");
		assert_eq!((now.upto, now.open.len() as u32), (upto, o));
	}

	#[benchmark]
	fn start_round(p: Linear<1, { T::MaxProfiles::get() }>) {
		while ProfileCount::<T>::get() < p {
			ensure_profile::<T>();
		}
		let now = frame_system::Pallet::<T>::block_number();
		let mut round = Pog::<T>::genesis_round();
		round.next_start = (now, now);
		Round::<T>::put(round);
		#[block]
		{
			Pog::<T>::advance_round(now);
		}
		assert_eq!(Pog::<T>::round().phase, RoundPhase::Commit);
	}

	#[benchmark]
	fn draw_sample() {
		let _ = validator::<T>();
		open_round::<T>();
		let mut round = Pog::<T>::round();
		round.commit_close_ms = 0;
		round.committed = 1_000_000;
		Round::<T>::put(round);
		let now = frame_system::Pallet::<T>::block_number();
		#[block]
		{
			Pog::<T>::advance_round(now);
		}
		assert_eq!(Pog::<T>::round().phase, RoundPhase::Reveal);
	}

	#[benchmark]
	fn settle_miners(m: Linear<1, 64>, g: Linear<1, { T::MaxGpusPerMiner::get() }>) {
		// Worst case: every GPU committed, selected, revealed and verified by a committee member.
		let v = validator::<T>();
		let miners: Vec<T::AccountId> = (0..m).map(|i| miner_with::<T>(i, g)).collect();
		// Each with the longest vesting schedule, walked at its settlement.
		miners.iter().for_each(T::RoundPay::fill_vesting);
		assert!(
			miners.iter().all(|m| !sp_runtime::traits::Zero::is_zero(&T::RoundPay::earnings(m).vesting)),
			"the runtime's RoundPay fills vesting schedules"
		);
		open_round::<T>();
		for miner in &miners {
			for gpu in 0..g {
				commit_zero::<T>(miner, gpu);
			}
		}
		select_all::<T>();
		let verdict = pass();
		for miner in &miners {
			for gpu in 0..g {
				Verifications::<T>::insert(
					(1, miner, gpu),
					Verification {
						sample_seed: [0; 32],
						committee: BoundedVec::truncate_from(vec![v.clone()]),
						votes: BoundedVec::truncate_from(vec![(v.clone(), verdict)]),
						status: VerificationStatus::Passed,
					},
				);
			}
		}
		let mut config = Configuration::<T>::get();
		config.settle_per_block = m;
		Configuration::<T>::put(config);
		let mut round = Pog::<T>::round();
		round.phase = RoundPhase::Settle;
		Round::<T>::put(round);
		let now = frame_system::Pallet::<T>::block_number();
		#[block]
		{
			Pog::<T>::advance_round(now);
		}
		assert!(miners.iter().all(|who| Miners::<T>::get(who).expect("registered").settled_round == 1));
	}

	#[benchmark]
	fn idle_block() {
		let now = frame_system::Pallet::<T>::block_number();
		let mut round = Pog::<T>::genesis_round();
		round.next_start = (now.saturating_add(10u32.into()), now.saturating_add(20u32.into()));
		Round::<T>::put(round);
		#[block]
		{
			Pog::<T>::advance_round(now);
		}
		assert_eq!(Pog::<T>::round().phase, RoundPhase::Idle);
	}

	#[benchmark]
	fn add_profile() {
		let before = ProfileCount::<T>::get();
		#[extrinsic_call]
		_(RawOrigin::Root, profile());
		assert_eq!(ProfileCount::<T>::get(), before + 1);
	}

	/// `m` miners claim the profile (the weight extrapolates linearly to `MaxMiners`; setting up
	/// 4,096 registrations per step would take the benchmark hours), and its doubled rates raise
	/// every one's deposit.
	#[benchmark]
	fn update_profile(m: Linear<0, { T::MaxMiners::get().min(256) }>) {
		let id = bench_profile::<T>();
		let miners: Vec<T::AccountId> = (0..m).map(|i| miner_with::<T>(i, 1)).collect();
		let mut faster = profile();
		faster.figures.gflops = faster.figures.gflops.map(|g| g * 2);
		faster.figures.int8_gops *= 2;
		#[extrinsic_call]
		_(RawOrigin::Root, id, faster.clone());
		assert_eq!(Profiles::<T>::get(id), Some(faster));
		for who in &miners {
			let info = Miners::<T>::get(who).expect("registered");
			assert_eq!(info.deposit, Pog::<T>::deposit_of(&info));
		}
	}

	#[benchmark]
	fn remove_profile() {
		let id = ensure_profile::<T>();
		#[extrinsic_call]
		_(RawOrigin::Root, id);
		assert!(!Profiles::<T>::contains_key(id));
	}

	#[benchmark]
	fn set_config() {
		let config = ProtocolConfig::mainnet();
		#[extrinsic_call]
		_(RawOrigin::Root, config);
		assert_eq!(Configuration::<T>::get(), config);
	}

	#[benchmark]
	fn update_shares(m: Linear<0, { T::MaxMiners::get() }>) {
		for i in 0..m {
			let who: T::AccountId = account("scored", i, SEED);
			Scores::<T>::insert(&who, Score { total: Perbill::from_parts(i + 1), ..Default::default() });
		}
		MinerCount::<T>::put(m);
		#[block]
		{
			Pog::<T>::update_shares(1);
		}
		assert_eq!(WeightShares::<T>::get().len() as u32, m);
	}

	/// What an off-chain worker spends checking one GPU's memory phase at mainnet settings
	/// (`docs/protocol.md` §16): the 16 MiB cache from the seed
	/// and 64 opened walks of 1,024 parents recomputed from it, paths included. Not a call: run
	/// alone (`--extrinsic check_memory_walks`) to time the node's WASM, it writes no weight.
	#[benchmark]
	fn check_memory_walks() {
		use pog_primitives::{memory, sampling::opened_walks};
		let rules = memory::MemoryRules::mainnet();
		let h200 = pog_primitives::profiles::H200;
		let full = memory::challenge(&[7; 32], h200.vram_mib, h200.mem_read_mps, h200.mem_parent_mps, &rules)
			.expect("the H200 profile has measured memory rates");
		// 2^16 walks instead of 5.4 G: the same work per opened walk, 18 fewer path hashes each
		let challenge = memory::MemoryChallenge { walks: 1 << 16, ..full };
		let cache = memory::cache(&challenge.spec);
		let opened = opened_walks(&[9; 32], challenge.walks, rules.openings);
		// a tree whose opened leaves are the real results (the others play no part in the check)
		let mut leaves = vec![[0u8; 32]; challenge.walks as usize];
		for w in &opened {
			leaves[*w as usize] = memory::walk_from_cache(&challenge.spec, &cache, *w);
		}
		let levels = memory::levels_from(leaves.clone(), 0);
		let root = memory::walk_root(&leaves);
		let openings: Vec<(u64, [u8; 32], Vec<[u8; 32]>)> =
			opened.iter().map(|w| (*w, leaves[*w as usize], memory::proof_from(&levels, 0, *w))).collect();
		let report;
		#[block]
		{
			let cache = memory::cache(&challenge.spec);
			report =
				memory::check_walks(&challenge, &cache, &root, openings.iter().map(|(w, r, p)| (*w, r, p.as_slice())));
		}
		assert!(report.passed() && report.checked == rules.openings);
	}

	impl_benchmark_test_suite!(Pog, crate::mock::new_test_ext(), crate::mock::Test);
}
