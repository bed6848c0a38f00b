#!/usr/bin/env python3
"""Issue 22 item 3, the measurement: would gfx1010's packed f16 FMA (v_pk_fma_f16, twice the f32 rate)
keep the GEMMs' per-op contract (normwise relative error <= 1e-5 against float64, GpuOpsTest)?

Emulated on the CPU, per sampled output of each real Whisper GEMM shape, against float64:
- "f32": today's portable body: x f32, w f16 widened, one f32 FMA per product in k order (a single
  rounding to f32 per step).
- "pk_f16 / K": the packed scheme of the issue: x rounded to f16 (v_pk_fma_f16 takes f16 operands),
  every K products summed by f16 FMAs into a short f16 partial (one rounding to f16 per step: the
  product of two f16 is exact in float64, so round(p + a*b) there is the FMA's rounding), each
  partial then added to an f32 accumulator (v_add_f32).
- "pk_f16 / 1": every product rounded to f16 alone (the least f16 can do), then added in f32.
- "pk_f16 hi+lo / K": the same with x split into f16 hi + lo (two packed FMAs per product: the f32
  rate again, no gain) - what f16 operands would need to reach the contract, for scale.
Inputs: x ~ N(0, 1) (a layer norm's output; the MLP's down projection takes GELU of N(0, 1)), w ~
N(0, 1/sqrt(k)) rounded to f16 (trained weights' scale), 256 sampled outputs per shape.
No GPU needed: python3 scripts/packed_f16_gemm_error.py
"""
import numpy as np

SAMPLES = 256
CONTRACT = 1e-5
# (what, rows, n, k): the encoder's GEMMs per model width, both convolutions, the MLP's down projection
SHAPES = [("tiny q/k/v/o", 1500, 384, 384), ("tiny MLP up", 1500, 1536, 384), ("tiny MLP down", 1500, 384, 1536),
          ("small MLP down", 1500, 768, 3072), ("large q/k/v/o", 1500, 1280, 1280),
          ("large MLP up", 1500, 5120, 1280), ("large MLP down", 1500, 1280, 5120),
          ("large-v3 conv1 (128 mels)", 3000, 1280, 384), ("large conv2", 1500, 1280, 3840)]


def f16(v):
    return v.astype(np.float16).astype(np.float64)


def f32(v):
    return v.astype(np.float32).astype(np.float64)


def sums(x, w, scheme, chunk=32):
    """Per row of x and w (one sampled output each), the dot product as the scheme computes it."""
    s, k = x.shape
    acc = np.zeros(s)
    if scheme == "f32":
        for i in range(k):
            acc = f32(acc + x[:, i] * w[:, i])
        return acc
    parts = [f16(x)] if scheme == "pk" else [f16(x), f16(x - f16(x))]
    for start in range(0, k, chunk):
        for xp in parts:
            p = np.zeros(s)
            for i in range(start, min(k, start + chunk)):
                p = f16(p + xp[:, i] * w[:, i])
            acc = f32(acc + p)
    return acc


def main():
    rng = np.random.default_rng(22)
    print(f"| GEMM (rows x n x k) | f32 body | pk_f16 / 32 | pk_f16 / 8 | pk_f16 / 1 | pk_f16 hi+lo / 32 | "
          f"contract {CONTRACT:g} |")
    print("|---|---:|---:|---:|---:|---:|---|")
    worst = 0.0
    for what, rows, n, k in SHAPES:
        x = rng.standard_normal((SAMPLES, k))
        if "down" in what:  # GELU of a pre-activation
            x = 0.5 * x * (1 + np.vectorize(__import__("math").erf)(x / np.sqrt(2)))
        x = f32(x)
        w = f16(rng.standard_normal((SAMPLES, k)) / np.sqrt(k))
        exact = np.sum(x * w, axis=1)
        err = {}
        for name, scheme, chunk in (("f32", "f32", 0), ("pk32", "pk", 32), ("pk8", "pk", 8), ("pk1", "pk", 1),
                                    ("hilo32", "hilo", 32)):
            got = sums(x, w, scheme, chunk)
            err[name] = np.linalg.norm(got - exact) / np.linalg.norm(exact)
        worst = max(worst, min(err["pk8"], err["pk1"]))
        verdict = "f32 only" if min(err["pk8"], err["pk1"]) > CONTRACT else "pk_f16 holds"
        print(f"| {what} ({rows} x {n} x {k}) | {err['f32']:.1e} | {err['pk32']:.1e} | {err['pk8']:.1e} | {err['pk1']:.1e} | "
              f"{err['hilo32']:.1e} | {verdict} |")
    print(f"largest packed-f16 error with partials of 8 or 1: {worst:.1e} "
          f"({'above' if worst > CONTRACT else 'within'} the {CONTRACT:g} contract)")


if __name__ == "__main__":
    main()
