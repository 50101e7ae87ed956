#!/usr/bin/env bash
# The agent's GEMM against PyTorch's cuBLAS, side by side at 16384 × 16384 × 8192 in the
# precisions an H100 or H200 is challenged in (fp16, bf16, fp8): RUNS rounds (default 4), each
# precision timed by torch_ref.py and by the agent's rate check (`selftest --precision P`) back to
# back on the same card, PyTorch first in odd rounds and the agent first in even ones, so that the
# card's drift in clock and temperature favours neither; then the median of the rounds' ratios.
# One round moves by a few percent (README.md §3), so one ratio is not a result. Each side times
# 100 GEMMs (REPS), so that both are measured in the steady state a proof runs in: under the power
# limit the first GEMMs after a pause run faster (fp8 on an H100: 1,413-1,514 TFLOPS for
# PyTorch's first 20, 1,308 over 100; gemm/h100-fp8-algos/).
#   BIN=<agent> OUT=<folder> [PRECISIONS="fp16 bf16 fp8-e4m3"] benchmarking/gpu/gemm-vs-torch.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=/usr/local/cuda-13/targets/x86_64-linux/lib:/usr/lib:/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
BIN=${BIN:-offchain-gpu}
OUT=${OUT:-/tmp/pog-gemm}
runs=${RUNS:-4}
reps=${REPS:-100}
precisions=${PRECISIONS:-fp16 bf16 fp8-e4m3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv
torch() {
	python3 benchmarking/gpu/torch_ref.py --dim 16384 --reps "$reps" --only "$1" --out "$OUT/torch-$1-$2.json" >"$OUT/torch-$1-$2.log" 2>&1
}
agent() {
	"$BIN" selftest --precision "$1" --dim 1024 --k 8192 --entries 256 --rate-dim 16384 --rate-gemms "$reps" \
		--json "$OUT/selftest-$1-$2.json" >"$OUT/selftest-$1-$2.log" 2>&1
}
for r in $(seq "$runs"); do
	for p in $precisions; do
		if ((r % 2)); then torch "$p" "$r" && agent "$p" "$r"; else agent "$p" "$r" && torch "$p" "$r"; fi
	done
done
python3 - "$OUT" "$runs" $precisions <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
summary = {}
for p in sys.argv[3:]:
    rows = []
    for r in range(1, runs + 1):
        agent = next(g["tflops_beta0"] for g in json.load(open(f"{out}/selftest-{p}-{r}.json"))["gemm_rates"]
                     if g.get("precision") == p)
        torch = json.load(open(f"{out}/torch-{p}-{r}.json"))["gemm_tflops"][p]
        rows.append({"round": r, "first": "torch" if r % 2 else "agent", "agent_tflops": agent,
                     "torch_tflops": torch, "ratio": agent / torch})
    summary[p] = {"rounds": rows, "median": statistics.median(x["ratio"] for x in rows)}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
for p, s in summary.items():
    print(f"{p:9s} median {s['median']:.3f}  rounds " + " ".join(
        f"{x['ratio']:.3f} ({x['agent_tflops']:.0f}/{x['torch_tflops']:.0f}, {x['first']} first)" for x in s["rounds"]))
PY
