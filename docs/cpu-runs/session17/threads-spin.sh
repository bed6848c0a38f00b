#!/usr/bin/env bash
# How the f16 decoder's token depends on the pool (issue 21's last lead, "the pool's waits"): the default
# (2 threads, helpers spin 200 us before parking), helpers spinning 2 ms, and one thread alone; alternating
# JVMs, 2 rounds, 30 s of rest before each; prints the 1-minute load at each start.
# usage: docs/cpu-runs/session17/threads-spin.sh MODEL
cd "$(dirname "$0")/../../.."
m=$1
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) 512 bits"
for r in 1 2; do
  for x in "default:" "spin2ms:-Ddictum.cpu.spinMicros=2000" "one-thread:-XX:ActiveProcessorCount=1"; do
    sleep 30
    l=$(cut -d' ' -f1 /proc/loadavg)
    out=$(DICTUM_JAVA_OPTS="${x#*:}" ./dictum bench -m "$m" --tokens 224 --beams 0 --runs 3 --warmup 2 --json 2>/dev/null | tail -1)
    echo "$(basename "$m") round $r ${x%%:*} load $l $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("decode ms/token median %.2f min %.2f" % (d["decode_ms_per_token"]["median"], d["decode_ms_per_token"]["min"]))')"
  done
done
