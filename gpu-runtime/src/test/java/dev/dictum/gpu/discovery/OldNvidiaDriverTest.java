package dev.dictum.gpu.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.device.GpuDriver;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An NVIDIA driver older than the CUDA that built the kernels is reported as such, before any
 * module load or launch could fail obscurely: checked with a driver that reports CUDA 12.4 and
 * records which calls were made.
 */
class OldNvidiaDriverTest {

    @Test
    void aDriverTooOldForTheKernelsIsAClearReasonAndNothingIsLoaded() {
        List<String> calls = new ArrayList<>();
        GpuDriver old = (GpuDriver) Proxy.newProxyInstance(GpuDriver.class.getClassLoader(),
                new Class<?>[] {GpuDriver.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "driverVersion" -> 12040;
                        case "runtimeVersion" -> "CUDA 12.4";
                        case "api" -> "cuda";
                        default -> throw new AssertionError(method.getName() + " must not be called");
                    };
                });
        RuntimeProbe p = GpuRuntimes.initialise("cuda", old, List.of(), new ArrayList<>(), "libcuda.so.1", 13000);
        assertThat(p.usable()).isFalse();
        assertThat(p.version()).isEqualTo("CUDA 12.4");
        assertThat(p.error()).isEqualTo("the NVIDIA driver supports CUDA 12.4, but Dictum's kernels were built"
                + " with CUDA 13.0: update the NVIDIA driver");
        assertThat(calls).doesNotContain("init", "deviceCount", "moduleLoadData", "launch");
    }
}
