#!/usr/bin/env bash
# Builds ./dictum's JDK 25 AOT cache, app/target/aot/dictum.aot (git-ignored; ./setup runs this) from a
# training run: the tray app itself on a private headless desktop when Xvfb, xdotool and PulseAudio are
# here (scripts/lib/desktop-harness.sh), else the CLI transcribing two toy samples (as packaging/build.sh
# does; DICTUM_AOT_TRAINING=transcribe picks that one).
# Usage: scripts/aot-cache.sh [--out FILE] [--launcher PATH]   (packaging/build.sh passes its image's
#        bin/dictum and lib/app/dictum.aot)
# The cache holds the classes that run loaded and linked and the JIT's method profiles, so the next
# start loads classes from a mapped file and compiles the engine's kernels sooner. ./dictum uses it
# while it is newer than every jar (a rebuild makes it stale: ./dictum then starts without it, and
# this script makes a fresh one). DICTUM_NO_AOT=1 starts ./dictum without it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
cache=$PWD/app/target/aot/dictum.aot
launcher=./dictum
while [ $# -gt 0 ]; do
  case "$1" in
    --out) cache=$(realpath -m "$2"); shift 2 ;;
    --launcher) launcher=$(realpath "$2"); shift 2 ;;
    *) echo "aot-cache: unknown option $1 (use --out FILE, --launcher PATH)" >&2; exit 2 ;;
  esac
done
out=$(dirname "$cache")
mkdir -p "$out"
rm -f "$cache" "$cache.config"
if [ "$launcher" = ./dictum ]; then
  export DICTUM_NO_AOT=1 DICTUM_JAVA_OPTS="-XX:AOTCacheOutput=$cache ${DICTUM_JAVA_OPTS:-}"
else
  # A jpackage launcher (packaging/build.sh) reads JAVA_TOOL_OPTIONS, not JDK_JAVA_OPTIONS.
  export JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$cache"
fi
have_desktop=1
for t in Xvfb xdotool pulseaudio pactl paplay xdpyinfo; do command -v "$t" >/dev/null || have_desktop=0; done
if [ "$have_desktop" = 1 ] && [ "${DICTUM_AOT_TRAINING:-app}" = app ]; then
  # The tray app itself on a private headless desktop: start-up (JavaFX, tray, hotkey hook, settings,
  # history), model load and warm-up, one dictation; the JVM writes the cache when it ends (SIGTERM).
  what="the app (start-up, warm-up, one dictation)"
  (
    source scripts/lib/desktop-harness.sh
    trap harness_cleanup EXIT
    harness_desktop
    harness_settings "$PWD/testdata/models/toy-en/ggml-toy-en.bin"
    harness_start "$launcher" app
    harness_until 'Dictum ready: model' 300 >/dev/null
    harness_dictate testdata/data/toy-en-samples/sample_01.wav >/dev/null
    pid=$(harness_java_pid)
    kill -TERM "$pid"
    for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  ) >"$out/training.log" 2>&1 || { echo "aot-cache: the app's training run failed (see $out/training.log); training on transcribe" >&2
                                   rm -f "$cache" "$cache.config"; have_desktop=0; }
fi
if [ ! -f "$cache" ]; then
  # No headless desktop here: the engine's path only (the CLI transcribing two toy samples).
  what="transcribe (two toy samples)"
  "$launcher" transcribe --model testdata/models/toy-en testdata/data/toy-en-samples/sample_01.wav \
    testdata/data/toy-en-samples/sample_02.wav >/dev/null 2>"$out/training.log" \
    || { echo "aot-cache: the training run failed (see $out/training.log)" >&2; exit 1; }
fi
[ -f "$cache" ] || { echo "aot-cache: the training run made no cache (see $out/training.log)" >&2; exit 1; }
echo "aot-cache: $cache ($(du -h "$cache" | cut -f1)), trained on $what"
