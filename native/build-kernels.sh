#!/usr/bin/env bash
# Compiles every kernel module (src/kernels/*.cu) for every shipped target and packs the results
# as resources, with a manifest. Run by Maven (native module, generate-resources); also by hand:
#   native/build-kernels.sh [OUT_DIR]        (default: native/target/generated-resources/kernels)
#
# Targets (GPU-PLAN.md / docs/architecture.md):
#   AMD:    gfx1010 (first: the RX 5700 XT), gfx1012, gfx1030, gfx1100 — hipcc --genco with
#           HIP_PLATFORM=amd, wave32, code object v4; the offload bundle is unbundled so the jar
#           holds the plain ELF code object per target (<target>/<module>.hsaco).
#   NVIDIA: PTX for the oldest architecture CUDA 13 supports (compute_75, JIT-compiled by the
#           driver for newer GPUs) plus cubins for sm_80 sm_86 sm_89 sm_90.
# The build fails if a tool is missing, a compile fails, or any kernel named in a module's source
# is absent from any of its outputs. Modules compile in parallel (one job per core); an unchanged
# set of sources and compilers reuses the previous outputs (key in OUT/.build-key).
set -euo pipefail
export LC_ALL=C # one sort order for globs (the manifest hashes headers in it)

HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$HERE/src/kernels"
OUT="${1:-$HERE/target/generated-resources/kernels}"
RES="$OUT/dev/dictum/kernels"
AMD_TARGETS=(gfx1010 gfx1012 gfx1030 gfx1100)
PTX_ARCH=compute_75
# The cubins' front end: sm_80 has the features the fast paths use (m16n8k16 mma, cp.async), so the
# cubins are compiled from a compute_80 PTX (the bodies pick them by __CUDA_ARCH__ >= 800), while the
# shipped PTX stays compute_75 with the sm_75 bodies for any GPU without a cubin.
CUBIN_PTX_ARCH=compute_80
# module:macro — the module's portable body, built for NVIDIA too as <module>_portable (tests only)
TEST_MODULES=(attention:DG_ATTENTION_PORTABLE gemm:DG_GEMM_PORTABLE conv1d_gelu:DG_GEMM_PORTABLE)
SM_TARGETS=(sm_80 sm_86 sm_89 sm_90)
JOBS="${DICTUM_KERNEL_JOBS:-$(nproc)}"

die() { echo "build-kernels: $*" >&2; exit 1; }

find_tool() { # name, then fallback paths
  local name="$1"; shift
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
  local p
  for p in "$@"; do
    if [ -x "$p" ]; then echo "$p"; return; fi
  done
  return 1
}

HIPCC="$(find_tool hipcc /opt/rocm/bin/hipcc)" \
  || die "hipcc not found: run ./setup (it installs Debian's hipcc: apt-get install -y hipcc)"
BUNDLER="$(find_tool clang-offload-bundler /usr/lib/llvm-15/bin/clang-offload-bundler \
  /usr/lib/llvm-16/bin/clang-offload-bundler /opt/rocm/llvm/bin/clang-offload-bundler)" \
  || die "clang-offload-bundler not found (Debian: package clang-15, installed with hipcc)"
READELF="$(find_tool llvm-readelf /usr/lib/llvm-15/bin/llvm-readelf /usr/lib/llvm-14/bin/llvm-readelf)" \
  || die "llvm-readelf not found (Debian: package llvm-15, installed with hipcc)"
NVCC="$(find_tool nvcc /usr/local/cuda/bin/nvcc /usr/local/bin/nvcc)" \
  || die "nvcc (CUDA 13) not found: install the CUDA 13 toolkit (nvcc on PATH or /usr/local/cuda/bin)"
PTXAS="$(find_tool ptxas "$(dirname "$NVCC")/ptxas" /usr/local/cuda/bin/ptxas)" || die "ptxas (CUDA 13) not found"
export HIP_PLATFORM=amd

