#!/usr/bin/env bash
# Install what a fresh Debian 12 (bookworm) machine with rustup lacks to build and test PoG chain;
# idempotent.
#  1. apt packages: protobuf-compiler (litep2p/sc-network), clang (secp256k1-sys compiles C for
#     the wasm32 runtime), libssl-dev and pkg-config
#     (the node links Debian's OpenSSL rather than compiling one), and Debian's newer Rust with its
#     standard library sources (rustc-web, cargo-web, rust-web-src) plus lld-22 (rust-lld),
#     because the rustup of the machines this project is developed on has no wasm32 target and
#     cannot download one (`rustup target add` is not an option there);
#  2. a wasm32v1-none sysroot (core, alloc, compiler_builtins) built once from those sources,
#     keyed on the Debian rustc version;
#  3. a rustup toolchain `pog-wasm` linked to it, which substrate-wasm-builder uses
#     (WASM_BUILD_TOOLCHAIN, set in .cargo/config.toml and env.sh) while native code stays on
#     rustup stable;
#  4. rustup's clippy and rustfmt, where the toolchain lacks them (every build is linted).
# scripts/README.md, "Building the runtime's WASM", explains it step by step.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/env.sh"
say() { printf '[setup] %s\n' "$*"; }

# chromium: the explorer's integration test opens the page in it, headless (puppeteer-core drives
# this browser; nothing is downloaded at run time).
# python3-venv: the Python clients' virtual environment (tests/lib/clients.mjs).
packages=(protobuf-compiler clang libssl-dev pkg-config rustc-web cargo-web rust-web-src lld-22 chromium python3-venv)
missing=()
for p in "${packages[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
	say "installing apt packages: ${missing[*]}"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
	say "apt packages present: ${packages[*]}"
fi

# rustup's stable toolchain lints every build (scripts/crates.sh, `linted`): a toolchain installed
# with rustup's minimal profile lacks clippy and rustfmt
for component in clippy:clippy-driver rustfmt:rustfmt; do
	if ! rustup which "${component#*:}" >/dev/null 2>&1; then
		say "installing the rustup component ${component%%:*}"
		rustup component add "${component%%:*}"
	fi
done

DEB_RUSTC=/usr/bin/rustc
DEB_CARGO=/usr/bin/cargo
[ -x "$DEB_RUSTC" ] || { echo "setup: $DEB_RUSTC missing after installing rustc-web" >&2; exit 1; }
version="$("$DEB_RUSTC" --version | tr -c 'A-Za-z0-9.\n' '_')"
tc="$POG_CACHE/wasm-toolchain/$version"
target_lib="$tc/lib/rustlib/wasm32v1-none/lib"

if [ ! -f "$tc/.complete" ]; then
	say "building the wasm32v1-none sysroot for $("$DEB_RUSTC" --version) (about 30 s, once)"
	rm -rf "$tc"
	mkdir -p "$tc/bin" "$tc/lib/rustlib" "$target_lib"
	for d in x86_64-unknown-linux-gnu src etc; do
		ln -s "/usr/lib/rustlib/$d" "$tc/lib/rustlib/$d"
	done
	ln -s "$DEB_CARGO" "$tc/bin/cargo"
	printf '#!/bin/sh\nexec %s --sysroot %s "$@"\n' "$DEB_RUSTC" "$tc" >"$tc/bin/rustc"
	chmod +x "$tc/bin/rustc"
	work="$(mktemp -d)"
	mkdir -p "$work/src"
	printf '[package]\nname = "pog-wasm-sysroot"\nversion = "0.0.0"\nedition = "2021"\n[profile.release]\npanic = "abort"\n' >"$work/Cargo.toml"
	printf '#![no_std]\n' >"$work/src/lib.rs"
	(
		cd "$work"
		unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
		RUSTC="$DEB_RUSTC" RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$work/target" \
			CARGO_TARGET_WASM32V1_NONE_RUSTFLAGS="-Cembed-bitcode=yes -Zforce-unstable-if-unmarked" \
			"$DEB_CARGO" build -q --release --target wasm32v1-none -Zbuild-std=core,alloc
	)
	find "$work/target/wasm32v1-none/release/deps" -name '*.rlib' ! -name 'libpog_wasm_sysroot*' -exec cp {} "$target_lib/" \;
	rm -rf "$work"
	touch "$tc/.complete"
else
	say "wasm32v1-none sysroot present: $tc"
fi

if ! rustup toolchain list -v 2>/dev/null | grep -q "^$WASM_BUILD_TOOLCHAIN[[:space:]].*$tc"; then
	say "linking rustup toolchain $WASM_BUILD_TOOLCHAIN -> $tc"
	rustup toolchain remove "$WASM_BUILD_TOOLCHAIN" >/dev/null 2>&1 || true
	rustup toolchain link "$WASM_BUILD_TOOLCHAIN" "$tc"
else
	say "rustup toolchain $WASM_BUILD_TOOLCHAIN linked"
fi
say "target directory: $CARGO_TARGET_DIR"
