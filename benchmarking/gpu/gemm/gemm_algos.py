#!/usr/bin/env python3
"""The agent's GEMM configuration against PyTorch's, candidate by candidate: every cuBLASLt
candidate at the agent's own configuration, timed beside PyTorch (torch._scaled_mm for fp8,
torch.mm with an fp32 output for fp16 and bf16) on the same operands, in interleaved rounds.
Written to find why the agent's fp8 GEMM trailed PyTorch's (2026-11-27).

The agent (offchain-gpu/cuda/src/gemm.rs) asks cuBLASLt's heuristic for 8 candidates of its TN
matmul (operand A = the B chunk [n][kc], transposed; operand B = the A chunk [m][kc]; D = C, fp32,
n x m), then times them on the first 8,192 rows only and keeps the fastest (prover.rs, `tune`).
PyTorch asks the heuristic for one algorithm at the full shape, with scale pointers set. This
script calls the same libcublasLt the agent loads (through ctypes), on operands drawn as the
challenge draws them (a random sign and 3 random mantissa bits on a magnitude in [1, 2)), and
times, per round: PyTorch; each candidate at the full shape; the candidate the agent's
sub-shape tuning would choose; and the heuristic's first with scale pointers as PyTorch sets them.
With --variants it also times the heuristic's first with every other cluster shape, CTA
swizzle and custom option cuBLASLt accepts (2026-11-28: none beat it, tuning/); --keep narrows
the runs timed. Writes JSON to --out and prints a table.
"""
import argparse
import ctypes
import json
import statistics
import sys

import torch

CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF, CUDA_R_8F_E4M3 = 0, 2, 14, 28
# --precision: (cuBLASLt input type, torch dtype, mantissa bits of the challenge's elements)
PRECISIONS = {"fp8-e4m3": (CUDA_R_8F_E4M3, torch.float8_e4m3fn, 3), "bf16": (CUDA_R_16BF, torch.bfloat16, 7),
              "fp16": (CUDA_R_16F, torch.float16, 10)}
CUBLAS_COMPUTE_32F = 68
DESC_TRANSA, DESC_TRANSB, DESC_A_SCALE, DESC_B_SCALE, DESC_FAST_ACCUM = 3, 4, 17, 18, 25
PREF_MAX_WORKSPACE_BYTES = 1
# attribute: (id, bytes)
CFG = {"algo_id": (0, 4), "tile": (1, 4), "splitk": (2, 4), "reduction": (3, 4), "swizzle": (4, 4),
       "custom": (5, 4), "stages": (6, 4), "inner": (7, 2), "cluster": (8, 2)}
WORKSPACE = 32 << 20


class Algo(ctypes.Structure):
    _fields_ = [("data", ctypes.c_uint64 * 8)]


class Heuristic(ctypes.Structure):
    _fields_ = [("algo", Algo), ("workspaceSize", ctypes.c_size_t), ("state", ctypes.c_int),
                ("wavesCount", ctypes.c_float), ("reserved", ctypes.c_int * 4)]


def load(path):
    lib = ctypes.CDLL(path)
    lib.cublasLtGetVersion.restype = ctypes.c_size_t
    return lib


def check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: cublasStatus {status}")


