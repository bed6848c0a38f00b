package dev.dictum.whisper.format.hf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Hand-made safetensors bytes for tests of the parser: any header text, any length prefix. */
final class RawSafetensors {
    private RawSafetensors() {
    }

    /** A file with this header and {@code dataBytes} bytes of data 0, 1, 2, ... */
    static byte[] of(String header, int dataBytes) {
        byte[] json = header.getBytes(StandardCharsets.UTF_8);
        return withLength(json.length, json, dataBytes);
    }

    /** A file whose length prefix says {@code declared}, whatever the header really is. */
    static byte[] withLength(long declared, byte[] json, int dataBytes) {
        ByteBuffer b = ByteBuffer.allocate(8 + json.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(declared).put(json);
        for (int i = 0; b.hasRemaining(); i++) {
            b.put((byte) i);
        }
        return b.array();
    }
}
