#!/usr/bin/env bash
# Regenerates a pallet's weights.rs from its benchmarks, on this machine (PALLET: pallet_pog, the
# default, pallet_pog_rewards or pallet_pog_validators):
#  1. the runtime WASM with the `runtime-benchmarks` feature,
#  2. pog-node with its `benchmark` subcommand (feature `runtime-benchmarks`; the node's own
#     embedded WASM is skipped, the benchmark runs the WASM from step 1. Skipping it is needed:
#     frame-benchmarking-cli's own test runtime, frame-storage-access-test-runtime, cannot build
#     its WASM from this workspace, so one build of the node with its WASM fails),
#  3. `pog-node benchmark pallet` over every extrinsic, through .maintain/weight-template.hbs.
# STEPS and REPEAT may be set in the environment (defaults 50 and 20, polkadot-sdk's defaults);
# EXTRINSICS (default '*': every one) and OUTPUT (default the pallet's src/weights.rs) benchmark
# some calls only, into a file of their own, whose functions are then copied into weights.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh
STEPS="${STEPS:-50}"
REPEAT="${REPEAT:-20}"
EXTRINSICS="${EXTRINSICS:-*}"
PALLET="${PALLET:-pallet_pog}"
case "$PALLET" in
pallet_pog) dir=pallets/pog ;;
pallet_pog_rewards) dir=pallets/pog-rewards ;;
pallet_pog_validators) dir=pallets/pog-validators ;;
*) echo "PALLET is pallet_pog, pallet_pog_rewards or pallet_pog_validators, not '$PALLET'" >&2; exit 2 ;;
esac
OUTPUT="${OUTPUT:-$dir/src/weights.rs}"

echo "==> runtime WASM with runtime-benchmarks"
unset POG_PLAIN_WASM
cargo build --release -p pog-runtime --features runtime-benchmarks
WASM="$CARGO_TARGET_DIR/release/wbuild/pog-runtime/pog_runtime.compact.compressed.wasm"

echo "==> pog-node with the benchmark subcommand"
SKIP_WASM_BUILD=1 cargo build --release -p pog-node --features runtime-benchmarks
NODE="$CARGO_TARGET_DIR/release/pog-node"

echo "==> benchmark $PALLET (steps $STEPS, repeat $REPEAT)"
"$NODE" benchmark pallet \
	--runtime "$WASM" \
	--genesis-builder=runtime \
	--genesis-builder-preset=development \
	--pallet "$PALLET" \
	--extrinsic "$EXTRINSICS" \
	--steps "$STEPS" \
	--repeat "$REPEAT" \
	--wasm-execution=compiled \
	--heap-pages=4096 \
	--template .maintain/weight-template.hbs \
	--output "$OUTPUT"
echo "wrote $OUTPUT"
