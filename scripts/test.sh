#!/usr/bin/env bash
# Run every test of PoG chain. This is README's test command; CI (.ci/run) calls exactly it.
# Installs what a fresh machine lacks first (scripts/setup.sh), and builds into the shared
# target directory outside the clone (scripts/env.sh), so a fresh clone reuses earlier builds.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh
step() { printf '\n==> %s\n' "$*"; }

step "formatting (cargo fmt --check)"
cargo fmt --all -- --check

step "lints (cargo clippy -D warnings)"
cargo clippy -q -p pog-primitives -p pallet-pog -p pog-benchmarking \
	--features pallet-pog/runtime-benchmarks,pallet-pog/try-runtime --all-targets -- -D warnings

step "primitives: generator, known-answer vectors, commitment, verification (randomised honest and cheating results)"
cargo test -p pog-primitives

step "pallet-pog against the mock runtime (honest path, cheats, bad input, randomised sequences, try_state)"
cargo test -p pallet-pog

step "pallet-pog benchmarks run as tests (runtime-benchmarks)"
cargo test -p pallet-pog --features runtime-benchmarks benchmarking

step "verifier benchmark crate compiles and its shapes are valid"
cargo test -p pog-benchmarking

printf '\nall tests passed\n'
