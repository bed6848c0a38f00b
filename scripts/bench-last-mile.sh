#!/usr/bin/env bash
# The last mile (issue 23): release → text in the window, end to end on Xvfb, as the app measures it
# (hotkey release event → paste keystroke / last typed key), over N dictations of a clip ending in
# quiet, for paste and type, without and with a window manager (openbox), and paste under a busy
# loop per core (--hog). Each configuration is one scripts/e2e-desktop.sh run with --repeat N, under
# `flock /tmp/dictum-desktop.lock`. Prints a Markdown table with the machine, commit and load.
#
#   scripts/bench-last-mile.sh [--runs N] [--model GGML] [--no-hog] [WAV [EXPECTED_TEXT]]
# Targets: median ≤ 30 ms, p95 ≤ 60 ms (type: a sentence ≤ 60 ms median); under the hog ≤ 3× the idle
# median and no dictation over 1 s. Needs ./dictum built (mvn -o -B -pl app -am package -DskipTests).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
runs=20
hog=1
model=()
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --model) model=(--model "$2"); shift 2 ;;
    --no-hog) hog=0; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    --*) echo "bench-last-mile: unknown option $1" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
out="$repo/app/target/bench-last-mile"
mkdir -p "$out"
configs=("paste|" "paste|--wm openbox" "type|" "type|--wm openbox")
[ "$hog" = 0 ] || configs+=("paste|--hog")
rows=()
# "N/R; M ms, C cores": dictations made at a pause, and their passes' median length and share of the cores
passes() { sed -n 's/.*e2e: pause passes: \([0-9]*\) of \([0-9]*\) dictations made at a pause; the pass ran median \([0-9.]*\) ms with median \([0-9.]*\) of the \([0-9]*\) cores it asks for, starting median \([0-9.]*\) ms after.*/\1\/\2; \3 ms, \4 of \5 cores, started \6 ms after the pause/p' "$1" | head -1; }
for c in "${configs[@]}"; do
  insert="${c%%|*}"; extra="${c#*|}"
  name="$insert${extra:+ $extra}"
  log="$out/$(echo "$name" | tr ' ' '_' | tr -d '-').log"
  echo "bench-last-mile: $name, $runs dictations (log: $log)"
  # shellcheck disable=SC2086
  if flock /tmp/dictum-desktop.lock scripts/e2e-desktop.sh --no-tray --insert "$insert" --repeat "$runs" --max-r2t 0 \
      "${model[@]}" $extra "${positional[@]}" >"$log" 2>&1; then
    line="$(grep -m1 'e2e: R2T:' "$log" || true)"
    rows+=("| $name | $runs | $(sed -n 's/.*release-to-text median \([0-9.]*\) ms, p95 \([0-9]*\) ms, max \([0-9]*\) ms; hand-off median \([0-9.]*\) ms, p95 \([0-9]*\) ms.*load \(.*\)$/\1 ms | \2 ms | \3 ms | \4 \/ \5 ms | \6/p' <<<"$line") | $(passes "$log") |")
  else
    rows+=("| $name | $runs | FAILED: $(grep -m1 'FAIL' "$log" | cut -c1-120) | | | | | |")
  fi
done
echo
echo "| configuration | dictations | release-to-text median | p95 | max | hand-off (less the engine) median / p95 | load at the end (1/5/15 min) | made at a pause; the pass: median ms, cores had, start after the pause |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (+ uncommitted changes)'); machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
