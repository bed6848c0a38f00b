#!/usr/bin/env bash
# Resident memory of the desktop app as a user runs it (docs/benchmarks.md, "Memory"):
# `./dictum app` on a private headless desktop (scripts/lib/desktop-harness.sh) with MODEL chosen;
# prints the JVM's resident set (VmRSS) IDLE seconds after "Dictum ready", then after DICTATIONS
# push-to-talk dictations of WAV through the real hotkey (and the peak sampled during them), each
# beside the bound of issue 14: 300 MB + the model file's size.
#
# Usage: scripts/measure-memory.sh [--model FILE] [--wav WAV] [--idle S] [--dictations N] [--check]
#                                  [--nmt] [--keep] [-- LAUNCHER...]
#   defaults: toy-en's ggml, toy-en sample_01, 20 s, 0 dictations
#   --check  exit 1 when a figure is over the bound (what CI runs: ./test)
#   --nmt    also print Native Memory Tracking's summary (the app started with NMT on)
#   LAUNCHER what to start instead of ./dictum app (e.g. /opt/dictum/bin/dictum app)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
source scripts/java-env.sh
source scripts/lib/desktop-harness.sh
model="$repo/testdata/models/toy-en/ggml-toy-en.bin"
wav="$repo/testdata/data/toy-en-samples/sample_01.wav"
idle=20 dictations=0 check=0 nmt=0
launcher=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model="$(realpath "$2")"; shift 2 ;;
    --wav) wav="$(realpath "$2")"; shift 2 ;;
    --idle) idle="$2"; shift 2 ;;
    --dictations) dictations="$2"; shift 2 ;;
    --check) check=1; shift ;;
    --nmt) nmt=1; shift ;;
    --keep) harness_keep=1; shift ;;
    --) shift; launcher=("$@"); break ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "measure-memory: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -f "$model" ] || { echo "measure-memory: no model file $model" >&2; exit 2; }
trap harness_cleanup EXIT
harness_desktop
harness_settings "$model"
[ "$nmt" = 1 ] && export DICTUM_JAVA_OPTS="-XX:NativeMemoryTracking=summary ${DICTUM_JAVA_OPTS:-}"
harness_start "${launcher[@]}"
ready=$(harness_until "Dictum ready" 900) # a turbo-sized model on a busy 2-core machine takes minutes
model_mb=$(( $(stat -c %s "$model") / 1000000 ))
bound=$((300 + model_mb))
over=0
report() { # label mb
  local verdict=ok; [ "$2" -le "$bound" ] || { verdict=OVER; over=1; }
  printf 'measure-memory: %-34s %5d MB  (bound 300 + %d MB model = %d MB: %s)\n' "$1" "$2" "$model_mb" "$bound" "$verdict"
}
echo "measure-memory: $(basename "$model"), ready ${ready} ms after launch; JVM pid $(harness_java_pid)"
sleep "$idle"
report "RSS ${idle} s after ready" "$(harness_rss_mb)"
if [ "$nmt" = 1 ]; then
  jcmd "$(harness_java_pid)" VM.native_memory summary | grep -E '^(Total|-)|committed=' | grep -E 'Total|^-' | head -30
fi
if [ "$dictations" -gt 0 ]; then
  peak_file="$harness_work/peak"
  echo 0 >"$peak_file"
  ( pid=$(harness_java_pid); p=0
    while kill -0 "$pid" 2>/dev/null; do
      r=$(awk '/^VmRSS/ {printf "%d", $2 / 1024}' "/proc/$pid/status" 2>/dev/null || echo 0)
      [ "$r" -gt "$p" ] && { p=$r; echo "$p" >"$peak_file"; }
      sleep 0.05
    done ) &
  sampler=$!
  harness_pids+=($sampler)
  times=()
  for ((i = 1; i <= dictations; i++)); do times+=("$(harness_dictate "$wav")"); done
  kill "$sampler" 2>/dev/null || true
  echo "measure-memory: $dictations dictations, engine ms after release: ${times[*]}"
  printf 'measure-memory: %-34s %5d MB  (reported, not bounded)\n' "peak RSS during the dictations" "$(cat "$peak_file")"
  sleep "$idle"
  report "RSS ${idle} s after $dictations dictations" "$(harness_rss_mb)"
fi
echo "measure-memory: load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
[ "$check" = 0 ] || [ "$over" = 0 ]
