#!/usr/bin/env bash
# Rebuilds a fixture of runtime/fixtures/: the state of a live development chain run by an earlier
# release of this repository, as `spec-<its spec_version>-dev.json`. Every change of a storage
# layout adds one, of the layout it migrates from; the runtime's tests migrate each
# (`a_live_spec_107_chain_migrates_…`: the oldest layout the runtime still migrates from, spec 107,
# pallet-pog at storage version 2, no session pallets; `a_live_spec_129_chain_migrates_…`: the last
# layout before the reward ledger's move, spec 129, pallet-pog at storage version 4;
# `a_live_spec_131_chain_migrates_…`: the last before the validator set's move, spec 131, v5).
#
# What it does: checks that release out into a temporary worktree, builds its node and miner agent
# (into a copy of the shared target directory, so only what differs compiles: about 6 minutes on
# 2 cores), starts its development chain (Alice validates), registers three miners as that
# release's README says (//Bob honest, //Charlie a cheat that corrupts C, //Dave registered and
# never answering), lets them run until round ROUNDS is settled (default 4, about 2 minutes a
# round), and writes the finalized state without the runtime's code (`:code`, which the tests
# never run: they migrate with this runtime). Run by a person, never by CI; commit the result.
#
# A release older than the runtime's wasm-opt pass in Rust (tools/wasm-opt) and POG_PLAIN_WASM
# gets both (build tools only, neither touching its runtime's code): the old wasm-opt compiles
# binaryen's C++, and POG_PLAIN_WASM builds its WASM with default features, as the release's own
# `cargo build -p pog-node` built it.
#
# Usage: scripts/old-chain-fixture.sh [COMMIT] [ROUNDS]   (spec 107: a762f72; spec 129: 9112131;
# spec 131: 97cf2a7)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
. scripts/env.sh
commit=${1:-a762f72}
rounds=${2:-4}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; git -C "$repo" worktree remove --force "$work/src" 2>/dev/null; rm -rf "$work"' EXIT

git worktree add --detach "$work/src" "$commit" >/dev/null
[ -d "$work/src/tools/wasm-opt" ] || cp -r tools "$work/src/"
python3 - "$work/src" <<'EOF'
import sys
root = sys.argv[1]
p = f"{root}/Cargo.toml"; s = open(p).read()
if '"tools/wasm-opt"' not in s:
    s = s.replace('    "offchain-gpu/cuda",\n]', '    "offchain-gpu/cuda",\n    "tools/wasm-opt",\n]', 1)
    s += '\n[patch.crates-io]\nwasm-opt = { path = "tools/wasm-opt" }\n'
    open(p, "w").write(s)
p = f"{root}/runtime/build.rs"; s = open(p).read()
if "POG_PLAIN_WASM" in s:
    sys.exit(0)
plain = '''\t\tif std::env::var_os("POG_PLAIN_WASM").is_some() {
\t\t\tlet features: Vec<String> =
\t\t\t\tstd::env::vars().map(|(key, _)| key).filter(|key| key.starts_with("CARGO_FEATURE_")).collect();
\t\t\tfor key in features {
\t\t\t\tstd::env::remove_var(key);
\t\t\t}
\t\t}
'''
call = "\t\tsubstrate_wasm_builder::WasmBuilder::build_using_defaults();"
assert call in s, "the old runtime/build.rs is not the one this script knows"
s = s.replace(call, plain + call, 1)
open(p, "w").write(s)
EOF

