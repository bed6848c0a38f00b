package dev.dictum.app.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A minimal WAV reader for the whisper.cpp benchmark: PCM 16/24/32-bit or float 32/64-bit, any
 * channel count (averaged to mono), and it must already be 16 kHz (whisper.cpp's input rate; this
 * harness does not resample, so both engines see exactly the same samples).
 * Self-contained on purpose, so the benchmark compiles and runs without Dictum's modules.
 */
final class BenchWav {

    private BenchWav() {
    }

    static float[] read16kMono(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < 12 || b.getInt(0) != 0x46464952 || b.getInt(8) != 0x45564157) { // "RIFF" "WAVE"
            throw new IOException(file + ": not a RIFF/WAVE file");
        }
        int format = -1;
        int channels = 0;
        int rate = 0;
        int bits = 0;
        int pos = 12;
        while (pos + 8 <= b.limit()) {
            int id = b.getInt(pos);
            long size = Integer.toUnsignedLong(b.getInt(pos + 4));
            int body = pos + 8;
            if (id == 0x20746d66) { // "fmt "
                format = Short.toUnsignedInt(b.getShort(body));
                channels = Short.toUnsignedInt(b.getShort(body + 2));
                rate = b.getInt(body + 4);
                bits = Short.toUnsignedInt(b.getShort(body + 14));
                if (format == 0xFFFE && size >= 26) { // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID starts with the tag
                    format = Short.toUnsignedInt(b.getShort(body + 24));
                }
            } else if (id == 0x61746164) { // "data"
                if (format < 0) {
                    throw new IOException(file + ": data chunk before fmt chunk");
                }
                if (rate != 16000) {
                    throw new IOException(file + ": " + rate + " Hz; the whisper.cpp bench needs 16 kHz input "
                            + "(resample it first, e.g. sox in.wav -r 16000 -c 1 out.wav)");
                }
                long avail = Math.min(size, b.limit() - body);
                return samples(b, body, avail, format, channels, bits, file);
            }
            pos = (int) Math.min(Integer.MAX_VALUE, body + size + (size & 1));
        }
        throw new IOException(file + ": no data chunk");
    }

    private static float[] samples(ByteBuffer b, int off, long bytes, int format, int channels, int bits, Path file)
            throws IOException {
        if (channels < 1 || bits % 8 != 0 || bits == 0) {
            throw new IOException(file + ": bad fmt (channels " + channels + ", bits " + bits + ")");
        }
        int bps = bits / 8;
        int frames = (int) (bytes / ((long) bps * channels));
        float[] out = new float[frames];
        for (int i = 0; i < frames; i++) {
            double sum = 0;
            for (int c = 0; c < channels; c++) {
                int p = off + (i * channels + c) * bps;
                sum += switch (format) {
                    case 1 -> switch (bits) {
                        case 8 -> (Byte.toUnsignedInt(b.get(p)) - 128) / 128.0;
                        case 16 -> b.getShort(p) / 32768.0;
                        case 24 -> ((b.get(p) & 0xff) | (b.get(p + 1) & 0xff) << 8 | b.get(p + 2) << 16) / 8388608.0;
                        case 32 -> b.getInt(p) / 2147483648.0;
                        default -> throw new IOException(file + ": " + bits + "-bit PCM is not supported");
                    };
                    case 3 -> switch (bits) {
                        case 32 -> b.getFloat(p);
                        case 64 -> b.getDouble(p);
                        default -> throw new IOException(file + ": " + bits + "-bit float is not supported");
                    };
                    default -> throw new IOException(file + ": WAV format tag " + format + " is not supported");
                };
            }
            out[i] = (float) (sum / channels);
        }
        return out;
    }
}
