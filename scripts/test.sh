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
cargo clippy -q -p pog-primitives -p pallet-pog -p pog-benchmarking -p pallet-pog-runtime-api \
	--features pallet-pog/runtime-benchmarks,pallet-pog/try-runtime --all-targets -- -D warnings
cargo clippy -q -p offchain-gpu -p pog-cuda --all-targets -- -D warnings

step "primitives: generator, known-answer vectors, commitment, verification (randomised honest and cheating results)"
cargo test -p pog-primitives

step "pallet-pog against the mock runtime (honest path, cheats, bad input, randomised sequences, try_state)"
cargo test -p pallet-pog

step "pallet-pog benchmarks run as tests (runtime-benchmarks)"
cargo test -p pallet-pog --features runtime-benchmarks benchmarking

step "verifier benchmark crate compiles and its shapes are valid"
cargo test -p pog-benchmarking

step "runtime: genesis presets build and pass the pallet's try_state; OCW extrinsics are signed"
SKIP_WASM_BUILD=1 cargo test -p pog-runtime --features try-runtime

step "miner agent: CPU backend, state file, chain client types; CUDA backend's host-side logic"
cargo test -p offchain-gpu -p pog-cuda

step "node and miner agent (release build; cold ~40 min on 2 cores, warm seconds)"
# Built one at a time: built together, cargo would unify their dependencies' features and
# rebuild the whole node tree once more.
cargo build --release -p pog-node
cargo build --release -p offchain-gpu

step "integration tests against a live node (@polkadot/api $(node -p 'require("./tests/package.json").dependencies["@polkadot/api"]'))"
(cd tests && npm ci --no-audit --no-fund --loglevel=error && npm test)

printf '\nall tests passed\n'
