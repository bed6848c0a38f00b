#!/usr/bin/env bash
# A/B in one build (/work/wt-halfkv): the decoder's cross K/V in f16 vs f32 on the CPU, decoder ms per token,
# alternating JVMs. usage: ab-halfkv.sh MODEL ROUNDS WIDTH(512|256)
m=$1; rounds=${2:-3}; w=${3:-512}
wav=/work/main/testdata/data/toy-en-samples/sample_01.wav
flags="-XX:ActiveProcessorCount=2"; [ $w = 256 ] && flags="$flags -XX:UseAVX=2 -XX:MaxVectorSize=32"
for i in $(seq $rounds); do
  if [ $((i % 2)) = 1 ]; then order="f32 f16"; else order="f16 f32"; fi
  for kv in $order; do
    l=$(cut -d' ' -f1 /proc/loadavg)
    r=$(cd /work/wt-halfkv && DICTUM_JAVA_OPTS="$flags -Ddictum.cpu.crossKv=$kv" ./dictum bench -m $m --audio $wav --runs 5 --tokens 32 --beams 0 --json 2>/dev/null \
      | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["decode_ms_per_token"]; print("%.3f %.3f" % (t["min"], t["median"]))')
    echo "$(basename $m) $w-bit round $i $kv load $l: decoder ms/token min median = $r"
  done
done
