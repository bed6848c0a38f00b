package dev.dictum.whisper.mel;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import dev.dictum.whisper.testutil.TestData;

/** Test fixtures: minimal readers for the WAV, raw float32 and npz files under testdata. */
final class MelTestData {

    private MelTestData() {}

    static Path root() {
        return TestData.root();
    }

    static Path data(String relative) {
        return root().resolve("data").resolve(relative);
    }

    /** 16-bit PCM mono 16 kHz WAV as int16 / 32768 (how the oracle read it). */
    static float[] readWav16kMono(Path path) throws IOException {
        return TestData.wav16kMono(path);
    }

    /** Raw little-endian float32 with no header. */
    static float[] readF32(Path path) throws IOException {
        return TestData.f32(path);
    }

    private static final Pattern DESCR = Pattern.compile("'descr':\\s*'([^']+)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order':\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape':\\s*\\(([^)]*)\\)");

    /** A 2-D little-endian float32 C-order array {@code key}.npy from an npz (a zip of .npy files). */
    static float[][] readNpz2d(Path npz, String key) throws IOException {
        try (ZipFile zip = new ZipFile(npz.toFile())) {
            ZipEntry entry = zip.getEntry(key + ".npy");
            if (entry == null) {
                throw new IOException("no " + key + ".npy in " + npz);
            }
            byte[] bytes;
            try (InputStream in = zip.getInputStream(entry)) {
                bytes = in.readAllBytes();
            }
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            if ((bytes[0] & 0xff) != 0x93 || !new String(bytes, 1, 5, StandardCharsets.US_ASCII).equals("NUMPY")) {
                throw new IOException("not an .npy entry: " + key);
            }
            int major = bytes[6];
            int headerLength = major == 1 ? (b.getShort(8) & 0xffff) : b.getInt(8);
            int headerStart = major == 1 ? 10 : 12;
            String header = new String(bytes, headerStart, headerLength, StandardCharsets.ISO_8859_1);
            Matcher descr = DESCR.matcher(header);
            Matcher fortran = FORTRAN.matcher(header);
            Matcher shape = SHAPE.matcher(header);
            if (!descr.find() || !fortran.find() || !shape.find()) {
                throw new IOException("bad .npy header: " + header);
            }
            if (!descr.group(1).equals("<f4") || fortran.group(1).equals("True")) {
                throw new IOException("expected C-order <f4, got " + header);
            }
            String[] dims = shape.group(1).split(",");
            int rows = Integer.parseInt(dims[0].trim());
            int cols = Integer.parseInt(dims[1].trim());
            float[][] out = new float[rows][cols];
            int data = headerStart + headerLength;
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    out[r][c] = b.getFloat(data + 4 * (r * cols + c));
                }
            }
            return out;
        }
    }

    /** ||a - b|| / ||b|| in float64. */
    static double relativeError(float[] a, float[] b) {
        return TestData.relativeError(a, b);
    }

    static double maxAbsDiff(float[] a, float[] b) {
        double max = 0;
        for (int i = 0; i < b.length; i++) {
            max = Math.max(max, Math.abs((double) a[i] - b[i]));
        }
        return max;
    }
}
