#!/usr/bin/env python3
"""Bytes a decoded token reads (batch 1, mean over cache lengths 0-224), Dictum (cross and self K/V in f32 on
the CPU) against whisper.cpp (both in f16); weights f16 (2 bytes) or q8_0 (34 bytes per 32)."""
dims = {"toy-en": (256, 4, 51864), "tiny": (384, 4, 51865), "base": (512, 6, 51865), "small": (768, 12, 51865)}
for name, (d, layers, vocab) in dims.items():
    for wt, wb in (("f16", 2.0), ("q8_0", 34 / 32)):
        logits = vocab * d * wb
        lw = layers * 14 * d * d * wb
        cross = lambda b: layers * 2 * 1500 * d * b
        selfkv = lambda b: layers * 2 * 112 * d * b  # 112: the mean cache length over 0-224
        dic = logits + lw + cross(4) + selfkv(4)
        wc = logits + lw + cross(2) + selfkv(2)
        half = logits + lw + cross(2) + selfkv(4)
        print(f"{name:7s} {wt:5s} logits {logits/1e6:6.1f} layers {lw/1e6:6.1f} cross {cross(4)/1e6:5.1f}/{cross(2)/1e6:5.1f} "
              f"self {selfkv(4)/1e6:4.1f}/{selfkv(2)/1e6:4.1f} | Dictum {dic/1e6:6.1f} MB, whisper.cpp {wc/1e6:6.1f} MB, "
              f"ratio {dic/wc:.2f}; with f16 cross K/V {half/1e6:6.1f} MB, ratio {half/wc:.2f}")
