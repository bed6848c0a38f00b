#!/usr/bin/env bash
# Issue 21 items 2 and 3 on an idle machine, both widths: the FMA peak and the encoder GEMM per core (one
# thread: -XX:ActiveProcessorCount=1), then the stream read and the decoder's f16 and q8_0 panels (2 threads).
cd "$(dirname "$0")/../../.."
source scripts/java-env.sh
CP=gpu-runtime/target/classes:gpu-runtime/target/test-classes
for w in avx512 avx2; do
  f=""; [[ $w == avx2 ]] && f="-XX:UseAVX=2 -XX:MaxVectorSize=32"
  echo "== $w peak,gemm one thread, load $(cut -d' ' -f1 /proc/loadavg) at $(date -u +%H:%M:%S)"
  java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED $f -XX:ActiveProcessorCount=1 -cp $CP \
    dev.dictum.gpu.cpu.CpuBench peak gemm 2>/dev/null
  echo "== $w bw,panels two threads, load $(cut -d' ' -f1 /proc/loadavg) at $(date -u +%H:%M:%S)"
  java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED $f -cp $CP \
    dev.dictum.gpu.cpu.CpuBench bw panels 2>/dev/null
done