HIPCC_VERSION="$("$HIPCC" --version 2>/dev/null | grep -m1 -i 'HIP version' || true)"
CLANG_VERSION="$("$HIPCC" --version 2>/dev/null | grep -m1 -i 'clang version' || true)"
NVCC_VERSION="$("$NVCC" --version | grep -m1 release)"
case "$NVCC_VERSION" in
  *"release 13."*) ;;
  *) die "nvcc is not CUDA 13 ($NVCC_VERSION): the PTX/cubin targets are CUDA 13's" ;;
esac

shopt -s nullglob
SOURCES=("$SRC"/*.cu)
[ ${#SOURCES[@]} -gt 0 ] || die "no kernel sources in $SRC"

# Kernel names of a module: every extern "C" __global__ function declared in its source.
kernels_of() {
  tr '\n' ' ' <"$1" | grep -oE 'extern "C" __global__ void( __launch_bounds__\([^)]*\))?[[:space:]]+[A-Za-z0-9_]+' \
    | awk '{print $NF}' | awk '!seen[$0]++' # a kernel with a body per vendor (#if) is declared twice
}

KEY="$( { cat "$SRC"/*.cu "$SRC"/*.h "$SRC"/*.cuh "$0"; echo "$HIPCC_VERSION $CLANG_VERSION $NVCC_VERSION"; } \
  | sha256sum | cut -d' ' -f1)"
if [ -f "$OUT/.build-key" ] && [ "$(cat "$OUT/.build-key")" = "$KEY" ] && [ -f "$RES/manifest.json" ]; then
  echo "build-kernels: up to date ($RES)"
  exit 0
fi

rm -rf "$OUT"
mkdir -p "$RES"/ptx
for t in "${AMD_TARGETS[@]}" "${SM_TARGETS[@]}"; do mkdir -p "$RES/$t"; done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Debian's ROCm 5.2 device libraries (ocml, ockl: expf, erfcf, sqrt) predate gfx1100 and lack its
# one-constant ISA-version file. When it is missing, a private copy of the library directory gets
# one made from gfx1030's by changing the constant (10300 -> 11000); the libraries themselves are
# generic bitcode that LLVM 15 compiles for gfx1100.
SYS_DEVLIB="$(dirname "$( { ls /usr/lib/*/amdgcn/bitcode/oclc_isa_version_1010.bc \
  /opt/rocm/amdgcn/bitcode/oclc_isa_version_1010.bc 2>/dev/null || true; } | head -n1)")"
