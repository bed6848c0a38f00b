package dev.dictum.gpu.discovery;

import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.GpuDriver;
import java.util.List;

/**
 * What trying one GPU runtime found: where it looked, what it loaded, its version, its devices,
 * or why it is unusable ({@code error}; then {@code driver} may be null or have no device).
 */
public record RuntimeProbe(String api, List<String> scanned, List<String> notes, String library, String version,
        GpuDriver driver, List<DeviceProps> devices, String error) {

    public boolean usable() {
        return error == null && driver != null && !devices.isEmpty();
    }
}
