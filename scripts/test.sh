#!/usr/bin/env bash
# Run every test of PoG chain. This is README's test command; CI (.ci/run) calls exactly it.
# Installs what a fresh machine lacks first (scripts/setup.sh), and builds into the shared
# target directory outside the clone (scripts/env.sh), so a fresh clone reuses earlier builds.
#
# One build profile and one feature set: the unit tests run in release, like the binaries, and
# every cargo invocation below names the same crates with the same features, so cargo resolves
# one dependency graph and a cold machine compiles the dependency tree (the FRAME crates, the
# node's client, the agent's) once for the binaries and the tests. The node is
# therefore built with the tests' `runtime-benchmarks` and `try-runtime` on its native runtime;
# the WASM it embeds is built without them (POG_PLAIN_WASM, runtime/build.rs). The unit tests
# compile (only the workspace's test targets) and run, niced, while the integration tests wait
# for blocks.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh
started=$SECONDS
step() { printf '\n==> [%d:%02d] %s\n' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)) "$*"; }

. scripts/crates.sh

step "formatting (cargo fmt --check) and README's shape (scripts/readme-check.mjs)"
cargo fmt --all -- --check
node scripts/readme-check.mjs

step "node and miner agent, linted (release build, the unit tests' crates and features)"
# The agent is built with its test-only cheating modes, which tests/cheaters.test.mjs runs.
linted cargo build --release "${crates[@]}" --features "$test_features" --bins
# The integration tests run this agent, with its cheats, from a copy: scripts/run.sh's build
# (below, beside them) puts the production agent in its place.
POG_AGENT="$(mktemp -d)/offchain-gpu"
cp "$CARGO_TARGET_DIR/release/offchain-gpu" "$POG_AGENT"
export POG_AGENT

step "the explorer page (bundled with esbuild; tests/cheaters.test.mjs opens it in headless Chromium)"
(cd explorer && npm ci --no-audit --no-fund --loglevel=error && npm run build)
(cd explorer && npm test)

# The unit tests compile and run at the lowest CPU priority while the integration tests run: those
# mostly wait for blocks, and a niced compile takes next to nothing from a miner or a node that
# wants the CPU (about 1.5% at nice 19 against nice 0). Their output is printed after the
# integration tests; either failing fails the run.
unit_tests() {
	step "unit tests, linted: the node (the headers it keeps to report BABE equivocations); primitives (generator, known answers, commitment, verification), pallet-pog against the mock runtime (honest path, cheats, bad input, randomised sequences, try_state, benchmarks as tests), runtime (genesis presets, signed OCW extrinsics, upgrades); the miner agent (the device-neutral prover and its CPU backend, the adversary's cheats, state file, chain client types; CUDA backend's host-side logic)"
	linted cargo test -q --release "${crates[@]}" --features "$test_features" --all-targets

	step "verifier benchmark shapes, linted (each benchmark run once)"
	linted cargo test -q --release -p pog-benchmarking --all-targets

	step "the runtime build's wasm-opt (tools/wasm-opt, in binaryen's place), linted: sign-extension lowered, DWARF stripped, features checked, immediates re-encoded"
	linted cargo test -q --release -p wasm-opt

	step "scripts/run.sh's build after this one, linted: the miner agent without cheats, and no crate of the node's tree compiled again"
	local build_log compiled
	build_log=$(mktemp)
	CARGO_TERM_COLOR=never POG_BUILD_ONLY=1 scripts/run.sh 2>&1 | tee "$build_log"
	compiled=$(sed -n 's/^ *Compiling \([^ ]*\) .*/\1/p' "$build_log" | grep -vxE 'pog-prover|pog-cuda|offchain-gpu' || true)
	if [ -n "$compiled" ]; then
		echo "scripts/run.sh compiled again what this run had built: $(echo $compiled)" >&2
		return 1
	fi
	# its command line has no cheating flags; the tests' build (POG_AGENT) has them
	no_cheats() { # <subcommand> <flag>
		local production tests
		production=$("$CARGO_TARGET_DIR/release/offchain-gpu" "$1" --help | grep -c -- "$2" || true)
		tests=$("$POG_AGENT" "$1" --help | grep -c -- "$2" || true)
		if ((production != 0 || tests == 0)); then
			echo "$1 --help lists $2 $production times in the production agent and $tests in the tests' (want 0, and more)" >&2
			return 1
		fi
		echo "the production agent's $1 --help lists no $2 (the tests' agent: $tests)"
	}
	no_cheats run --adversary
	no_cheats register --adversary-extra-gpus
}
unit_log=$(mktemp)
(renice -n 19 -p "$BASHPID" >/dev/null && unit_tests) >"$unit_log" 2>&1 &
unit_pid=$!

