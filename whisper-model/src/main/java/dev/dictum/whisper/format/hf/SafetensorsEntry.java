package dev.dictum.whisper.format.hf;

import dev.dictum.gpu.DType;

/**
 * One tensor as a safetensors header describes it, already checked: the byte range
 * {@code [begin, end)} (relative to the start of the data section) lies within the data and holds
 * exactly the shape's elements.
 */
record SafetensorsEntry(String name, DType dtype, long[] shape, long begin, long end) {
    SafetensorsEntry {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    long elementCount() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    long byteCount() {
        return end - begin;
    }
}
