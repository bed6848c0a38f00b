#!/usr/bin/env bash
# Start-up of the desktop app (docs/benchmarks.md, "Start-up"), with and without the JDK 25 AOT cache,
# on a private headless desktop (scripts/lib/desktop-harness.sh) with the toy-en model chosen:
#   launch -> hotkey live   the app's one stdout line ("Dictum is ready: hold ... and speak")
#   launch -> warmed up     the log's "Dictum ready: model ... warmed up in ..."
#   first vs tenth dictation: the first starts the moment the hotkey is live (so it meets the model
#                           load and warm-up), nine more follow; each is sample_01 played into a
#                           virtual microphone while the real hotkey is held; the figure is the
#                           engine's time after release from the app's log; target: first <= 1.5x tenth
# Runs alternate without and with the cache, so machine load hits both alike. Every run with the cache
# fails unless the JVM really used it (aot_in_use: the second and later starts in a checkout included). Timing: run it under
# `flock -x /tmp/dictum-cpu.lock` on a shared machine.
#
# Usage: scripts/measure-startup.sh [--installed] [--dictations N] [RUNS]
#   default: ./dictum app (cache: app/target/aot/dictum.aot from scripts/aot-cache.sh; without it:
#            DICTUM_NO_AOT=1)
#   --installed  the installed package instead: installs packaging/target/dictum_*.deb (built by
#            packaging/build.sh, cache lib/app/dictum.aot), starts `dictum app`, removes it at the end;
#            without the cache = the file moved away (root)
#   --dictations N   dictations per run (default 10; 0 measures start-up only)
#   --only aot|plain   only the runs with (aot) or without (plain) the cache
#   --keep   keep each run's desktop folder (its app log: home/.local/... under /tmp/dictum-harness.*)
#   RUNS     runs of each kind (default 3)
# Each run's line lists every dictation's engine ms after release, with P where its text had been
# made at a pause before the release (speculation) and R where it was transcribed at the release.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
source scripts/lib/desktop-harness.sh
installed=0 dictations=10 runs=3 only=both
while [ $# -gt 0 ]; do
  case "$1" in
    --installed) installed=1; shift ;;
    --dictations) dictations="$2"; shift 2 ;;
    --keep) harness_keep=1; shift ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "measure-startup: unknown option $1" >&2; exit 2 ;;
    *) runs="$1"; shift ;;
  esac
done
repo=$PWD
model=$repo/testdata/models/toy-en/ggml-toy-en.bin
wav=$repo/testdata/data/toy-en-samples/sample_01.wav
if [ "$installed" = 1 ]; then
  deb=$(ls packaging/target/dictum_*_amd64.deb 2>/dev/null | head -1 || true)
  [ -n "$deb" ] || { echo "measure-startup: no packaging/target/dictum_*.deb (run packaging/build.sh)" >&2; exit 2; }
  dpkg -i "$deb" >/dev/null
  cache=/opt/dictum/lib/app/dictum.aot
  launcher=(dictum app)
else
  cache=$repo/app/target/aot/dictum.aot
  launcher=(./dictum app)
fi
[ -f "$cache" ] || { echo "measure-startup: no AOT cache $cache (scripts/aot-cache.sh or packaging/build.sh)" >&2; exit 2; }
finish() {
  [ -f "$cache.moved" ] && mv "$cache.moved" "$cache"
  [ "$installed" = 1 ] && { dpkg -P dictum >/dev/null 2>&1 || true; }
  return 0
}
trap finish EXIT

# The run with the cache must really use it, in every start of a checkout, not just the first (issue 24:
# JNativeHook's extracted library once made ./dictum's freshness test drop it from the second start on):
# the JVM was given -XX:AOTCache and said nothing about it ([error][aot] when it cannot map the file),
# and ./dictum did not call it stale.
aot_in_use() {
  local j; j=$(harness_java_pid)
  if ! tr '\0' ' ' <"/proc/$j/cmdline" | grep -q -- "-XX:AOTCache=" \
     || grep -qE '\[(error|warning)\]\[aot|start-up cache is older' "$harness_work/app.out" "$harness_work/app.err"; then
    echo "measure-startup: FAIL: the AOT cache is not in use: $(grep -hE 'aot|cache' "$harness_work/app.out" "$harness_work/app.err" | head -3)" >&2
    exit 1
  fi
  echo "measure-startup: AOT cache in use" >&2
}

