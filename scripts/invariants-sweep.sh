#!/usr/bin/env bash
# The randomised invariant test over many seeds (CI plays seeds 1..9): every try_state check after
# every step of 400 random calls a seed, and at least 95% of the seeds reaching both a pass and a
# failure. Usage: scripts/invariants-sweep.sh [a..b]   (default 1..1001: a thousand seeds)
# Builds the unit tests with the crates and features of scripts/test.sh (scripts/crates.sh), so
# CI's build is reused.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
seeds=${1:-1..1001}
[[ $seeds =~ ^[0-9]+(\.\.[0-9]+)?$ ]] || { echo "seeds: write a..b (b excluded) or one seed, not '$seeds'" >&2; exit 2; }
. scripts/crates.sh
POG_TEST_SEEDS=$seeds linted cargo test -q --release "${crates[@]}" --features "$test_features" --lib \
	random_call_sequences_keep_the_invariants
