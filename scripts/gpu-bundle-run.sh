#!/usr/bin/env bash
# run.sh of the GPU bundle (scripts/gpu-bundle.sh copies this file into gpu-bundle/): on a machine
# with an NVIDIA GPU and no Java or Maven, builds the HIP stand-in, runs every GPU test, doctor,
# and each sample WAV through --backend cpu, cuda and hip (the stand-in), then prints
# "N passed, N failed". Logs go to $DICTUM_BUNDLE_OUT (default: out/ beside this file).
set -u
cd "$(dirname "$0")"
B="$PWD"
LOGS="${DICTUM_BUNDLE_OUT:-$B/out}"
mkdir -p "$LOGS"
TMPD="$(mktemp -d)"
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "PASS: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
[ -x "$B/runtime/bin/java" ] || tar -C "$B" -xJf "$B/runtime.tar.xz"
[ -f "$B/testdata/models/toy-multi/vocab.json" ] || tar -C "$B/testdata" -xJf "$B/testdata-tokenizer.tar.xz"
[ -d "$B/kernels/ptx" ] || { mkdir -p "$B/kernels" && tar -C "$B/kernels" -xJf "$B/kernels-ptx.tar.xz"; }
for z in "$B"/testdata/models/*/*.bin.xz; do [ -f "${z%.xz}" ] || xz -d -k "$z"; done
JAVA="$B/runtime/bin/java"
# The collector the launcher uses (packaging/jvm-options: G1), so the GPU tests run as the app does;
# -Xmx32g because the bundle also loads large models on the CPU (the launcher leaves the heap default).
FLAGS=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss4m -Xmx32g -XX:+UseG1GC)
CP="$(ls "$B"/lib/*.jar | tr '\n' ':')"
TOY="$(cat "$B/MODEL")"
MODEL="$B/testdata/models/$TOY/ggml-$TOY-q8_0.bin"
SAMPLES="$B/testdata/data/$TOY-samples"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu: /'

# 1. The HIP stand-in (test infrastructure: HIP calls over the CUDA driver API).
if bash "$B/hip-standin/build.sh" "$B/standin" "$B/hip-standin/include" >"$LOGS/standin-build.log" 2>&1 && [ -f "$B/standin/libamdhip64.so.6" ]; then
  ok "HIP stand-in built"
else
  bad "HIP stand-in build"
  tail -20 "$LOGS/standin-build.log"
fi
export DICTUM_ROCM_DIR="$B/standin" DICTUM_HIP_STANDIN_PTX="$B/kernels/ptx" DICTUM_HIP_STANDIN_LOG="$LOGS/hip-calls.log"

dictum() { "$JAVA" "${FLAGS[@]}" -cp "$CP" dev.dictum.app.cli.DictumCli "$@" 2> >(grep -v '^WARNING: Using incubator' >&2); }

# 2. doctor
dictum doctor >"$LOGS/doctor.txt" 2>&1
cat "$LOGS/doctor.txt"
grep -q "^backend: auto uses" "$LOGS/doctor.txt" && ok "doctor: a GPU is used" || bad "doctor: no GPU used"
for api in "CUDA" "HIP"; do
  if awk -v h="$api" 'index($0, h) == 1 {s = 1; next} /^[A-Z]/ {s = 0} s && /self-test: passed/ {f = 1} END {exit !f}' \
    "$LOGS/doctor.txt"; then ok "doctor: $api self-test passed"; else bad "doctor: $api self-test"; fi
done

# 3. Every GPU test (and the discovery/doctor tests), through the JUnit console launcher.
TESTCP="$CP$(ls "$B"/lib-test/*.jar "$B"/lib-test/deps/*.jar | grep -v console-standalone | tr '\n' ':')"
CLASSES=(dev.dictum.gpu.backend.GpuRuntimeTest dev.dictum.gpu.backend.GpuOpsTest dev.dictum.gpu.backend.GpuGemvTest
  dev.dictum.gpu.backend.GpuGemvQ8Test
  dev.dictum.gpu.backend.GpuFusedStepTest dev.dictum.gpu.backend.GpuMemoryReportTest dev.dictum.whisper.gpu.GpuStepFusionTest
  dev.dictum.gpu.backend.GpuCrossAttentionF16Test dev.dictum.whisper.gpu.GpuCrossKvTest
  dev.dictum.gpu.backend.GpuSelfAttentionF16Test dev.dictum.whisper.gpu.GpuMemoryPhasesTest
  dev.dictum.gpu.backend.GpuRowAttentionTest dev.dictum.whisper.model.GpuBeamReorderTest
  dev.dictum.whisper.model.GpuSharedScratchTest
  dev.dictum.gpu.backend.GpuLayerTurnsTest dev.dictum.whisper.model.GpuEncoderTurnsTest
  dev.dictum.gpu.discovery.RocmScanTest
  dev.dictum.gpu.discovery.DebianHipRuntimeTest dev.dictum.gpu.discovery.OldNvidiaDriverTest
  dev.dictum.whisper.gpu.GpuModelTest dev.dictum.whisper.gpu.GpuTrafficTest dev.dictum.whisper.gpu.GpuStepGraphTest
  dev.dictum.whisper.gpu.GpuEncoderContextTest
  dev.dictum.app.cli.CliDoctorTest
  dev.dictum.app.cli.CliGpuSamplesTest dev.dictum.app.dictation.GpuSpeculationExactnessTest
  dev.dictum.app.dictation.InterruptedDictationTest)
# BUNDLE_CLASSES="a.B c.D": only these (a rerun of what failed, within one short device call)
[ -z "${BUNDLE_CLASSES:-}" ] || read -ra CLASSES <<<"$BUNDLE_CLASSES"
SELECT=()
for c in "${CLASSES[@]}"; do SELECT+=(--select-class "$c"); done
# A test that stalls must not eat the device call (session 18: one sat 4 minutes with the GPU idle and said
# nothing): each test fails after BUNDLE_TEST_TIMEOUT, its own thread's stack in the failure, and the JVM writes
# every thread's stack into junit.txt after BUNDLE_DUMP_AFTER seconds if it is still running.
"$JAVA" "${FLAGS[@]}" -Ddictum.testdata="$B/testdata" -jar "$B"/lib-test/junit-platform-console-standalone-*.jar \
  execute --disable-banner --details=tree --class-path "$TESTCP" "${SELECT[@]}" --reports-dir "$LOGS/junit" \
  --config "junit.jupiter.execution.timeout.default=${BUNDLE_TEST_TIMEOUT:-4 m}" \
  --config junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD \
  >"$LOGS/junit.txt" 2>&1 &
junit_pid=$!
( # polls, so that no sleeping child outlives the JVM holding the caller's output open
  for ((i = 0; i < ${BUNDLE_DUMP_AFTER:-500}; i++)); do sleep 1; kill -0 "$junit_pid" 2>/dev/null || exit 0; done
  kill -QUIT "$junit_pid"
) >/dev/null 2>&1 &
wait "$junit_pid" || true
wait
grep -E "✘|↷|tests (successful|failed|aborted|skipped)" "$LOGS/junit.txt" | head -80
count() { grep -E "$2 $1" "$LOGS/junit.txt" | grep -oE '[0-9]+' | head -1; }
jpass="$(count successful tests)"
# A class whose set-up fails counts as a failed container, not a failed test: both count here (session 6:
# InterruptedDictationTest's engine did not load and the run still said "0 failed").
jfail=$(( $(count failed tests) + $(count failed containers) ))
jabort="$(count aborted tests)"
nogpu="$(grep -c 'skipped: no GPU' "$LOGS/junit.txt")"
passed=$((passed + ${jpass:-0}))
failed=$((failed + ${jfail:-0} + nogpu))
[ -n "$jpass" ] || bad "JUnit did not run (see junit.txt)"
echo "junit: ${jpass:-0} successful, ${jfail:-0} failed, ${jabort:-0} skipped (${nogpu} of them 'no GPU', counted as failed here)"

# 4. The sample WAVs through the command line: cuda and hip must print exactly what cpu prints,
#    and cpu the reference transcript.
multi=0
while IFS=$'\t' read -r -a row; do
  # toy-en: file, text; toy-multi: file, language, transcript, translation (read drops an empty last field)
  if [ "${row[0]}" = file ]; then [ "${#row[@]}" -ge 4 ] && multi=1; continue; fi
  wav="$SAMPLES/${row[0]}"
  runs=("transcribe --language auto")
  expect=("${row[1]}")
  if [ "$multi" = 1 ]; then
    expect=("${row[2]}")
    [ -n "${row[3]:-}" ] && { runs+=("transcribe --task translate"); expect+=("${row[3]}"); }
  fi
  for i in "${!runs[@]}"; do
    read -r -a args <<<"${runs[$i]}"
    for be in cpu cuda hip; do
      dictum "${args[0]}" --backend "$be" --model "$MODEL" "${args[@]:1}" "$wav" >"$TMPD/s.$be" 2>"$TMPD/s.$be.err"
    done
    name="${row[0]} ${runs[$i]#transcribe }"
    [ "$(cat "$TMPD/s.cpu")" = "${expect[$i]}" ] && ok "cpu: $name" || bad "cpu: $name: '$(cat "$TMPD/s.cpu")' != '${expect[$i]}'"
    for be in cuda hip; do
      if cmp -s "$TMPD/s.cpu" "$TMPD/s.$be" && [ -s "$TMPD/s.$be" ]; then ok "$be: $name"
      else bad "$be: $name: '$(cat "$TMPD/s.$be")' ($(head -c 300 "$TMPD/s.$be.err"))"; fi
    done
  done
done <"$SAMPLES/transcripts.tsv"

echo "HIP calls executed through the stand-in:"
if [ -f "$LOGS/hip-calls.log" ]; then awk '{print $1}' "$LOGS/hip-calls.log" | sort -u | tr '\n' ' '; echo; else echo "(no log)"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
