package dev.dictum.whisper.decode;

import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;

/**
 * OpenAI's {@code compression_ratio}: {@code len(b) / len(zlib.compress(b))} for the UTF-8 bytes b.
 * zlib.compress uses level -1 (zlib's default, 6) with the zlib header and checksum, which is what
 * {@link Deflater} does with its defaults and {@code nowrap = false}; both are zlib, so the
 * compressed lengths agree. High ratios mean repetitive output (the fallback threshold is 2.4).
 */
public final class CompressionRatio {
    private CompressionRatio() {
    }

    public static double of(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
        try {
            deflater.setInput(bytes);
            deflater.finish();
            byte[] out = new byte[bytes.length + 64];
            long compressed = 0;
            while (!deflater.finished()) {
                compressed += deflater.deflate(out);
            }
            return bytes.length / (double) compressed;
        } finally {
            deflater.end();
        }
    }
}
