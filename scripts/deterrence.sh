#!/usr/bin/env bash
# Deterrence over a thousand lives (docs/protocol.md §9): an H100 that stops computing once
# credited against the same card computing honestly, a year of mainnet rounds each, at each
# sample fraction of the plans; prints the distributions and fails when the cheater's 99th
# percentile reaches the honest median. CI plays 100 lives per case; this plays 1,000 (or $1).
#   scripts/deterrence.sh [lives]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/crates.sh
POG_DETERRENCE_LIVES=${1:-1000} cargo test --release "${crates[@]}" --features "$test_features" --lib \
	-- deterrence:: --nocapture
