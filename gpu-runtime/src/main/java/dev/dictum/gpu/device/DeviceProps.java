package dev.dictum.gpu.device;

/**
 * What Dictum needs to know of a device.
 *
 * @param arch        "gfx1010" (HIP: gcnArchName without feature flags such as ":xnack-") or "sm_90"
 * @param archFull    as the runtime reports it ("gfx1010:xnack-"), or the same as arch
 * @param warpSize    threads a wave runs in lockstep: 32 (RDNA, NVIDIA) or 64 (GCN/CDNA)
 */
public record DeviceProps(int ordinal, String name, String arch, String archFull, long totalMemory, int warpSize,
        int multiprocessors, int maxThreadsPerBlock, int sharedMemoryPerBlock) {

    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s (%s, %.1f GiB, %d compute units, wave size %d)", name, archFull,
                totalMemory / (double) (1L << 30), multiprocessors, warpSize);
    }
}
