#!/usr/bin/env bash
# session 13 idle benchmark driver: every model at both widths, alternating widths per model
cd /work/main
peer512=bench-out/whisper.cpp-src/build-native/bin/libwhisper.so
peer256=bench-out/whisper.cpp-src/build-avx2/bin/libwhisper.so
wav=testdata/data/toy-en-samples/sample_01.wav
run() { # name model width extra...
  local name=$1 model=$2 width=$3; shift 3
  local out=bench-out/s13/$width-$name
  mkdir -p $out
  local w=(); local peer=$peer512
  if [[ $width == avx2 ]]; then w=(--avx2); peer=$peer256; fi
  echo "=== $(date -u +%H:%M:%S) $width $name" >> bench-out/s13/progress.log
  scripts/bench-vs-whispercpp.sh --no-build --wait-idle 150 --rounds 3 "${w[@]}" --peer-lib $peer --out $out "$@" $model $wav 2 > $out/stdout.txt 2>&1
  echo "=== $(date -u +%H:%M:%S) $width $name rc=$?" >> bench-out/s13/progress.log
}
mkdir -p bench-out/s13
for m in toy-en-f16:testdata/models/toy-en/ggml-toy-en.bin toy-en-q8_0:testdata/models/toy-en/ggml-toy-en-q8_0.bin; do
  for w in avx512 avx2; do run ${m%%:*} ${m#*:} $w; done
done
for m in tiny-f16 tiny-q8_0 base-f16 base-q8_0 small-f16 small-q8_0; do
  for w in avx512 avx2; do run $m bench-out/$m.bin $w --samples none; done
done
echo ALLDONE >> bench-out/s13/progress.log
