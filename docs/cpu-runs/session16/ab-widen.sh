#!/usr/bin/env bash
# Idle A/B of the f16 panels' widening: blocks vs bits (dictum.cpu.panels.widen), 3 rounds, 40 s of rest.
# usage: docs/cpu-runs/session16/ab-widen.sh 512|256 MODEL...
#   session 16: "512 testdata/models/toy-en/ggml-toy-en.bin bench-out/{tiny,base,small}-f16.bin" -> ab-widen-512.txt,
#               "256 bench-out/base-f16.bin bench-out/small-f16.bin" -> ab-widen-256.txt
width=$1; shift
w=""; [[ $width == 256 ]] && w="-XX:UseAVX=2 -XX:MaxVectorSize=32"
for m in "$@"; do
  "$(dirname "$0")/../../../scripts/ab-decoder-options.sh" "$m" 3 40 "blocks:$w -Ddictum.cpu.panels.widen=blocks" \
    "bits:$w -Ddictum.cpu.panels.widen=bits"
done
