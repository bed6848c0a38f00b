package dev.dictum.gpu.discovery;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the HIP runtime the way the seed notes learned to: on Windows by scanning
 * {@code %ProgramFiles%\AMD\ROCm\<version>\bin} for {@code amdhip64_6.dll} (newest 6.x wins; HIP SDK
 * 7.x finds no device on the Adrenalin driver), never by trusting {@code HIP_PATH}; a setting or
 * {@code DICTUM_ROCM_DIR} overrides. On Linux: {@code ROCM_PATH}, {@code /opt/rocm/lib},
 * {@code /opt/rocm-*}{@code /lib} (newest first), then the loader's path. Pure file-system work: nothing
 * is loaded here.
 */
public final class RocmScan {
    static final String WINDOWS_LIBRARY = "amdhip64_6.dll";
    static final List<String> LINUX_LIBRARIES = List.of("libamdhip64.so.6", "libamdhip64.so.5");
    private static final Pattern VERSION_DIR = Pattern.compile("(?:rocm-)?(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    private RocmScan() {
    }

    /** What the scan found: the chosen library (if any) and every line worth telling the user. */
    public record Result(Optional<Path> library, List<String> scanned, List<String> notes, boolean comgrFound) {

        public Optional<Path> directory() {
            return library.map(Path::getParent);
        }
    }

    public static Result scan(ScanInputs in) {
        return in.windows() ? windows(in) : linux(in);
    }

    private static Result windows(ScanInputs in) {
        List<String> scanned = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        String hipPath = in.var("HIP_PATH");
        if (hipPath != null) {
            Optional<int[]> v = versionOf(Path.of(hipPath).getFileName());
            notes.add("HIP_PATH=" + hipPath + " (reported only, never used to pick the runtime"
                    + (v.isPresent() && v.get()[0] != 6 ? "; it points at HIP SDK " + v.get()[0] + "." + v.get()[1]
                            + ", which finds no device on the Adrenalin driver's ROCm 6 runtime" : "")
                    + ")");
        }
        Path chosen = override(in, WINDOWS_LIBRARY, List.of(), scanned, notes);
        if (chosen == null) {
            String pf = in.var("ProgramFiles");
            Path root = Path.of(pf == null ? "C:\\Program Files" : pf, "AMD", "ROCm");
            List<Path> versions = versionDirs(root);
            scanned.add(root + ": " + (versions.isEmpty() ? "no ROCm versions installed"
                    : "versions " + versions.stream().map(p -> p.getFileName().toString()).toList()));
            for (Path v : versions) {
                Path lib = v.resolve("bin").resolve(WINDOWS_LIBRARY);
                int major = versionOf(v.getFileName()).orElseThrow()[0];
                if (major != 6) {
                    scanned.add(v.resolve("bin") + ": skipped (HIP SDK " + v.getFileName()
                            + "; Dictum needs the 6.x runtime the Adrenalin driver matches)");
                } else if (Files.isRegularFile(lib)) {
                    if (chosen == null) {
                        chosen = lib;
                        scanned.add(lib + ": found (newest 6.x)");
                    } else {
                        scanned.add(lib + ": found (older; not used)");
                    }
                } else {
                    scanned.add(v.resolve("bin") + ": no " + WINDOWS_LIBRARY);
                }
            }
        }
        return finish(chosen, scanned, notes, "amd_comgr");
    }

