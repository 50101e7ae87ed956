#!/usr/bin/env bash
# Start the four validators of the `local_testnet` preset (Alice, Bob, Charlie, Dave) on
# 127.0.0.1. GRANDPA finalises with three of four. Node i listens for RPC on 9944+i and p2p on
# 30333+i; they find each other with mDNS. Logs and databases go to a fresh temporary folder.
# Ctrl-C stops all four.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
node="$CARGO_TARGET_DIR/release/pog-node"
[ -x "$node" ] || { echo "build the node first: scripts/run.sh (or cargo build --release -p pog-node)" >&2; exit 1; }
dir="$(mktemp -d -t pog-local-XXXX)"
pids=()
trap 'kill -INT "${pids[@]}" 2>/dev/null; wait; echo "[local] stopped; logs in $dir"' EXIT INT TERM
i=0
for who in alice bob charlie dave; do
	# A fixed network key per node (a real network generates and keeps its own).
	key="$(printf '%064x' $((i + 1)))"
	"$node" --chain local "--$who" --base-path "$dir/$who" --node-key "$key" --rpc-port $((9944 + i)) \
		--port $((30333 + i)) --prometheus-port $((9615 + i)) --no-telemetry >"$dir/$who.log" 2>&1 &
	pids+=($!)
	echo "[local] $who: ws://127.0.0.1:$((9944 + i))  log $dir/$who.log"
	i=$((i + 1))
done
wait