step "integration tests against a live node (@polkadot/api $(node -p 'require("./tests/package.json").dependencies["@polkadot/api"]')); the unit tests compile and run beside them, niced"
# tests/local-net.test.mjs leaves its four-validator network's state here for the try-runtime step.
POG_SNAPSHOT="$(mktemp -d)/local-net.json"
export POG_SNAPSHOT
# The tests that time CPU miners against their deadlines run once the unit tests are done: a niced
# compile or test run still shares the cores' caches and memory bandwidth (a CI run's miner walked
# 2× slower beside them and missed its commit, after an earlier test had failed early and brought it
# forward). cheaters.test.mjs runs eight CPU miners at once, seven of them on deadlines; beside the
# unit tests it failed in two of the project's warm CI runs (57de074, 5a70343) and passed in every
# run here, so it joins them.
timed=(cheaters.test.mjs miner.test.mjs shared-cpu.test.mjs)
beside=()
for f in tests/*.test.mjs; do
	f=${f#tests/}
	[[ " ${timed[*]} " == *" $f "* ]] || beside+=("$f")
done
# Both runs' output is kept, so that a failure's details (the spec reporter's "failing tests"
# section, with each assertion's message) are printed again last, where a CI log's tail shows them.
integration=0
integration_log=$(mktemp)
(cd tests && npm ci --no-audit --no-fund --loglevel=error && npm test -- "${beside[@]}") 2>&1 | tee -a "$integration_log" || integration=$?

step "the unit tests' output (run beside the integration tests)"
unit=0
wait "$unit_pid" || unit=$?
cat "$unit_log"
if ((unit != 0)); then
	echo "unit tests failed (exit $unit)" >&2
	exit "$unit"
fi

step "integration tests that time CPU miners, alone on the machine: ${timed[*]}"
(cd tests && npm test -- "${timed[@]}") 2>&1 | tee -a "$integration_log" || integration=$?
if ((integration != 0)); then
	step "the integration tests' failures (printed above in their run; again here)"
	awk '/^> |^ℹ tests / { on = 0 } /failing tests:/ { on = 1 } on { print }' "$integration_log"
	echo "integration tests failed (exit $integration)" >&2
	exit "$integration"
fi

step "try-runtime: the runtime's migrations, with their checks, then every pallet's try_state, on that live state"
# The same crates and features as the unit tests, so nothing is compiled again.
# The step fails unless exactly that test ran: a renamed test would otherwise match nothing and pass.
try_runtime_log=$(mktemp)
linted cargo test -q --release "${crates[@]}" --features "$test_features" --lib \
	-- --ignored --exact tests::runtime_upgrade_on_a_live_chain_snapshot_passes_every_check 2>&1 | tee "$try_runtime_log"
ran=$( (grep -o 'test result: ok\. [0-9]* passed' "$try_runtime_log" || true) | awk '{ n += $4 } END { print n + 0 }')
if ((ran != 1)); then
	echo "the try-runtime step ran $ran tests, not the one it names (renamed or moved?)" >&2
	exit 1
fi

printf '\nall tests passed in %d:%02d\n' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60))
