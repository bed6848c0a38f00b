#!/usr/bin/env bash
# One configuration of issue 21's idle benchmark against both peers: scripts/bench-vs-whispercpp.sh with
# --wait-idle 150 --rounds 3, the AVX-512 (build-native) or the AVX2 (build-avx2) whisper.cpp build, sample_01.
# Appends start and end lines to OUT_DIR/progress.log; the table lands in OUT_DIR/WIDTH-NAME/stdout.txt.
# usage: scripts/bench-cpu-idle.sh OUT_DIR avx512|avx2 NAME MODEL [more bench-vs-whispercpp options]
set -uo pipefail
cd "$(dirname "$0")/.."
outdir=$1 width=$2 name=$3 model=$4; shift 4
peer=bench-out/whisper.cpp-src/build-native/bin/libwhisper.so
w=()
if [[ $width == avx2 ]]; then w=(--avx2); peer=bench-out/whisper.cpp-src/build-avx2/bin/libwhisper.so; fi
out=$outdir/$width-$name
mkdir -p "$out"
echo "=== $(date -u +%H:%M:%S) $width $name" >> "$outdir/progress.log"
scripts/bench-vs-whispercpp.sh --no-build --wait-idle 150 --rounds 3 "${w[@]}" --peer-lib $peer --out "$out" "$@" \
  "$model" testdata/data/toy-en-samples/sample_01.wav 2 > "$out/stdout.txt" 2>&1
echo "=== $(date -u +%H:%M:%S) $width $name rc=$?" >> "$outdir/progress.log"
