package dev.dictum.whisper.format.ct2;

import java.lang.foreign.MemorySegment;

/** One variable of model.bin: its CTranslate2 name ({@code encoder/layer_0/ffn/linear_0/weight}), type, shape, bytes. */
record Ct2Variable(String name, Ct2DType type, long[] shape, MemorySegment data) {

    boolean isScalar() {
        return shape.length == 0;
    }

    long elementCount() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }
}
