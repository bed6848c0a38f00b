#!/usr/bin/env bash
# How the f16 decoder's token depends on the pool (issue 21's last lead, "the pool's waits"): the default
# (2 threads, helpers spin 200 us before parking), helpers spinning 2 ms, and one thread alone.
# usage: docs/cpu-runs/session17/threads-spin.sh MODEL   (session 17: bench-out/small-f16.bin -> threads-spin-small-f16.txt;
# that run rotated the three in one order both rounds, this script reverses it in round 2)
exec "$(dirname "$0")/../../../scripts/ab-decoder-options.sh" "$1" 2 30 "default:" \
  "spin2ms:-Ddictum.cpu.spinMicros=2000" "one-thread:-XX:ActiveProcessorCount=1"
