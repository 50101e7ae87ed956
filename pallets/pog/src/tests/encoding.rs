//! The pallet's events and errors keep their indices from one runtime to the next. A decoder
//! with static metadata (an indexer, a light client, subxt with generated types) reads a variant
//! by its index, and the pool's refusals carry an error's index (`InvalidTransaction::Custom`),
//! so a new variant goes last, and a variant that leaves the pallet leaves its index unused (the
//! reward ledger's, which moved to `pallet-pog-rewards` at spec_version 130, and the validator
//! set's, which moved to `pallet-pog-validators` at 132, [`RETIRED_EVENTS`]).

use scale_info::{TypeDef, TypeInfo};

use super::*;

/// Events in index order (spec_version 116).
const EVENTS: [&str; 39] = [
	"ProfileAdded",
	"ProfileUpdated",
	"ProfileRemoved",
	"ValidatorAdded",
	"ValidatorRemoved",
	"ValidatorBonded",
	"ValidatorStruck",
	"ValidatorExpelled",
	"ValidatorBondReleased",
	"ValidatorOffended",
	"ValidatorRulesUpdated",
	"ConfigUpdated",
	"MinerRegistered",
	"MinerUpdated",
	"MinerEvicted",
	"MinerLeaving",
	"MinerDeregistered",
	"MinerSuspended",
	"RoundStarted",
	"MemoryCommitted",
	"RootsCommitted",
	"SampleDrawn",
	"OpeningsRevealed",
	"VerdictSubmitted",
	"VerificationFinished",
	"MinerSettled",
	"RoundEmission",
	"MinerPaid",
	"ValidatorPaid",
	"UnvestedBurned",
	"UnvestedForfeited",
	"RewardsUpdated",
	"RoundSettled",
	"ScoreUpdated",
	"DutyFailed",
	"OpeningsEndpointSet",
	"UnservedVoided",
	"SharesUpdated",
	"ThroughputMeasured",
];

/// Errors in index order (spec_version 116).
const ERRORS: [&str; 61] = [
	"NotValidator",
	"AlreadyValidator",
	"TooManyValidators",
	"CannotBond",
	"LastValidator",
	"InvalidValidatorRules",
	"UnknownProfile",
	"TooManyProfiles",
	"InvalidProfile",
	"ProfileInUse",
	"InvalidConfig",
	"AlreadyRegistered",
	"NotRegistered",
	"TooManyMiners",
	"NoClaims",
	"ZeroCount",
	"CountMismatch",
	"TooManyGpus",
	"DuplicateUuid",
	"InsufficientDeposit",
	"AlreadyLeaving",
	"WrongRound",
	"WrongPhase",
	"NotTakingPart",
	"UnknownGpu",
	"NoRoots",
	"DuplicateGpu",
	"AlreadyCommitted",
	"DeadlinePassed",
	"NotCommitted",
	"NotSelected",
	"AlreadyRevealed",
	"RevealWindowClosed",
	"WrongOpeningCount",
	"WrongOpeningIndex",
	"InvalidProof",
	"NotRevealed",
	"NoVerdicts",
	"DuplicateVerdict",
	"NotInCommittee",
	"AlreadyVoted",
	"VerdictWindowClosed",
	"InconsistentVerdict",
	"NoPrecision",
	"ImplausibleCpuCores",
	"ImplausibleRam",
	"ImplausibleDisk",
	"RoundOpen",
	"AliasOutrunsNative",
	"InvalidCpuClaim",
	"NoMemoryPhase",
	"MemoryNotCommitted",
	"WrongWalkCount",
	"WrongWalkIndex",
	"InvalidWalkProof",
	"DutySpent",
	"InvalidRewards",
	"InvalidEndpoint",
	"ServedOffChain",
	"UnservedTooEarly",
	"RebuttalWindowClosed",
];

/// Events that left with the reward ledger (spec_version 130) and the validator set (132), with
/// their indices: no variant takes them again.
const RETIRED_EVENTS: [(u8, &str); 15] = [
	(3, "ValidatorAdded"),
	(4, "ValidatorRemoved"),
	(5, "ValidatorBonded"),
	(6, "ValidatorStruck"),
	(7, "ValidatorExpelled"),
	(8, "ValidatorBondReleased"),
	(9, "ValidatorOffended"),
	(10, "ValidatorRulesUpdated"),
	(26, "RoundEmission"),
	(27, "MinerPaid"),
	(28, "ValidatorPaid"),
	(29, "UnvestedBurned"),
	(30, "UnvestedForfeited"),
	(31, "RewardsUpdated"),
	(40, "UnvestedReleased"),
];

