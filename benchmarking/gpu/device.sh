#!/usr/bin/env bash
# Every GPU measurement of the agent in one run, on a machine with an NVIDIA GPU (see README.md
# beside this file):
#   benchmarking/gpu/device.sh [full|quick|largek|multi|pricing|memory|lanes]
# Runs `offchain-gpu selftest` and `offchain-gpu bench` (BIN: the agent's binary, default
# `offchain-gpu` on the PATH; build it with `cargo build --release -p offchain-gpu`) and
# benchmarking/gpu/torch_ref.py (PyTorch's cuBLAS as the reference). Results go to $OUT
# (default /tmp/pog-gpu); the last lines printed are the self-test's table.
set -uo pipefail
mode=${1:-full}
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=/usr/local/cuda-13/targets/x86_64-linux/lib:/usr/lib:/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1 RUST_LOG=${RUST_LOG:-info}
BIN=${BIN:-offchain-gpu}
OUT=${OUT:-/tmp/pog-gpu}
mkdir -p "$OUT"
nvidia-smi --query-gpu=index,name,uuid,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv
case "$mode" in
quick)
	python3 benchmarking/gpu/torch_ref.py --dim 8192 --reps 10 --out "$OUT/torch_ref.json"
	"$BIN" bench --precision bf16,fp8 --seconds 2 --dim 8192 --overhead-ms 2000 --plot "$OUT/bench.svg" --json >"$OUT/bench.json"
	"$BIN" selftest --dim 2048 --k 16384 --entries 2560 --rate-dim 8192 --rate-gemms 10 --torch "$OUT/torch_ref.json" \
		--full-ms 10000 --fp8-fast-accum-check --json "$OUT/selftest.json" 2>&1 | tee "$OUT/selftest.log"
	;;
full)
	python3 benchmarking/gpu/torch_ref.py --dim 16384 --reps 20 --out "$OUT/torch_ref.json"
	"$BIN" bench --seconds 6 --overhead-ms 0 --plot "$OUT/bench.svg" --json >"$OUT/bench.json"
	"$BIN" selftest --dim 8192 --k 65536 --entries 10240 --rate-dim 16384 --rate-gemms 20 --torch "$OUT/torch_ref.json" \
		--full-ms 30000 --full-precision bf16,fp8-e4m3 --fp8-fast-accum-check --json "$OUT/selftest.json" 2>&1 | tee "$OUT/selftest.log"
	;;
largek)
	# honest error at a production-sized k (about what a 30 s bf16 challenge on an H100 has)
	python3 benchmarking/gpu/torch_ref.py --dim 16384 --reps 20 --out "$OUT/torch_ref.json"
	"$BIN" selftest --dim 4096 --k 1048576 --entries 2560 --rate-dim 16384 --rate-gemms 20 --torch "$OUT/torch_ref.json" \
		--json "$OUT/selftest-largek.json" 2>&1 | tee "$OUT/selftest-largek.log"
	;;
pricing)
	# native rates against the int8 path (README.md, "Pricing"), and fp8's tolerance at two k
	"$BIN" selftest --dim 4096 --k 65536 --entries 5120 --rate-dim 16384 --rate-gemms 20 --full-ms 20000 \
		--full-precision fp8-e4m3 --fp8-fast-accum-check --json "$OUT/selftest.json" 2>&1 | tee "$OUT/selftest.log"
	"$BIN" selftest --precision fp8-e4m3 --dim 4096 --k 1048576 --entries 2560 --rate-gemms 5 --fp8-fast-accum-check \
		--json "$OUT/largek.json" 2>&1 | tee "$OUT/largek.log"
	"$BIN" selftest --fp8-int8-path --precision fp8-e4m3 --dim 4096 --k 65536 --entries 2560 --rate-gemms 5 \
		--full-ms 20000 --full-precision fp8-e4m3 --json "$OUT/int8.json" 2>&1 | tee "$OUT/int8.log"
	;;
memory)
	# the memory-hard phase (memory/README.md): known answers, an honest card at 0.9 × its memory
	# (RUNS runs of 2^WALKS_LOG2 walks at each of PARENTS), one keeping 95% of its dataset
	# (2^CHEAT_WALKS_LOG2 walks), and, with CLAIM_GIB and RESIDENT, one posing as a larger card (a
	# dataset of CLAIM_GIB of which it keeps RESIDENT, the most that fits)
	parents=${PARENTS:-256,512} runs=${RUNS:-3} walks=${WALKS_LOG2:-26} cheat=${CHEAT_WALKS_LOG2:-25}
	"$BIN" selftest --dim 1024 --k 8192 --entries 1024 --rate-dim 4096 --rate-gemms 2 \
		--json "$OUT/selftest.json" >"$OUT/selftest.log" 2>&1
	tail -30 "$OUT/selftest.log"
	"$BIN" bench --memory 0 --parents "$parents" --runs "$runs" --walks-log2 "$walks" --json >"$OUT/honest.json"
	"$BIN" bench --memory 0 --parents "$parents" --resident 0.95 --walks-log2 "$cheat" --json >"$OUT/resident95.json"
	if [ -n "${CLAIM_GIB:-}" ]; then
		"$BIN" bench --memory "$CLAIM_GIB" --parents "$parents" --resident "$RESIDENT" --walks-log2 $((cheat - 2)) \
			--json >"$OUT/claim.json"
	fi
	;;
lanes)
	# a per-core CPU unit answered by this GPU (docs/protocol.md §16, "The per-core memory phase"):
	# its lanes a thread each at mainnet rules, against the deadline, at each of CORES (the issue's
	# 4,096, and units small enough for the GPU's on-chip memory); every run checks its links
	# against the CPU's
	for cores in ${CORES:-4096 1024 256 64 16}; do
		"$BIN" bench --lanes "$cores" --lane-links "${LANE_LINKS:-64}" --json >"$OUT/lanes-$cores.json"
		grep -E '"(cores|ns_per_step|phase_s|allowed_s|over_allowed|cpu_agrees)"' "$OUT/lanes-$cores.json" | tr -d '\n'; echo
	done
	;;
multi)
	"$BIN" selftest --all-gpus --only-all-gpus --json "$OUT/multi.json" 2>&1 | tee "$OUT/multi.log"
	# the last GPU on its own, quick known answers and tolerance checks
	last=$(( $(nvidia-smi -L | wc -l) - 1 ))
	"$BIN" selftest --device "$last" --dim 2048 --k 16384 --entries 2560 --rate-dim 8192 --rate-gemms 5 \
		--json "$OUT/selftest-last.json" 2>&1 | tee "$OUT/selftest-last.log"
	;;
*)
	echo "usage: $0 [full|quick|largek|multi|pricing|memory|lanes]" >&2
	exit 2
	;;
esac
