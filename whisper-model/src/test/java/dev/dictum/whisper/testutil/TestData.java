package dev.dictum.whisper.testutil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
