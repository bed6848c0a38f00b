package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.Task;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.testutil.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end on the CPU: every sample WAV through the streaming session gives exactly the
 * reference transcript, from the Hugging Face folder and from the ggml file of the same weights;
 * the multilingual model detects the language and translates.
 */
class ToyTranscriptionTest {
    private static WhisperEngine en;
    private static WhisperEngine enGgml;
    private static WhisperEngine multi;
    private static WhisperEngine multiGgml;

    @BeforeAll
    static void load() {
        en = WhisperEngine.load(TestData.model("toy-en"), new CpuBackend());
        enGgml = WhisperEngine.load(TestData.model("toy-en").resolve("ggml-toy-en.bin"), new CpuBackend());
        multi = WhisperEngine.load(TestData.model("toy-multi"), new CpuBackend());
        multiGgml = WhisperEngine.load(TestData.model("toy-multi").resolve("ggml-toy-multi-q8_0.bin"), new CpuBackend());
    }

    @AfterAll
    static void close() {
        for (WhisperEngine e : new WhisperEngine[] {en, enGgml, multi, multiGgml}) {
            if (e != null) {
                e.close();
            }
        }
    }

    private static TranscribeOptions textOnly(Task task, String language) {
        TranscribeOptions o = TranscribeOptions.defaults();
        DecodingOptions d = o.decoding().withTask(task).withLanguage(language).withWithoutTimestamps(true);
        return o.withDecoding(d);
    }

    @Test
    void everyEnglishSampleGivesItsTranscriptFromBothFormats() throws IOException {
        for (String[] row : rows("toy-en-samples")) {
            float[] audio = TestData.wav16kMono(TestData.data("toy-en-samples", row[0]));
            for (WhisperEngine e : new WhisperEngine[] {en, enGgml}) {
                TranscriptionResult r = transcribeInChunks(e, audio, textOnly(Task.TRANSCRIBE, null), 1234);
                assertThat(r.strippedText()).as(row[0]).isEqualTo(row[1]);
                assertThat(r.language()).isEqualTo("en");
            }
        }
    }

    @Test
    void everyMultilingualSampleIsRecognisedAndTranslated() throws IOException {
        for (String[] row : rows("toy-multi-samples")) {
            float[] audio = TestData.wav16kMono(TestData.data("toy-multi-samples", row[0]));
            for (WhisperEngine e : new WhisperEngine[] {multi, multiGgml}) {
                TranscriptionResult r = transcribeInChunks(e, audio, textOnly(Task.TRANSCRIBE, null), 777);
                assertThat(r.language()).as(row[0]).isEqualTo(row[1]);
                assertThat(r.strippedText()).as(row[0]).isEqualTo(row[2]);
                if (!row[1].equals("en")) {
                    TranscriptionResult t = transcribeInChunks(e, audio, textOnly(Task.TRANSLATE, null), 99);
                    assertThat(t.strippedText()).as(row[0] + " translated").isEqualTo(row[3]);
                }
            }
        }
    }

    @Test
    void theSameAudioTwiceGivesBitIdenticalResults() throws IOException {
        // Early calls run interpreted, later ones compiled: any tier-dependent arithmetic (SVML exp,
        // reduction order) or race would show up as a difference in the probabilities.
        float[] audio = TestData.wav16kMono(TestData.data("toy-multi-samples", "sample_fr_2.wav"));
        TranscriptionResult first = transcribeInChunks(multi, audio, textOnly(Task.TRANSCRIBE, null), 1);
        for (int i = 0; i < 3; i++) {
            TranscriptionResult again = transcribeInChunks(multi, audio, textOnly(Task.TRANSCRIBE, null), 2 + i);
            assertThat(again.segments()).hasSameSizeAs(first.segments());
            for (int s = 0; s < first.segments().size(); s++) {
                assertThat(again.segments().get(s).tokens()).isEqualTo(first.segments().get(s).tokens());
                assertThat(again.segments().get(s).tokenProbabilities())
                        .isEqualTo(first.segments().get(s).tokenProbabilities());
            }
            assertThat(again.languageProbabilities()).isEqualTo(first.languageProbabilities());
        }
    }

    /** Feeds the audio in random-sized chunks, as a microphone would deliver it. */
    private static TranscriptionResult transcribeInChunks(WhisperEngine e, float[] audio, TranscribeOptions o,
            long seed) {
        Random rnd = new Random(seed);
        try (TranscriptionSession s = e.startSession(o, (done, total) -> { })) {
            int i = 0;
            while (i < audio.length) {
                int n = Math.min(audio.length - i, 1 + rnd.nextInt(4000));
                s.feed(audio, i, n);
                i += n;
            }
            return s.finish();
        }
    }

    private static List<String[]> rows(String set) throws IOException {
        Path tsv = TestData.data(set, "transcripts.tsv");
        return Files.readAllLines(tsv).stream().skip(1).filter(l -> !l.isBlank()).map(l -> l.split("\t", -1)).toList();
    }
}
