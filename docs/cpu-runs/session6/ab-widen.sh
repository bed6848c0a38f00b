#!/usr/bin/env bash
# A/B: the f16 panels' widening at 256 bits, bits vs blocks (toy-en f16 and tiny f16 decoder), alternating.
cd /work/main
for m in testdata/models/toy-en/ggml-toy-en.bin bench-out/tiny-f16.bin; do
for i in 1 2 3; do
  if [ $((i % 2)) = 1 ]; then order="bits blocks"; else order="blocks bits"; fi
  for mode in $order; do
    l=$(cut -d' ' -f1 /proc/loadavg)
    r=$(DICTUM_JAVA_OPTS="-XX:ActiveProcessorCount=2 -XX:UseAVX=2 -XX:MaxVectorSize=32 -Ddictum.cpu.panels.widen=$mode" \
      ./dictum bench -m $m --audio testdata/data/toy-en-samples/sample_01.wav --runs 3 --tokens 224 --beams 0 --json 2>/dev/null \
      | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["decode_ms_per_token"]; print(t["min"], t["median"])')
    echo "$(basename $m) round $i $mode load $l: decode ms/token min median = $r"
  done
done
done
