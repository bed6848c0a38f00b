#!/usr/bin/env bash
# Idle A/B of JVM options on the CPU decoder: one `./dictum bench` JVM per variant and round (224 forced tokens,
# 3 runs after 2 warm-ups), the variants' order reversed every other round, REST seconds of quiet before each
# JVM; prints the 1-minute load at each start and the decoder's ms per token (median, min).
# usage: scripts/ab-decoder-options.sh MODEL ROUNDS REST NAME:OPTIONS...
#   e.g. scripts/ab-decoder-options.sh bench-out/small-f16.bin 3 40 "blocks:-Ddictum.cpu.panels.widen=blocks" \
#        "bits:-Ddictum.cpu.panels.widen=bits"   (add -XX:UseAVX=2 -XX:MaxVectorSize=32 to each for 256 bits)
#   A name NAME@DIR runs DIR's ./dictum (another built checkout: an A/B of code, e.g. "old@/tmp/ab-old:")
cd "$(dirname "$0")/.."
model=$(realpath -- "$1") rounds=$2 rest=$3
shift 3
variants=("$@")
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for ((r = 1; r <= rounds; r++)); do
  order=("${variants[@]}")
  if ((r % 2 == 0)); then
    order=()
    for ((i = ${#variants[@]} - 1; i >= 0; i--)); do order+=("${variants[i]}"); done
  fi
  for v in "${order[@]}"; do
    sleep "$rest"
    l=$(cut -d' ' -f1 /proc/loadavg)
    name=${v%%:*} dir=.
    [[ $name == *@* ]] && dir=${name#*@} name=${name%%@*}
    out=$(DICTUM_JAVA_OPTS="${v#*:}" "$dir/dictum" bench -m "$model" --tokens 224 --beams 0 --runs 3 --warmup 2 --json 2>/dev/null | tail -1)
    echo "$(basename "$model") round $r $name load $l $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("decode ms/token median %.2f min %.2f" % (d["decode_ms_per_token"]["median"], d["decode_ms_per_token"]["min"]))')"
  done
done
