#!/usr/bin/env bash
# session 16 idle benchmark driver (issue 21), after the f16 panels' widening became "auto" (the bit trick at
# 512 bits, and at 256 bits from k 768): small f16 at both widths, toy-en f16 at 512 (whole transcriptions too),
# base f16 at 512; then, if time allows, tiny f16 at 512 and small q8_0 at 512 (never measured idle).
# Each: scripts/bench-cpu-idle.sh (3 alternating rounds, both peers).
cd "$(dirname "$0")/../../.."
run() { scripts/bench-cpu-idle.sh bench-out/s16 "$3" "$1" "$2" "${@:4}"; } # name model width extra...
run small-f16 bench-out/small-f16.bin avx512 --samples none
run small-f16 bench-out/small-f16.bin avx2 --samples none
run toy-en-f16 testdata/models/toy-en/ggml-toy-en.bin avx512
run base-f16 bench-out/base-f16.bin avx512 --samples none
run tiny-f16 bench-out/tiny-f16.bin avx512 --samples none
run small-q8_0 bench-out/small-q8_0.bin avx512 --samples none
echo ALLDONE >> bench-out/s16/progress.log
