#!/usr/bin/env python3
"""The RX 5700 XT (gfx1010) on paper (issue 12): a roofline estimate per kernel and per model for
Dictum's HIP kernels, from the code objects' metadata (native/target/gfx1010-kernels.md, written by
Gfx1010MetadataTest) and the card's limits. No GPU needed: python3 scripts/gfx1010_paper_model.py

Assumptions (each named in docs/benchmarks.md, "The RX 5700 XT on paper"):
- 40 CUs (20 WGPs), 1.905 GHz boost: 9.75 TFLOP/s f32 FMA, 19.5 TFLOP/s packed f16; 448 GB/s
  DRAM, of which 250 GB/s is what other engines' kernels reach on it (used for every memory-bound
  kernel); LDS 128 bytes per clock per CU.
- gemm_f16 / conv1d_gelu_f16 since issue 22 (gemm_tile_portable_8x8.cuh: f32 FMA, 128 x 128 tile,
  8 x 8 outputs per lane, 16-wide k-slices in two LDS buffers; 133 VGPRs, 35 904 B of LDS, no
  scratch: 6 waves per SIMD, three blocks per WGP). Per lane and k-step four 16-byte LDS reads feed
  64 FMAs: 1 byte of LDS per FMA, half the LDS rate (the 64 x 64 tile read 2, exactly the rate).
  The VALU instructions besides the FMAs per 16-wide slice (1024 FMAs per lane) are counted in the
  gfx1010 ISA by scripts/gfx1010_isa_count.py, per path a shape takes (session 12, GEMM_OTHER):
  "aligned" 27.5 (gemm_f16 where x's rows are 16-byte aligned, n % 128 == 0 and k % 16 == 0: every
  encoder GEMM but the convolutions; the slice loop is unrolled by two, so the LDS buffer is a
  constant), "rows_edge" 47.5 (the same in the last row tile when rows % 128 != 0: the waves past
  the last row add A's element-wise arm, 20), "conv" 166.5 (conv1d_gelu_f16: the im2col loader is
  element-wise, w 16-byte), "worst" 119.5 (every arm of gemm_f16's loads, any other shape). Until
  session 12 the model charged every slice the worst path of the code then (133; its aligned path
  was 42). The FMA share is 1024 / (1024 + other); GEMM_ISSUE (0.90) is the allowance for what the
  count leaves out: one barrier per 1024 FMAs per lane (two of a SIMD's six waves wait at it at a
  time), the global loads' latency past one slice, LDS bank conflicts on the stores; share x issue on
  the aligned path, 87.6 %, is above the 75-80 % that rocBLAS-class SGEMMs with such tiles reach on
  RDNA1, which is why the figures below are a paper bound and no promise. Per GEMM shape the
  efficiency is scaled by the tile fill (1500 rows fill 12 tiles of 128 to 97.7 %) and by the blocks
  per WGP rounded up (20 WGPs: ceil(tiles / 20) rounds of one block each per WGP).
  The figures in brackets ("s11") are the code before session 12 counted the same way: aligned 42
  (the buffer a runtime value: 4 VALU to select it, 11 to address the stores), rows_edge 62, conv
  177, worst 133 (GEMM_OTHER_S11).
- attention_f32, the portable (AMD) body since issue 12's fix (f32, flash-style; 161 VGPRs, 16 KiB of
  LDS used, 21 KiB passed by the launch, which both bodies share): 6 waves per SIMD (LDS and VGPRs
  allow 6 and 6). Counted in its gfx1010 ISA (scripts/gfx1010_isa_count.py), per lane and 8-key chunk
  since session 12: 512 FMAs of Q.K and P.V, 4 more for the row sums, and ATT_OTHER other VALU
  instructions: 80 where every query of the block sees the whole 32-key tile ("full"), 89 where the
  scores are masked ("edge": the encoder's last key tile and last query block, 4 % of its pairs).
  They are the scores summed over the lanes by a 7-step reduce-scatter, and per query row the max over
  8 lanes by v_med3 and two v_exp_f32 (scale and log2(e) folded into Q; a -FLT_MAX floor instead of
  -inf, so no guard); the output's rescaling, 32 more, only in chunks where a row's max moved. So
  512 / 596 = 85.9 % of the issue slots are FMAs on full tiles. ATT_ISSUE (0.743) is the allowance for
  the barrier pair per 32 keys and the K/V staging, kept from the earlier figures (55 % of the peak at
  a hand-counted 74 % share). The same count of the body before session 12 (expf with its range
  reduction and guards, a pairwise sum with selects, fmaxf with canonicalisations, a loop over the 8
  keys of P.V) gives 512 FMAs + 20 + 265 other: 64.2 %, so the earlier 55 % was 47.7 % by the same
  allowance (ATT_EFF_S11, the brackets): the hand count had missed about 100 instructions.
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
GEMM_OTHER = {"aligned": 27.5, "rows_edge": 47.5, "conv": 166.5, "worst": 119.5}
GEMM_OTHER_S11 = {"aligned": 42, "rows_edge": 62, "conv": 177, "worst": 133}
GEMM_ISSUE = 0.90
TILE = 128
WGPS = 20
ATT_OTHER = {"full": 80, "edge": 89}
ATT_ISSUE = 0.55 / 0.74
ATT_EFF_S11 = 512 / (532 + 265) * ATT_ISSUE
T = 1500
VOCAB = 51866
MODELS = {"tiny": (384, 4, 4, 80), "small": (768, 12, 12, 80), "large-v3-turbo": (1280, 32, 4, 128),
          "large-v3": (1280, 32, 32, 128)}


def gemm_path_other(rows, n, k, kind, other=GEMM_OTHER):
    """Non-FMA VALU per 1024 FMAs, averaged over the row tiles: the path each tile's slices take."""
    if kind == "conv":
        return other["conv"]
    if n % TILE or k % 16:
        return other["worst"]
    row_tiles = -(-rows // TILE)
    edge = 1 if rows % TILE else 0
    return ((row_tiles - edge) * other["aligned"] + edge * other["rows_edge"]) / row_tiles


def gemm_seconds(rows, n, k, kind="linear", model="s12"):
    """One GEMM's time on the 128 x 128 tile: FMA share of its path (this session's code, or "s11": the
    code before it) x GEMM_ISSUE x its fill."""
    flop = 2 * rows * n * k
    other = GEMM_OTHER_S11 if model == "s11" else GEMM_OTHER
    eff = 1024 / (1024 + gemm_path_other(rows, n, k, kind, other)) * GEMM_ISSUE
    tiles = -(-rows // TILE) * -(-n // TILE)
    fill = rows * n / (tiles * TILE * TILE) * (tiles / WGPS) / -(-tiles // WGPS)
    return flop / (F32 * eff * fill)


def encoder_gemms(d, el, dl, mels):
    """(rows, n, k, count, kind) of every encoder GEMM: the layers, both convolutions, the cross K/V."""
    return [(T, d, d, 4 * el, "linear"), (T, 4 * d, d, el, "linear"), (T, d, 4 * d, el, "linear"),
            (3000, d, 3 * mels, 1, "conv"), (T, d, 3 * d, 1, "conv"), (T, d, d, 2 * dl, "linear")]


def attention_eff(n):
    """attention_f32's share of the f32 peak on n x n (queries x keys): the FMA share of the chunks, full
    tiles and masked ones weighted by their count (32 queries per block, 32 keys per tile), x ATT_ISSUE."""
    blocks = -(-n // 32)
    full = (n // 32) ** 2 / blocks ** 2
    other = full * ATT_OTHER["full"] + (1 - full) * ATT_OTHER["edge"]
    return 512 / (516 + other) * ATT_ISSUE


Q8_BYTES = 34 / 32


def encoder(d, el, dl, mels, model="s12", q8_0=False):
    """The encoder's time: model "s12" (this session's code) or "s11" (the code before it), both counted
    by scripts/gfx1010_isa_count.py."""
    shapes = encoder_gemms(d, el, dl, mels)
    gemm_flop = sum(2 * r * n * k * c for r, n, k, c, _ in shapes)
    t_gemm = sum(gemm_seconds(r, n, k, kind, model) * c for r, n, k, c, kind in shapes)
    att_eff = attention_eff(T) if model == "s12" else ATT_EFF_S11
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
    for kind in ("aligned", "rows_edge", "conv", "worst"):
        share = 1024 / (1024 + GEMM_OTHER[kind])
        print(f"GEMM {kind}: {share:.3f} FMA share x {GEMM_ISSUE:.2f} = {share * GEMM_ISSUE:.3f} of the f32 peak "
              f"(s11: {1024 / (1024 + GEMM_OTHER_S11[kind]) * GEMM_ISSUE:.3f}), times each shape's fill")
    print(f"attention 1500 x 1500: {attention_eff(T) / ATT_ISSUE:.3f} FMA share x {ATT_ISSUE:.3f} = "
          f"{attention_eff(T):.3f} of the f32 peak (s11: {ATT_EFF_S11:.3f})")
    print("| model | encoder GEMM (TFLOP, ms; s11) | encoder attention (TFLOP, ms; s11) | memory-bound + launches ms | "
          "encoder ms (s11) | decoder bytes/token | decoder ms/token (GPU; host) | release-to-text 5 s ms (s11) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rows = [(name, dims, False) for name, dims in MODELS.items()]
    rows += [(name + " q8_0", dims, True) for name, dims in MODELS.items() if name.startswith("large")]
    for name, (d, el, dl, mels), q8_0 in rows:
        e = encoder(d, el, dl, mels, q8_0=q8_0)
        b = encoder(d, el, dl, mels, model="s11", q8_0=q8_0)
        s = decoder_step(d, dl, q8_0=q8_0)
        prompt = decoder_step(d, dl, rows=4, q8_0=q8_0)["ms"]
        r2t = e["total_ms"] + prompt + 16 * s["ms"]
        r2t_before = b["total_ms"] + prompt + 16 * s["ms"]
        print(f"| {name} | {e['gemm_tflop']:.2f}, {e['gemm_ms']:.1f} ({b['gemm_ms']:.1f}) | {e['att_tflop']:.2f}, "
              f"{e['attention_ms']:.1f} ({b['attention_ms']:.1f}) | {e['memory_ms']:.1f} | **{e['total_ms']:.1f}** "
              f"({b['total_ms']:.1f}) | {s['bytes_gb']:.2f} GB | **{s['ms']:.2f}** ({s['gpu_ms']:.2f}; {s['host_ms']:.2f}) | "
              f"**{r2t:.0f}** ({r2t_before:.0f}) |")


if __name__ == "__main__":
    main()
