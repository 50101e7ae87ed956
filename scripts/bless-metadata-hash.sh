#!/usr/bin/env bash
# Writes runtime/metadata-hash: the hash (RFC 78) of the metadata of the runtime that pog-node,
# built from this checkout, serves on a dev chain, with the chain's token. runtime/build.rs
# compiles it into the WASM for `CheckMetadataHash` mode 1. Run it after a change of the
# runtime's metadata (with `POG_BLESS_METADATA=1 cargo test -p pog-runtime agent_metadata`), then
# build the node again; tests/dev-node.test.mjs fails while it is stale.
#   scripts/bless-metadata-hash.sh     (POG_NODE=<binary> for another node than the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d tests/node_modules ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error)
hash=$(cd tests && node metadata-hash.mjs | tail -n 1)
[[ $hash =~ ^0x[0-9a-f]{64}$ ]] || { echo "no metadata hash from the dev node: $hash" >&2; exit 1; }
echo "$hash" > runtime/metadata-hash
echo "runtime/metadata-hash: $hash (build the node again to compile it in)"
