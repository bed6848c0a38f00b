#!/usr/bin/env bash
# A/B of the 512-bit f16 panel widening on small: blocks (default) vs bits, alternating JVMs, 3 rounds
cd /work/main
for r in 1 2 3; do
  for w in blocks bits; do
    l=$(cut -d' ' -f1 /proc/loadavg)
    out=$(DICTUM_JAVA_OPTS="-Ddictum.cpu.panels.widen=$w" ./dictum bench -m bench-out/small-f16.bin --tokens 224 --beams 0 --runs 3 --warmup 2 --json 2>/dev/null | tail -1)
    echo "round $r $w load $l $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("decode ms/token median %.2f min %.2f" % (d["decode_ms_per_token"]["median"], d["decode_ms_per_token"]["min"]))')"
  done
done
