package dev.dictum.app.ui;

import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.download.ModelDownloader;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.tray.AppActions;
import dev.dictum.app.ui.history.HistoryWindow;
import dev.dictum.app.ui.kit.WindowContext;
import dev.dictum.app.ui.models.FirstRunDialog;
import dev.dictum.app.ui.models.ModelManagerWindow;
import dev.dictum.app.ui.settings.SettingsWindow;
import dev.dictum.audio.capture.Levels;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings, model manager, history and first-run windows of the running desktop app: one of each,
 * opened from the tray. What they do to the rest of the app comes in as {@link Parts}; they know
 * neither the microphone nor the engine.
 */
public final class DesktopWindows implements WindowContext {

    /** Transcribes a saved recording again with another model and backend. */
    @FunctionalInterface
    public interface Retranscriber {
        String transcribe(Path wav, DiscoveredModel model, String backend) throws IOException;
    }

    /** Something the windows ask the app to do with a value, on a thread of their own. */
    @FunctionalInterface
    public interface Job<T> {
        void run(T value) throws Exception;
    }

    /** Starting with the system, where the OS has a way to. */
    public interface StartWithSystem {
        void set(boolean on) throws IOException;
    }

    /**
     * What the windows use of the running app.
     *
     * @param app            the tray's actions (models, backends, the model choice)
     * @param defaultModels  the models folder when the settings name none
     * @param testRecording  records a few seconds and plays them back
     * @param history        the history, waiting while it opens; null when it could not be opened
     * @param insert         inserts a text into the window that had the focus (the history's "Insert again")
     * @param play           plays a saved recording
     * @param downloads      a downloader from the given hub, made when the Models window first opens
     */
    public record Parts(AppActions app, LiveSettings settings, Path defaultModels,
                        Supplier<CompletableFuture<String>> testRecording, Supplier<HistoryStore> history,
                        Job<String> insert, Job<Path> play, Retranscriber retranscriber,
                        java.util.function.Function<URI, ModelDownloader> downloads, StartWithSystem startWithSystem) {}

    private static final Logger LOG = LoggerFactory.getLogger(DesktopWindows.class);

    private final List<Consumer<Float>> levelWatchers = new CopyOnWriteArrayList<>();
    private final ModelCatalog catalog = ModelCatalog.builtIn();
    private final Parts parts;
    private ModelDownloader downloader;
    private SettingsWindow settingsWindow;
    private ModelManagerWindow modelsWindow;
    private HistoryWindow historyWindow;

    public DesktopWindows(Parts parts) {
        this.parts = parts;
    }

    /** The microphone's level in dBFS, from the capture thread. */
    public void level(float dbfs) {
        if (!levelWatchers.isEmpty()) {
            float meter = Levels.meter(dbfs);
            levelWatchers.forEach(w -> w.accept(meter));
        }
    }

    public void openSettings() {
        FxToolkit.later(() -> {
            if (settingsWindow == null || !settingsWindow.stage().isShowing()) {
                settingsWindow = new SettingsWindow(this, this::openModels);
            }
            settingsWindow.show(SettingsGroup.GENERAL);
        });
    }

    /** The model list changed (download, removal, a model loaded from elsewhere): every open view re-reads it. */
    @Override
    public void modelsChanged() {
        FxToolkit.later(() -> {
            if (settingsWindow != null) {
                settingsWindow.modelsChanged();
            }
            if (modelsWindow != null) {
                modelsWindow.modelsChanged();
            }
        });
    }

    public void openModels() {
        FxToolkit.later(() -> models().show());
    }

    public void openHistory() {
        FxToolkit.later(() -> {
            if (historyWindow == null) {
                historyWindow = new HistoryWindow(this);
            }
            historyWindow.show();
        });
    }

    /** At start: when no model is chosen and none is on disk, offers the one that fits this computer. */
    public void offerModelIfNone() {
        if (!parts.settings().current().models().modelPath().isBlank() || !installedModels().isEmpty()) {
            return;
        }
        FxToolkit.later(() -> new FirstRunDialog(this, catalog, v -> {
            ModelManagerWindow m = models();
            m.show();
            m.download(v);
        }, this::openModels, () -> {
            ModelManagerWindow m = models();
            m.show();
            m.chooseOwnFile();
        }).show());
    }

    private ModelManagerWindow models() {
        if (modelsWindow == null) {
            downloader = parts.downloads().apply(hub());
            modelsWindow = new ModelManagerWindow(this, catalog, downloader);
        }
        return modelsWindow;
    }

    @Override
    public LiveSettings settings() {
        return parts.settings();
    }

    @Override
    public List<String> inputDevices() {
        return parts.app().inputDevices();
    }

    @Override
    public Map<String, String> backends() {
        return parts.app().backends();
    }

    @Override
    public AutoCloseable watchLevel(Consumer<Float> level) {
        levelWatchers.add(level);
        return () -> levelWatchers.remove(level);
    }

    @Override
    public CompletableFuture<String> testRecording() {
        return parts.testRecording().get();
    }

    @Override
    public Path modelsFolder() {
        String configured = parts.settings().current().models().modelsFolder();
        return configured.isBlank() ? parts.defaultModels() : Path.of(configured);
    }

    @Override
    public List<DiscoveredModel> installedModels() {
        return parts.app().models();
    }

    @Override
    public void useModel(DiscoveredModel model) {
        parts.app().chooseModel(model);
    }

    @Override
    public HardwareProfile hardware() {
        return parts.app().hardware();
    }

    @Override
    public URI hub() {
        String mirror = System.getenv("DICTUM_HUB");
        return mirror == null || mirror.isBlank() ? ModelDownloader.HUGGING_FACE : URI.create(mirror);
    }

    @Override
    public Optional<HistoryStore> history() {
        return Optional.ofNullable(parts.history().get());
    }

    @Override
    public void insertText(String text) {
        Thread.ofPlatform().daemon().name("dictum-insert-again").start(() -> {
            try {
                Thread.sleep(300); // the history window gives the focus back first
                parts.insert().run(text);
            } catch (Exception e) {
                LOG.warn("insert again failed: {}", e.toString());
            }
        });
    }

    @Override
    public void play(Path wav) {
        Thread.ofPlatform().daemon().name("dictum-play").start(() -> {
            try {
                parts.play().run(wav);
            } catch (Exception e) {
                LOG.warn("cannot play {}: {}", wav, e.toString());
            }
        });
    }

    @Override
    public CompletableFuture<String> retranscribe(Path wav, DiscoveredModel model, String backend) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return parts.retranscriber().transcribe(wav, model, backend);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Override
    public void startWithSystem(boolean on) throws IOException {
        parts.startWithSystem().set(on);
    }

    /** Cancels downloads in progress (their parts stay for a resume). */
    public void close() {
        if (downloader != null) {
            downloader.close();
        }
    }
}
