package dev.dictum.gpu;

/**
 * Element types of weight tensors as model files store them. Quantized types are block formats:
 * {@link #blockSize()} values share one block of {@link #blockBytes()} bytes.
 *
 * <p>Layouts (whisper.cpp / ggml): Q8_0 = f16 scale + 32 int8; Q5_0 = f16 scale + 4 bytes of high
 * bits + 16 bytes of nibbles; Q5_1 = f16 scale + f16 min + 4 bytes high bits + 16 bytes nibbles;
 * Q4_0 = f16 scale + 16 bytes of nibbles. I8 is CTranslate2's int8: one signed byte a value, with a
 * float scale per output row kept in a separate tensor ({@link HostTensor#rowScales()}).
 */
public enum DType {
    F32(1, 4),
    F16(1, 2),
    BF16(1, 2),
    Q8_0(32, 34),
    Q5_0(32, 22),
    Q5_1(32, 24),
    Q4_0(32, 18),
    I8(1, 1);

    private final int blockSize;
    private final int blockBytes;

    DType(int blockSize, int blockBytes) {
        this.blockSize = blockSize;
        this.blockBytes = blockBytes;
    }

    /** Values per block (1 for plain types). */
    public int blockSize() {
        return blockSize;
    }

    /** Bytes per block. */
    public int blockBytes() {
        return blockBytes;
    }

    public boolean isQuantized() {
        return blockSize > 1;
    }

    /** Bytes that {@code count} values take; count must be a multiple of {@link #blockSize()}. */
    public long bytesFor(long count) {
        if (count % blockSize != 0) {
            throw new IllegalArgumentException(name() + " needs a multiple of " + blockSize + " values, got " + count);
        }
        return Math.multiplyExact(count / blockSize, (long) blockBytes);
    }
}
