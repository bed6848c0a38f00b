// What the emulated kernels' checks share (native/bench/kernel_emu.cpp, cross_attention_emu.cpp): a
// seeded uniform source in [-1, 1) and a failure count that prints "FAIL: <what>" per failed check.
#pragma once
#include <cstdio>

static unsigned seed = 12345;
static float frand() {
    seed = seed * 1664525u + 1013904223u;
    return ((seed >> 8) / 16777216.0f) * 2.0f - 1.0f;
}
static int failures = 0;
static void check(bool ok, const char* what) {
    if (!ok) {
        failures++;
        printf("  FAIL: %s\n", what);
    }
}
