package dev.dictum.app.ui;

import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.ModelDiscovery;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.download.LocalHub;
import dev.dictum.app.models.download.ModelDownloader;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.settings.SettingsStore;
import dev.dictum.app.ui.history.HistoryWindow;
import dev.dictum.app.ui.kit.WindowContext;
import dev.dictum.app.ui.models.FirstRunDialog;
import dev.dictum.app.ui.models.ModelManagerWindow;
import dev.dictum.app.ui.settings.SettingsWindow;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.transform.Transform;
import javafx.stage.Stage;
import javax.imageio.ImageIO;

/**
 * Opens the settings (every group), model manager (a download running from a local test hub), history
 * (with entries) and first-run windows over sample data and writes a PNG of each into the folder given
 * as the first argument. Run by scripts/screenshots-desktop.sh under Xvfb; not a unit test.
 */
public final class WindowScreenshots {

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/screenshots");
        Path testdata = Path.of(System.getProperty("dictum.testdata", "testdata"));
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("dictum-shots");
        Path models = Files.createDirectories(work.resolve("models"));
        Files.copy(testdata.resolve("models/toy-en/ggml-toy-en.bin"), models.resolve("ggml-toy-en.bin"));
        Files.copy(testdata.resolve("models/toy-en/ggml-toy-en-q8_0.bin"), models.resolve("ggml-toy-en-q8_0.bin"));
        Settings settings = Settings.defaults();
        settings = settings.with(settings.models().withModelPath(models.resolve("ggml-toy-en.bin").toString()));
        // What docs/using-dictum.md shows: a vocabulary and a few replacement rules.
        settings = settings.with(settings.transcription().withVocabulary("Dictum\nKubernetes\nSofia Lindqvist\nPostgreSQL"))
                .with(settings.insertion().withReplacements(List.of(
                        new dev.dictum.app.settings.Replacement("cube control", "kubectl", true),
                        new dev.dictum.app.settings.Replacement("my email", "sofia@example.org", true),
                        new dev.dictum.app.settings.Replacement("colour", "color", false))));
        SettingsStore store = new SettingsStore(work.resolve("settings.json"));
        store.save(settings);
        HistoryStore history = HistoryStore.open(work.resolve("history.db"));
        sampleHistory(history, testdata);

