package dev.dictum.app.ui.kit;

import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.files.AppDirs;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.insert.TextInserter;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.download.ModelDownloader;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.ui.AppActions;
import dev.dictum.app.ui.history.HistoryWindow;
import dev.dictum.app.ui.models.FirstRunDialog;
import dev.dictum.app.ui.models.ModelManagerWindow;
import dev.dictum.app.ui.settings.SettingsWindow;
import dev.dictum.audio.AudioInput;
import dev.dictum.audio.capture.AudioSink;
import dev.dictum.audio.capture.Levels;
import dev.dictum.audio.capture.Microphone;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.session.WhisperEngine;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javafx.application.Platform;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.SourceDataLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings, model manager, history and first-run windows of the running desktop app: one of each,
 * opened from the tray, over the app's settings, microphone, history and text insertion.
 */
public final class DesktopWindows implements WindowContext {

    /** What the windows use of the running app. */
    public record Parts(AppActions app, LiveSettings settings, AppDirs dirs, Microphone mic, HistoryStore history,
                        TextInserter inserter, DictationController controller) {}

    private static final Logger LOG = LoggerFactory.getLogger(DesktopWindows.class);
    private static final int TEST_SECONDS = 3;

    private final List<Consumer<Float>> levelWatchers = new CopyOnWriteArrayList<>();
    private final ModelCatalog catalog = ModelCatalog.builtIn();
    private volatile Parts parts;
    private ModelDownloader downloader;
    private SettingsWindow settingsWindow;
    private ModelManagerWindow modelsWindow;
    private HistoryWindow historyWindow;

    /** Connects the windows to the app once its parts exist. */
    public void attach(Parts p) {
        parts = p;
    }

    /** The microphone's level in dBFS, from the capture thread. */
    public void level(float dbfs) {
        if (!levelWatchers.isEmpty()) {
            float meter = Levels.meter(dbfs);
            levelWatchers.forEach(w -> w.accept(meter));
        }
    }

    public void openSettings() {
        Platform.runLater(() -> {
            if (settingsWindow == null || !settingsWindow.stage().isShowing()) {
                settingsWindow = new SettingsWindow(this, this::openModels);
            }
            settingsWindow.show(SettingsGroup.GENERAL);
        });
    }

    /** The model list changed (download, removal, a model loaded from elsewhere): every open view re-reads it. */
    @Override
    public void modelsChanged() {
        Platform.runLater(() -> {
            if (settingsWindow != null) {
                settingsWindow.modelsChanged();
            }
            if (modelsWindow != null) {
                modelsWindow.modelsChanged();
            }
        });
    }

    public void openModels() {
        Platform.runLater(() -> models().show());
    }

    public void openHistory() {
        Platform.runLater(() -> {
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
        Platform.runLater(() -> new FirstRunDialog(this, catalog, v -> {
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
            downloader = new ModelDownloader(hub());
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
        return CompletableFuture.supplyAsync(() -> {
            if (parts.controller().status().state() != DictationState.IDLE) {
                throw new IllegalStateException("Dictum is recording or transcribing; try again when it is done");
            }
            float[] audio = new float[16000 * TEST_SECONDS];
            int[] filled = {0};
            String[] lost = {null};
            AudioSink sink = new AudioSink() {
                @Override
                public void audio(float[] s) {
                    synchronized (filled) {
                        int n = Math.min(s.length, audio.length - filled[0]);
                        System.arraycopy(s, 0, audio, filled[0], n);
                        filled[0] += n;
                    }
                }

                @Override
                public void deviceLost(String reason) {
                    lost[0] = reason;
                }
            };
            if (!parts.mic().attach(sink)) {
                throw new IllegalStateException("no microphone: " + parts.mic().problem());
            }
            try {
                Thread.sleep(TEST_SECONDS * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                parts.mic().detach();
            }
            if (lost[0] != null) {
                throw new IllegalStateException("the microphone stopped: " + lost[0]);
            }
            float peak = 0;
            for (int i = 0; i < filled[0]; i++) {
                peak = Math.max(peak, Math.abs(audio[i]));
            }
            play16k(audio, filled[0]);
            return String.format(Locale.ROOT, "Recorded %.1f s, peak %.0f dBFS; played back",
                    filled[0] / 16000.0, 20 * Math.log10(Math.max(peak, 1e-5)));
        });
    }

    private static void play16k(float[] samples, int n) {
        AudioFormat format = new AudioFormat(16000, 16, 1, true, false);
        byte[] pcm = new byte[n * 2];
        for (int i = 0; i < n; i++) {
            int v = Math.round(Math.max(-1f, Math.min(1f, samples[i])) * 32767);
            pcm[2 * i] = (byte) v;
            pcm[2 * i + 1] = (byte) (v >> 8);
        }
        try (SourceDataLine line = AudioSystem.getSourceDataLine(format)) {
            line.open(format);
            line.start();
            line.write(pcm, 0, pcm.length);
            line.drain();
        } catch (Exception e) {
            throw new IllegalStateException("cannot play back: " + e.getMessage(), e);
        }
    }

    @Override
    public Path modelsFolder() {
        String configured = parts.settings().current().models().modelsFolder();
        return configured.isBlank() ? parts.dirs().models() : Path.of(configured);
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
        return Optional.ofNullable(parts.history());
    }

    @Override
    public void insertText(String text) {
        Thread.ofPlatform().daemon().name("dictum-insert-again").start(() -> {
            try {
                Thread.sleep(300); // the history window gives the focus back first
                parts.inserter().insert(text, parts.settings().current().insertion(), false);
            } catch (Exception e) {
                LOG.warn("insert again failed: {}", e.toString());
            }
        });
    }

    @Override
    public void play(Path wav) {
        Thread.ofPlatform().daemon().name("dictum-play").start(() -> {
            try {
                float[] audio = AudioInput.readMono16k(wav);
                play16k(audio, audio.length);
            } catch (Exception e) {
                LOG.warn("cannot play {}: {}", wav, e.toString());
            }
        });
    }

    @Override
    public CompletableFuture<String> retranscribe(Path wav, DiscoveredModel model, String backend) {
        return CompletableFuture.supplyAsync(() -> {
            String lang = parts.settings().current().transcription().language();
            TranscribeOptions options = TranscribeOptions.defaults().withDecoding(DecodingOptions.defaults()
                    .withLanguage("auto".equals(lang) ? null : lang));
            try (WhisperEngine engine = WhisperEngine.load(model.path(), Backends.open(backend))) {
                return engine.transcribe(AudioInput.readMono16k(wav), options).strippedText();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** Cancels downloads in progress (their parts stay for a resume). */
    public void close() {
        if (downloader != null) {
            downloader.close();
        }
    }
}
