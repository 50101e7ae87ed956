#!/usr/bin/env bash
# Writes a chain spec for launching a network: the `production` preset (mainnet settings) with
# fresh keys instead of its placeholders. For each of N validators one secret phrase gives its
# account and BABE key (sr25519), its GRANDPA key (ed25519) and, derived as `<phrase>//pog`, its
# `pog!` key, whose own account signs the off-chain worker's duties (so the validator's account
# keeps its nonce for its operator); one more phrase is root. Each validator and root are
# endowed with 1,000 POG (100 of each validator's is bonded at genesis), each `pog!` account
# with 10 POG for its duties' fees (paid up front, refunded when they land).
#
#   scripts/production-spec.sh [validators (4)] [directory (production-keys)] [hosts]
#
# The directory gets spec.json, and validator-<i>.json / root.json with the secret phrases:
# keep them offline, and give each operator only its own. It prints the commands that put each
# validator's keys into its node's keystore. Needs pog-node (built, or POG_NODE) and python3.
#
# Each validator also gets a network key (validator-<i>.node-key: its peer id stays the same
# across restarts). With `hosts` (the validators' public addresses, comma-separated, one each:
# IPv4, IPv6 or DNS names) the spec names them as its bootnodes, on TCP (POG_P2P_PORT, 30333) and
# on a websocket (POG_P2P_WS_PORT, 30334), which light clients (smoldot, the explorer's light
# mode) connect through; spec.raw.json is the same spec with its genesis state written out, as a
# light client needs it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
count=${1:-4}
out=${2:-production-keys}
hosts=${3:-}
p2p_port=${POG_P2P_PORT:-30333}
ws_port=${POG_P2P_WS_PORT:-30334}
node=${POG_NODE:-$CARGO_TARGET_DIR/release/pog-node}
if ! [[ $count =~ ^[1-9][0-9]*$ ]] || ((count > 64)); then
	echo "production-spec.sh: the number of validators must be 1 to 64 (got '$count')" >&2
	exit 2
fi
# The validators' addresses, checked before any key is made: one per validator, each an IP
# address (no zone, no brackets, no port) or a DNS name.
if [[ -n $hosts ]] && ! python3 - "$hosts" "$count" <<'PY'
import ipaddress, re, sys
hosts, count = [h.strip() for h in sys.argv[1].split(",")], int(sys.argv[2])
label = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")
def valid(h):
    try:
        ipaddress.ip_address(h)
        return "%" not in h
    except ValueError:
        return 0 < len(h) <= 253 and all(label.match(part) for part in h.rstrip(".").split("."))
bad = [h for h in hosts if not valid(h)]
if bad or len(hosts) != count:
    sys.exit(f"production-spec.sh: give {count} validator address(es), comma-separated, each an IP address or a DNS name "
             f"without port or brackets (got {len(hosts)}; not an address: {bad})")
PY
then
	exit 2
fi
[[ -x $node ]] || { echo "production-spec.sh: no pog-node at $node: run 'cargo build --release -p pog-node' or set POG_NODE" >&2; exit 2; }
command -v python3 >/dev/null || { echo "production-spec.sh: python3 is needed to edit the spec" >&2; exit 2; }
[[ -e $out ]] && { echo "production-spec.sh: $out exists; refusing to overwrite keys (choose another directory)" >&2; exit 2; }
mkdir -m 700 -p "$out"

generate() { "$node" key generate --scheme sr25519 --output-type json; }
for i in $(seq 1 "$count"); do
	generate >"$out/validator-$i.json"
	phrase=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["secretPhrase"])' "$out/validator-$i.json")
	"$node" key inspect --scheme ed25519 --output-type json "$phrase" >"$out/validator-$i.ed25519.json"
	"$node" key inspect --scheme sr25519 --output-type json "$phrase//pog" >"$out/validator-$i.pog.json"
	"$node" key generate-node-key --file "$out/validator-$i.node-key" 2>/dev/null
	"$node" key inspect-node-key --file "$out/validator-$i.node-key" >"$out/validator-$i.peer-id"
