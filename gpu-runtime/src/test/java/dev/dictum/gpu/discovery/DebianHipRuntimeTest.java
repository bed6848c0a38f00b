package dev.dictum.gpu.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real HIP runtime through the real binding: Debian's libamdhip64.so.5 (ROCm 5.2), which loads
 * on a machine without an AMD GPU. Its version comes back and the missing device is an error with
 * the runtime's own name for it, not a crash. ./setup and .ci/run install the package.
 */
class DebianHipRuntimeTest {
    private static final Path DEBIAN_LIB = Path.of("/usr/lib/x86_64-linux-gnu");

    @Test
    void loadsReportsItsVersionAndTheMissingDevice() {
        assumeTrue(Files.isRegularFile(DEBIAN_LIB.resolve("libamdhip64.so.5")),
                "skipped: Debian's libamdhip64-5 is not installed");
        assumeTrue(System.getenv("DICTUM_ROCM_DIR") == null, "skipped: DICTUM_ROCM_DIR names another HIP runtime");
        RuntimeProbe p = GpuRuntimes.probeHip(new ScanInputs(false, Map.of(), null, Path.of("/nonexistent-opt"),
                List.of(DEBIAN_LIB)));
        assertThat(p.library()).isEqualTo(DEBIAN_LIB.resolve("libamdhip64.so.5").toString());
        assertThat(p.version()).startsWith("5.2.");
        assertThat(p.usable()).isFalse();
        // hipInit says hipErrorInvalidDevice (101) or hipErrorNoDevice (100), depending on the kernel driver.
        assertThat(p.error()).containsPattern("hip(Init|GetDeviceCount) failed: hipError\\w+ \\(10[01]\\)");
    }
}