target="$work/target"
echo "[fixture] copying the target directory ($CARGO_TARGET_DIR) so that only what differs compiles"
cp -a "$CARGO_TARGET_DIR" "$target"
# The release's own crates and features where it names them (scripts/crates.sh), so that its build
# is its CI's; before that file, the ones its CI built.
features=pallet-pog/runtime-benchmarks,pallet-pog/try-runtime,pog-runtime/try-runtime,pog-runtime/runtime-benchmarks,offchain-gpu/adversary
crates=(-p pog-node -p pog-primitives -p pallet-pog -p pallet-pog-runtime-api -p pog-runtime -p pog-prover -p pog-cuda -p offchain-gpu)
if [ -f "$work/src/scripts/crates.sh" ]; then
	features=$(cd "$work/src" && bash -c '. scripts/crates.sh >/dev/null 2>&1; echo "$test_features"')
	read -ra crates <<<"$(cd "$work/src" && bash -c '. scripts/crates.sh >/dev/null 2>&1; echo "${crates[*]}"')"
fi
(cd "$work/src" && CARGO_TARGET_DIR="$target" POG_PLAIN_WASM=1 env -u POG_UPGRADE_TEST_WASM cargo build --release \
	"${crates[@]}" --features "$features" --bins)
node_bin="$target/release/pog-node"
agent="$target/release/offchain-gpu"
"$node_bin" --version

port=$((20000 + RANDOM % 20000))
url="ws://127.0.0.1:$port"
"$node_bin" --dev --tmp --rpc-port "$port" --no-prometheus >"$work/node.log" 2>&1 &
for _ in $(seq 120); do
	curl -sf -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"system_health","params":[]}' \
		"http://127.0.0.1:$port" >/dev/null && break
	sleep 0.5
done
for who in Bob Charlie Dave; do "$agent" register --url "$url" --suri "//$who"; done
"$agent" run --url "$url" --suri //Bob --state-dir "$work/bob" >"$work/bob.log" 2>&1 &
"$agent" run --url "$url" --suri //Charlie --state-dir "$work/charlie" --adversary corrupt >"$work/charlie.log" 2>&1 &

(cd tests && [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error)
cd tests
FIXTURE_COMMIT=$(git -C "$repo" rev-parse "$commit") node --input-type=module - "$url" "$rounds" "$repo/runtime/fixtures" <<'EOF'
import { writeFileSync } from 'node:fs';
import { connect, writeSnapshot } from './lib/node.mjs';
const [url, rounds, dir] = process.argv.slice(2);
const api = await connect(url);
const spec = api.runtimeVersion.specVersion.toNumber();
const out = `${dir}/spec-${spec}-dev.json`;
console.log(`[fixture] spec_version ${spec}; waiting for round ${rounds} to be settled`);
// Bounded: a dev round is 20 blocks (2 minutes); five minutes a round is more than any took.
const deadline = Date.now() + Number(rounds) * 300_000;
await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`round ${rounds} not settled in time: see the node's and agents' logs`)), deadline - Date.now());
  api.query.system.events((events) => {
    for (const { event } of events) {
      if (api.events.pog.RoundSettled.is(event) && event.data.round.toNumber() >= Number(rounds)) {
        clearTimeout(timer);
        resolve();
      }
    }
  });
});
// Its block finalised (within a minute), then the state at the finalized head.
const settledAt = (await api.rpc.chain.getHeader()).number.toNumber();
for (let i = 0; (await api.rpc.chain.getHeader(await api.rpc.chain.getFinalizedHead())).number.toNumber() < settledAt; i++) {
  if (i >= 60) throw new Error(`block #${settledAt} not finalised within a minute`);
  await new Promise((r) => setTimeout(r, 1000));
}
await writeSnapshot(api, out);
const snapshot = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8'));
const code = '0x3a636f6465';
snapshot.pairs = snapshot.pairs.filter(([key]) => key !== code);
snapshot.made = `scripts/old-chain-fixture.sh at ${process.env.FIXTURE_COMMIT ?? 'the commit it names'}, state without :code`;
writeFileSync(out, JSON.stringify(snapshot, null, 0) + '\n');
console.log(`[fixture] ${snapshot.pairs.length} storage pairs at ${snapshot.at} (spec ${snapshot.specVersion}) in ${out}`);
await api.disconnect();
EOF