/// Errors that left with the reward ledger (spec_version 130) and the validator set (132), with
/// their indices.
const RETIRED_ERRORS: [(u8, &str); 5] = [
	(1, "AlreadyValidator"),
	(3, "CannotBond"),
	(4, "LastValidator"),
	(5, "InvalidValidatorRules"),
	(56, "InvalidRewards"),
];

/// Events added after spec_version 116, with the indices they have kept since.
const LATER_EVENTS: [(u8, &str); 7] = [
	(39, "Attested"),
	(41, "MinerOnTrial"),
	(42, "MinerAdmitted"),
	(43, "MinerTrialEnded"),
	(44, "EvidenceAudited"),
	(45, "EvidenceOpened"),
	(46, "EvidenceMissing"),
];

/// Errors added after spec_version 116, with the indices they have kept since.
const LATER_ERRORS: [(u8, &str); 10] = [
	(61, "AlreadyAttested"),
	(62, "AttestationBehind"),
	(63, "InvalidOpen"),
	(64, "UnservedTooLate"),
	(65, "PrivateEndpoint"),
	(66, "NotOnTrial"),
	(67, "NotYetPassed"),
	(68, "NoLowerScore"),
	(69, "NotAudited"),
	(70, "WrongEvidence"),
];

fn variants<E: TypeInfo>() -> Vec<(u8, &'static str)> {
	match E::type_info().type_def {
		TypeDef::Variant(v) => v.variants.iter().map(|v| (v.index, v.name)).collect(),
		other => panic!("not an enum: {other:?}"),
	}
}

/// `names` in index order from 0 (what an older decoder expects), less those retired.
fn indexed(names: &[&'static str], retired: &[(u8, &'static str)]) -> Vec<(u8, &'static str)> {
	let all = names.iter().enumerate().map(|(i, n)| (i as u8, *n));
	all.filter(|v| !retired.contains(v)).collect()
}

#[test]
fn events_and_errors_keep_their_indices_and_new_ones_go_last() {
	for (found, names, later, retired) in [
		(variants::<crate::Event<Test>>(), &EVENTS[..], &LATER_EVENTS[..], &RETIRED_EVENTS[..]),
		(variants::<crate::Error<Test>>(), &ERRORS[..], &LATER_ERRORS[..], &RETIRED_ERRORS[..]),
	] {
		let mut kept = indexed(names, retired);
		kept.extend_from_slice(later);
		assert!(found.len() >= kept.len(), "a variant was removed without retiring its index");
		assert_eq!(found[..kept.len()], kept[..], "a variant moved: new variants go last");
		for (index, name) in retired {
			assert!(found.iter().all(|(i, n)| i != index && n != name), "{name}'s index {index} is taken again");
		}
	}
}

/// Held funds are stored with their reason's encoding: a reason that moved would relabel every
/// deposit, bond or vesting pay held under it. `Vesting` and `ValidatorBond` hold nothing since
/// the reward ledger and the validator set hold their own, and keep their indices.
#[test]
fn hold_reasons_keep_their_indices() {
	assert_eq!(crate::HoldReason::MinerDeposit.encode(), [0]);
	assert_eq!(crate::HoldReason::Vesting.encode(), [1]);
	assert_eq!(crate::HoldReason::ValidatorBond.encode(), [2]);
}

/// A call index once used is never reused: an old transaction must not decode as a new call.
/// 6 and 7 were the per-miner challenge calls, 15 `set_rewards` (pallet-pog-rewards' now), 11, 12
/// and 16 the validator set's calls (pallet-pog-validators' now).
#[test]
fn retired_call_indices_stay_unused() {
	let calls = variants::<crate::Call<Test>>();
	for retired in [6, 7, 11, 12, 15, 16] {
		assert!(calls.iter().all(|(i, _)| *i != retired), "call index {retired} is taken again");
	}
	assert!(calls.iter().any(|(i, _)| *i == 21), "the calls are read by their indices");
}
