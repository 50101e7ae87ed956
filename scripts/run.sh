#!/usr/bin/env bash
# The main job in one command: install what is missing, build the node and the miner agent
# (first time 15 to 39 min on 2 cores, docs/ci-times.md; then seconds), start a development
# chain (Alice authors, finalises and runs the PoG validator's off-chain worker), register a
# local miner (//Bob; its GPUs if any, else the CPU backend on the cpu-reference profile) and
# answer its challenges. The miner's log shows each challenge, its verdict and the score; Ctrl-C
# stops both. The node listens for peers on TCP (POG_P2P_PORT, default 30333) and on a websocket
# (POG_P2P_WS_PORT, default 30334) with a network key kept under the project's cache, and the
# explorer serves the chain's raw spec naming it as bootnode, so that the page can follow the
# chain through a light client too. Extra arguments go to the node (e.g. --rpc-port 9945; not
# --port: the two variables above set the ports). POG_NO_MINER=1 starts the node alone.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh
. scripts/crates.sh
echo "[run] building pog-node and offchain-gpu (release) into $CARGO_TARGET_DIR"
# One invocation with scripts/test.sh's crates, features and lints (scripts/crates.sh), so that
# cargo resolves the node's dependency tree as test.sh does: whichever of the two runs second
# compiles none of it again, only the agent, which is built here without test.sh's cheating modes
# (the node's native runtime carries the benchmarks and try-runtime hooks; the WASM it runs is
# built without them). POG_BUILD_ONLY=1 stops after the build.
linted cargo build --release "${crates[@]}" --features "$chain_features" --bins
[ -z "${POG_BUILD_ONLY:-}" ] || exit 0
node="$CARGO_TARGET_DIR/release/pog-node"
agent="$CARGO_TARGET_DIR/release/offchain-gpu"
rpc_port=9944
for a in "$@"; do case "$a" in --rpc-port=*) rpc_port="${a#*=}" ;; esac; done
prev=""
for a in "$@"; do [ "$prev" = "--rpc-port" ] && rpc_port="$a"; prev="$a"; done
url="ws://127.0.0.1:$rpc_port"
# A light client's way in: a websocket listener, a network key that stays (so the peer id in the
# spec stays too) and the dev chain's raw spec naming this node as its bootnode.
p2p_port="${POG_P2P_PORT:-30333}"
ws_port="${POG_P2P_WS_PORT:-30334}"
node_key="$POG_CACHE/dev-node-key"
[ -s "$node_key" ] || (umask 077 && "$node" key generate-node-key --file "$node_key" 2>/dev/null)
peer=$("$node" key inspect-node-key --file "$node_key")
light_spec="$(mktemp -d)/dev-light.json"
"$node" build-spec --chain dev --raw 2>/dev/null | python3 -c '
import json, sys
spec = json.load(sys.stdin)
spec["bootNodes"] = [sys.argv[1]]
json.dump(spec, open(sys.argv[2], "w"))' "/ip4/127.0.0.1/tcp/$ws_port/ws/p2p/$peer" "$light_spec"
network=(--node-key-file "$node_key" --listen-addr "/ip4/127.0.0.1/tcp/$p2p_port" --listen-addr "/ip4/127.0.0.1/tcp/$ws_port/ws")
# The PoG explorer (explorer/): built once with its pinned @polkadot/api and served locally.
explorer_port="${POG_EXPLORER_PORT:-8080}"
echo "[run] building the PoG explorer page (explorer/)"
(cd explorer && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm run -s build >/dev/null)
node explorer/serve.mjs --port "$explorer_port" --chain-spec "$light_spec" >/dev/null &
explorer_pid=$!
cat <<MSG
[run] starting a PoG development chain
[run]   RPC:            $url
[run]   PoG explorer:   http://127.0.0.1:$explorer_port/?rpc=$url
[run]     light client: http://127.0.0.1:$explorer_port/?light=chainspec.json (trusts no node)
[run]   polkadot.js:    https://polkadot.js.org/apps/?rpc=ws%3A%2F%2F127.0.0.1%3A$rpc_port#/explorer
[run]   Prometheus:     http://127.0.0.1:9615/metrics
[run]   stop with Ctrl-C
MSG
if [ -n "${POG_NO_MINER:-}" ]; then
	trap 'kill $explorer_pid 2>/dev/null' EXIT
	"$node" --dev --tmp --rpc-cors all "${network[@]}" "$@"
	exit
fi
log="$(mktemp -d)/node.log"
"$node" --dev --tmp --rpc-cors all "${network[@]}" "$@" >"$log" 2>&1 &
node_pid=$!
trap 'kill $explorer_pid 2>/dev/null; kill -INT $node_pid 2>/dev/null; wait $node_pid 2>/dev/null' EXIT
echo "[run] node log: $log"
for _ in $(seq 120); do
	curl -sf -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"system_health","params":[]}' \
		"http://127.0.0.1:$rpc_port" >/dev/null && break
	kill -0 $node_pid 2>/dev/null || { echo "[run] the node exited; see $log"; exit 1; }
	sleep 0.5
done
echo "[run] registering the local miner //Bob (offchain-gpu register)"
"$agent" register --url "$url" --suri //Bob
echo "[run] answering challenges (offchain-gpu run); \`$agent status --url $url --suri //Bob\` shows the score"
state_dir="$(mktemp -d)"
"$agent" run --url "$url" --suri //Bob --state-dir "$state_dir"
