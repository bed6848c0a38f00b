package dev.dictum.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: the typing and paste delays' defaults became 0, but every settings file an earlier
 * version saved holds its old defaults (12 ms a character, 40 ms before the paste). A version 1 file
 * with exactly those values moves to the new defaults; a value the user chose stays.
 */
class SettingsUpgradeTest {
    @TempDir
    Path dir;

    /** The file as version 1 wrote it: every value, {@code "version" : 1}. */
    private Path versionOneFile(InsertionSettings insertion) throws IOException {
        String json = SettingsStore.toJson(Settings.defaults().with(insertion));
        String v1 = json.replace("\"version\" : " + Settings.VERSION, "\"version\" : 1");
        assertThat(v1).isNotEqualTo(json).contains("\"typingDelayMillis\" : " + insertion.typingDelayMillis());
        Path file = dir.resolve("settings.json");
        Files.writeString(file, v1);
        return file;
    }

    @Test
    void theNewDefaultsAreZero() {
        assertThat(Settings.defaults().insertion().typingDelayMillis()).isZero();
        assertThat(Settings.defaults().insertion().pasteDelayMillis()).isZero();
        assertThat(Settings.VERSION).isGreaterThan(1);
    }

    @Test
    void aVersionOneFileWithTheOldDefaultsLoadsWithTheNewOnes() throws IOException {
        InsertionSettings old = InsertionSettings.defaults().withMethod(InsertionMethod.TYPE)
                .withTypingDelayMillis(SettingsUpgrade.V1_TYPING_DELAY_MILLIS)
                .withPasteDelayMillis(SettingsUpgrade.V1_PASTE_DELAY_MILLIS).withEnterAfter(true);
        SettingsStore store = new SettingsStore(versionOneFile(old));
        SettingsStore.Loaded loaded = store.load();
        assertThat(loaded.notice()).isNull();
        InsertionSettings i = loaded.settings().insertion();
        assertThat(i.typingDelayMillis()).isZero();
        assertThat(i.pasteDelayMillis()).isZero();
        assertThat(i.method()).isEqualTo(InsertionMethod.TYPE); // the user's own choices stay
        assertThat(i.enterAfter()).isTrue();
        store.save(loaded.settings()); // saved again, the file is version 2 and says 0
        assertThat(Files.readString(store.file())).contains("\"version\" : " + Settings.VERSION)
                .contains("\"typingDelayMillis\" : 0");
        assertThat(store.load().settings()).isEqualTo(loaded.settings());
    }

    @Test
    void aVersionOneFileWithTheUsersOwnDelaysKeepsThem() throws IOException {
        InsertionSettings own = InsertionSettings.defaults().withTypingDelayMillis(25).withPasteDelayMillis(100);
        InsertionSettings i = new SettingsStore(versionOneFile(own)).load().settings().insertion();
        assertThat(i.typingDelayMillis()).isEqualTo(25);
        assertThat(i.pasteDelayMillis()).isEqualTo(100);
    }

    @Test
    void theOldValuesChosenAfterTheUpgradeAreTheUsersAndStay() {
        SettingsStore store = new SettingsStore(dir.resolve("settings.json"));
        Settings chosen = Settings.defaults().with(Settings.defaults().insertion()
                .withTypingDelayMillis(SettingsUpgrade.V1_TYPING_DELAY_MILLIS)
                .withPasteDelayMillis(SettingsUpgrade.V1_PASTE_DELAY_MILLIS));
        store.save(chosen);
        assertThat(store.load().settings()).isEqualTo(chosen);
    }

    @Test
    void aHandWrittenFileWithoutAVersionIsTheUsersOwn() throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"insertion\": {\"typingDelayMillis\": 12}}");
        assertThat(new SettingsStore(file).load().settings().insertion().typingDelayMillis()).isEqualTo(12);
    }
}
