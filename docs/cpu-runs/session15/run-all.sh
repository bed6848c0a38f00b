#!/usr/bin/env bash
# session 15 idle benchmark driver: the random small model (d_model 768, 12+12 layers) in f16 at both widths,
# then q8_0 if asked (argument "q8"); each configuration scripts/bench-cpu-idle.sh (3 alternating rounds, both peers).
cd /work/main
run() { scripts/bench-cpu-idle.sh bench-out/s15 "$3" "$1" "$2" --samples none; } # name model width
run small-f16 bench-out/small-f16.bin avx2
run small-f16 bench-out/small-f16.bin avx512
if [[ ${1:-} == q8 ]]; then
  run small-q8_0 bench-out/small-q8_0.bin avx2
  run small-q8_0 bench-out/small-q8_0.bin avx512
fi
echo ALLDONE >> bench-out/s15/progress.log
