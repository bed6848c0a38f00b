#!/usr/bin/env python3
"""The RX 5700 XT (gfx1010) on paper (issue 12): a roofline estimate per kernel and per model for
Dictum's HIP kernels, from the code objects' metadata (native/target/gfx1010-kernels.md, written by
Gfx1010MetadataTest) and the card's limits. No GPU needed: python3 scripts/gfx1010_paper_model.py

Assumptions (each named in docs/benchmarks.md, "The RX 5700 XT on paper"):
- 40 CUs (20 WGPs), 1.905 GHz boost: 9.75 TFLOP/s f32 FMA, 19.5 TFLOP/s packed f16; 448 GB/s
  DRAM, of which 250 GB/s is what other engines' kernels reach on it (used for every memory-bound
  kernel); LDS 128 bytes per clock per CU.
- gemm_f16 / conv1d_gelu_f16 since issue 22 (gemm_tile_portable_8x8.cuh: f32 FMA, 128 x 128 tile,
  8 x 8 outputs per lane, 16-wide k-slices in two LDS buffers; 132 VGPRs, 35 904 B of LDS, no
  scratch: 6 waves per SIMD, three blocks per WGP). Per lane and k-step four 16-byte LDS reads feed
  64 FMAs: 1 byte of LDS per FMA, half the LDS rate (the 64 x 64 tile read 2, exactly the rate).
  Its gfx1010 ISA (hipcc -S): the k-loop is 512 FMAs, 32 ds_read_b128 and 2 other VALU per 8
  k-steps; per 16-wide slice 1024 FMAs against at most 133 other VALU instructions (the loop, the
  global loads of every edge path, the LDS stores, f16 widening; the aligned path takes fewer), so
  >= 88.5 % of the VALU issue slots are FMAs (GEMM_FMA_SHARE). GEMM_ISSUE (0.90) is the allowance for
  what the count leaves out: one barrier per 1024 FMAs per lane (two of a SIMD's six waves wait at
  it at a time), the global loads' latency past one slice, LDS bank conflicts on the stores; the
  product, 80 %, is what rocBLAS-class SGEMMs with such tiles reach on RDNA1 (75-80 %). Per GEMM
  shape the efficiency is scaled by the tile fill (1500 rows fill 12 tiles of 128 to 97.7 %) and
  by the blocks per WGP rounded up (20 WGPs: ceil(tiles / 20) rounds of one block each per WGP).
  Before (GEMM_EFF_64, the "before" columns): the 64 x 64 tile at 60 % of the f32 peak.
- attention_f32, the portable (AMD) body since issue 12's fix (f32, flash-style; 142 VGPRs, 16 KiB of
  LDS used, 21 KiB passed by the launch, which both bodies share): 6 waves per SIMD (LDS and VGPRs
  allow 6 and 7). Counted in its gfx1010 ISA (hipcc -S), per lane and 8-key chunk: 512 FMAs and
  about 180 other VALU instructions (8 expf with range reduction, butterfly adds, masks; the
  output's rescaling, 32 more, only in chunks where a row's max moved), 32 ds_read_b128 and 92
  ds_bpermute: 1.72 bytes of LDS per FMA, under the 2 at which LDS would cap the FMA rate, so
  VALU-bound with ~74 % of its issue slots FMAs; with a barrier pair per 32 keys and the K/V
  staging: taken at 55 % of the f32 peak (it was 35 %: 29 KiB of LDS per block, 4 waves per SIMD,
  4 bytes of LDS per FMA, the softmax on one wave of four between barriers).
- Memory-bound kernels (layer norm, transpose, GEMV, cross-attention, embed, copies): bytes moved
  at 250 GB/s, plus a fixed 6 us per launch for the GPU-side launch gap and ramp of a small grid
  (the H100 showed 11-12 us for a lone 1280 x 1280 GEMV, most of it fixed cost).
- The host: 4.6 us per launch through the JNA binding (measured on the H100 machine's Xeon,
  LaunchCostBench), overlapping the GPU's work (one stream, no waits within a step).
- Release-to-text for 5 s of speech: one 30 s window encoded after release (no speculative encode),
  then a 4-token prompt step and 16 greedy steps (about 3 tokens per second of speech, plus <|endoftext|>).
- A q8_0 file (the "q8_0" rows, issue 22 session 10): its matrices stay q8_0 blocks on the device, 34
  bytes per 32 weights. The decoder's GEMVs (gemv_q8_0: 113 VGPRs on gfx1010, 8 waves per SIMD, still
  memory-bound) read 1.0625 bytes a weight instead of 2, at the same 250 GB/s; the encoder's GEMMs are
  unchanged, but before each one its matrix is dequantised into the f16 weight scratch (dequant_q8_0_f16:
  1.0625 bytes read and 2 written per weight, one launch per matrix; the layers' 12 d^2 and the cross
  K/V's 2 d^2 per decoder layer; the convolutions stay f16).
"""

F32 = 9.75e12
BW = 250e9
FIXED = 6e-6
HOST = 4.6e-6
GEMM_FMA_SHARE = 1024 / (1024 + 133)
GEMM_ISSUE = 0.90
GEMM_EFF = GEMM_FMA_SHARE * GEMM_ISSUE
GEMM_EFF_64 = 0.60
TILE = 128
WGPS = 20
ATT_EFF = 0.55
T = 1500
VOCAB = 51866
MODELS = {"tiny": (384, 4, 4, 80), "small": (768, 12, 12, 80), "large-v3-turbo": (1280, 32, 4, 128),
          "large-v3": (1280, 32, 32, 128)}


