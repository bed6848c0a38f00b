package dev.dictum.app.ui;

import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.ModelDiscovery;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.ui.kit.WindowContext;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** Sample data for the windows: the toy models on disk, a fixed input level, a local hub. */
record SampleWindowContext(LiveSettings settings, Path modelsFolder, HistoryStore store, URI hub) implements WindowContext {

    @Override
    public List<String> inputDevices() {
        return List.of("Built-in Audio Analog Stereo", "Blue Yeti USB Microphone");
    }

    @Override
    public Map<String, String> backends() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("auto", null);
        m.put("cpu", null);
        m.put("cuda", "no NVIDIA driver on this computer (libcuda.so.1 not found)");
        m.put("hip", "no AMD GPU runtime on this computer (libamdhip64.so not found)");
        return m;
    }

    @Override
    public AutoCloseable watchLevel(Consumer<Float> level) {
        level.accept(0.62f);
        return () -> { };
    }

    @Override
    public CompletableFuture<String> testRecording() {
        return CompletableFuture.completedFuture("Recorded 3.0 s, peak −12 dBFS; played back");
    }

    @Override
    public List<DiscoveredModel> installedModels() {
        return ModelDiscovery.discover(List.of(modelsFolder), modelsFolder.resolve("no-hub-cache"));
    }

    @Override
    public void useModel(DiscoveredModel model) {
    }

    @Override
    public HardwareProfile hardware() {
        return HardwareProfile.ofThisMachine();
    }

    @Override
    public Optional<HistoryStore> history() {
        return Optional.of(store);
    }

    @Override
    public void insertText(String text) {
    }

    @Override
    public void play(Path wav) {
    }

    @Override
    public CompletableFuture<String> retranscribe(Path wav, DiscoveredModel model, String backend) {
        return CompletableFuture.completedFuture("");
    }
}
