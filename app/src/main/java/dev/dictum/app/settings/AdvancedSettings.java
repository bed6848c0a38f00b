package dev.dictum.app.settings;

import dev.dictum.gpu.select.Backends;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Advanced". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param backend auto, cpu, cuda or hip
 * @param rocmDirectory Windows: the HIP SDK's bin folder to use instead of the newest found; empty: scan
 */
public record AdvancedSettings(
        String backend,
        String rocmDirectory) {
    private static final String D_BACKEND = "auto";
    private static final String D_ROCMDIRECTORY = "";

    public AdvancedSettings {
        backend = Checks.or(backend, D_BACKEND);
        rocmDirectory = Checks.or(rocmDirectory, D_ROCMDIRECTORY);
    }

    public static AdvancedSettings defaults() {
        return new AdvancedSettings(D_BACKEND, D_ROCMDIRECTORY);
    }

    /** Every invalid value with the reason ("advanced.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        if (!Backends.NAMES.contains(backend)) {
            out.add(new SettingProblem("advanced.backend", "'" + backend + "' is not one of "
                    + String.join(", ", Backends.NAMES)));
        }
        Checks.path(out, "advanced.rocmDirectory", rocmDirectory);
        return out;
    }

    public AdvancedSettings withBackend(String v) {
        return new AdvancedSettings(v, rocmDirectory);
    }

    public AdvancedSettings withRocmDirectory(String v) {
        return new AdvancedSettings(backend, v);
    }
}
