#!/usr/bin/env bash
# The agent's GEMM against PyTorch's cuBLAS, side by side: RUNS rounds (default 3), each
# torch_ref.py then the agent's rate check (`selftest --precision fp16,bf16,fp8-e4m3`, the
# precisions an H100 or H200 is challenged in) at 16384 × 16384 × 8192, back to back on the same
# card, and the median of the rounds' ratios. One round moves by several percent with the
# card's clock and temperature (README.md §3), so one ratio is not a result.
#   BIN=<agent> OUT=<folder> benchmarking/gpu/gemm-vs-torch.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=/usr/local/cuda-13/targets/x86_64-linux/lib:/usr/lib:/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
BIN=${BIN:-offchain-gpu}
OUT=${OUT:-/tmp/pog-gemm}
runs=${RUNS:-3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv
for r in $(seq "$runs"); do
	python3 benchmarking/gpu/torch_ref.py --dim 16384 --reps 20 --out "$OUT/torch-$r.json" >"$OUT/torch-$r.log" 2>&1
	"$BIN" selftest --precision fp16,bf16,fp8-e4m3 --dim 1024 --k 8192 --entries 256 --rate-dim 16384 --rate-gemms 20 \
		--torch "$OUT/torch-$r.json" --json "$OUT/selftest-$r.json" >"$OUT/selftest-$r.log" 2>&1
	grep -E "^GEMM" "$OUT/selftest-$r.log"
done
python3 - "$OUT" "$runs" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
ratios = {}
for r in range(1, runs + 1):
    for g in json.load(open(f"{out}/selftest-{r}.json"))["gemm_rates"]:
        if g.get("ratio_beta0") is not None:
            ratios.setdefault(g["precision"], []).append(g["ratio_beta0"])
summary = {p: {"runs": v, "median": statistics.median(v)} for p, v in ratios.items()}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
for p, s in summary.items():
    print(f"{p:9s} median {s['median']:.3f}  runs {' '.join(f'{x:.3f}' for x in s['runs'])}")
PY
