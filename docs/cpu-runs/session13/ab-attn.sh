#!/usr/bin/env bash
# A/B: encoder ms per 30 s window, old (/work/main) vs new (/work/wt-attn), alternating JVMs, both widths.
# usage: ab-attn.sh MODEL ROUNDS
m=${1:-/work/main/testdata/models/toy-en/ggml-toy-en.bin}; rounds=${2:-3}
wav=/work/main/testdata/data/toy-en-samples/sample_01.wav
for w in 512 256; do
  flags="-XX:ActiveProcessorCount=2"; [ $w = 256 ] && flags="$flags -XX:UseAVX=2 -XX:MaxVectorSize=32"
  for i in $(seq $rounds); do
    if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    for v in $order; do
      dir=/work/main; [ $v = new ] && dir=/work/wt-attn
      l=$(cut -d' ' -f1 /proc/loadavg)
      r=$(cd $dir && DICTUM_JAVA_OPTS="$flags" ./dictum bench -m $m --audio $wav --runs 5 --tokens 4 --beams 0 --json 2>/dev/null \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["encoder_ms"]; print("%.1f %.1f" % (t["min"], t["median"]))')
      echo "$(basename $m) $w-bit round $i $v load $l: encode ms min median = $r"
    done
  done
done
