#!/usr/bin/env bash
# Packs gpu-bundle/ for scripts/gpu-ab-run.sh (issue 12: this tree's GPU kernels against a baseline's
# in one device call): the bundle (scripts/gpu-bundle.sh toy-en; KEEP_BUNDLE=1 keeps an existing one),
# bench-gpu.sh's files, the baseline's Dictum jars (lib-base/),
# native/bench/kernel_bench.cu built with nvcc twice (this tree's, and the baseline's own bench over
# the baseline's kernels), and the run script.
#   scripts/gpu-ab-pack.sh [BASE]     BASE: the commit to compare against (default aa67b07)
# Then, with the checkout the device tool sends under 64 MiB (testdata/ moved out, DICTUM_TESTDATA
# pointing at it): a device call with carry ["gpu-bundle"] running
#   OUT=$OUT/d bash gpu-bundle/gpu-ab-run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
base="${1:-aa67b07}"
[ -n "${KEEP_BUNDLE:-}" ] && [ -d gpu-bundle/lib ] || scripts/gpu-bundle.sh toy-en
bash scripts/bench-gpu.sh pack gpu-bundle >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
git archive "$base" | tar -x -C "$tmp"
if [ -f .mvn/maven.config ]; then mkdir -p "$tmp/.mvn" && cp .mvn/maven.config "$tmp/.mvn/"; fi
(cd "$tmp" && mvn -q -B -o package -DskipTests -Dmaven.javadoc.skip=true)
rm -rf gpu-bundle/lib-base
mkdir -p gpu-bundle/lib-base
# Every Dictum jar of the baseline (~2 MB): the model's calls into the backend may have changed too.
for m in native gpu-runtime whisper-model audio app; do cp "$tmp"/$m/target/dictum-$m-*.jar gpu-bundle/lib-base/; done
mkdir -p "$tmp/bench"
nvcc -O3 -arch=sm_90 -Inative/src/kernels -o "$tmp/bench/kernel_bench" native/bench/kernel_bench.cu
nvcc -O3 -arch=sm_90 -I"$tmp/native/src/kernels" -o "$tmp/bench/kernel_bench_before" "$tmp/native/bench/kernel_bench.cu"
tar -C "$tmp/bench" -cJf gpu-bundle/kernel_bench.tar.xz kernel_bench kernel_bench_before # xz: the call's 64 MiB
cp scripts/gpu-ab-run.sh gpu-bundle/
du -sh gpu-bundle
