#!/usr/bin/env bash
# Builds and runs native/bench/kernel_emu.cpp: the decoder's GEMV kernels and layer_norm_f32 on the CPU (no GPU needed), one
# std::thread per GPU thread, against float64. Needs g++ (C++20) and the CUDA headers (cuda_fp16.h).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/../src/kernels"
cuda="${CUDA_HOME:-/usr/local/cuda}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Dynamic shared memory becomes one array of the emulator (blocks run one at a time).
cat "$src/gemv.cu" "$src/layer_norm.cu" \
  | sed 's/extern __shared__ float sm\[\];/float* sm = dynamicShared;/' >"$tmp/emu_kernels.inc"
g++ -std=c++20 -O2 -pthread -I"$cuda/include" -I"$src" -I"$here/../src/test/emu" -I"$tmp" -o "$tmp/kernel_emu" "$here/kernel_emu.cpp"
"$tmp/kernel_emu"
