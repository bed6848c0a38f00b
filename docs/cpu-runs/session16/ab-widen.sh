#!/usr/bin/env bash
# Idle A/B of the f16 panels' widening: blocks vs bits (dictum.cpu.panels.widen), alternating JVMs (the order
# flips each round), 3 rounds, 40 s of rest before each JVM; prints the 1-minute load at each start.
# usage: docs/cpu-runs/session16/ab-widen.sh 512|256 MODEL...
#   session 16: "512 testdata/models/toy-en/ggml-toy-en.bin bench-out/{tiny,base,small}-f16.bin" -> ab-widen-512.txt,
#               "256 bench-out/base-f16.bin bench-out/small-f16.bin" -> ab-widen-256.txt
cd "$(dirname "$0")/../../.."
width=$1; shift
w=""; [[ $width == 256 ]] && w="-XX:UseAVX=2 -XX:MaxVectorSize=32"
for m in "$@"; do
  for r in 1 2 3; do
    if (( r % 2 )); then order="blocks bits"; else order="bits blocks"; fi
    for x in $order; do
      sleep 40
      l=$(cut -d' ' -f1 /proc/loadavg)
      out=$(DICTUM_JAVA_OPTS="$w -Ddictum.cpu.panels.widen=$x" ./dictum bench -m "$m" --tokens 224 --beams 0 --runs 3 --warmup 2 --json 2>/dev/null | tail -1)
      echo "$(basename "$m") round $r $x load $l $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("decode ms/token median %.2f min %.2f" % (d["decode_ms_per_token"]["median"], d["decode_ms_per_token"]["min"]))')"
    done
  done
done
