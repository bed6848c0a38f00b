#!/usr/bin/env bash
# A/B of two builds on the CPU: encoder ms per 30 s window (min, median of 5 runs) at 512 and 256 bits,
# separate JVMs alternating which build goes first, the 1-minute load printed before each.
# usage: scripts/ab-cpu-encoder.sh OLD_CHECKOUT NEW_CHECKOUT [MODEL] [ROUNDS]
# (each checkout built with `mvn -o -q -B -pl app -am package -DskipTests`)
set -euo pipefail
old=${1:?old checkout}; new=${2:?new checkout}
here=$(cd "$(dirname "$0")/.." && pwd)
m=${3:-$here/testdata/models/toy-en/ggml-toy-en.bin}; rounds=${4:-3}
wav=$here/testdata/data/toy-en-samples/sample_01.wav
for w in 512 256; do
  flags="-XX:ActiveProcessorCount=2"; [ $w = 256 ] && flags="$flags -XX:UseAVX=2 -XX:MaxVectorSize=32"
  for i in $(seq "$rounds"); do
    if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    for v in $order; do
      dir=$old; [ $v = new ] && dir=$new
      l=$(cut -d' ' -f1 /proc/loadavg)
      r=$(cd "$dir" && DICTUM_JAVA_OPTS="$flags" ./dictum bench -m "$m" --audio "$wav" --runs 5 --tokens 4 --beams 0 --json 2>/dev/null \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["encoder_ms"]; print("%.1f %.1f" % (t["min"], t["median"]))')
      echo "$(basename "$m") $w-bit round $i $v load $l: encode ms min median = $r"
    done
  done
done