class Lt:
    def __init__(self, lib):
        self.lib = lib
        self.h = ctypes.c_void_p()
        check(lib.cublasLtCreate(ctypes.byref(self.h)), "create")
        self.ws = torch.empty(WORKSPACE, dtype=torch.uint8, device="cuda")

    def plan(self, m, n, kc, scales=None, fast_accum=False, requested=8, input_type=CUDA_R_8F_E4M3, b_kn=False):
        """b_kn: the B chunk stored [kc][n] (PyTorch's row-major B, cuBLASLt's operand A not
        transposed) instead of the agent's [n][kc]."""
        """The agent's TN matmul for C (m x n, row-major, fp32) += A[m][kc] . B[n][kc]^T."""
        lib = self.lib
        desc, a, b, d, pref = (ctypes.c_void_p() for _ in range(5))
        check(lib.cublasLtMatmulDescCreate(ctypes.byref(desc), CUBLAS_COMPUTE_32F, CUDA_R_32F), "desc")

        def set_attr(attr, value):
            check(lib.cublasLtMatmulDescSetAttribute(desc, attr, ctypes.byref(value), ctypes.sizeof(value)), f"attr {attr}")

        set_attr(DESC_TRANSA, ctypes.c_int32(0 if b_kn else 1))
        set_attr(DESC_TRANSB, ctypes.c_int32(0))
        if input_type == CUDA_R_8F_E4M3:
            set_attr(DESC_FAST_ACCUM, ctypes.c_int8(1 if fast_accum else 0))
        if scales is not None:
            set_attr(DESC_A_SCALE, ctypes.c_void_p(scales.data_ptr()))
            set_attr(DESC_B_SCALE, ctypes.c_void_p(scales.data_ptr()))
        rows_a, cols_a, ld_a = (n, kc, n) if b_kn else (kc, n, kc)
        check(lib.cublasLtMatrixLayoutCreate(ctypes.byref(a), input_type, ctypes.c_uint64(rows_a), ctypes.c_uint64(cols_a), ctypes.c_int64(ld_a)), "layout a")
        check(lib.cublasLtMatrixLayoutCreate(ctypes.byref(b), input_type, ctypes.c_uint64(kc), ctypes.c_uint64(m), ctypes.c_int64(kc)), "layout b")
        check(lib.cublasLtMatrixLayoutCreate(ctypes.byref(d), CUDA_R_32F, ctypes.c_uint64(n), ctypes.c_uint64(m), ctypes.c_int64(n)), "layout d")
        check(lib.cublasLtMatmulPreferenceCreate(ctypes.byref(pref)), "pref")
        ws = ctypes.c_uint64(WORKSPACE)
        check(lib.cublasLtMatmulPreferenceSetAttribute(pref, PREF_MAX_WORKSPACE_BYTES, ctypes.byref(ws), 8), "pref ws")
        results = (Heuristic * requested)()
        found = ctypes.c_int()
        check(lib.cublasLtMatmulAlgoGetHeuristic(self.h, desc, a, b, d, d, pref, requested, results, ctypes.byref(found)), "heuristic")
        algos = [results[i].algo for i in range(found.value) if results[i].state == 0]
        waves = [results[i].wavesCount for i in range(found.value) if results[i].state == 0]
        return {"desc": desc, "a": a, "b": b, "d": d, "algos": algos, "waves": waves, "flops": 2.0 * m * n * kc}

    def config(self, algo):
        out = {}
        for name, (attr, size) in CFG.items():
            v, w = ctypes.c_uint64(0), ctypes.c_size_t()
            status = self.lib.cublasLtMatmulAlgoConfigGetAttribute(ctypes.byref(algo), attr, ctypes.byref(v), size, ctypes.byref(w))
            out[name] = v.value if status == 0 else f"status {status}"
        return out

    def variant(self, algo, **changes):
        """A copy of `algo` with some of its configuration (CFG's names) changed."""
        new = Algo()
        ctypes.memmove(ctypes.byref(new), ctypes.byref(algo), ctypes.sizeof(Algo))
        for name, value in changes.items():
            attr, size = CFG[name]
            v = (ctypes.c_uint16 if size == 2 else ctypes.c_uint32)(value)
            check(self.lib.cublasLtMatmulAlgoConfigSetAttribute(ctypes.byref(new), attr, ctypes.byref(v), size), f"set {name}")
        return new

    def supports(self, plan, algo):
        r = Heuristic()
        return self.lib.cublasLtMatmulAlgoCheck(self.h, plan["desc"], plan["a"], plan["b"], plan["d"], plan["d"],
                                                 ctypes.byref(algo), ctypes.byref(r)) == 0 and r.workspaceSize <= WORKSPACE

    def run(self, plan, algo, a_buf, b_buf, c, beta=0.0):
        alpha, beta_ = ctypes.c_float(1.0), ctypes.c_float(beta)
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        check(self.lib.cublasLtMatmul(self.h, plan["desc"], ctypes.byref(alpha), ctypes.c_void_p(b_buf.data_ptr()), plan["a"],
                                      ctypes.c_void_p(a_buf.data_ptr()), plan["b"], ctypes.byref(beta_),
                                      ctypes.c_void_p(c.data_ptr()), plan["d"], ctypes.c_void_p(c.data_ptr()), plan["d"],
                                      ctypes.byref(algo), ctypes.c_void_p(self.ws.data_ptr()), ctypes.c_size_t(WORKSPACE),
                                      stream), "matmul")


