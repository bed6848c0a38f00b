#!/usr/bin/env bash
# session 14 idle benchmark driver: toy-en f16 and q8_0 at both widths (the whole transcriptions the
# issue's hidden check compares), AVX2 first; then small f16 at 256 bits if asked (argument "small").
cd /work/main
run() { scripts/bench-cpu-idle.sh bench-out/s14 "$3" "$1" "$2" "${@:4}"; } # name model width extra...
for m in toy-en-f16:testdata/models/toy-en/ggml-toy-en.bin toy-en-q8_0:testdata/models/toy-en/ggml-toy-en-q8_0.bin; do
  for w in avx2 avx512; do run ${m%%:*} ${m#*:} $w; done
done
if [[ ${1:-} == small ]]; then run small-f16 bench-out/small-f16.bin avx2 --samples none; fi
echo ALLDONE >> bench-out/s14/progress.log