def gemm_seconds(rows, n, k, tiled=True):
    """One GEMM's time: on the 128 x 128 tile at GEMM_EFF times its fill, or at GEMM_EFF_64."""
    flop = 2 * rows * n * k
    if not tiled:
        return flop / (F32 * GEMM_EFF_64)
    tiles = -(-rows // TILE) * -(-n // TILE)
    fill = rows * n / (tiles * TILE * TILE) * (tiles / WGPS) / -(-tiles // WGPS)
    return flop / (F32 * GEMM_EFF * fill)


def encoder_gemms(d, el, dl, mels):
    """(rows, n, k, count) of every encoder GEMM: the layers, both convolutions, the cross K/V."""
    return [(T, d, d, 4 * el), (T, 4 * d, d, el), (T, d, 4 * d, el), (3000, d, 3 * mels, 1), (T, d, 3 * d, 1),
            (T, d, d, 2 * dl)]


Q8_BYTES = 34 / 32


def encoder(d, el, dl, mels, att_eff=ATT_EFF, tiled=True, q8_0=False):
    shapes = encoder_gemms(d, el, dl, mels)
    gemm_flop = sum(2 * r * n * k * c for r, n, k, c in shapes)
    t_gemm = sum(gemm_seconds(r, n, k, tiled) * c for r, n, k, c in shapes)
    att = 4 * T * T * d * el
    # bytes of the memory-bound kernels per layer: 2 layer norms (read + write); per decoder layer the
    # cross keys' transpose and the values' rounding, each reading f32 and writing f16 (issue 22: 6 bytes
    # a value each; before, the transpose alone, f32 to f32); GEMM and attention I/O is inside their
    # compute time
    mem = el * 2 * 2 * T * d * 4 + dl * 2 * T * d * 6 + T * d * 4 * 2
    launches = el * 11 + dl * 4 + 5
    if q8_0:  # each matrix dequantised into the weight scratch before its GEMM
        mem += (el * 12 * d * d + dl * 2 * d * d) * (Q8_BYTES + 2)
        launches += el * 6 + dl * 2
    t_att = att / (F32 * att_eff)
    t_mem = mem / BW + launches * FIXED
    return {"gemm_ms": t_gemm * 1e3, "attention_ms": t_att * 1e3, "memory_ms": t_mem * 1e3,
            "total_ms": (t_gemm + t_att + t_mem) * 1e3, "gemm_tflop": gemm_flop / 1e12,
            "att_tflop": att / 1e12}


def decoder_step(d, dl, rows=1, q8_0=False):
    weights = (Q8_BYTES if q8_0 else 2) * (dl * 14 * d * d + VOCAB * d)
    cross = dl * 2 * T * d * 2                # cross K (transposed) and V, f16 since issue 22 (f32: 4)
    selfkv = dl * 2 * 64 * d * 4 * rows       # 64 tokens in the cache
    launches = dl * 16 + 5
    gpu = (weights + cross + selfkv) / BW + launches * FIXED
    host = launches * HOST
    return {"bytes_gb": (weights + cross + selfkv) / 1e9, "launches": launches, "gpu_ms": gpu * 1e3,
            "host_ms": host * 1e3, "ms": max(gpu, host) * 1e3}


def main():
    print(f"GEMM efficiency on the 128 x 128 tile: {GEMM_FMA_SHARE:.3f} FMA share x {GEMM_ISSUE:.2f} = "
          f"{GEMM_EFF:.3f} of the f32 peak, times each shape's fill; before: {GEMM_EFF_64:.2f}")
    print("| model | encoder GEMM (TFLOP, ms; 64 x 64 tile) | encoder attention (TFLOP, ms) | memory-bound + launches ms | "
          "encoder ms (64 x 64 tile) | decoder bytes/token | decoder ms/token (GPU; host) | release-to-text 5 s ms (64 x 64 tile) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rows = [(name, dims, False) for name, dims in MODELS.items()]
    rows += [(name + " q8_0", dims, True) for name, dims in MODELS.items() if name.startswith("large")]
    for name, (d, el, dl, mels), q8_0 in rows:
        e = encoder(d, el, dl, mels, q8_0=q8_0)
        b = encoder(d, el, dl, mels, tiled=False, q8_0=q8_0)
        s = decoder_step(d, dl, q8_0=q8_0)
        prompt = decoder_step(d, dl, rows=4, q8_0=q8_0)["ms"]
        r2t = e["total_ms"] + prompt + 16 * s["ms"]
        r2t_before = b["total_ms"] + prompt + 16 * s["ms"]
        print(f"| {name} | {e['gemm_tflop']:.2f}, {e['gemm_ms']:.0f} ({b['gemm_ms']:.0f}) | {e['att_tflop']:.2f}, "
              f"{e['attention_ms']:.0f} | {e['memory_ms']:.1f} | **{e['total_ms']:.0f}** ({b['total_ms']:.0f}) | "
              f"{s['bytes_gb']:.2f} GB | **{s['ms']:.2f}** ({s['gpu_ms']:.2f}; {s['host_ms']:.2f}) | "
              f"**{r2t:.0f}** ({r2t_before:.0f}) |")


if __name__ == "__main__":
    main()
