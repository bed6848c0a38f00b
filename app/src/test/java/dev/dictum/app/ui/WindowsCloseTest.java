package dev.dictum.app.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsStore;
import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.download.ModelDownloader;
import dev.dictum.app.ui.history.HistoryWindow;
import dev.dictum.app.ui.models.ModelManagerWindow;
import dev.dictum.app.ui.settings.SettingsWindow;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javafx.scene.control.Button;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every window closes with Escape and has a visible Close button: without a window manager (Xvfb,
 * kiosk sessions) there is no title bar to close it with. Needs a display (CI's Xvfb).
 */
class WindowsCloseTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void startFx() throws Exception {
        SettingsWindowTest.startFx();
    }

    @Test
    void escapeAndTheCloseButtonCloseEveryWindow() throws Exception {
        assumeThat(SettingsWindowTest.hasDisplay()).as("skipped: no display (DISPLAY is not set)").isTrue();
        LiveSettings live = new LiveSettings(new SettingsStore(dir.resolve("settings.json")), Settings.defaults());
        SampleWindowContext ctx = new SampleWindowContext(live, Files.createDirectories(dir.resolve("models")), null,
                URI.create("http://127.0.0.1:9/"));
        try (ModelDownloader downloader = new ModelDownloader(URI.create("http://127.0.0.1:9/"))) {
            List<Supplier<Stage>> windows = List.of(
                    () -> new SettingsWindow(ctx, () -> { }).stage(),
                    () -> new ModelManagerWindow(ctx, ModelCatalog.builtIn(), downloader).stage(),
                    () -> new HistoryWindow(ctx).stage(),
                    () -> new SettingsProblemWindow("The settings file was damaged: it is not valid JSON.",
                            dir.resolve("settings.json.broken-1")).stage());
            for (Supplier<Stage> make : windows) {
                AtomicReference<Stage> stage = new AtomicReference<>();
                SettingsWindowTest.onFx(() -> {
                    stage.set(make.get());
                    stage.get().show();
                });
                SettingsWindowTest.onFx(() -> {
                    var root = stage.get().getScene().getRoot();
                    root.fireEvent(new KeyEvent(KeyEvent.KEY_PRESSED, "", "", KeyCode.ESCAPE, false, false, false, false));
                });
                SettingsWindowTest.onFx(() -> assertThat(stage.get().isShowing()).as(stage.get().getTitle() + " closes with Escape")
                        .isFalse());
                SettingsWindowTest.onFx(() -> stage.get().show());
                SettingsWindowTest.onFx(() -> {
                    Button close = stage.get().getScene().getRoot().lookupAll(".button").stream().map(n -> (Button) n)
                            .filter(b -> "_Close".equals(b.getText()) && b.isVisible()).findFirst()
                            .orElseThrow(() -> new AssertionError(stage.get().getTitle() + " has no Close button"));
                    close.fire();
                });
                SettingsWindowTest.onFx(() -> assertThat(stage.get().isShowing()).as(stage.get().getTitle() + " Close")
                        .isFalse());
            }
        }
    }
}
