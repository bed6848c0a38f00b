#!/usr/bin/env bash
# Installs, when missing, what building and testing Dictum needs beyond JDK 25 and Maven, so that
# ./setup and ./test work on a fresh Debian machine (root, apt). One place for every build-time
# package; the desktop end-to-end scripts install their own display and sound packages.
#   hipcc              compiles the AMD code objects (native/build-kernels.sh)
#   libamdhip64-5      Debian's HIP runtime: the HIP binding loads a real library in tests, no GPU needed
#   fakeroot dpkg-dev binutils desktop-file-utils   the .deb build and its install test (./test)
# nvcc (CUDA 13) cannot come from apt here: it must already be installed.
set -euo pipefail
need_cmd() { command -v "$1" >/dev/null 2>&1; }
missing=()
need_cmd hipcc || missing+=(hipcc)
[ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 ] || missing+=(libamdhip64-5)
need_cmd fakeroot || missing+=(fakeroot)
need_cmd dpkg-deb || missing+=(dpkg-dev)
need_cmd objdump || missing+=(binutils)
need_cmd desktop-file-validate || missing+=(desktop-file-utils)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! need_cmd apt-get; then
    echo "build-deps: missing ${missing[*]}; install them with apt-get (as root)" >&2
    exit 2
  fi
  echo "build-deps: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! need_cmd nvcc && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "build-deps: nvcc (CUDA 13 toolkit) is missing; the kernel build needs it (on PATH or in /usr/local/cuda/bin)" >&2
  exit 2
fi