def timed(fn, reps, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(reps):
        fn()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / reps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default="/usr/local/cuda-13/targets/x86_64-linux/lib/libcublasLt.so.13")
    ap.add_argument("--dim", type=int, default=16384)
    ap.add_argument("--k", type=int, default=8192)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tune-rows", type=int, default=8192)
    ap.add_argument("--candidates", type=int, default=4, help="candidates of each configuration timed")
    ap.add_argument("--out", default="gemm_algos.json")
    ap.add_argument("--precision", choices=sorted(PRECISIONS), default="fp8-e4m3")
    ap.add_argument("--requested", type=int, default=8, help="candidates asked of the heuristic")
    ap.add_argument("--variants", action="store_true",
                    help="also time the heuristic's first with other cluster shapes, CTA swizzling and custom options")
    ap.add_argument("--keep", default=None, help="time only the runs whose names match this regular expression (and torch)")
    args = ap.parse_args()
    m = n = args.dim
    kc = args.k
    lt = Lt(load(args.lib))
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cublaslt": lt.lib.cublasLtGetVersion(),
           "m": m, "n": n, "kc": kc, "rounds": []}

    input_type, dtype, bits = PRECISIONS[args.precision]
    res["precision"] = args.precision

    def draw(rows, cols):
        j = torch.randint(0, 1 << bits, (rows, cols), device="cuda", dtype=torch.int32)
        sign = torch.randint(0, 2, (rows, cols), device="cuda", dtype=torch.int32) * 2 - 1
        return (sign.float() * (1.0 + j.float() / float(1 << bits))).to(dtype)

    a_buf = draw(m, kc)            # [m][kc]: the agent's A chunk, PyTorch's row-major A
    b_buf = draw(n, kc)            # [n][kc]: the agent's B chunk, PyTorch's column-major B
    c = torch.empty(m, n, device="cuda", dtype=torch.float32)
    one = torch.ones((), device="cuda")
    full = lt.plan(m, n, kc, input_type=input_type, requested=args.requested)
    sub = lt.plan(min(m, args.tune_rows), n, kc, input_type=input_type)
    fp8 = input_type == CUDA_R_8F_E4M3
    scaled = lt.plan(m, n, kc, scales=one) if fp8 else {"algos": [], "waves": []}
    res["candidates"] = [dict(lt.config(a), waves=w) for a, w in zip(full["algos"], full["waves"])]
    res["scaled_candidates"] = [dict(lt.config(a), waves=w) for a, w in zip(scaled["algos"], scaled["waves"])]

    # the agent's tuning: each candidate twice on the sub-shape (accumulating), the fastest kept
    tune = []
    for i, algo in enumerate(full["algos"]):
        if not (lt.supports(full, algo) and lt.supports(sub, algo)):
            continue
        lt.run(sub, algo, a_buf, b_buf, c)
        tune.append((timed(lambda: lt.run(sub, algo, a_buf, b_buf, c, 1.0), 2, warm=0), i))
    res["tuning_ms"] = tune
    chosen = min(tune)[1]
    res["tuning_choice"] = chosen

    tflops = lambda ms: full["flops"] / (ms * 1e-3) / 1e12
    reference = (lambda: torch._scaled_mm(a_buf, b_buf.t(), scale_a=one, scale_b=one, out_dtype=torch.float32)) if fp8 \
        else (lambda: torch.mm(a_buf, b_buf.t(), out_dtype=torch.float32))
    runs = {"torch": reference}
    for i, algo in enumerate(full["algos"][:args.candidates]):
        if lt.supports(full, algo):
            runs[f"cand{i}"] = (lambda algo: lambda: lt.run(full, algo, a_buf, b_buf, c))(algo)
    if not fp8:
        # PyTorch's own layout for a row-major B ([k][n]) and the agent's plan on it
        b_kn = b_buf.t().contiguous()
        runs["torch_kn"] = lambda: torch.mm(a_buf, b_kn, out_dtype=torch.float32)
        kn = lt.plan(m, n, kc, input_type=input_type, b_kn=True)
        res["kn_candidates"] = [dict(lt.config(a), waves=w) for a, w in zip(kn["algos"], kn["waves"])]
        for i, algo in enumerate(kn["algos"][:args.candidates]):
            if lt.supports(kn, algo):
                runs[f"kn{i}"] = (lambda algo: lambda: lt.run(kn, algo, a_buf, b_kn, c))(algo)
    res["variants"] = {}
    if args.variants and full["algos"]:
        first = full["algos"][0]
        base = lt.config(first)
        # cublasLtClusterShape_t: 2 = 1x1x1, 3 = 2x1x1, 4 = 4x1x1, 5 = 1x2x1, 6 = 2x2x1, 8 = 1x4x1
        # each cluster shape and swizzle with the first's custom option, each custom option with its
        # cluster shape and swizzle
        tried = {(c, s, base["custom"]) for c in (2, 3, 4, 5, 6, 8) for s in (0, 1, 2)}
        tried |= {(base["cluster"], base["swizzle"], o) for o in range(16)}
        tried.discard((base["cluster"], base["swizzle"], base["custom"]))
        for cluster, swizzle, custom in sorted(tried):
            name = f"c{cluster}-s{swizzle}-o{custom}"
            try:
                algo = lt.variant(first, cluster=cluster, swizzle=swizzle, custom=custom)
            except RuntimeError as e:
                res["variants"][name] = str(e)
                continue
            if not lt.supports(full, algo):
                res["variants"][name] = "refused by cublasLtMatmulAlgoCheck"
                continue
            res["variants"][f"var-{name}"] = lt.config(algo)
            runs[f"var-{name}"] = (lambda algo: lambda: lt.run(full, algo, a_buf, b_buf, c))(algo)
    for i, algo in enumerate(scaled["algos"][:args.candidates]):
        if lt.supports(scaled, algo):
            runs[f"scaled{i}"] = (lambda algo: lambda: lt.run(scaled, algo, a_buf, b_buf, c))(algo)
    if args.keep:
        import re
        runs = {k: v for k, v in runs.items() if k == "torch" or re.search(args.keep, k)}
    names = list(runs)
    for r in range(args.rounds):
        # each round starts at another variant: under the power limit the first after a pause runs faster
        order = names[r % len(names):] + names[:r % len(names)]
        row = {k: tflops(timed(runs[k], args.reps)) for k in order}
        res["rounds"].append(row)
        print(f"round {r}: " + "  ".join(f"{k} {row[k]:.0f}" for k in names), flush=True)

    keys = res["rounds"][0].keys()
    med = {k: statistics.median(rr[k] for rr in res["rounds"]) for k in keys}
    res["median_tflops"] = med
    # correctness: the chosen candidate's C against PyTorch's on the same operands
    lt.run(full, full["algos"][chosen], a_buf, b_buf, c)
    ref = reference()
    res["max_abs_diff_vs_torch"] = float((c - ref).abs().max())
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    print(f"{args.precision}: device {res['device']}  cublasLt {res['cublaslt']}  torch {res['torch']}  {m}x{n}x{kc}")
    print(f"tuning on {args.tune_rows} rows chose cand{chosen}; max |C - torch| {res['max_abs_diff_vs_torch']}")
    if "torch_kn" in med:
        print(f"torch_kn: {med['torch_kn']:7.1f} TFLOPS ({med['torch_kn'] / med['torch']:.3f}x torch with the agent's layout)")
    for prefix, cfgs in (("cand", res["candidates"]), ("scaled", res["scaled_candidates"]), ("kn", res.get("kn_candidates", []))):
        for i, cfg in enumerate(cfgs):
            k = f"{prefix}{i}"
            if k in med:
                print(f"{k}: {med[k]:7.1f} TFLOPS ({med[k] / med['torch']:.3f}x torch)  {cfg}")
    for k, cfg in res["variants"].items():
        if k not in med:
            print(f"{k}: {cfg}")
        else:
            print(f"{k}: {med[k]:7.1f} TFLOPS ({med[k] / med['torch']:.3f}x torch)  {cfg}")
    print(f"torch: {med['torch']:7.1f} TFLOPS")


if __name__ == "__main__":
    sys.exit(main())
