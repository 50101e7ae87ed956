#!/usr/bin/env bash
# Regenerates pallets/pog/src/weights.rs from pallet-pog's benchmarks, on this machine:
#  1. the runtime WASM with the `runtime-benchmarks` feature,
#  2. pog-node with its `benchmark` subcommand (feature `runtime-benchmarks`; the node's own
#     embedded WASM is skipped, the benchmark runs the WASM from step 1),
#  3. `pog-node benchmark pallet` over every extrinsic, through .maintain/weight-template.hbs.
# STEPS and REPEAT may be set in the environment (defaults 50 and 20, polkadot-sdk's defaults).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh
STEPS="${STEPS:-50}"
REPEAT="${REPEAT:-20}"

echo "==> runtime WASM with runtime-benchmarks"
cargo build --release -p pog-runtime --features runtime-benchmarks
WASM="$CARGO_TARGET_DIR/release/wbuild/pog-runtime/pog_runtime.compact.compressed.wasm"

echo "==> pog-node with the benchmark subcommand"
SKIP_WASM_BUILD=1 cargo build --release -p pog-node --features runtime-benchmarks
NODE="$CARGO_TARGET_DIR/release/pog-node"

echo "==> benchmark pallet_pog (steps $STEPS, repeat $REPEAT)"
"$NODE" benchmark pallet \
	--runtime "$WASM" \
	--genesis-builder=runtime \
	--genesis-builder-preset=development \
	--pallet pallet_pog \
	--extrinsic '*' \
	--steps "$STEPS" \
	--repeat "$REPEAT" \
	--wasm-execution=compiled \
	--heap-pages=4096 \
	--template .maintain/weight-template.hbs \
	--output pallets/pog/src/weights.rs
echo "wrote pallets/pog/src/weights.rs"
