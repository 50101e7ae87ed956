#!/usr/bin/env bash
# Criterion benchmarks of the verifier (benchmarking/README.md): per checked entry and per
# challenge, dev preset and two-minute H100 challenges. Extra arguments filter, e.g. `entry/h100`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
cargo bench -p pog-benchmarking --bench verifier -- "$@"