[ -f "$SYS_DEVLIB/ocml.bc" ] || die "ROCm device libraries not found (Debian: rocm-device-libs, installed with hipcc)"
DEVICE_LIB_PATH="$SYS_DEVLIB"
if [ ! -f "$SYS_DEVLIB/oclc_isa_version_1100.bc" ]; then
  LLVM_BIN="$(dirname "$BUNDLER")"
  DEVICE_LIB_PATH="$WORK/devlib"
  mkdir -p "$DEVICE_LIB_PATH"
  ln -s "$SYS_DEVLIB"/*.bc "$DEVICE_LIB_PATH"/
  "$LLVM_BIN/llvm-dis" "$SYS_DEVLIB/oclc_isa_version_1030.bc" -o - | sed 's/i32 10300,/i32 11000,/' \
    | "$LLVM_BIN/llvm-as" -o "$DEVICE_LIB_PATH/oclc_isa_version_1100.bc" \
    || die "could not make the gfx1100 ISA-version bitcode"
fi
export DEVICE_LIB_PATH

# One module, every target. Run as a parallel job; its log is shown only when it fails.
compile_module() {
  local src="$1" m="$2" archs=() t
  for t in "${AMD_TARGETS[@]}"; do archs+=("--offload-arch=$t"); done
  # -mno-wavefrontsize64: wave32 on gfx10/gfx11 (the HIP default, stated so it cannot drift);
  # code object v4, which ROCm 5.x and 6.x load. HCC_AMDGPU_TARGET names the same targets only
  # so that hipcc does not probe for a local GPU (rocm_agent_enumerator) on a machine without one.
  HCC_AMDGPU_TARGET="$(IFS=,; echo "${AMD_TARGETS[*]}")" "$HIPCC" --genco "${archs[@]}" -O3 \
    -mno-wavefrontsize64 -mcode-object-version=4 -I"$SRC" -o "$WORK/$m.bundle" "$src" || return 1
  for t in "${AMD_TARGETS[@]}"; do
    "$BUNDLER" --unbundle --type=o --input="$WORK/$m.bundle" \
      --targets="hipv4-amdgcn-amd-amdhsa--$t" --output="$RES/$t/$m.hsaco" || return 1
  done
  "$NVCC" -ptx -arch="$PTX_ARCH" -O3 -I"$SRC" -o "$RES/ptx/$m.ptx" "$src" || return 1
  # Cubins by ptxas from one compute_80 PTX: the front end runs twice per module (compute_75 for the
  # shipped PTX, compute_80 for every cubin), not once per target.
  "$NVCC" -ptx -arch="$CUBIN_PTX_ARCH" -O3 -I"$SRC" -o "$WORK/$m.sm80.ptx" "$src" || return 1
  for t in "${SM_TARGETS[@]}"; do
    "$PTXAS" -arch="$t" -O3 -o "$RES/$t/$m.cubin" "$WORK/$m.sm80.ptx" || return 1
  done
  # Test-only modules: a module's portable (AMD) body built for NVIDIA as well, so that the op tests
  # run it against the CPU on a CUDA device (manifest "testModules"; the runtime never loads them).
  local tm
  for tm in "${TEST_MODULES[@]}"; do
    [ "${tm%%:*}" = "$m" ] || continue
    local tn="${m}_portable"
    "$NVCC" -ptx -arch="$PTX_ARCH" -O3 -D"${tm#*:}" -I"$SRC" -o "$RES/ptx/$tn.ptx" "$src" || return 1
    "$NVCC" -ptx -arch="$CUBIN_PTX_ARCH" -O3 -D"${tm#*:}" -I"$SRC" -o "$WORK/$tn.sm80.ptx" "$src" || return 1
    for t in "${SM_TARGETS[@]}"; do
      "$PTXAS" -arch="$t" -O3 -o "$RES/$t/$tn.cubin" "$WORK/$tn.sm80.ptx" || return 1
    done
  done
}
build_module() {
  local src="$1" m
  m="$(basename "$src" .cu)"
  if ! compile_module "$src" "$m" >"$WORK/$m.log" 2>&1; then
    echo "build-kernels: module $m failed:" >&2
    cat "$WORK/$m.log" >&2
    return 1
  fi
}
export -f compile_module build_module
export HIPCC BUNDLER NVCC PTXAS SRC RES WORK PTX_ARCH CUBIN_PTX_ARCH
export AMD_TARGETS_S="${AMD_TARGETS[*]}" SM_TARGETS_S="${SM_TARGETS[*]}" TEST_MODULES_S="${TEST_MODULES[*]}"

START=$(date +%s)
printf '%s\n' "${SOURCES[@]}" | xargs -P "$JOBS" -I{} bash -c \
  'AMD_TARGETS=($AMD_TARGETS_S); SM_TARGETS=($SM_TARGETS_S); TEST_MODULES=($TEST_MODULES_S); build_module "$1"' _ {} \
  || die "a kernel module failed to compile (see above)"

# Every kernel of every module must be in every output: code objects and cubins as ELF function
# symbols, PTX as .entry.
missing=0
for src in "${SOURCES[@]}"; do
  m="$(basename "$src" .cu)"
  names="$(kernels_of "$src")"
  [ -n "$names" ] || die "module $m declares no extern \"C\" __global__ kernel"
  for t in "${AMD_TARGETS[@]}" "${SM_TARGETS[@]}"; do
    ext=hsaco; case "$t" in sm_*) ext=cubin ;; esac
    f="$RES/$t/$m.$ext"
    syms="$("$READELF" --wide --symbols "$f" 2>/dev/null | awk '$4 == "FUNC" {print $NF}')"
    for k in $names; do
      grep -qx "$k" <<<"$syms" || { echo "build-kernels: kernel $k missing from $t/$m.$ext" >&2; missing=1; }
    done
  done
  for k in $names; do
    grep -qE "\.entry[[:space:]]+$k\(" "$RES/ptx/$m.ptx" \
      || { echo "build-kernels: kernel $k missing from ptx/$m.ptx" >&2; missing=1; }
  done
done
for tm in "${TEST_MODULES[@]}"; do
  m="${tm%%:*}"
  for k in $(kernels_of "$SRC/$m.cu"); do
    grep -qE "\.entry[[:space:]]+$k\(" "$RES/ptx/${m}_portable.ptx" \
      || { echo "build-kernels: kernel $k missing from ptx/${m}_portable.ptx" >&2; missing=1; }
    for t in "${SM_TARGETS[@]}"; do
      "$READELF" --wide --symbols "$RES/$t/${m}_portable.cubin" 2>/dev/null | awk '$4 == "FUNC" {print $NF}' \
        | grep -qx "$k" || { echo "build-kernels: kernel $k missing from $t/${m}_portable.cubin" >&2; missing=1; }
    done
  done
done
[ $missing -eq 0 ] || die "kernels missing from the outputs"

# manifest.json: modules (kernels, source SHA-256 incl. the headers it includes), targets, compilers.
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
{
  echo '{'
  echo '  "abi": 1,'
  printf '  "amdTargets": [%s],\n' "$(printf '"%s",' "${AMD_TARGETS[@]}" | sed 's/,$//')"
  printf '  "ptxArch": "%s",\n' "$PTX_ARCH"
  printf '  "cubinPtxArch": "%s",\n' "$CUBIN_PTX_ARCH"
  printf '  "cudaTargets": [%s],\n' "$(printf '"%s",' "${SM_TARGETS[@]}" | sed 's/,$//')"
  # The CUDA version as cuDriverGetVersion counts it (1000 * major + 10 * minor): the oldest driver
  # API version that loads these PTX/cubins.
  read -r CUDA_MAJOR CUDA_MINOR < <(sed -E 's/.*release ([0-9]+)\.([0-9]+).*/\1 \2/' <<<"$NVCC_VERSION")
  printf '  "cudaVersion": %d,\n' "$(( CUDA_MAJOR * 1000 + CUDA_MINOR * 10 ))"
  printf '  "compilers": {"hipcc": %s, "clang": %s, "nvcc": %s},\n' \
    "$(json_str "$HIPCC_VERSION")" "$(json_str "$CLANG_VERSION")" "$(json_str "$NVCC_VERSION")"
  echo '  "modules": ['
  first=1
  for src in "${SOURCES[@]}"; do
    m="$(basename "$src" .cu)"
    sha="$( { cat "$src"; for h in "$SRC"/*.h "$SRC"/*.cuh; do cat "$h"; done; } | sha256sum | cut -d' ' -f1)"
    ks="$(kernels_of "$src" | sed 's/.*/"&"/' | paste -sd, -)"
    [ $first -eq 1 ] || echo ','
    first=0
    printf '    {"name": "%s", "source": "%s", "sourceSha256": "%s", "kernels": [%s]}' \
      "$m" "$(basename "$src")" "$sha" "$ks"
  done
  echo
  echo '  ],'
  # Built for NVIDIA only (ptx + cudaTargets), from the module's source with the macro defined.
  printf '  "testModules": [%s]\n' "$(for tm in "${TEST_MODULES[@]}"; do m="${tm%%:*}"
    printf '{"name": "%s_portable", "source": "%s.cu", "define": "%s", "kernels": [%s]},' "$m" "$m" "${tm#*:}" \
      "$(kernels_of "$SRC/$m.cu" | sed 's/.*/"&"/' | paste -sd, -)"; done | sed 's/,$//')"
  echo '}'
} >"$RES/manifest.json"
jq empty "$RES/manifest.json" 2>/dev/null || python3 -m json.tool "$RES/manifest.json" >/dev/null \
  || die "manifest.json is not valid JSON"

echo "$KEY" >"$OUT/.build-key"
echo "build-kernels: ${#SOURCES[@]} modules x $(( ${#AMD_TARGETS[@]} + 1 + ${#SM_TARGETS[@]} )) targets in $(( $(date +%s) - START )) s -> $RES"
