#!/usr/bin/env bash
# session 13 idle benchmark driver: every model at both widths, alternating widths per model
cd /work/main
run() { scripts/bench-cpu-idle.sh bench-out/s13 "$3" "$1" "$2" "${@:4}"; } # name model width extra...
for m in toy-en-f16:testdata/models/toy-en/ggml-toy-en.bin toy-en-q8_0:testdata/models/toy-en/ggml-toy-en-q8_0.bin; do
  for w in avx512 avx2; do run ${m%%:*} ${m#*:} $w; done
done
for m in tiny-f16 tiny-q8_0 base-f16 base-q8_0 small-f16 small-q8_0; do
  for w in avx512 avx2; do run $m bench-out/$m.bin $w --samples none; done
done
echo ALLDONE >> bench-out/s13/progress.log
