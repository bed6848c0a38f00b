#!/usr/bin/env bash
# Start-up of the INSTALLED package with and without a JDK 25 AOT cache (docs/benchmarks.md).
# Installs packaging/target/dictum_*.deb, times `dictum --version` (JVM + CLI start) and
# `dictum transcribe` of a toy sample (start to first transcript: what a first dictation pays), RUNS
# times each, alternating plain and AOT runs so that machine load hits both alike; then removes it.
# The cache comes from a training run of the installed launcher (-XX:AOTCacheOutput), used with
# -XX:AOTCache; both through JAVA_TOOL_OPTIONS (the jpackage launcher ignores JDK_JAVA_OPTIONS).
# Usage: scripts/measure-startup.sh [RUNS]   (root; after packaging/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
deb=$(ls packaging/target/dictum_*_amd64.deb | head -1)
model=testdata/models/toy-en
wav=testdata/data/toy-en-samples/sample_01.wav
aot=/tmp/dictum-measure.aot
dpkg -i "$deb" >/dev/null
trap 'dpkg -P dictum >/dev/null 2>&1 || true; rm -f "$aot"' EXIT

ms() { date +%s%3N; }
# Prints "WALL_MS CPU_MS" of one run: wall time, and user+system CPU time, which another process's load
# on a shared machine disturbs far less than the wall time.
run() {
  /usr/bin/time -f '%e %U %S' -o /tmp/measure.time "${@:2}" >/dev/null 2>&1 || { echo "measure: $1 failed" >&2; exit 1; }
  awk '{printf "%d/%d\n", $1*1000, ($2+$3)*1000}' /tmp/measure.time
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
# "wall median / CPU median" of WALL/CPU pairs
summary() { local w c; w=$(printf '%s\n' "$@" | cut -d/ -f1 | median); c=$(printf '%s\n' "$@" | cut -d/ -f2 | median); echo "wall $w ms, CPU $c ms"; }

rm -f "$aot"
t=$(ms)
JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$aot" dictum transcribe --model "$model" "$wav" >/dev/null 2>/tmp/aot-train.log
echo "training run + cache creation: $(( $(ms) - t )) ms, cache $(du -h "$aot" | cut -f1)"
JAVA_TOOL_OPTIONS="-XX:AOTCache=$aot -Xlog:aot=info" dictum --version 2>&1 | grep -iE 'aot cache|error|mismatch' | head -3 || true

declare -a vp va tp ta
for i in $(seq "$runs"); do
  vp+=("$(run version dictum --version)")
  va+=("$(JAVA_TOOL_OPTIONS="-XX:AOTCache=$aot" run version-aot dictum --version)")
  tp+=("$(run transcribe dictum transcribe --model "$model" "$wav")")
  ta+=("$(JAVA_TOOL_OPTIONS="-XX:AOTCache=$aot" run transcribe-aot dictum transcribe --model "$model" "$wav")")
done
echo "runs as wall/CPU ms"
echo "dictum --version    plain: ${vp[*]}  median $(summary "${vp[@]}")"
echo "dictum --version    AOT:   ${va[*]}  median $(summary "${va[@]}")"
echo "dictum transcribe   plain: ${tp[*]}  median $(summary "${tp[@]}")"
echo "dictum transcribe   AOT:   ${ta[*]}  median $(summary "${ta[@]}")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