# One run: prints "HOTKEY_MS WARM_MS FIRST_MS TENTH_MS" (FIRST/TENTH: engine ms after release).
one_run() { # aot|plain
  (
    trap harness_cleanup EXIT
    harness_desktop
    harness_settings "$model"
    if [ "$1" = plain ]; then
      if [ "$installed" = 1 ]; then mv "$cache" "$cache.moved"; else export DICTUM_NO_AOT=1; fi
    fi
    harness_start "${launcher[@]}"
    hot=$(harness_until '^Dictum is ready: ' 60 stdout)
    [ "$1" = aot ] && aot_in_use
    first=-1 last=-1
    for ((i = 1; i <= dictations; i++)); do
      last=$(harness_dictate "$wav")
      [ "$i" = 1 ] && first=$last
    done
    warm=$(harness_until 'Dictum ready: model' 120)
    warm_log=$(grep -o 'warmed up in [0-9]* ms[^)]*' "$harness_log" | tail -1)
    # the app's own profile of launch -> hotkey (StartupProfile: wall and main-thread CPU ms per phase)
    echo "measure-startup: $1: $(grep -o 'start-up: hotkey live.*' "$harness_log" | tail -1)" >&2
    # warm is when this script saw the line; the log's own time is the better figure
    t_start=$(date -d "$(head -1 "$harness_log" | cut -c1-23)" +%s%3N)
    t_warm=$(date -d "$(grep 'Dictum ready: model' "$harness_log" | tail -1 | cut -c1-23)" +%s%3N)
    extra=$(cat "$harness_work/app.out" | grep -v '^Dictum is ready: ' | head -3 | tr '\n' '|' || true)
    [ -z "$extra" ] || echo "measure-startup: WARNING: more on stdout: $extra" >&2
    # every dictation: engine ms after release, P (made at a pause) or R (transcribed at release)
    all=$(grep -o 'engine [0-9]* ms after release, [a-z]*' "$harness_log" \
      | sed 's/engine \([0-9]*\) ms after release, made/\1P/; s/engine \([0-9]*\) ms after release, transcribed/\1R/' \
      | tr '\n' ',' | sed 's/,$//')
    [ "${harness_keep:-0}" = 1 ] && echo "measure-startup: kept $harness_work" >&2
    echo "$hot $(( t_warm - t_start )) $first $last $(( t_start - harness_t0 )) $all"
    [ "$1" = plain ] && [ "$installed" = 1 ] && mv "$cache.moved" "$cache"
    true
  )
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
declare -a rp ra
for ((r = 1; r <= runs; r++)); do
  [ "$only" = aot ] || rp+=("$(one_run plain)")
  [ "$only" = plain ] || ra+=("$(one_run aot)")
done
summary() { # label runs...
  local label=$1; shift
  local hot warm first tenth log0
  hot=$(printf '%s\n' "$@" | awk '{print $1}' | median)
  log0=$(printf '%s\n' "$@" | awk '{print $5}' | median)
  warm=$(printf '%s\n' "$@" | awk '{print $2 + $5}' | median)
  first=$(printf '%s\n' "$@" | awk '{print $3}' | median)
  tenth=$(printf '%s\n' "$@" | awk '{print $4}' | median)
  printf 'measure-startup: %-10s launch -> hotkey live %5d ms; launch -> warmed up %5d ms' "$label" "$hot" "$warm"
  if [ "$dictations" -gt 0 ]; then
    printf '; dictation 1: %d ms, dictation %d: %d ms after release (%s x)' "$first" "$dictations" "$tenth" \
      "$(awk -v a="$first" -v b="$tenth" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')"
  fi
  echo
  echo "measure-startup: $label runs (hotkey warm first last log-start dictations): $(printf '[%s] ' "$@")"
}
echo "measure-startup: ${launcher[*]}, toy-en, $runs runs each, $(nproc) cores, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
[ "$only" = aot ] || summary "no cache" "${rp[@]}"
[ "$only" = plain ] || summary "AOT cache" "${ra[@]}"
echo "measure-startup: load average $(cut -d' ' -f1-3 /proc/loadavg)"
