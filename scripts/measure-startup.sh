#!/usr/bin/env bash
# Start-up of the INSTALLED package with and without its JDK 25 AOT cache (docs/benchmarks.md).
# Installs packaging/target/dictum_*.deb (built with the cache, lib/app/dictum.aot), times
# `dictum --version` (JVM + CLI start) and `dictum transcribe` of a toy sample (start to first
# transcript: what a first dictation pays), RUNS times each, alternating runs without the cache (the
# file moved away: the JVM then uses the runtime's default CDS archive only) and with it, so that
# machine load hits both alike; then removes the package.
# Usage: scripts/measure-startup.sh [RUNS]   (root; after packaging/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
deb=$(ls packaging/target/dictum_*_amd64.deb | head -1)
model=testdata/models/toy-en
wav=testdata/data/toy-en-samples/sample_01.wav
aot=/tmp/dictum-measure-moved.aot
dpkg -i "$deb" >/dev/null
trap 'dpkg -P dictum >/dev/null 2>&1 || true' EXIT

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

cache=/opt/dictum/lib/app/dictum.aot
[ -f "$cache" ] || { echo "measure: the package has no AOT cache (built with --no-aot?)" >&2; exit 2; }
echo "AOT cache: $(du -h "$cache" | cut -f1); classes from it at --version: $(JAVA_TOOL_OPTIONS=-Xlog:class+load=info dictum --version 2>&1 | grep -c 'shared objects file')"
without() { mv "$cache" "$aot"; "$@"; local rc=$?; mv "$aot" "$cache"; return $rc; }
# The tray app: launch to the log line that says the model is loaded and warmed up ("Ready: …"), under
# Xvfb, with a fresh settings file choosing the toy model. Prints WALL_MS/0.
app_ready() {
  local dir; dir=$(mktemp -d)
  mkdir -p "$dir/config/dictum"
  printf '{"version":1,"models":{"modelPath":"%s"}}\n' "$PWD/$model/ggml-toy-en.bin" > "$dir/config/dictum/settings.json"
  local t; t=$(ms)
  DISPLAY=:93 HOME=$dir XDG_CONFIG_HOME=$dir/config XDG_DATA_HOME=$dir/data dictum app >/dev/null 2>&1 &
  local pid=$!
  local log=$dir/data/dictum/logs/dictum.log
  for _ in $(seq 1200); do
    if grep -q 'Ready: ' "$log" 2>/dev/null; then break; fi
    sleep 0.05
  done
  local took=$(( $(ms) - t ))
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  grep -q 'Ready: ' "$log" 2>/dev/null || { echo "measure: the app never said Ready" >&2; rm -rf "$dir"; exit 1; }
  rm -rf "$dir"
  echo "$took/0"
}
have_x=0
if command -v Xvfb >/dev/null; then
  Xvfb :93 -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null; dpkg -P dictum >/dev/null 2>&1 || true' EXIT
  sleep 1
  have_x=1
fi

declare -a vp va tp ta ap aa
for i in $(seq "$runs"); do
  vp+=("$(without run version dictum --version)")
  va+=("$(run version-aot dictum --version)")
  tp+=("$(without run transcribe dictum transcribe --model "$model" "$wav")")
  ta+=("$(run transcribe-aot dictum transcribe --model "$model" "$wav")")
  if [ "$have_x" = 1 ]; then
    ap+=("$(without app_ready)")
    aa+=("$(app_ready)")
  fi
done
echo "runs as wall/CPU ms"
echo "dictum --version    plain: ${vp[*]}  median $(summary "${vp[@]}")"
echo "dictum --version    AOT:   ${va[*]}  median $(summary "${va[@]}")"
echo "dictum transcribe   plain: ${tp[*]}  median $(summary "${tp[@]}")"
echo "dictum transcribe   AOT:   ${ta[*]}  median $(summary "${ta[@]}")"
if [ "$have_x" = 1 ]; then
  echo "dictum app → Ready plain: ${ap[*]}  median $(summary "${ap[@]}" | cut -d, -f1)"
  echo "dictum app → Ready AOT:   ${aa[*]}  median $(summary "${aa[@]}" | cut -d, -f1)"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
