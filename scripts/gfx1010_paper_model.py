#!/usr/bin/env python3
"""The RX 5700 XT (gfx1010) on paper (issue 12): a roofline estimate per kernel and per model for
Dictum's HIP kernels, from the code objects' metadata (native/target/gfx1010-kernels.md, written by
Gfx1010MetadataTest) and the card's limits. No GPU needed: python3 scripts/gfx1010_paper_model.py

Assumptions (each named in docs/benchmarks.md, "The RX 5700 XT on paper"):
- 40 CUs (20 WGPs), 1.905 GHz boost: 9.75 TFLOP/s f32 FMA, 19.5 TFLOP/s packed f16; 448 GB/s
  DRAM, of which 250 GB/s is what other engines' kernels reach on it (used for every memory-bound
  kernel); LDS 128 bytes per clock per CU.
- gemm_f16 / conv1d_gelu_f16 (f32 FMA, 64 x 64 tile, 4 x 4 per thread, 16-wide k-slices): each FMA
  needs 2 bytes of LDS (two 16-byte reads per 16 FMAs), so a CU's 64 FMA lanes need 128 B/clock:
  exactly the LDS rate. 18 waves per SIMD hide the latency; taken at 60 % of the f32 peak.
- attention_f32, the portable (AMD) body since issue 12's fix (f32, flash-style; 142 VGPRs, 16 KiB of
  LDS used, 21 KiB passed by the launch, which both bodies share): 6 waves per SIMD (LDS and VGPRs
  allow 6 and 7). Counted in its gfx1010 ISA (hipcc -S), per lane and 8-key chunk: 512 FMAs and
  about 180 other VALU instructions (8 expf with range reduction, butterfly adds, masks; the
  output's rescaling, 32 more, only in chunks where a row's max moved), 32 ds_read_b128 and 92
  ds_bpermute: 1.72 bytes of LDS per FMA, under the 2 at which LDS would cap the FMA rate, so
  VALU-bound with ~74 % of its issue slots FMAs; with a barrier pair per 32 keys and the K/V
  staging: taken at 55 % of the f32 peak (it was 35 %: 29 KiB of LDS per block, 4 waves per SIMD,
  4 bytes of LDS per FMA, the softmax on one wave of four between barriers; ATT_EFF_BEFORE keeps
  that figure for the before/after table).
- Memory-bound kernels (layer norm, transpose, GEMV, cross-attention, embed, copies): bytes moved
  at 250 GB/s, plus a fixed 6 us per launch for the GPU-side launch gap and ramp of a small grid
  (the H100 showed 11-12 us for a lone 1280 x 1280 GEMV, most of it fixed cost).
- The host: 4.6 us per launch through the JNA binding (measured on the H100 machine's Xeon,
  LaunchCostBench), overlapping the GPU's work (one stream, no waits within a step).
- Release-to-text for 5 s of speech: one 30 s window encoded after release (no speculative encode),
  then a 4-token prompt step and 16 greedy steps (about 3 tokens per second of speech, plus <|endoftext|>).
"""

F32 = 9.75e12
BW = 250e9
FIXED = 6e-6
HOST = 4.6e-6
GEMM_EFF = 0.60
ATT_EFF = 0.55
ATT_EFF_BEFORE = 0.35
T = 1500
VOCAB = 51866
MODELS = {"tiny": (384, 4, 4, 80), "small": (768, 12, 12, 80), "large-v3-turbo": (1280, 32, 4, 128),
          "large-v3": (1280, 32, 32, 128)}


def encoder(d, el, dl, mels, att_eff=ATT_EFF):
    gemm = 24 * T * d * d * el + 2 * 3000 * mels * d * 3 + 2 * T * d * d * 3  # layers + both convolutions
    cross = 4 * T * d * d * dl          # the decoder's cross K and V, computed once per window
    att = 4 * T * T * d * el
    # bytes of the memory-bound kernels per layer: 2 layer norms (read + write), the transpose of
    # the cross keys per decoder layer; GEMM and attention I/O is inside their compute time
    mem = el * 2 * 2 * T * d * 4 + dl * 2 * T * d * 4 + T * d * 4 * 2
    launches = el * 11 + dl * 3 + 5
    t_gemm = (gemm + cross) / (F32 * GEMM_EFF)
    t_att = att / (F32 * att_eff)
    t_mem = mem / BW + launches * FIXED
    return {"gemm_ms": t_gemm * 1e3, "attention_ms": t_att * 1e3, "memory_ms": t_mem * 1e3,
            "total_ms": (t_gemm + t_att + t_mem) * 1e3, "gemm_tflop": (gemm + cross) / 1e12,
            "att_tflop": att / 1e12}


def decoder_step(d, dl, rows=1):
    weights = 2 * (dl * 14 * d * d + VOCAB * d)
    cross = dl * 2 * T * d * 4                # cross K (transposed) and V, f32
    selfkv = dl * 2 * 64 * d * 4 * rows       # 64 tokens in the cache
    launches = dl * 16 + 5
    gpu = (weights + cross + selfkv) / BW + launches * FIXED
    host = launches * HOST
    return {"bytes_gb": (weights + cross + selfkv) / 1e9, "launches": launches, "gpu_ms": gpu * 1e3,
            "host_ms": host * 1e3, "ms": max(gpu, host) * 1e3}


def main():
    print("| model | encoder GEMM (TFLOP, ms) | encoder attention (TFLOP, ms; before) | memory-bound + launches ms | "
          "encoder ms (before) | decoder bytes/token | decoder ms/token (GPU; host) | release-to-text 5 s ms (before) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, (d, el, dl, mels) in MODELS.items():
        e = encoder(d, el, dl, mels)
        b = encoder(d, el, dl, mels, ATT_EFF_BEFORE)
        s = decoder_step(d, dl)
        prompt = decoder_step(d, dl, rows=4)["ms"]
        r2t = e["total_ms"] + prompt + 16 * s["ms"]
        r2t_before = b["total_ms"] + prompt + 16 * s["ms"]
        print(f"| {name} | {e['gemm_tflop']:.2f}, {e['gemm_ms']:.0f} | {e['att_tflop']:.2f}, {e['attention_ms']:.0f}"
              f" ({b['attention_ms']:.0f}) | {e['memory_ms']:.1f} | **{e['total_ms']:.0f}** ({b['total_ms']:.0f}) | "
              f"{s['bytes_gb']:.2f} GB | **{s['ms']:.2f}** ({s['gpu_ms']:.2f}; {s['host_ms']:.2f}) | "
              f"**{r2t:.0f}** ({r2t_before:.0f}) |")


if __name__ == "__main__":
    main()
