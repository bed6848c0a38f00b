package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.audio.WavWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input gives one line on stderr that says what is wrong, a non-zero exit code (2 for a
 * wrong command line, 1 for unusable files), and no stack trace.
 */
class CliErrorsTest {
    private static final Path EN = CliRun.testdata().resolve("models/toy-en");
    private static final Path EN_GGML = EN.resolve("ggml-toy-en.bin");
    private static final Path WAV = CliRun.testdata().resolve("data/toy-en-samples/sample_02.wav");

    @TempDir
    Path tmp;

    private static void assertOneLineError(CliRun r, int code, String... fragments) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(code);
        assertThat(r.errLines()).as(r.err()).hasSizeBetween(1, code == 2 ? 2 : 1);
        assertThat(r.errLines()[0]).startsWith("dictum: ").doesNotContain("Exception").contains(fragments);
        assertThat(r.err()).doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void noCommandOrNoModelIsAUsageError() {
        assertOneLineError(CliRun.of(), 2, "a command is required (app, transcribe, bench, doctor)");
        assertOneLineError(CliRun.of("transcribe", WAV.toString()), 2, "--model");
        assertOneLineError(CliRun.of("transcribe", "--model", EN.toString()), 2, "FILE");
        assertOneLineError(CliRun.of("transcribe", "--model", EN.toString(), "--task", "summarise", WAV.toString()), 2,
                "--task");
        assertOneLineError(CliRun.of("bench", "--model", EN.toString(), "--runs", "0"), 2, "--runs");
        assertOneLineError(CliRun.of("bench", "--model", EN.toString(), "--beams", "17"), 2, "--beams");
    }

    @Test
    void missingAndUnrecognisedModels() throws IOException {
        assertOneLineError(CliRun.of("transcribe", "--model", tmp.resolve("nope").toString(), WAV.toString()), 1,
                "no such file");
        assertOneLineError(CliRun.of("transcribe", "--model", tmp.toString(), WAV.toString()), 1, "no Whisper model");
        Path text = Files.writeString(tmp.resolve("model.bin.txt"), "hello");
        assertOneLineError(CliRun.of("transcribe", "--model", text.toString(), WAV.toString()), 1, "not a Whisper model");
    }

    @Test
    void pathsInErrorsAreAbsoluteAndQuotedAlike() {
        // Given relative, named absolute and in quotes, whichever module found the problem.
        Path cwd = Path.of("").toAbsolutePath();
        assertOneLineError(CliRun.of("transcribe", "--model", "no-such-model.bin", WAV.toString()), 1,
                "error: '" + cwd.resolve("no-such-model.bin") + "': no such file");
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), "./no-such.wav"), 1,
                "error: '" + cwd.resolve("no-such.wav") + "': no such file");
    }

    @Test
    void truncatedGgmlFile() throws IOException {
        byte[] all = Files.readAllBytes(EN_GGML);
        for (int cut : new int[] {6, 60, 4000, 300_000, all.length - 10}) {
            Path p = tmp.resolve("cut-" + cut + ".bin");
            Files.write(p, Arrays.copyOf(all, cut));
            assertOneLineError(CliRun.of("transcribe", "--model", p.toString(), WAV.toString()), 1, p.toString());
        }
    }

    @Test
    void corruptSafetensorsHeader() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("hf"));
        for (String f : new String[] {"config.json", "generation_config.json", "vocab.json", "merges.txt",
                "added_tokens.json", "special_tokens_map.json", "tokenizer_config.json", "tokenizer.json",
                "preprocessor_config.json"}) {
            Files.copy(EN.resolve(f), dir.resolve(f));
        }
        byte[] st = Files.readAllBytes(EN.resolve("model.safetensors"));
        byte[] bad = Arrays.copyOf(st, 64 * 1024);
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 1L << 40); // header longer than the file
        Files.write(dir.resolve("model.safetensors"), bad);
        assertOneLineError(CliRun.of("transcribe", "--model", dir.toString(), WAV.toString()), 1, "model.safetensors");
    }

    @Test
    void badAudioFiles() throws IOException {
        Path notWav = Files.writeString(tmp.resolve("notes.wav"), "this is not audio");
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), notWav.toString()), 1, "notes.wav");

        Path empty = tmp.resolve("empty.wav");
        WavWriter.write(empty, new float[0], 16000, 1, WavWriter.Format.PCM_16);
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), empty.toString()), 1, "empty.wav");

        Path nan = tmp.resolve("nan.wav");
        Files.write(nan, floatWav(16000, new float[] {0.1f, Float.NaN, 0.2f}));
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), nan.toString()), 1, "nan.wav");

        Path inf = tmp.resolve("inf.wav");
        Files.write(inf, floatWav(16000, new float[] {0.1f, Float.POSITIVE_INFINITY}));
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), inf.toString()), 1, "inf.wav");

        Path zeroRate = tmp.resolve("zero-rate.wav");
        Files.write(zeroRate, floatWav(0, new float[] {0.1f, 0.2f}));
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), zeroRate.toString()), 1,
                "zero-rate.wav");

        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), tmp.resolve("absent.wav").toString()),
                1, "absent.wav");
    }

    @Test
    void audioCtxMustBeFullAutoOrAPositionCount() {
        for (String bad : new String[] {"half", "0", "1501"}) {
            assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), "--audio-ctx", bad, WAV.toString()),
                    2, "--audio-ctx", "full, auto");
            assertOneLineError(CliRun.of("bench", "--model", EN_GGML.toString(), "--audio-ctx", bad), 2, "--audio-ctx");
        }
    }

    @Test
    void languageAndBackendChoices() {
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), "--language", "xx", WAV.toString()), 2,
                "unknown language");
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), "--language", "de", WAV.toString()), 1,
                "English-only");
        assertOneLineError(CliRun.of("transcribe", "--model", EN_GGML.toString(), "--backend", "tpu", WAV.toString()), 1,
                "unknown backend");
    }

    /** A minimal IEEE-float mono WAV, written by hand so that it can hold what a writer refuses. */
    static byte[] floatWav(int rate, float[] samples) {
        ByteBuffer b = ByteBuffer.allocate(44 + samples.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + samples.length * 4).put("WAVE".getBytes());
        b.put("fmt ".getBytes()).putInt(16).putShort((short) 3).putShort((short) 1).putInt(rate).putInt(rate * 4)
                .putShort((short) 4).putShort((short) 32);
        b.put("data".getBytes()).putInt(samples.length * 4);
        for (float s : samples) {
            b.putFloat(s);
        }
        return b.array();
    }
}
