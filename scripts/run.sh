#!/usr/bin/env bash
# The main job in one command: install what is missing, build the node (first time ~35 min on 2
# cores, then seconds), and start a development chain: Alice authors, finalises and runs the PoG
# validator's off-chain worker. Extra arguments go to the node (e.g. --rpc-port 9945).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh
echo "[run] building pog-node (release) into $CARGO_TARGET_DIR"
cargo build --release -p pog-node
node="$CARGO_TARGET_DIR/release/pog-node"
rpc_port=9944
for a in "$@"; do case "$a" in --rpc-port=*) rpc_port="${a#*=}" ;; esac; done
prev=""
for a in "$@"; do [ "$prev" = "--rpc-port" ] && rpc_port="$a"; prev="$a"; done
cat <<MSG
[run] starting a PoG development chain
[run]   RPC:        ws://127.0.0.1:$rpc_port
[run]   explorer:   https://polkadot.js.org/apps/?rpc=ws%3A%2F%2F127.0.0.1%3A$rpc_port#/explorer
[run]   Prometheus: http://127.0.0.1:9615/metrics
[run]   stop with Ctrl-C
MSG
exec "$node" --dev --tmp --rpc-cors all "$@"
