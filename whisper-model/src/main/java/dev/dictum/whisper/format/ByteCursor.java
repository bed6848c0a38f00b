package dev.dictum.whisper.format;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Bounds-checked little-endian reads through a memory-mapped model file. Every read names what it
 * reads, so that a truncated file fails with a {@link ModelFormatException} saying where, never
 * with an IndexOutOfBoundsException.
 */
public final class ByteCursor {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment segment;
    private final String file;
    private long position;

    public ByteCursor(MemorySegment segment, String file) {
        this.segment = segment;
        this.file = file;
    }

    public String file() {
        return file;
    }

    public long position() {
        return position;
    }

    public long remaining() {
        return segment.byteSize() - position;
    }

    public boolean atEnd() {
        return position == segment.byteSize();
    }

    public int i32(String what) {
        require(4, what);
        int v = segment.get(I32, position);
        position += 4;
        return v;
    }

    /** An unsigned 32-bit value. */
    public long u32(String what) {
        return Integer.toUnsignedLong(i32(what));
    }

    public int u16(String what) {
        require(2, what);
        int v = Short.toUnsignedInt(segment.get(I16, position));
        position += 2;
        return v;
    }

    public int u8(String what) {
        require(1, what);
        int v = Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, position));
        position += 1;
        return v;
    }

    public float f32(String what) {
        require(4, what);
        float v = segment.get(F32, position);
        position += 4;
        return v;
    }

    /** Copies {@code n} bytes to the heap (for names and tokens, which are short). */
    public byte[] bytes(int n, String what) {
        return slice(n, what).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The next {@code n} bytes as a slice of the mapping (for tensor data: never copied). */
    public MemorySegment slice(long n, String what) {
        require(n, what);
        MemorySegment s = segment.asSlice(position, n);
        position += n;
        return s;
    }

    public ModelFormatException error(String message) {
        return new ModelFormatException(file + ": " + message);
    }

    private void require(long n, String what) {
        if (n < 0 || n > remaining()) {
            throw error("truncated in " + what + " at byte " + position + " (needs " + n + " bytes, "
                    + remaining() + " left)");
        }
    }
}
