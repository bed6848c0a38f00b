package dev.dictum.app.models.catalog;

import java.lang.management.ManagementFactory;
import java.util.OptionalLong;

/**
 * What the model recommendation looks at: the GPU's memory when a GPU backend reports it, otherwise the
 * CPU's cores and the machine's memory.
 *
 * @param gpuMemoryBytes the usable memory of the GPU backend that will run the model, when there is one
 * @param gpuName        that GPU's name for the explanation, or null
 */
public record HardwareProfile(int cpuCores, long ramBytes, OptionalLong gpuMemoryBytes, String gpuName) {

    /** This machine's CPU and memory; the GPU side is filled in by whoever has a GPU backend open. */
    public static HardwareProfile ofThisMachine() {
        long ram = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            ram = os.getTotalMemorySize();
        }
        return new HardwareProfile(Runtime.getRuntime().availableProcessors(), ram, OptionalLong.empty(), null);
    }

    /** The same machine with a GPU backend that reports {@code bytes} of memory. */
    public HardwareProfile withGpu(String name, long bytes) {
        return new HardwareProfile(cpuCores, ramBytes, OptionalLong.of(bytes), name);
    }
}
