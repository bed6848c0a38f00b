#!/usr/bin/env bash
# Idle A/B of the 256-bit f16 panel widening at base and small (toy-en and tiny: session 13): blocks (the default) vs bits, alternating JVMs
# (the order flips each round), 3 rounds, 40 s of rest before each JVM; prints the 1-minute load at each start.
cd "$(dirname "$0")/../../.."
for m in bench-out/base-f16.bin bench-out/small-f16.bin; do
  for r in 1 2 3; do
    if (( r % 2 )); then order="blocks bits"; else order="bits blocks"; fi
    for w in $order; do
      sleep 40
      l=$(cut -d' ' -f1 /proc/loadavg)
      out=$(DICTUM_JAVA_OPTS="-XX:UseAVX=2 -XX:MaxVectorSize=32 -Ddictum.cpu.panels.widen=$w" ./dictum bench -m "$m" --tokens 224 --beams 0 --runs 3 --warmup 2 --json 2>/dev/null | tail -1)
      echo "$(basename "$m") round $r $w load $l $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("decode ms/token median %.2f min %.2f" % (d["decode_ms_per_token"]["median"], d["decode_ms_per_token"]["min"]))')"
    done
  done
done
