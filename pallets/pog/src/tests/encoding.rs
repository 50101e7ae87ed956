//! The pallet's events and errors keep their indices from one runtime to the next. A decoder
//! with static metadata (an indexer, a light client, subxt with generated types) reads a variant
//! by its index, and the pool's refusals carry an error's index (`InvalidTransaction::Custom`),
//! so a new variant goes last. spec_version 115 inserted `ThroughputMeasured` before
//! `RoundSettled`, which moved the six events after it; 116 appends it instead.

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

fn variants<E: TypeInfo>() -> Vec<(u8, &'static str)> {
	match E::type_info().type_def {
		TypeDef::Variant(v) => v.variants.iter().map(|v| (v.index, v.name)).collect(),
		other => panic!("not an enum: {other:?}"),
	}
}

/// `names` in index order from 0: what an older decoder expects.
fn indexed(names: &[&'static str]) -> Vec<(u8, &'static str)> {
	names.iter().enumerate().map(|(i, n)| (i as u8, *n)).collect()
}

#[test]
fn events_and_errors_keep_their_indices_and_new_ones_go_last() {
	let events = variants::<crate::Event<Test>>();
	assert!(events.len() >= EVENTS.len(), "an event was removed");
	assert_eq!(events[..EVENTS.len()], indexed(&EVENTS)[..], "an event moved: new events go last");
	let errors = variants::<crate::Error<Test>>();
	assert!(errors.len() >= ERRORS.len(), "an error was removed");
	assert_eq!(errors[..ERRORS.len()], indexed(&ERRORS)[..], "an error moved: new errors go last");
}
