package dev.dictum.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code dictum doctor} on a machine without a GPU: reasons, the HIP library it found, the CPU used. */
class CliDoctorTest {

    @Test
    void explainsWhyNoGpuIsUsedWithoutAStackTrace() {
        CliRun r = CliRun.of("doctor");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("HIP (AMD ROCm)").contains("CUDA (NVIDIA driver API)").contains("scanned: ");
        assertThat(r.out() + r.err()).doesNotContain("\tat ").doesNotContain("Exception");
        boolean gpu = r.out().contains("backend: auto uses");
        if (gpu) {
            // auto's choice as Backends.open("auto") makes it: the first usable API of AUTO_ORDER.
            String first = r.out().matches("(?s).*usable: [a-z, ]*cuda.*") ? "cuda" : "hip";
            assertThat(r.out()).contains("backend: auto uses " + first + " ");
        }
        assumeTrue(!gpu, "skipped: a GPU is usable here (the no-GPU report is what this test checks)");
        assertThat(r.out()).contains("backend: no GPU runtime was usable, so the CPU is used: cpu");
        assertThat(r.out()).containsPattern("why: cuda: .+").containsPattern("why: hip: .+");
    }

    @Test
    void namesDebiansHipLibraryAndItsError() {
        Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5");
        assumeTrue(Files.isRegularFile(lib), "skipped: Debian's libamdhip64-5 is not installed");
        assumeTrue(System.getenv("DICTUM_ROCM_DIR") == null, "skipped: DICTUM_ROCM_DIR names another HIP runtime");
        CliRun r = CliRun.of("doctor");
        assertThat(r.out()).contains("library: " + lib).containsPattern("version: 5\\.2\\.\\d+")
                .containsPattern("unavailable: hip(Init|GetDeviceCount) failed: hipError\\w+ \\(10[01]\\)")
                .contains("why: hip: ").contains("[" + lib + "]")
                .contains("note: Debian's ROCm 5.2 runtime found; Dictum's HIP path targets ROCm 6.x"
                        + " (Windows HIP SDK 6.2) \u2014 CPU is used");
    }

    @Test
    void anUnusableGpuBackendIsOneLineAndExitCodeOne() {
        assumeTrue(!CliRun.of("doctor").out().contains("backend: auto uses"), "skipped: a GPU is usable here");
        for (String api : new String[] {"hip", "cuda"}) {
            CliRun r = CliRun.of("transcribe", "--model", "no-such-model", "--backend", api, "x.wav");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.errLines()).singleElement().asString().startsWith("dictum: error: " + api
                    + " backend unavailable: ");
        }
    }
}
