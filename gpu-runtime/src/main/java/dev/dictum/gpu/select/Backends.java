package dev.dictum.gpu.select;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.BackendFailure;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.backend.GpuHealth;
import dev.dictum.gpu.backend.SelfTest;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.discovery.GpuRuntimes;
import dev.dictum.gpu.discovery.RuntimeProbe;
import dev.dictum.gpu.discovery.ScanInputs;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Picks a backend by the name a user gives ({@code --backend}). */
public final class Backends {
    /** Names a user may give; "auto" takes the best available. */
    public static final List<String> NAMES = List.of("auto", "cpu", "cuda", "hip");
    /** The GPU APIs {@code auto} tries, in this order (doctor reports the same choice). */
    public static final List<String> AUTO_ORDER = List.of("cuda", "hip");
    private static final Logger LOG = LoggerFactory.getLogger(Backends.class);

    private Backends() {
    }

    /**
     * {@code cpu}; {@code cuda} or {@code hip} (the first device, after its self-test); {@code auto}: a
     * working GPU (CUDA first, then HIP) or else the CPU, logging why.
     *
     * @throws IllegalArgumentException for an unknown name, or a GPU backend that cannot be used here
     *                                  (the message says why)
     */
    public static Backend open(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return switch (n) {
            case "cpu" -> new CpuBackend();
            case "cuda", "hip" -> openGpu(n);
            case "auto" -> {
                List<String> why = new java.util.ArrayList<>();
                for (String api : AUTO_ORDER) {
                    try {
                        Backend b = openGpu(api);
                        LOG.info("backend auto: using {}", b.name());
                        yield b;
                    } catch (IllegalArgumentException e) {
                        why.add(e.getMessage());
                    }
                }
                LOG.warn("backend auto: using the CPU; {}", String.join("; ", why));
                yield new CpuBackend();
            }
            default -> throw new IllegalArgumentException("unknown backend '" + name + "' (choose from "
                    + String.join(", ", NAMES) + ")");
        };
    }

    /** A GPU backend that passed its self-test, or an exception saying why there is none. */
    public static GpuBackend openGpu(String api) {
        RuntimeProbe p = GpuRuntimes.probe(api, ScanInputs.current(null));
        if (!p.usable()) {
            throw new IllegalArgumentException(api + " backend unavailable: " + p.error()
                    + (p.library() != null ? " [" + p.library() + "]" : ""));
        }
        GpuBackend b;
        try {
            b = new GpuBackend(p.driver(), 0);
        } catch (BackendFailure e) {
            throw new IllegalArgumentException(api + " backend unavailable: " + e.getMessage(), e);
        }
        try {
            SelfTest.Result r = SelfTest.run(b);
            if (!r.passed()) {
                throw new IllegalArgumentException(api + " backend failed its self-test: " + r.describe());
            }
            GpuHealth.passed(b.name());
            return b;
        } catch (BackendFailure e) {
            b.close();
            throw new IllegalArgumentException(api + " backend failed its self-test: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }
}
