#!/usr/bin/env bash
# Where the CPU decoder's time goes (issue 21's "profile" of the f16 decoder gap): JFR execution samples of
# `./dictum bench` on a model (224 forced tokens, 3 runs after 2 warm-ups, 2 threads) at one width, the top
# frame of every sample counted by method, the encoder's GEMM, convolution and attention kernels split off.
# usage: docs/cpu-runs/session16/profile-decoder.sh MODEL avx512|avx2 OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../../.."
model=$1 width=$2 out=$3
mkdir -p "$out"
w=""
[[ $width == avx2 ]] && w="-XX:UseAVX=2 -XX:MaxVectorSize=32"
jfr="$out/$(basename "$model" .bin)-$width.jfr"
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)"
DICTUM_JAVA_OPTS="$w -XX:StartFlightRecording=filename=$jfr,settings=profile" ./dictum bench -m "$model" \
  --tokens 224 --beams 0 --runs 3 --warmup 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; d=json.load(sys.stdin); print("encoder ms min %.0f, decoder ms/token median %.2f min %.2f" % (d["encoder_ms"]["min"], d["decode_ms_per_token"]["median"], d["decode_ms_per_token"]["min"]))'
source scripts/java-env.sh
"$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 1 "$jfr" | python3 -c '
import collections, re, sys
top = collections.Counter()
for line in sys.stdin:
    m = re.match(r"\s+([\w.$]+)\(", line)
    if m and "line:" in line:
        top[m.group(1)] += 1
enc = ("Gemm", "GemmRows", "Conv", "CpuAttention.blocked", "Gelu", "ErfGelu", "LayerNorm")
total = sum(top.values())
e = sum(c for k, c in top.items() if any(x in k for x in ("dev.dictum.gpu.cpu.Gemm.", "GemmRows", "Conv1d", "Gelu")))
print(f"{total} samples; encoder GEMM/conv/GELU frames {e} ({100*e/total:.1f} %); the rest by top frame:")
for k, c in top.most_common(25):
    print(f"  {100*c/total:5.1f} %  {c:6d}  {k}")
'
