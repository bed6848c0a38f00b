#!/usr/bin/env bash
# Encoder context (--audio-ctx) accuracy and speed, issue 13 item 5: every toy-en and toy-multi
# sample (and every translation) at 2, 5, 10 and 20 s of speech, full vs auto context, on the CPU.
# Prints the Markdown rows of docs/benchmarks.md, "Encoder context (--audio-ctx)".
#
#   scripts/bench-audio-ctx.sh [--no-build] [toy-en] [toy-multi]
#
# Each model runs in its own JVM under `flock -x /tmp/dictum-cpu.lock` (the machine is shared).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
source scripts/java-env.sh

build=1
sets=()
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    toy-en|toy-multi) sets+=("$a") ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "bench-audio-ctx: unknown argument $a" >&2; exit 2 ;;
  esac
done
[ ${#sets[@]} -gt 0 ] || sets=(toy-en toy-multi)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if [ "$build" = 1 ]; then
  flock -s /tmp/dictum-cpu.lock mvn -q -B -o -pl whisper-model -am -DskipTests test-compile >"$out/mvn.log" 2>&1 \
    || { tail -20 "$out/mvn.log" >&2; exit 1; }
fi
mvn -q -B -o -pl whisper-model dependency:build-classpath -Dmdep.outputFile="$out/cp.txt" >>"$out/mvn.log" 2>&1 \
  || { tail -20 "$out/mvn.log" >&2; exit 1; }
cp="whisper-model/target/test-classes:whisper-model/target/classes:gpu-runtime/target/classes:native/target/classes"
cp="$cp:$(cat "$out/cp.txt")"

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), AVX-512: $(grep -q avx512f /proc/cpuinfo && echo yes || echo no); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| model | task | speech | clips | auto positions | auto text = full text | WER of auto vs full | encoder ms full | encoder ms auto | speed-up |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in "${sets[@]}"; do
  flock -x /tmp/dictum-cpu.lock "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector \
    --enable-native-access=ALL-UNNAMED -XX:ActiveProcessorCount=2 -Ddictum.testdata="$here/testdata" \
    -cp "$cp" dev.dictum.whisper.session.AudioCtxBench "$s" 2> >(grep -v 'WARNING: Using incubator\|SLF4J' >&2)
done