done
generate >"$out/root.json"
"$node" build-spec --chain production --disable-default-bootnode 2>/dev/null >"$out/spec.plain.json"

python3 - "$out" "$count" "$hosts" "$p2p_port" "$ws_port" <<'PY'
import ipaddress, json, sys
out, count, hosts, p2p_port, ws_port = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
load = lambda name: json.load(open(f"{out}/{name}"))
spec = load("spec.plain.json")
genesis = spec["genesis"]["runtimeGenesis"]
config = genesis.get("patch") or genesis.get("config")
unit = 10**12
keys, balances = [], []
for i in range(1, count + 1):
    sr, ed, pog = (load(f"validator-{i}{kind}.json") for kind in ("", ".ed25519", ".pog"))
    account = sr["ss58Address"]
    keys.append([account, account, {"babe": sr["ss58PublicKey"], "grandpa": ed["ss58PublicKey"], "pog": pog["ss58PublicKey"]}])
    balances += [[account, 1000 * unit], [pog["ss58Address"], 10 * unit]]
root = load("root.json")["ss58Address"]
balances.append([root, 1000 * unit])
config["session"] = {"keys": keys}
config.setdefault("pog", {})["validators"] = [k[0] for k in keys]
config["sudo"] = {"key": root}
config["balances"] = {"balances": balances}
spec["name"], spec["id"] = "PoG", "pog"


def address(host):
    try:
        return f"/ip{ipaddress.ip_address(host).version}/{host}"
    except ValueError:
        return f"/dns/{host}"


spec["bootNodes"] = []
for i, host in enumerate((h for h in hosts.split(",") if h.strip()), start=1):
    peer = open(f"{out}/validator-{i}.peer-id").read().strip()
    spec["bootNodes"] += [f"{address(host.strip())}/tcp/{p2p_port}/p2p/{peer}",
                          f"{address(host.strip())}/tcp/{ws_port}/ws/p2p/{peer}"]
json.dump(spec, open(f"{out}/spec.json", "w"), indent=2)
PY
rm "$out/spec.plain.json"
"$node" build-spec --chain "$out/spec.json" --raw --disable-default-bootnode 2>"$out/build-spec.log" >"$out/spec.raw.json" ||
	{ echo "production-spec.sh: build-spec --raw failed: $(tail -3 "$out/build-spec.log")" >&2; exit 1; }
rm "$out/build-spec.log"

echo "Wrote $out/spec.json: $count validators and root, fresh keys (secrets in $out/*.json and $out/*.node-key: keep them offline)."
echo "On validator i's machine, with its own secret phrase (validator-i.json, \"secretPhrase\"):"
echo "  pog-node key insert --base-path <dir> --chain spec.json --key-type babe --scheme sr25519 --suri '<phrase>'"
echo "  pog-node key insert --base-path <dir> --chain spec.json --key-type 'pog!' --scheme sr25519 --suri '<phrase>//pog'"
echo "  pog-node key insert --base-path <dir> --chain spec.json --key-type gran --scheme ed25519 --suri '<phrase>'"
echo "  pog-node --chain spec.json --base-path <dir> --validator --node-key-file validator-i.node-key \\"
echo "    --listen-addr /ip4/0.0.0.0/tcp/$p2p_port --listen-addr /ip4/0.0.0.0/tcp/$ws_port/ws \\"
echo "    --listen-addr /ip6/::/tcp/$p2p_port --listen-addr /ip6/::/tcp/$ws_port/ws"
if [[ -n $hosts ]]; then
	echo "Light clients join with $out/spec.raw.json (its bootnodes: the validators' TCP and websocket addresses);"
	echo "a browser page served over https reaches only wss://: put a TLS proxy in front of port $ws_port and add its /tcp/443/wss address."
else
	echo "The spec names no bootnode: run again with the validators' addresses (third argument) for one that nodes and light clients can join unedited."
fi
