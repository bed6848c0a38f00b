package dev.dictum.app.ui.kit;

import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.settings.LiveSettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What the settings, model manager and history windows need from the running app. The desktop app
 * implements it over its microphone, engine and stores; the screenshot script over sample data.
 */
public interface WindowContext {

    /** The settings: read, and changed (validated and saved atomically) through {@link LiveSettings#update}. */
    LiveSettings settings();

    /** Input device names, for the Audio group. */
    List<String> inputDevices();

    /** Each backend with null when it can run here, else why not (what `doctor` reports). */
    Map<String, String> backends();

    /** Calls {@code level} (0…1, on any thread) with the input level until the returned handle is closed. */
    AutoCloseable watchLevel(Consumer<Float> level);

    /** Records three seconds from the chosen input and plays them back; completes with a one-line result. */
    CompletableFuture<String> testRecording();

    /** The folder downloads go to (and the first place models are looked for). */
    Path modelsFolder();

    /** The models found on disk now. */
    List<DiscoveredModel> installedModels();

    /** Makes {@code model} the one dictation uses (loads it in the background). */
    void useModel(DiscoveredModel model);

    /** Tells every view that shows models to re-read {@link #installedModels()} (a download or removal). */
    default void modelsChanged() {
    }

    /** The hardware the recommendation is for. */
    HardwareProfile hardware();

    /** The hub downloads come from. */
    URI hub();

    /** The history, when it could be opened. */
    Optional<HistoryStore> history();

    /** Inserts text into the window that had focus before Dictum's window (the history's "Insert again"). */
    void insertText(String text);

    /** Plays a saved recording. */
    void play(Path wav);

    /** Turns "start with the system" on or off (the settings window's General group). */
    default void startWithSystem(boolean on) throws java.io.IOException {
        throw new java.io.IOException("starting with the system is not supported on this system");
    }

    /** Transcribes a saved recording again with another model and backend; completes with the text. */
    CompletableFuture<String> retranscribe(Path wav, DiscoveredModel model, String backend);
}
