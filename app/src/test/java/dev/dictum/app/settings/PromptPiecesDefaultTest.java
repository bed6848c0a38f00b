package dev.dictum.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 5: a long dictation's pieces are not prompted with the text before them unless the
 * user asks (whisper.cpp's no_context default). The README's toy model derails when prompted, so this
 * default is what makes the README's first command exact on a 100 s dictation (scripts/e2e-ci.sh run 7).
 */
class PromptPiecesDefaultTest {
    @TempDir
    Path dir;

    @Test
    void offInTheDefaults() {
        assertThat(Settings.defaults().transcription().conditionOnPreviousText()).isFalse();
    }

    @Test
    void aFileWithoutTheFieldLoadsOffAndAnExplicitChoiceIsKept() throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"transcription\": {\"language\": \"en\"}}");
        Settings loaded = new SettingsStore(file).load().settings();
        assertThat(loaded.transcription().language()).isEqualTo("en");
        assertThat(loaded.transcription().conditionOnPreviousText()).isFalse();

        Files.writeString(file, "{\"transcription\": {\"conditionOnPreviousText\": true}}");
        assertThat(new SettingsStore(file).load().settings().transcription().conditionOnPreviousText()).isTrue();
    }
}
