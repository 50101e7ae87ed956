# Sourced by the project's scripts: one Cargo target directory outside the clone, shared by
# every checkout, the README commands and CI; and the WASM toolchain made by scripts/setup.sh.
export POG_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/pog-chain"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$POG_CACHE/target}"
export WASM_BUILD_TOOLCHAIN="${WASM_BUILD_TOOLCHAIN:-pog-wasm}"
export PATH="$HOME/.cargo/bin:$PATH"
