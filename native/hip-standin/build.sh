#!/usr/bin/env bash
# Builds the HIP stand-in libamdhip64.so.6 (TEST INFRASTRUCTURE ONLY, never shipped) on a machine
# with an NVIDIA driver: gcc, the real HIP headers and libcuda.
#   native/hip-standin/build.sh [OUT_DIR [HIP_INCLUDE_DIR]]
# HIP_INCLUDE_DIR is the directory holding hip/hip_runtime_api.h; default $HIP_INCLUDE, else
# /usr/include (where Debian's libamdhip64-dev puts it; the GPU bundle carries a copy and sets
# HIP_INCLUDE). OUT_DIR defaults to native/target/hip-standin. No CUDA toolkit is needed: the driver
# API is declared in cuda_driver_subset.h.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${1:-$HERE/../target/hip-standin}"
INC="${2:-${HIP_INCLUDE:-/usr/include}}"
[ -f "$INC/hip/hip_runtime_api.h" ] || { echo "build.sh: no hip/hip_runtime_api.h under $INC" >&2; exit 1; }
mkdir -p "$OUT"
# Link against the driver: libcuda.so if a toolkit provides it, else the driver's libcuda.so.1.
LIBCUDA=-lcuda
if ! ld -lcuda -o /dev/null --unresolved-symbols=ignore-all 2>/dev/null \
    && [ ! -e /usr/lib/x86_64-linux-gnu/libcuda.so ] && [ ! -e /usr/local/cuda/lib64/stubs/libcuda.so ]; then
  SO1="$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')"
  [ -n "$SO1" ] || { echo "build.sh: libcuda (the NVIDIA driver) not found" >&2; exit 1; }
  LIBCUDA="$SO1"
fi
# -isystem: the HIP headers are third-party; their warnings are not ours.
${CC:-gcc} -std=gnu11 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Wno-unused-parameter \
  -isystem "$INC" -I"$HERE" -o "$OUT/libamdhip64.so.6" -Wl,-soname,libamdhip64.so.6 -Wl,--no-undefined \
  "$HERE/hip_standin.c" $LIBCUDA -lpthread
echo "build.sh: $OUT/libamdhip64.so.6"
