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

/** Test fixtures: minimal readers for the WAV, raw float32 and npz files under testdata. */
final class MelTestData {

    private MelTestData() {}

    static Path root() {
        String dir = System.getProperty("dictum.testdata");
        if (dir == null) {
            throw new IllegalStateException("system property dictum.testdata is not set");
        }
        return Path.of(dir);
    }

    static Path data(String relative) {
        return root().resolve("data").resolve(relative);
    }

    /** 16-bit PCM mono 16 kHz WAV as int16 / 32768 (how the oracle read it). */
    static float[] readWav16kMono(Path path) throws IOException {
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

    /** Raw little-endian float32 with no header. */
    static float[] readF32(Path path) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[b.limit() / 4];
        b.asFloatBuffer().get(out);
        return out;
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
        double num = 0, den = 0;
        for (int i = 0; i < b.length; i++) {
            double d = (double) a[i] - b[i];
            num += d * d;
            den += (double) b[i] * b[i];
        }
        return Math.sqrt(num / den);
    }

    static double maxAbsDiff(float[] a, float[] b) {
        double max = 0;
        for (int i = 0; i < b.length; i++) {
            max = Math.max(max, Math.abs((double) a[i] - b[i]));
        }
        return max;
    }
}