        try (LocalHub hub = new LocalHub()) {
            byte[] content = new byte[78_000_000];
            new Random(1).nextBytes(content);
            hub.host("ggerganov/whisper.cpp", "ggml-tiny.en.bin", content).throttle = 6_000_000;
            SampleWindowContext ctx = new SampleWindowContext(new LiveSettings(store, settings), models, history, hub.base());

            Platform.startup(() -> { });
            Platform.setImplicitExit(false);
            ModelCatalog catalog = ModelCatalog.builtIn();
            try (ModelDownloader downloader = new ModelDownloader(hub.base())) {
                SettingsWindow[] sw = new SettingsWindow[1];
                onFx(() -> sw[0] = new SettingsWindow(ctx, () -> { }));
                for (SettingsGroup g : SettingsGroup.values()) {
                    onFx(() -> sw[0].show(g));
                    settle();
                    shoot(sw[0].stage(), out.resolve("settings-" + g.name().toLowerCase(Locale.ROOT) + ".png"), 1);
                }
                onFx(() -> sw[0].show(SettingsGroup.HOTKEYS));
                settle();
                shoot(sw[0].stage(), out.resolve("settings-hotkeys-200pct.png"), 2);
                // A refused value: the reason under the field, Save disabled, the count in the footer.
                onFx(() -> sw[0].show(SettingsGroup.TRANSCRIPTION));
                settle();
                onFx(() -> sw[0].stage().getScene().getRoot().lookupAll(".text-field").stream()
                        .filter(n -> "Beam size".equals(((javafx.scene.control.TextField) n).getAccessibleText()))
                        .findFirst().map(n -> (javafx.scene.control.TextField) n).orElseThrow().setText("40"));
                settle();
                shoot(sw[0].stage(), out.resolve("settings-invalid-value.png"), 1);
                onFx(() -> sw[0].stage().close());
                onFx(() -> sw[0] = new SettingsWindow(ctx, () -> { })); // a fresh draft, without the refused value
                onFx(() -> sw[0].show(SettingsGroup.TRANSCRIPTION));
                settle();
                onFx(() -> scrollTo(sw[0].stage(), "Vocabulary"));
                settle();
                shoot(sw[0].stage(), out.resolve("settings-vocabulary.png"), 1);
                onFx(() -> sw[0].show(SettingsGroup.INSERTION));
                settle();
                onFx(() -> scrollTo(sw[0].stage(), "Replacements"));
                settle();
                shoot(sw[0].stage(), out.resolve("settings-replacements.png"), 1);
                onFx(() -> sw[0].stage().close());

                SettingsProblemWindow[] sp = new SettingsProblemWindow[1];
                Path broken = work.resolve("config/dictum/settings.json");
                Files.createDirectories(broken.getParent());
                Files.write(broken, "{\"transcription\": {\n  \"vocabulary\": \"Gr\u00fc\u00dfe\"}}".getBytes(
                        java.nio.charset.StandardCharsets.ISO_8859_1));
                SettingsStore.Loaded damaged = new SettingsStore(broken).load();
                onFx(() -> {
                    sp[0] = new SettingsProblemWindow(damaged.notice(), damaged.backup());
                    sp[0].show();
                });
                settle();
                shoot(sp[0].stage(), out.resolve("notice-settings-broken.png"), 1);
                onFx(() -> sp[0].stage().close());

                ModelManagerWindow[] mm = new ModelManagerWindow[1];
                onFx(() -> {
                    mm[0] = new ModelManagerWindow(ctx, catalog, downloader);
                    mm[0].show();
                    mm[0].download(catalog.variant(catalog.model("tiny.en").orElseThrow().variants().getFirst().id()).orElseThrow());
                });
                Thread.sleep(3500);
                settle();
                shoot(mm[0].stage(), out.resolve("models-downloading.png"), 1);
                onFx(() -> mm[0].stage().close());

                HistoryWindow[] hw = new HistoryWindow[1];
                onFx(() -> {
                    hw[0] = new HistoryWindow(ctx);
                    hw[0].show();
                });
                settle();
                onFx(() -> {
                    var table = (javafx.scene.control.TableView<?>) hw[0].stage().getScene().lookup(".table-view");
                    table.getSelectionModel().select(3);
                });
                settle();
                shoot(hw[0].stage(), out.resolve("history.png"), 1);
                onFx(() -> ((javafx.scene.control.TableView<?>) hw[0].stage().getScene().lookup(".table-view"))
                        .getSelectionModel().select(2)); // the row a voice command changed: "Heard: …" under it
                settle();
                shoot(hw[0].stage(), out.resolve("history-heard.png"), 1);
                onFx(() -> hw[0].stage().close());

                FirstRunDialog[] fr = new FirstRunDialog[1];
                onFx(() -> {
                    fr[0] = new FirstRunDialog(ctx, catalog, v -> { }, () -> { }, () -> { });
                    fr[0].show();
                });
                settle();
                shoot(fr[0].stage(), out.resolve("first-run.png"), 1);
            }
        }
        history.close();
        Platform.exit();
        System.out.println("screenshots written to " + out);
        System.exit(0);
    }

    private static void sampleHistory(HistoryStore h, Path testdata) {
        Path wav = testdata.resolve("data/toy-en-samples/sample_01.wav").toAbsolutePath();
        Instant now = Instant.parse("2026-11-23T09:41:00Z");
        String[][] rows = {
                {"Note to self, send the final version to Sophie right now.", "3900", "412"},
                {"Tell Mark that I will be 9 minutes late.", "2700", "365"},
                {"Grüße aus Lyon — das Hotel kostet 120 Euro pro Nacht.", "4100", "455"},
                {"Add milk, eggs and coffee to the shopping list.", "3100", "388"},
                {"", "900", "-1"},
                {"Remind me to call the dentist on Thursday at 10.", "3300", "402"}};
        for (int i = 0; i < rows.length; i++) {
            boolean empty = rows[i][0].isEmpty();
            h.add(new HistoryEntry(0, now.minusSeconds(600L * (rows.length - i)), Long.parseLong(rows[i][1]), rows[i][0],
                    "en", "base.en q8_0", "cpu", Long.parseLong(rows[i][2]), 380, 210, 150, wav,
                    empty ? HistoryStatus.EMPTY : HistoryStatus.OK, null)
                    .withRawText(i == 3 ? "Add milk comma eggs and coffee to the shopping list." : null));
        }
    }

    /** Scrolls the settings form so that the field labelled {@code label} is near the top. */
    private static void scrollTo(Stage stage, String label) {
        var pane = (javafx.scene.control.ScrollPane) stage.getScene().lookup(".scroll-pane");
        stage.getScene().getRoot().applyCss();
        stage.getScene().getRoot().layout();
        var target = stage.getScene().getRoot().lookupAll(".form-label").stream()
                .filter(n -> label.equals(((javafx.scene.control.Label) n).getText())).findFirst().orElseThrow();
        double y = target.localToScene(0, 0).getY() - pane.getContent().localToScene(0, 0).getY() - 40;
        double extra = pane.getContent().getBoundsInLocal().getHeight() - pane.getViewportBounds().getHeight();
        pane.setVvalue(extra <= 0 ? 0 : Math.min(1, Math.max(0, y / extra)));
    }

    private static void onFx(Runnable r) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        Throwable[] err = new Throwable[1];
        Platform.runLater(() -> {
            try {
                r.run();
            } catch (Throwable t) {
                err[0] = t;
            } finally {
                done.countDown();
            }
        });
        if (!done.await(30, TimeUnit.SECONDS)) {
            Thread.getAllStackTraces().forEach((t, st) -> {
                if (t.getName().contains("JavaFX Application")) {
                    for (StackTraceElement e : st) {
                        System.err.println("    at " + e);
                    }
                }
            });
            throw new IllegalStateException("the FX thread did not answer");
        }
        if (err[0] != null) {
            throw new IllegalStateException(err[0]);
        }
    }

    /** Lets layout, CSS and pending runLaters finish. */
    private static void settle() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            onFx(() -> { });
            Thread.sleep(150);
        }
    }

    private static void shoot(Stage stage, Path file, double scale) throws Exception {
        BufferedImage[] img = new BufferedImage[1];
        onFx(() -> {
            Scene scene = stage.getScene();
            SnapshotParameters p = new SnapshotParameters();
            p.setTransform(Transform.scale(scale, scale));
            WritableImage w = scene.getRoot().snapshot(p, null);
            img[0] = toBuffered(w);
        });
        ImageIO.write(img[0], "png", file.toFile());
        System.out.println("wrote " + file + " (" + img[0].getWidth() + "x" + img[0].getHeight() + ")");
    }

    private static BufferedImage toBuffered(WritableImage w) {
        int width = (int) w.getWidth();
        int height = (int) w.getHeight();
        BufferedImage b = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        PixelReader r = w.getPixelReader();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                b.setRGB(x, y, r.getArgb(x, y));
            }
        }
        return b;
    }
}
