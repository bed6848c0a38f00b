package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.EncoderContext;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.testutil.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The encoder context option on the real CPU model: full context is the old encoder bit for bit,
 * a reduced one really encodes fewer positions, and the toy-en samples still transcribe with it.
 */
class EncoderContextTranscriptionTest {
    private static WhisperEngine en;

    @BeforeAll
    static void load() {
        en = WhisperEngine.load(TestData.model("toy-en"), new CpuBackend());
    }

    @AfterAll
    static void close() {
        if (en != null) {
            en.close();
        }
    }

    private static TranscribeOptions textOnly(EncoderContext context) {
        TranscribeOptions o = TranscribeOptions.defaults();
        DecodingOptions d = o.decoding().withWithoutTimestamps(true);
        return o.withDecoding(d).withEncoderContext(context);
    }

    @Test
    void fullContextIsTheWholeWindowBitForBit() throws IOException {
        float[] mel = TestData.f32(TestData.data("toy-en-oracle").resolve("sample_01.logmel.f32.bin"));
        int full = en.model().dims().nAudioCtx();
        try (EncodedAudio whole = en.model().encode(mel); EncodedAudio asked = en.model().encode(mel, full)) {
            assertThat(asked.toHost()).isEqualTo(whole.toHost());
        }
    }

    @Test
    void aReducedContextEncodesOnlyThatManyPositions() throws IOException {
        float[] mel = TestData.f32(TestData.data("toy-en-oracle").resolve("sample_01.logmel.f32.bin"));
        int state = en.model().dims().nAudioState();
        try (EncodedAudio reduced = en.model().encode(mel, 256)) {
            float[] host = reduced.toHost();
            assertThat(host).hasSize(256 * state);
            for (float v : host) {
                assertThat(v).isFinite();
            }
        }
    }

    @Test
    void everyEnglishSampleTranscribesWithFullAndAutoContext() throws IOException {
        for (String[] row : rows("toy-en-samples")) {
            float[] audio = TestData.wav16kMono(TestData.data("toy-en-samples", row[0]));
            TranscriptionResult full = en.transcribe(audio, textOnly(EncoderContext.FULL));
            TranscriptionResult auto = en.transcribe(audio, textOnly(EncoderContext.AUTO));
            assertThat(full.strippedText()).as(row[0] + " full").isEqualTo(row[1]);
            assertThat(auto.strippedText()).as(row[0] + " auto").isEqualTo(row[1]);
        }
    }

    private static List<String[]> rows(String set) throws IOException {
        Path tsv = TestData.data(set, "transcripts.tsv");
        return Files.readAllLines(tsv).stream().skip(1).filter(l -> !l.isBlank()).map(l -> l.split("\t", -1)).toList();
    }
}
