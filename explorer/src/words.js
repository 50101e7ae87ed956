// Why a GPU scores zero, and how its round ended, in words. The keys are the pallet's enum
// variants (`ZeroReason`, `FailReason` and `UnverifiedReason` in pallets/pog/src/scoring.rs,
// whose doc comments say the same); a variant this page does not know is shown by its name.

/** `FailReason`: a failed round (its GPU slashed, its credit removed). */
export const FAIL_WORDS = {
  MissedCommit: 'missed its commit: no root before its deadline (slower than claimed, absent, or busy with another account)',
  MissedReveal: 'missed its reveal: selected, but no proven openings in the reveal window',
  WrongResult: 'wrong result: its committee recomputed entries of C outside the tolerance',
  WrongWalk: 'wrong walk: an opened memory walk differs from the one recomputed from the cache (the dataset was not held)',
};

/** `UnverifiedReason`: committed in time, not verified (no slash). */
export const UNVERIFIED_WORDS = {
  NotSelected: "not in this round's sample",
  Inconclusive: 'its committee reached no majority in the verdict window',
};

/** `ZeroReason` other than `Failed`. */
export const ZERO_WORDS = {
  WaitingForRound: 'registered or changed after the round started: challenged from the next one',
  NotYetVerified: 'committed on time, not verified yet (not selected, or inconclusive)',
  CreditExpired: 'its credit lapsed after too many inconclusive verifications',
  DepositShort: 'suspended: its deposit fell short after a slash and could not be topped up',
};

/** A decoded `ZeroReason` in words. */
export function zeroReasonWords(reason) {
  if (reason.isFailed) {
    const why = reason.asFailed.type;
    return `failed: ${FAIL_WORDS[why] ?? why}`;
  }
  return ZERO_WORDS[reason.type] ?? reason.type;
}

/** A decoded `RoundOutcome` as a short label ('Passed', 'WrongResult', 'NotSelected', …). */
export function outcomeLabel(outcome) {
  if (outcome.isPassed) return 'Passed';
  if (outcome.isFailed) return outcome.asFailed.type;
  return outcome.asUnverified.type;
}

/** A decoded `RoundOutcome` in words. */
export function outcomeWords(outcome) {
  if (outcome.isPassed) return 'passed: verified as its profile, credited';
  if (outcome.isFailed) return `failed: ${FAIL_WORDS[outcome.asFailed.type] ?? outcome.asFailed.type}`;
  const why = outcome.asUnverified.type;
  return `not verified: ${UNVERIFIED_WORDS[why] ?? why}`;
}
