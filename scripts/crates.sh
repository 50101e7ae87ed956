# Sourced by scripts/test.sh and scripts/invariants-sweep.sh: how every test build is made (the
# crates, features, runtime builds and lints), so that cargo resolves one dependency graph and a
# sweep reuses CI's build.

# The runtime's build also makes the same runtime under the next spec_version, which
# tests/local-net.test.mjs upgrades its live network to (runtime/build.rs).
export POG_UPGRADE_TEST_WASM=1
export POG_PLAIN_WASM=1

# The features the unit tests run with: benchmarks as tests, try_state checks, and the agent's
# test-only cheating modes (which the integration tests need too). The crates: every one of the
# workspace but pog-benchmarking, whose criterion (a dev-dependency) would turn on a feature of a
# crate deep in the node's tree (zerocopy's `derive`) and so compile that tree once more; its
# benches depend on pog-primitives alone and are tested in their own invocation.
chain_features=pallet-pog/runtime-benchmarks,pallet-pog/try-runtime,pallet-pog-rewards/runtime-benchmarks,pallet-pog-rewards/try-runtime,pallet-pog-validators/runtime-benchmarks,pallet-pog-validators/try-runtime,pog-runtime/try-runtime,pog-runtime/runtime-benchmarks
test_features=$chain_features,offchain-gpu/adversary
crates=(-p pog-node -p pog-primitives -p pog-traits -p pallet-pog -p pallet-pog-rewards -p pallet-pog-validators -p pallet-pog-runtime-api -p pog-runtime -p pog-prover -p pog-cuda -p offchain-gpu)

# Clippy (-D warnings) lints every crate of the workspace while its tests and binaries compile:
# `linted` runs cargo with scripts/clippy-rustc as the workspace's rustc wrapper, which compiles
# through clippy-driver (what `cargo clippy` sets up, but in a real build). `cargo clippy` checks in
# check mode, which compiles the whole dependency tree a second time: the node's alone took 17
# minutes on a cold 2-core machine. The runtime's WASM is compiled by rustc-web as before.
export POG_CLIPPY_DRIVER
POG_CLIPPY_DRIVER=$(rustup which clippy-driver)
linted() {
	RUSTC_WORKSPACE_WRAPPER="$PWD/scripts/clippy-rustc" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"
}
