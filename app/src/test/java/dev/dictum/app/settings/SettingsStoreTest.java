package dev.dictum.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsStoreTest {
    @TempDir
    Path dir;

    @Test
    void everyValueSurvivesARoundTrip() {
        SettingsStore store = new SettingsStore(dir.resolve("cfg/settings.json"));
        Settings s = Settings.defaults()
                .with(Settings.defaults().hotkeys().withMode(DictationMode.HOLD_OR_TAP).withDictate("Ctrl+Super")
                        .withPasteLast("").withTapMillis(250))
                .with(Settings.defaults().insertion().withMethod(InsertionMethod.TYPE)
                        .withPasteKeystroke(PasteKeystroke.SHIFT_INSERT).withPasteDelayMillis(120).withEnterAfter(true)
                        .withReplacements(List.of(new Replacement("teh", "the", true), new Replacement("ise", "ize", false)))
                        .withVoiceCommands(false))
                .with(Settings.defaults().transcription().withLanguage("de").withTask(TranscriptionTask.TRANSLATE)
                        .withBeamSize(5).withInitialPrompt("Grüße, Dictum").withNoSpeechThreshold(0.45)
                        .withVocabulary("Kubernetes\nSofia"))
                .with(Settings.defaults().models().withModelPath("/m/ggml-base.bin"))
                .with(Settings.defaults().audio().withInputDevice("USB Mic [plughw:1,0]"))
                .with(Settings.defaults().storage().withRecordingsKept(7).withLogTranscripts(true))
                .with(Settings.defaults().advanced().withBackend("cpu").withRocmDirectory("C:\\ROCm\\6.2\\bin"))
                .with(Settings.defaults().general().withShowIndicator(false));
        store.save(s);
        SettingsStore.Loaded back = store.load();
        assertThat(back.notice()).isNull();
        assertThat(back.settings()).isEqualTo(s);
        assertThat(back.settings()).isNotEqualTo(Settings.defaults());
    }

    @Test
    void aMissingFileGivesDefaultsWithoutANotice() {
        SettingsStore.Loaded l = new SettingsStore(dir.resolve("none.json")).load();
        assertThat(l.settings()).isEqualTo(Settings.defaults());
        assertThat(l.notice()).isNull();
    }

    @Test
    void aCorruptFileIsKeptAsABackupAndReplacedByDefaultsWithANotice() throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"hotkeys\": {\"mode\": \"toggle\",, }");
        SettingsStore store = new SettingsStore(file);
        SettingsStore.Loaded l = store.load();
        assertThat(l.settings()).isEqualTo(Settings.defaults());
        assertThat(l.notice()).contains("damaged").contains("settings.json.broken-")
                .contains("at line 1, column 31").doesNotContain("code 44");
        List<Path> backups = backups();
        assertThat(backups).hasSize(1);
        assertThat(Files.readString(backups.getFirst())).isEqualTo("{\"hotkeys\": {\"mode\": \"toggle\",, }");
        store.save(l.settings());
        assertThat(store.load().notice()).isNull();
    }

    @Test
    void invalidUtf8IsKeptAsABackupAndTheNoticeSaysWhereNotInputLength() throws IOException {
        Path file = dir.resolve("settings.json");
        byte[] bytes = "{\"transcription\": {\n  \"initialPrompt\": \"Gr\u00fc\u00dfe \"}}".getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1); // Latin-1 ü: not UTF-8
        Files.write(file, bytes);
        SettingsStore.Loaded l = new SettingsStore(file).load();
        assertThat(l.settings()).isEqualTo(Settings.defaults());
        assertThat(l.notice()).doesNotContain("Input length")
                .contains("not UTF-8 text (byte 0xFC at line 2, column 23)")
                .contains("'" + dir.toAbsolutePath() + "/settings.json.broken-");
        List<Path> backups = backups();
        assertThat(backups).hasSize(1);
        assertThat(Files.readAllBytes(backups.getFirst())).isEqualTo(bytes);
    }

    @Test
    void aWrongTypeNamesTheFieldTheLineAndWhatWasExpected() throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"hotkeys\": {\n  \"tapMillis\": \"soon\"}}");
        SettingsStore.Loaded l = new SettingsStore(file).load();
        assertThat(l.notice()).contains("hotkeys.tapMillis must be a whole number (not \"soon\") at line 2, column 16");
        assertThat(backups()).hasSize(1);
        Files.writeString(file, "{\"hotkeys\": {\"mode\": \"sometimes\"}}");
        assertThat(new SettingsStore(file).load().notice())
                .contains("hotkeys.mode must be one of push-to-talk, toggle, hold-or-tap");
        Files.writeString(file, "[1, 2]");
        assertThat(new SettingsStore(file).load().notice()).contains("damaged").contains("line 1, column 1");
    }

    @Test
    void anUnreadableFileIsMovedAsideSoDefaultsNeverOverwriteIt() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(!"root".equals(System.getProperty("user.name")),
                "skipped: root reads any file");
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"general\": {}}");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("-w-------"));
        SettingsStore store = new SettingsStore(file);
        SettingsStore.Loaded l = store.load();
        assertThat(l.notice()).contains("could not be read (permission denied)").contains("settings.json.broken-");
        assertThat(backups()).hasSize(1);
        assertThat(Files.exists(file)).isFalse();
    }

    @Test
    void anInvalidValueResetsOnlyItsGroup() throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, """
                {"transcription": {"beamSize": 0, "language": "de"},
                 "hotkeys": {"mode": "toggle", "dictate": "Ctrl+Alt+D"}}""");
        SettingsStore.Loaded l = new SettingsStore(file).load();
        assertThat(l.notice()).contains("transcription.beamSize").contains("between 1 and 16");
        assertThat(l.settings().transcription()).isEqualTo(TranscriptionSettings.defaults());
        assertThat(l.settings().hotkeys().mode()).isEqualTo(DictationMode.TOGGLE);
        assertThat(l.settings().hotkeys().dictate()).isEqualTo("Ctrl+Alt+D");
        assertThat(backups()).hasSize(1);
    }

    @Test
    void missingFieldsTakeTheirDefaultsAndUnknownOnesAreIgnored() throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"insertion\": {\"method\": \"clipboard\"}, \"futureThing\": 3}");
        SettingsStore.Loaded l = new SettingsStore(file).load();
        assertThat(l.notice()).isNull();
        assertThat(l.settings().insertion().method()).isEqualTo(InsertionMethod.CLIPBOARD_ONLY);
        assertThat(l.settings().insertion().pasteDelayMillis())
                .isEqualTo(InsertionSettings.defaults().pasteDelayMillis());
        assertThat(l.settings().storage().recordingsKept()).isEqualTo(50);
    }

    @Test
    void validationSaysWhyAndSaveRefusesInvalidValues() {
        Settings bad = Settings.defaults().with(Settings.defaults().hotkeys().withDictate("Ctrl+Spcae"));
        assertThat(bad.reason("hotkeys.dictate")).hasValueSatisfying(r -> assertThat(r).contains("unknown key 'Spcae'"));
        Settings clash = Settings.defaults().with(Settings.defaults().hotkeys().withPasteLast("ctrl+alt+space"));
        assertThat(clash.reason("hotkeys.pasteLast")).hasValue("Ctrl+Alt+Space is already the dictate hotkey");
        Settings lang = Settings.defaults().with(Settings.defaults().transcription().withLanguage("German"));
        assertThat(lang.reason("transcription.language")).isPresent();
        assertThat(Settings.defaults().with(Settings.defaults().advanced().withBackend("tpu"))
                .reason("advanced.backend")).hasValueSatisfying(r -> assertThat(r).contains("auto, cpu"));
        assertThat(Settings.defaults().problems()).isEmpty();
        SettingsStore store = new SettingsStore(dir.resolve("settings.json"));
        assertThatThrownBy(() -> store.save(bad)).hasMessageContaining("hotkeys.dictate");
        assertThat(Files.exists(store.file())).isFalse();
    }

    @Test
    void eachGroupResetsToItsOwnDefaults() {
        Settings changed = Settings.defaults()
                .with(Settings.defaults().audio().withMinRecordingMillis(900))
                .with(Settings.defaults().storage().withHistoryEnabled(false));
        Settings reset = changed.withDefaults(SettingsGroup.AUDIO);
        assertThat(reset.audio()).isEqualTo(AudioSettings.defaults());
        assertThat(reset.storage().historyEnabled()).isFalse();
    }

    @Test
    void liveSettingsSaveAndNotifyOnlyValidChanges() {
        SettingsStore store = new SettingsStore(dir.resolve("settings.json"));
        LiveSettings live = new LiveSettings(store, Settings.defaults());
        List<String> seen = new ArrayList<>();
        live.addListener((before, after) -> seen.add(before.hotkeys().mode() + "->" + after.hotkeys().mode()));
        live.update(s -> s.with(s.hotkeys().withMode(DictationMode.TOGGLE)));
        assertThatThrownBy(() -> live.update(s -> s.with(s.storage().withRecordingsKept(-1))))
                .hasMessageContaining("storage.recordingsKept");
        assertThat(seen).containsExactly("PUSH_TO_TALK->TOGGLE");
        assertThat(store.load().settings().hotkeys().mode()).isEqualTo(DictationMode.TOGGLE);
        assertThat(live.current().storage().recordingsKept()).isEqualTo(50);
    }

    private List<Path> backups() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("settings.json.broken-")).toList();
        }
    }
}
