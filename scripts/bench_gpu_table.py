#!/usr/bin/env python3
"""The table of scripts/bench-gpu.sh from its results.jsonl: every figure per engine, Dictum over the
faster peer, and the floor beside it (usage: bench_gpu_table.py results.jsonl SIZE...).

Floors, from the ceilings measured in the same run (device-to-device copy, an 8192^3 f16 GEMM):
- encoder: its useful FLOPs (both convolutions, 12 d^2 per frame and layer for Q, K, V, out and
  the MLP, 4 T^2 d per layer for attention) at the GEMM rate; the cross-attention K/V of the
  decoder layers, which Dictum and whisper.cpp compute with the encoder, are not counted;
- decoder step: the bytes one token must read once, f16 weights of every decoder layer (14 d^2) and
  the vocabulary projection, plus the cross-attention K/V in f16 (2 T d per layer), at the copy
  rate (bytes read + written per second: what the memory moves, as issue 12's floors count it).

Release-to-text for 5 s of speech: Dictum's is measured through its real session (ReleaseBench, end of
the last fed chunk -> final text, 16 tokens at most); the peers' is their encode + decode of the same
audio computed from their own figures in the same run: one 30 s window (both pad to it) plus 17
decoder steps (the prompt as one step, 16 tokens), as RELEASE_STEPS says.
"""
import json
import sys

DIMS = {"tiny": (384, 4, 4, 80), "small": (768, 12, 12, 80), "large-v3-turbo": (1280, 32, 4, 128),
        "large-v3": (1280, 32, 32, 128)}
VOCAB, T = 51866, 1500
RELEASE_STEPS = 17


def floors(size, ceil):
    # "S-q8_0": the same dimensions with the weights in q8_0 blocks (34 bytes per 32 values)
    quantised = size.endswith("-q8_0")
    d, el, dl, mels = DIMS[size.removesuffix("-q8_0")]
    enc_flop = 24 * T * d * d * el + 4 * T * T * d * el + 2 * 3000 * mels * d * 3 + 2 * T * d * d * 3
    weight_bytes = 34 / 32 if quantised else 2
    dec_bytes = weight_bytes * (dl * 14 * d * d + VOCAB * d) + dl * 2 * T * d * 2
    read = ceil["copy_tb_s"] * 1e12
    return enc_flop, dec_bytes, enc_flop / (ceil["f16_gemm_tflop_s"] * 1e12) * 1e3, dec_bytes / read * 1e3


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    ceil = next((r for r in rows if r["engine"] == "ceilings"), {"copy_tb_s": 2.8, "f16_gemm_tflop_s": 990})

    def get(engine, size, key):
        return next((r.get(key) for r in rows if r["engine"] == engine and r["size"] == size
                     and r.get(key) is not None), None)

    def f(v, p=2):
        return "—" if v is None else f"{v:.{p}f}"

    print(f"\nceilings measured here: copy {ceil['copy_tb_s']:.2f} TB/s (read + write), "
          f"f16 GEMM 8192^3 {ceil['f16_gemm_tflop_s']:.0f} TFLOP/s")
    print("| model | figure | Dictum cuda | Dictum before | whisper.cpp | transformers | transformers static + compile"
          " | Dictum / faster peer | floor |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    peer_engines = ("whisper.cpp", "transformers", "transformers-compiled")
    for s in sys.argv[2:]:
        flop, nbytes, enc_floor, dec_floor = floors(s, ceil)
        fl = {"encoder_ms": f"{enc_floor:.3f} ms ({flop / 1e12:.2f} TFLOP)",
              "decode_ms_per_token": f"{dec_floor:.3f} ms ({nbytes / 1e9:.2f} GB)",
              "beam5_ms_per_step": f"{dec_floor:.3f} ms ({nbytes / 1e9:.2f} GB + 4 more K/V caches)",
              "beam5_transcribe_ms_per_token": f"{dec_floor:.3f} ms (as a step)"}
        for key, name in (("encoder_ms", "encoder ms / 30 s window"), ("decode_ms_per_token", "decoder ms / token"),
                          ("beam5_ms_per_step", "beam-5 ms / step (Dictum: reorder + step; whisper.cpp: bench's batchd)"),
                          ("beam5_transcribe_ms_per_token", "beam-5 ms / token of a transcription (same WAV, prompt,"
                           " tokens)"),
                          ("peak_gpu_mib", "peak GPU MiB")):
            dv, bv = get("dictum", s, key), get("dictum-baseline", s, key)
            pv = [get(e, s, key) for e in peer_engines]
            peers = [v for v in pv if v is not None]
            ratio = f"{dv / min(peers):.2f}×" if dv is not None and peers else "—"
            p = 0 if key == "peak_gpu_mib" else 2
            print(f"| {s} | {name} | {f(dv, p)} | {f(bv, p)} | " + " | ".join(f(v, p) for v in pv)
                  + f" | {ratio} | {fl.get(key, '—')} |")
        # release-to-text: Dictum measured (two endings), the peers computed from their encode + decode
        pr = []
        for e in peer_engines:
            enc, dec = get(e, s, "encoder_ms"), get(e, s, "decode_ms_per_token")
            pr.append(enc + RELEASE_STEPS * dec if enc is not None and dec is not None else None)
        peers = [v for v in pr if v is not None]
        floor = enc_floor + RELEASE_STEPS * dec_floor
        for ending, label in (("speech", "speech up to the release"), ("quiet", "0.6 s quiet before the release")):
            dv = get("dictum", s, f"release_{ending}_ms")
            spec = get("dictum", s, f"release_{ending}_speculative")
            ratio = f"{dv / min(peers):.2f}×" if dv is not None and peers else "—"
            note = f" (text made at a pause in {spec} runs)" if spec is not None else ""
            print(f"| {s} | release-to-text 5 s, {label}{note}; peers: encode + {RELEASE_STEPS} steps | {f(dv)} | — | "
                  + " | ".join(f(v) for v in pr) + f" | {ratio} | {floor:.3f} ms |")
    for r in rows:  # LIMITED: Dictum again under DICTUM_GPU_MEMORY_MIB (its encoder blocks taking turns)
        if r.get("engine") == "dictum-limited":
            print(f"\ndictum-limited {r['size']}: encoder {f(r.get('encoder_ms'))} ms, decoder "
                  f"{f(r.get('decode_ms_per_token'))} ms/token, beam-5 {f(r.get('beam5_transcribe_ms_per_token'))} "
                  f"ms/token of a transcription, peak GPU {f(r.get('peak_gpu_mib'), 0)} MiB")
    errors = [r for r in rows if r.get("error")]
    for r in errors:
        print(f"\n{r['engine']} {r.get('size')}: not measured: {r['error']}")


if __name__ == "__main__":
    main()
