package dev.dictum.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.whisper.decode.EncoderContext;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** transcription.audioCtx: full by default, auto or N accepted, anything else a setting problem. */
class AudioCtxSettingTest {
    @TempDir
    Path dir;

    @Test
    void fullByDefaultAndMissingFromAnOlderFileMeansFull() throws Exception {
        assertThat(TranscriptionSettings.defaults().audioCtx()).isEqualTo("full");
        assertThat(TranscriptionSettings.defaults().encoderContext()).isEqualTo(EncoderContext.FULL);
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"transcription\": {\"language\": \"de\"}}");
        Settings loaded = new SettingsStore(file).load().settings();
        assertThat(loaded.transcription().audioCtx()).isEqualTo("full");
        assertThat(loaded.transcription().language()).isEqualTo("de");
    }

    @Test
    void autoAndANumberAreValidAndSurviveARoundTrip() {
        for (String v : new String[] {"auto", "512", "1500"}) {
            Settings s = Settings.defaults().with(Settings.defaults().transcription().withAudioCtx(v));
            assertThat(s.problems()).as(v).isEmpty();
            SettingsStore store = new SettingsStore(dir.resolve(v + ".json"));
            store.save(s);
            assertThat(store.load().settings().transcription().audioCtx()).isEqualTo(v);
        }
        assertThat(TranscriptionSettings.defaults().withAudioCtx("auto").encoderContext()).isEqualTo(EncoderContext.AUTO);
        assertThat(TranscriptionSettings.defaults().withAudioCtx("512").encoderContext().positionsFor(100, 1500))
                .isEqualTo(512);
    }

    @Test
    void anInvalidValueIsASettingProblemThatSaysWhy() {
        for (String v : new String[] {"half", "0", "3000"}) {
            Settings s = Settings.defaults().with(Settings.defaults().transcription().withAudioCtx(v));
            assertThat(s.reason("transcription.audioCtx")).as(v)
                    .hasValueSatisfying(r -> assertThat(r).contains("full, auto").doesNotContain("\n"));
        }
    }
}
