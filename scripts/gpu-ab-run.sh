#!/usr/bin/env bash
# One device call for issue 12's kernels against a baseline (docs/gpu-runs/h100-issue12-*.md):
# kernel bench before/after, ncu of the encoder GEMM, attention and decoder kernels, `dictum bench
# --backend cuda` on random weights (BENCH_SIZES, default large-v3 small tiny) with the kernels and
# backend of this tree and of a baseline, interleaved, then the bundle's GPU tests (run.sh,
# RUNSH_TIMEOUT seconds, default 300), in one run.
#
# Here: scripts/gpu-ab-pack.sh [BASE] builds all of it into gpu-bundle/ (by hand: scripts/gpu-bundle.sh
# toy-en; scripts/bench-gpu.sh pack gpu-bundle; then put into gpu-bundle/)
#   kernel_bench.tar.xz (kernel_bench, kernel_bench_before: native/bench/kernel_bench.cu of this tree and of
#                                       the baseline, built with nvcc; xz keeps the call under 64 MiB)
#   lib-base/                           the baseline's Dictum jars (native, gpu-runtime, whisper-model, audio, app)
#   gpu-ab-run.sh                       this file
# On the GPU machine: bash gpu-bundle/gpu-ab-run.sh   (logs under $OUT or gpu-bundle/out-ab)
#   SKIP_RUNSH=1: no run.sh; SKIP_NCU=1: no ncu; DICTUM_RUNS (default 5); BENCH_SIZES.
set -u
cd "$(dirname "$0")"
B="$PWD"
O="${OUT:-$B/out-ab}"
mkdir -p "$O"
exec > >(tee "$O/gpu-ab-run.log") 2>&1
log() { echo "[$(date -u +%T)] $*"; }
log "start"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | sed 's/^/gpu: /'
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
[ -x "$B/runtime/bin/java" ] || tar -C "$B" -xJf "$B/runtime.tar.xz"
W=/tmp/dictum-bench
mkdir -p "$W/tok" && tar -C "$W/tok" -xJf "$B/testdata-tokenizer.tar.xz"
SIZES=(${BENCH_SIZES:-large-v3 small tiny})

# 1. The random weights (as bench-gpu.sh makes them), niced, in the background.
( for s in "${SIZES[@]}"; do
    [ -f "$W/$s/model.safetensors" ] || nice python3 "$B/bench_gpu_models.py" make "$s" "$W/$s" "$W/tok/models/toy-multi"
  done ) >"$O/make.log" 2>&1 &
MAKE=$!

# 2. Kernel bench: the baseline's and this tree's, every kernel.
[ -x "$B/kernel_bench" ] || tar -C "$B" -xJf "$B/kernel_bench.tar.xz"
log "kernel_bench_before"
timeout 150 "$B/kernel_bench_before" >"$O/kernel_bench_before.txt" 2>&1
cat "$O/kernel_bench_before.txt"
log "kernel_bench"
timeout 150 "$B/kernel_bench" >"$O/kernel_bench.txt" 2>&1
cat "$O/kernel_bench.txt"

# 3. ncu: the first launch of the 128 x 128 GEMM (1500 x 1280 x 1280), of the 64 x 64 GEMM and of the
#    encoder attention (1500 x 1500) in this tree's bench, and the baseline's at the same shapes.
if [ -z "${SKIP_NCU:-}" ] && command -v ncu >/dev/null; then
  NCU=(ncu --section SpeedOfLight --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis
       --section MemoryWorkloadAnalysis --section WarpStateStats)
  log "ncu"
  timeout 60 "${NCU[@]}" -k gemm_f16_hilo --launch-skip 0 --launch-count 1 "$B/kernel_bench" >"$O/ncu-gemm-hilo.txt" 2>&1
  timeout 60 "${NCU[@]}" -k gemm_f16 --launch-skip 0 --launch-count 1 "$B/kernel_bench" >"$O/ncu-gemm-64.txt" 2>&1
  timeout 60 "${NCU[@]}" -k gemm_f16 --launch-skip 0 --launch-count 1 "$B/kernel_bench_before" >"$O/ncu-gemm-before.txt" 2>&1
  timeout 90 "${NCU[@]}" -k attention_f32 --launch-skip 0 --launch-count 1 "$B/kernel_bench" >"$O/ncu-attention.txt" 2>&1
  timeout 90 "${NCU[@]}" -k attention_f32 --launch-skip 0 --launch-count 1 "$B/kernel_bench_before" >"$O/ncu-attention-before.txt" 2>&1
  for f in "$O"/ncu-*.txt; do
    echo "== $f"
    grep -E "^  [a-z_0-9]+ \(|Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Grid Size|Issue Slots Busy|Executed Ipc Active|Warp Cycles Per Issued|One or More Eligible" "$f" | head -24
  done
fi

# 4. dictum bench, this branch and the baseline interleaved per size (bench-gpu.sh's command).
log "waiting for the weights"
wait "$MAKE"
tail -3 "$O/make.log"
JAVA="$B/runtime/bin/java"
FLAGS=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss4m -Xmx32g -XX:+UseParallelGC)
CP_NEW="$(ls "$B"/lib/*.jar | tr '\n' ':')"
CP_BASE="$(ls "$B"/lib/*.jar | grep -v '/dictum-' | tr '\n' ':')$(ls "$B"/lib-base/*.jar | tr '\n' ':')"
for s in "${SIZES[@]}"; do
  for label in base new; do
    cp="$CP_NEW"
    [ "$label" = base ] && cp="$CP_BASE"
    log "dictum bench $label $s"
    j="$("$JAVA" "${FLAGS[@]}" -cp "$cp" dev.dictum.app.cli.DictumCli bench --backend cuda --model "$W/$s" \
      --runs "${DICTUM_RUNS:-5}" --tokens 64 --warmup 3 --json 2>>"$O/dictum-$label.log" | tail -1)"
    echo "{\"engine\": \"dictum-$label\", \"size\": \"$s\", \"bench\": $j}" | tee -a "$O/results.jsonl"
  done
done
grep -h "eagerly" "$O"/dictum-*.log | head -5
# 5. The bundle's GPU tests (every GPU test class, doctor, the samples through cpu, cuda and hip).
if [ -z "${SKIP_RUNSH:-}" ]; then
  log "run.sh"
  DICTUM_BUNDLE_OUT="$O/runsh" timeout "${RUNSH_TIMEOUT:-300}" bash "$B/run.sh" >"$O/runsh.txt" 2>&1
  grep -E "FAIL|passed|junit:|✘" "$O/runsh.txt" | tail -30
fi

log "end"
# Everything but this log as one archive: the device tool returns a limited number of files.
tar -C "$O" -czf /tmp/ab-logs.tgz --exclude=gpu-ab-run.log . && find "$O" -mindepth 1 ! -name gpu-ab-run.log -delete \
  && mv /tmp/ab-logs.tgz "$O/"
