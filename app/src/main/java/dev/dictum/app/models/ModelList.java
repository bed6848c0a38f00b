package dev.dictum.app.models;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one list of models that the tray, the settings window and the Models window all show: what
 * discovery found in the models folder and the hub cache, plus any model the app uses or was given
 * that lives elsewhere (a {@code --model} path, a file chosen with "Use a model file I have"),
 * each path once. Built fresh on every call, so a download, a removal or a new choice shows at once.
 */
public final class ModelList {
    private ModelList() {
    }

    /**
     * @param discovered what {@link ModelDiscovery#discover} found
     * @param inUse      paths in use or chosen (the setting, the loading or loaded model); nulls and
     *                   blanks are skipped, and so are paths that are not a model (a deleted file)
     */
    public static List<DiscoveredModel> of(List<DiscoveredModel> discovered, List<Path> inUse) {
        Map<Path, DiscoveredModel> all = new LinkedHashMap<>();
        for (DiscoveredModel d : discovered) {
            all.putIfAbsent(key(d.path()), d);
        }
        List<DiscoveredModel> extra = new ArrayList<>();
        for (Path p : inUse.stream().filter(Objects::nonNull).toList()) {
            if (p.toString().isBlank() || all.containsKey(key(p))) {
                continue;
            }
            DiscoveredModel d = ModelDiscovery.describe(p, DiscoveredModel.Source.CONFIGURED);
            if (d != null) {
                all.put(key(p), d);
                extra.add(d);
            }
        }
        return List.copyOf(all.values());
    }

    private static Path key(Path p) {
        return p.toAbsolutePath().normalize();
    }
}
