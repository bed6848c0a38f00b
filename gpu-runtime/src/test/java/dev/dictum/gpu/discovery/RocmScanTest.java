package dev.dictum.gpu.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime scan on fake directory trees: what a user's machine may hold. */
class RocmScanTest {
    @TempDir
    Path tmp;

    private Path sdk(String version, boolean comgr) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("AMD/ROCm/" + version + "/bin"));
        Files.writeString(bin.resolve(version.startsWith("7") ? "amdhip64_7.dll" : "amdhip64_6.dll"), "dll");
        if (comgr) {
            Files.writeString(bin.resolve("amd_comgr0" + version.replace(".", "0") + ".dll"), "dll");
        }
        return bin;
    }

    private ScanInputs windows(Map<String, String> extra, Path setting) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("ProgramFiles", tmp.toString());
        return new ScanInputs(true, env, setting, tmp.resolve("opt"), List.of());
    }

    @Test
    void newest6xWinsOver71AndHipPathIsOnlyReported() throws IOException {
        sdk("6.1", true);
        Path bin62 = sdk("6.2", true);
        Path bin71 = sdk("7.1", true);
        RocmScan.Result r = RocmScan.scan(windows(Map.of("HIP_PATH", bin71.getParent().toString()), null));
        assertThat(r.library()).contains(bin62.resolve("amdhip64_6.dll"));
        assertThat(r.comgrFound()).isTrue();
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("HIP_PATH=").contains("never used")
                .contains("HIP SDK 7.1"));
        assertThat(r.scanned()).anySatisfy(s -> assertThat(s).contains("7.1").contains("skipped"))
                .anySatisfy(s -> assertThat(s).contains("6.1").contains("older; not used"));
    }

    @Test
    void comgrMissingIsSaidClearly() throws IOException {
        sdk("6.2", false);
        RocmScan.Result r = RocmScan.scan(windows(Map.of(), null));
        assertThat(r.library()).isPresent();
        assertThat(r.comgrFound()).isFalse();
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("amd_comgr is missing")
                .contains("no ROCm-capable device"));
    }

    @Test
    void settingAndEnvironmentOverrideTheScan() throws IOException {
        sdk("6.2", true);
        Path custom = Files.createDirectories(tmp.resolve("custom"));
        Files.writeString(custom.resolve("amdhip64_6.dll"), "dll");
        assertThat(RocmScan.scan(windows(Map.of("DICTUM_ROCM_DIR", custom.toString()), null)).library())
                .contains(custom.resolve("amdhip64_6.dll"));
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        RocmScan.Result r = RocmScan.scan(windows(Map.of(), empty));
        assertThat(r.library()).contains(tmp.resolve("AMD/ROCm/6.2/bin/amdhip64_6.dll"));
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("setting names").contains("holds no"));
    }

    @Test
    void noRocmAtAll() {
        ScanInputs in = windows(Map.of(), null);
        RocmScan.Result r = RocmScan.scan(in);
        assertThat(r.library()).isEmpty();
        assertThat(r.scanned()).singleElement().asString().contains("no ROCm versions installed");
        RuntimeProbe p = GpuRuntimes.probeHip(new ScanInputs(false, Map.of(), null, tmp.resolve("opt"), List.of()));
        assertThat(p.usable()).isFalse();
        assertThat(p.error()).contains("no HIP runtime found");
    }

    @Test
    void linuxPrefersRocmPathThenNewestOptRocm() throws IOException {
        for (String v : List.of("rocm-6.1.0", "rocm-6.2.4")) {
            Path lib = Files.createDirectories(tmp.resolve("opt/" + v + "/lib"));
            Files.writeString(lib.resolve("libamdhip64.so.6"), "so");
            Files.writeString(lib.resolve("libamd_comgr.so.2"), "so");
        }
        ScanInputs in = new ScanInputs(false, Map.of(), null, tmp.resolve("opt"), List.of());
        assertThat(RocmScan.scan(in).library()).contains(tmp.resolve("opt/rocm-6.2.4/lib/libamdhip64.so.6"));
        Path mine = Files.createDirectories(tmp.resolve("mine/lib"));
        Files.writeString(mine.resolve("libamdhip64.so.5"), "so");
        ScanInputs withPath = new ScanInputs(false, Map.of("ROCM_PATH", tmp.resolve("mine").toString()), null,
                tmp.resolve("opt"), List.of());
        RocmScan.Result r = RocmScan.scan(withPath);
        assertThat(r.library()).contains(mine.resolve("libamdhip64.so.5"));
        assertThat(r.comgrFound()).isFalse();
    }

    @Test
    void aCorruptLibraryIsReportedNotThrown() throws IOException {
        Path lib = Files.createDirectories(tmp.resolve("opt/rocm/lib"));
        Files.write(lib.resolve("libamdhip64.so.6"), new byte[] {0x7f, 'E', 'L', 'F', 1, 2, 3, 4, 5, 6, 7});
        RuntimeProbe p = GpuRuntimes.probeHip(new ScanInputs(false, Map.of(), null, tmp.resolve("opt"), List.of()));
        assertThat(p.usable()).isFalse();
        assertThat(p.library()).isEqualTo(lib.resolve("libamdhip64.so.6").toString());
        assertThat(p.error()).startsWith("cannot load " + lib.resolve("libamdhip64.so.6"));
        assertThat(p.error()).doesNotContain("\n");
    }
}
