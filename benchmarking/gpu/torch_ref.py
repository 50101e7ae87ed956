#!/usr/bin/env python3
"""cuBLAS reference rates through PyTorch, for the same GEMM shapes as pog-cuda's selftest.

Per precision: C (m x n, fp32 out) = A (m x k) . B (k x n) with beta = 0, timed with CUDA events
(mean of --reps after 3 warm-ups): fp32 (TF32 off), tf32 (TF32 on), fp16 / bf16 inputs with
fp32 output (torch.mm out_dtype), fp8 e4m3 x e4m3 -> fp32 (torch._scaled_mm, scales 1).
Also the device-to-device copy bandwidth (bytes read + written). Writes JSON to --out.
"""
import argparse
import json
import sys

import torch


def timed(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps  # ms per call


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=16384)
    ap.add_argument("--k", type=int, default=8192)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--copy-gib", type=float, default=2.0)
    ap.add_argument("--only", default="", help="comma-separated precisions to time (default: all, and the copy)")
    ap.add_argument("--out", default="torch_ref.json")
    ap.add_argument("--data", choices=("agent", "randn"), default="agent",
                    help="agent: elements as the challenge draws them, a random sign and random mantissa bits "
                         "of the precision on a magnitude in [1, 2) (pog_primitives::precision), since a GEMM's "
                         "power draw, and so its clock under the power limit, depends on its data; randn: "
                         "normal values (the reference before 2026-11-26)")
    a = ap.parse_args()
    m = n = a.dim
    k = a.k
    dev = "cuda"
    flops = 2.0 * m * n * k
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "m": m, "n": n, "k": k,
           "data": a.data, "gemm_tflops": {}, "notes": {}}

    def draw(rows, cols, mantissa_bits):
        """A matrix of the challenge's elements in fp32: ±(1 + j / 2^mantissa_bits), j uniform."""
        if a.data == "randn":
            return torch.randn(rows, cols, device=dev)
        j = torch.randint(0, 1 << mantissa_bits, (rows, cols), device=dev, dtype=torch.int32)
        sign = torch.randint(0, 2, (rows, cols), device=dev, dtype=torch.int32) * 2 - 1
        return sign.float() * (1.0 + j.float() / float(1 << mantissa_bits))

    def report(name, ms):
        res["gemm_tflops"][name] = flops / (ms * 1e-3) / 1e12
        print(f"torch {name:9s} {m}x{n}x{k}: {res['gemm_tflops'][name]:8.1f} TFLOPS", flush=True)

    want = lambda name: not a.only or name in a.only.split(",")
    C = torch.empty(m, n, device=dev)
    if want("fp32"):
        A, B = draw(m, k, 23), draw(k, n, 23)
        torch.backends.cuda.matmul.allow_tf32 = False
        report("fp32", timed(lambda: torch.mm(A, B, out=C), max(3, a.reps // 4)))
    if want("tf32"):
        torch.backends.cuda.matmul.allow_tf32 = True
        A, B = draw(m, k, 10), draw(k, n, 10)
        report("tf32", timed(lambda: torch.mm(A, B, out=C), a.reps))
        torch.backends.cuda.matmul.allow_tf32 = False
    A = B = None
    for name, dt, bits in (("fp16", torch.float16, 10), ("bf16", torch.bfloat16, 7)):
        if not want(name):
            continue
        A16, B16 = draw(m, k, bits).to(dt), draw(k, n, bits).to(dt)
        try:
            fn = lambda: torch.mm(A16, B16, out_dtype=torch.float32)
            fn()
            res["notes"][name] = "torch.mm(out_dtype=float32)"
        except Exception as e:  # older torch: 16-bit output
            res["notes"][name] = f"16-bit output ({e.__class__.__name__})"
            fn = lambda: torch.mm(A16, B16)
        report(name, timed(fn, a.reps))
        del A16, B16
    if want("fp8-e4m3"):
        A8 = draw(m, k, 3).to(torch.float8_e4m3fn)
        B8 = draw(k, n, 3).t().contiguous().to(torch.float8_e4m3fn).t()  # column-major, as cuBLASLt FP8 wants
        one = torch.ones((), device=dev)
        report("fp8-e4m3", timed(lambda: torch._scaled_mm(A8, B8, scale_a=one, scale_b=one, out_dtype=torch.float32), a.reps))
        del A8, B8
    del A, B, C
    torch.cuda.empty_cache()
    if not a.only:
        nbytes = int(a.copy_gib * (1 << 30))
        x = torch.empty(nbytes, dtype=torch.uint8, device=dev)
        y = torch.empty_like(x)
        ms = timed(lambda: y.copy_(x), 20)
        res["copy_gbps"] = 2 * nbytes / (ms * 1e-3) / 1e9
        print(f"torch device copy: {res['copy_gbps']:.0f} GB/s (read + write)", flush=True)
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
