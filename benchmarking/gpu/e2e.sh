#!/usr/bin/env bash
# End to end on a machine with an NVIDIA GPU: a PoG dev chain (pog-node --dev) and the
# offchain-gpu agent on its GPU backend. The agent registers //Bob's GPU (profile named like the
# GPU), answers its challenge with cuBLASLt, and Alice's off-chain worker verifies it.
#
# Build both binaries where Rust is (scripts/run.sh builds them), pack them, and run this on the
# GPU machine from the repository root:
#   tar -C "$CARGO_TARGET_DIR/release" -czf .e2e/bins.tgz pog-node offchain-gpu
#   benchmarking/gpu/e2e.sh          # results and logs in $OUT (default /tmp/e2e-out)
set -uo pipefail
OUT="${OUT:-/tmp/e2e-out}"
mkdir -p "$OUT" /tmp/e2e
tar -C /tmp/e2e -xzf .e2e/bins.tgz
export LD_LIBRARY_PATH="/usr/local/cuda-13/targets/x86_64-linux/lib:/usr/lib:${LD_LIBRARY_PATH:-}"
bin=/tmp/e2e
"$bin/offchain-gpu" hardware
"$bin/offchain-gpu" bench --seconds 2 --dim 8192 --plot "$OUT/bench.svg" 2>&1 | tail -15
"$bin/pog-node" --dev --tmp --rpc-port 9944 >"$OUT/node.log" 2>&1 &
node_pid=$!
for _ in $(seq 120); do
	curl -sf -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"system_health","params":[]}' \
		http://127.0.0.1:9944 >/dev/null && break
	sleep 0.5
done
"$bin/offchain-gpu" register --suri //Bob
start=$(date +%s)
timeout 300 "$bin/offchain-gpu" run --suri //Bob --exit-after 1 --state-dir /tmp/e2e/state 2>&1 | tee "$OUT/miner.log"
echo "miner: $(( $(date +%s) - start )) s from start to the final verdict"
"$bin/offchain-gpu" status --suri //Bob
grep -E "issuing|verified in" "$OUT/node.log"
kill -INT $node_pid; wait $node_pid
