package dev.dictum.gpu;

import dev.dictum.gpu.cpu.CpuBackend;
import java.util.List;
import java.util.Locale;

/** Picks a backend by the name a user gives ({@code --backend}). */
public final class Backends {
    /** Names a user may give; "auto" takes the best available. */
    public static final List<String> NAMES = List.of("auto", "cpu", "cuda", "hip");

    private Backends() {
    }

    /**
     * @throws IllegalArgumentException for an unknown name, or a backend this build cannot run
     */
    public static Backend open(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return switch (n) {
            case "auto", "cpu" -> new CpuBackend();
            case "cuda", "hip" -> throw new IllegalArgumentException("the " + n
                    + " backend is not available in this build yet; use --backend cpu");
            default -> throw new IllegalArgumentException("unknown backend '" + name + "' (choose from "
                    + String.join(", ", NAMES) + ")");
        };
    }
}
