package dev.dictum.gpu.discovery;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything the ROCm scan looks at, gathered in one place so tests can point it at fake trees.
 *
 * @param windows      Windows rules (Program Files scan, .dll names) rather than Linux ones
 * @param env          environment variables (ProgramFiles, DICTUM_ROCM_DIR, HIP_PATH, ROCM_PATH, LD_LIBRARY_PATH)
 * @param setting      a directory the user named in the settings, or null
 * @param optDir       where /opt is (Linux: /opt/rocm, /opt/rocm-*)
 * @param systemLibDirs the loader's default directories (Linux)
 */
public record ScanInputs(boolean windows, Map<String, String> env, Path setting, Path optDir,
        List<Path> systemLibDirs) {

    /** This machine's. */
    public static ScanInputs current(Path setting) {
        boolean win = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        return new ScanInputs(win, System.getenv(), setting, Path.of("/opt"),
                List.of(Path.of("/usr/lib/x86_64-linux-gnu"), Path.of("/usr/lib64"), Path.of("/usr/lib"),
                        Path.of("/usr/local/lib")));
    }

    String var(String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }
}