    private static Result linux(ScanInputs in) {
        List<String> scanned = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        String hipPath = in.var("HIP_PATH");
        if (hipPath != null) {
            notes.add("HIP_PATH=" + hipPath + " (reported only, never used to pick the runtime)");
        }
        Path chosen = override(in, null, LINUX_LIBRARIES, scanned, notes);
        List<Path> dirs = new ArrayList<>();
        String rocmPath = in.var("ROCM_PATH");
        if (rocmPath != null) {
            dirs.add(Path.of(rocmPath, "lib"));
        }
        dirs.add(in.optDir().resolve("rocm").resolve("lib"));
        for (Path v : versionDirs(in.optDir())) {
            dirs.add(v.resolve("lib"));
        }
        String ld = in.var("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String d : ld.split(":")) {
                if (!d.isBlank()) {
                    dirs.add(Path.of(d));
                }
            }
        }
        dirs.addAll(in.systemLibDirs());
        for (Path d : dirs) {
            if (chosen != null) {
                break;
            }
            Path lib = firstLibrary(d, LINUX_LIBRARIES);
            scanned.add(d + ": " + (lib == null ? "no libamdhip64.so.6/.so.5" : "found " + lib.getFileName()));
            chosen = lib;
        }
        return finish(chosen, scanned, notes, "libamd_comgr");
    }

    /** The setting, then DICTUM_ROCM_DIR: a directory that holds the library is used as it is. */
    private static Path override(ScanInputs in, String windowsName, List<String> linuxNames, List<String> scanned,
            List<String> notes) {
        List<String[]> named = new ArrayList<>();
        if (in.setting() != null) {
            named.add(new String[] {"setting", in.setting().toString()});
        }
        if (in.var("DICTUM_ROCM_DIR") != null) {
            named.add(new String[] {"DICTUM_ROCM_DIR", in.var("DICTUM_ROCM_DIR")});
        }
        for (String[] n : named) {
            Path dir = Path.of(n[1]);
            Path lib = windowsName != null ? (Files.isRegularFile(dir.resolve(windowsName)) ? dir.resolve(windowsName)
                    : Files.isRegularFile(dir.resolve("bin").resolve(windowsName))
                            ? dir.resolve("bin").resolve(windowsName) : null)
                    : firstLibrary(dir, linuxNames) != null ? firstLibrary(dir, linuxNames)
                            : firstLibrary(dir.resolve("lib"), linuxNames);
            if (lib != null) {
                scanned.add(dir + " (" + n[0] + "): found " + lib.getFileName());
                return lib;
            }
            scanned.add(dir + " (" + n[0] + "): no HIP runtime there; scanning the usual places instead");
            notes.add(n[0] + " names " + dir + ", which holds no "
                    + (windowsName != null ? windowsName : String.join(" or ", linuxNames)));
        }
        return null;
    }

    private static Result finish(Path chosen, List<String> scanned, List<String> notes, String comgrPrefix) {
        boolean comgr = false;
        if (chosen != null) {
            comgr = hasFileStartingWith(chosen.getParent(), comgrPrefix);
            if (!comgr) {
                notes.add("amd_comgr is missing beside " + chosen.getFileName() + " in " + chosen.getParent()
                        + ": without it the HIP runtime reports \"no ROCm-capable device\" for every GPU"
                        + " (install the HIP SDK's runtime compiler component)");
            }
        }
        return new Result(Optional.ofNullable(chosen), List.copyOf(scanned), List.copyOf(notes), comgr);
    }

    private static Path firstLibrary(Path dir, List<String> names) {
        for (String n : names) {
            if (Files.isRegularFile(dir.resolve(n))) {
                return dir.resolve(n);
            }
        }
        return null;
    }

    private static boolean hasFileStartingWith(Path dir, String prefix) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, prefix + "*")) {
            return s.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /** Subdirectories named like versions (6.2, 7.1.0, rocm-6.2.4), newest first. */
    private static List<Path> versionDirs(Path root) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root)) {
            for (Path p : s) {
                if (Files.isDirectory(p) && versionOf(p.getFileName()).isPresent()) {
                    out.add(p);
                }
            }
        } catch (IOException e) {
            return out;
        }
        Comparator<Path> byVersion = Comparator.comparing(p -> versionOf(p.getFileName()).orElseThrow(),
                RocmScan::compareVersions);
        out.sort(byVersion.reversed());
        return out;
    }

    private static int compareVersions(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return 0;
    }

    static Optional<int[]> versionOf(Path name) {
        if (name == null) {
            return Optional.empty();
        }
        Matcher m = VERSION_DIR.matcher(name.toString());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            m.group(3) == null ? 0 : Integer.parseInt(m.group(3))});
    }
}
