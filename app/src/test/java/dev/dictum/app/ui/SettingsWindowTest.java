package dev.dictum.app.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.settings.SettingsStore;
import dev.dictum.app.ui.settings.SettingsWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings window for real (JavaFX, software rendering): a refused value shows its reason under the
 * field and keeps Save disabled; a valid one saves to the file and reaches the live settings. Needs a
 * display (CI's Xvfb); skipped with the reason without one.
 */
class SettingsWindowTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void startFx() throws Exception {
        if (!hasDisplay()) {
            return; // the test itself reports the skip
        }
        System.setProperty("prism.order", "sw");
        CountDownLatch up = new CountDownLatch(1);
        try {
            Platform.startup(up::countDown);
        } catch (IllegalStateException alreadyRunning) {
            up.countDown();
        }
        Platform.setImplicitExit(false);
        assertThat(up.await(30, TimeUnit.SECONDS)).isTrue();
    }

    static boolean hasDisplay() {
        String d = System.getenv("DISPLAY");
        return d != null && !d.isBlank();
    }

    @Test
    void aRefusedValueSaysWhyAndAValidOneIsSavedAtomically() throws Exception {
        assumeThat(hasDisplay()).as("skipped: no display (DISPLAY is not set)").isTrue();
        SettingsStore store = new SettingsStore(dir.resolve("settings.json"));
        LiveSettings live = new LiveSettings(store, Settings.defaults());
        SampleWindowContext ctx = new SampleWindowContext(live, Files.createDirectories(dir.resolve("models")), null,
                java.net.URI.create("http://127.0.0.1:9/"));
        AtomicReference<SettingsWindow> window = new AtomicReference<>();
        onFx(() -> {
            window.set(new SettingsWindow(ctx, () -> { }));
            window.get().show(SettingsGroup.TRANSCRIPTION);
        });
        onFx(() -> field(window.get(), "Beam size").setText("40"));
        onFx(() -> {
            TextField beam = field(window.get(), "Beam size");
            assertThat(beam.getStyleClass()).contains("invalid");
            assertThat(messageUnder(beam)).isEqualTo("must be between 1 and 16, not 40");
            assertThat(save(window.get()).isDisabled()).isTrue();
        });
        onFx(() -> field(window.get(), "Beam size").setText("five"));
        onFx(() -> assertThat(messageUnder(field(window.get(), "Beam size"))).isEqualTo("enter a whole number"));
        onFx(() -> field(window.get(), "Beam size").setText("5"));
        onFx(() -> {
            assertThat(save(window.get()).isDisabled()).isFalse();
            save(window.get()).fire();
        });
        assertThat(live.current().transcription().beamSize()).isEqualTo(5);
        assertThat(store.load().settings().transcription().beamSize()).isEqualTo(5);
        assertThat(Files.readString(dir.resolve("settings.json"))).contains("\"beamSize\" : 5");
        onFx(() -> window.get().stage().close());
    }

    @Test
    void hotkeysAreSetByPressingThemAndAConflictIsReported() throws Exception {
        assumeThat(hasDisplay()).as("skipped: no display (DISPLAY is not set)").isTrue();
        LiveSettings live = new LiveSettings(new SettingsStore(dir.resolve("settings.json")), Settings.defaults());
        SampleWindowContext ctx = new SampleWindowContext(live, dir, null, java.net.URI.create("http://127.0.0.1:9/"));
        AtomicReference<SettingsWindow> window = new AtomicReference<>();
        onFx(() -> {
            window.set(new SettingsWindow(ctx, () -> { }));
            window.get().show(SettingsGroup.HOTKEYS);
        });
        onFx(() -> {
            TextField paste = field(window.get(), "Paste last transcript");
            paste.requestFocus();
            press(paste, KeyCode.CONTROL, true);
            press(paste, KeyCode.ALT, true);
            press(paste, KeyCode.SPACE, true);
            press(paste, KeyCode.SPACE, false);
            press(paste, KeyCode.ALT, false);
            press(paste, KeyCode.CONTROL, false);
            assertThat(paste.getText()).isEqualTo("Ctrl+Alt+Space");
            assertThat(messageUnder(paste)).isEqualTo("Ctrl+Alt+Space is already the dictate hotkey");
            assertThat(save(window.get()).isDisabled()).isTrue();
            // Modifiers alone: pressed together and released without another key.
            press(paste, KeyCode.CONTROL, true);
            press(paste, KeyCode.WINDOWS, true);
            press(paste, KeyCode.WINDOWS, false);
            press(paste, KeyCode.CONTROL, false);
            assertThat(paste.getText()).isEqualTo("Ctrl+Super");
            assertThat(paste.getStyleClass()).doesNotContain("invalid");
            assertThat(save(window.get()).isDisabled()).isFalse();
        });
        onFx(() -> window.get().stage().close());
    }

    private static void press(Node target, KeyCode code, boolean down) {
        target.fireEvent(new javafx.scene.input.KeyEvent(down ? javafx.scene.input.KeyEvent.KEY_PRESSED
                : javafx.scene.input.KeyEvent.KEY_RELEASED, "", "", code, false, false, false, false));
    }

    private static TextField field(SettingsWindow w, String label) {
        return w.stage().getScene().getRoot().lookupAll(".text-field").stream()
                .filter(n -> label.equals(((TextField) n).getAccessibleText())).map(n -> (TextField) n)
                .findFirst().orElseThrow(() -> new AssertionError("no field " + label));
    }

    private static String messageUnder(Node field) {
        var cell = (javafx.scene.layout.VBox) field.getParent();
        return ((Label) cell.getChildren().get(1)).getText();
    }

    private static Button save(SettingsWindow w) {
        return w.stage().getScene().getRoot().lookupAll(".button").stream().map(n -> (Button) n)
                .filter(b -> b.getText() != null && b.getText().contains("Save")).findFirst().orElseThrow();
    }

    static void onFx(Runnable r) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> err = new AtomicReference<>();
        Platform.runLater(() -> {
            try {
                r.run();
            } catch (Throwable t) {
                err.set(t);
            } finally {
                done.countDown();
            }
        });
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        if (err.get() instanceof AssertionError a) {
            throw a;
        }
        if (err.get() != null) {
            throw new AssertionError(err.get());
        }
    }
}
