package dev.dictum.whisper.testutil;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** A little-endian binary writer with a 1 MiB buffer, counting bytes written, for the test model writers. */
final class LeOutput implements AutoCloseable {
    private final OutputStream out;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private long flushed;

    LeOutput(Path file) {
        try {
            out = Files.newOutputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long position() {
        return flushed + buf.position();
    }

    LeOutput i32(int v) {
        room(4).putInt(v);
        return this;
    }

    LeOutput u16(int v) {
        room(2).putShort((short) v);
        return this;
    }

    LeOutput u8(int v) {
        room(1).put((byte) v);
        return this;
    }

    LeOutput f32(float v) {
        room(4).putFloat(v);
        return this;
    }

    LeOutput f16(float v) {
        room(2).putShort(Float.floatToFloat16(v));
        return this;
    }

    LeOutput bf16(float v) {
        // Round to nearest even, as torch does (no NaNs here).
        int bits = Float.floatToRawIntBits(v);
        bits += 0x7fff + ((bits >>> 16) & 1);
        room(2).putShort((short) (bits >>> 16));
        return this;
    }

    LeOutput bytes(byte[] b) {
        for (int off = 0; off < b.length; ) {
            int n = Math.min(b.length - off, Math.max(1, buf.remaining()));
            room(n).put(b, off, n);
            off += n;
        }
        return this;
    }

    private ByteBuffer room(int n) {
        if (buf.remaining() < n) {
            flush();
        }
        return buf;
    }

    private void flush() {
        try {
            out.write(buf.array(), 0, buf.position());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        flushed += buf.position();
        buf.clear();
    }

    @Override
    public void close() {
        flush();
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
