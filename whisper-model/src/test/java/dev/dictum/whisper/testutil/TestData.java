package dev.dictum.whisper.testutil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's test data is (set by the build as -Ddictum.testdata) and small readers. */
public final class TestData {
    private TestData() {
    }

    public static Path root() {
        String p = System.getProperty("dictum.testdata");
        if (p == null) {
            throw new IllegalStateException("run tests through Maven: -Ddictum.testdata is not set");
        }
        return Path.of(p);
    }

    public static Path model(String name) {
        return root().resolve("models").resolve(name);
    }

    public static Path data(String first, String... more) {
        return root().resolve("data").resolve(Path.of(first, more));
    }

    /** 16-bit PCM mono 16 kHz WAV as int16 / 32768 (how the oracle read it). */
    public static float[] wav16kMono(Path path) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != 0x46464952 || b.getInt(8) != 0x45564157) { // "RIFF", "WAVE"
            throw new IOException("not a RIFF/WAVE file: " + path);
        }
        int pos = 12;
        boolean formatChecked = false;
        while (pos + 8 <= b.limit()) {
            String id = new String(new byte[] {b.get(pos), b.get(pos + 1), b.get(pos + 2), b.get(pos + 3)},
                    StandardCharsets.US_ASCII);
            int size = b.getInt(pos + 4);
            int body = pos + 8;
            if (id.equals("fmt ")) {
                int format = b.getShort(body) & 0xffff;
                int channels = b.getShort(body + 2);
                int rate = b.getInt(body + 4);
                int bits = b.getShort(body + 14);
                if (format != 1 || channels != 1 || rate != 16000 || bits != 16) {
                    throw new IOException("expected PCM16 mono 16 kHz: " + path);
                }
                formatChecked = true;
            } else if (id.equals("data")) {
                if (!formatChecked) {
                    throw new IOException("data before fmt: " + path);
                }
                int n = Math.min(size, b.limit() - body) / 2;
                float[] out = new float[n];
                for (int i = 0; i < n; i++) {
                    out[i] = b.getShort(body + 2 * i) / 32768f;
                }
                return out;
            }
            pos = body + size + (size & 1);
        }
        throw new IOException("no data chunk: " + path);
    }

    /** A raw little-endian f32 file (the oracle tensors). */
    public static float[] f32(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[b.remaining() / 4];
        b.asFloatBuffer().get(out);
        return out;
    }

    /** ‖a − b‖ / ‖b‖ over all elements, in double. */
    public static double relativeError(float[] out, float[] ref) {
        return relativeError(out, 0, ref, 0, ref.length);
    }

    public static double relativeError(float[] out, int outOff, float[] ref, int refOff, int n) {
        if (out.length - outOff < n || ref.length - refOff < n) {
            throw new IllegalArgumentException("arrays shorter than " + n);
        }
        double num = 0;
        double den = 0;
        for (int i = 0; i < n; i++) {
            double d = (double) out[outOff + i] - ref[refOff + i];
            num += d * d;
            den += (double) ref[refOff + i] * ref[refOff + i];
        }
        return Math.sqrt(num / den);
    }
}
