package dev.dictum.app.engine;

import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.gpu.Backend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.device.DeviceProps;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What opening each backend once found: why each cannot run here (null when it can) and the device of
 * each GPU backend that can. The desktop app takes it once in the background at start: the tray's
 * backend menu shows the reasons, and the model recommendation uses the memory of the GPU that the
 * chosen backend runs on.
 *
 * @param problems every backend name ({@link Backends#NAMES}) with null when it can run here, else why not
 * @param gpus     each usable GPU backend ("cuda", "hip") with its device
 */
public record BackendSurvey(Map<String, String> problems, Map<String, DeviceProps> gpus) {

    /** Before the survey has run: every backend offered, no GPU known. */
    public static BackendSurvey notYet() {
        Map<String, String> m = new LinkedHashMap<>();
        Backends.NAMES.forEach(n -> m.put(n, null));
        return new BackendSurvey(Collections.unmodifiableMap(m), Map.of());
    }

    /**
     * Opens each backend and closes it again (a GPU backend passes its self-test first). Never throws: a
     * runtime that is missing or has no device (a ROCm library without a GPU, no NVIDIA driver) is a reason.
     */
    public static BackendSurvey run() {
        Map<String, String> problems = new LinkedHashMap<>();
        Map<String, DeviceProps> gpus = new LinkedHashMap<>();
        for (String n : Backends.NAMES) {
            if (n.equals("auto")) {
                problems.put(n, null); // always runs: the best that works, else the CPU
                continue;
            }
            try (Backend b = Backends.open(n)) {
                problems.put(n, null);
                if (b instanceof GpuBackend g) {
                    gpus.put(n, g.props());
                }
            } catch (RuntimeException | LinkageError e) {
                problems.put(n, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
        }
        return new BackendSurvey(Collections.unmodifiableMap(problems), Map.copyOf(gpus));
    }

    /** The GPU that the backend named in the settings runs on: "auto" takes CUDA, then HIP, as {@link Backends#open} does. */
    public Optional<DeviceProps> gpuFor(String backend) {
        String n = backend.toLowerCase(Locale.ROOT);
        List<String> order = n.equals("auto") ? List.of("cuda", "hip") : List.of(n);
        return order.stream().map(gpus::get).filter(Objects::nonNull).findFirst();
    }

    /** {@code machine} with the memory of that GPU when there is one, else {@code machine} as it is (the CPU decides). */
    public HardwareProfile hardware(HardwareProfile machine, String backend) {
        return gpuFor(backend).map(d -> machine.withGpu(d.name(), d.totalMemory())).orElse(machine);
    }
}
