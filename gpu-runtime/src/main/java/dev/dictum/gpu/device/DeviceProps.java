package dev.dictum.gpu.device;

/**
 * What Dictum needs to know of a device.
 *
 * @param arch        "gfx1010" (HIP: gcnArchName without feature flags such as ":xnack-") or "sm_90"
 * @param archFull    as the runtime reports it ("gfx1010:xnack-"), or the same as arch
 * @param warpSize    threads a wave runs in lockstep: 32 (RDNA, NVIDIA) or 64 (GCN/CDNA)
 * @param sharedMemoryPerBlock       shared memory a block gets without asking (CUDA: 48 KiB)
 * @param sharedMemoryPerBlockOptin  the most a kernel may be given after opting in
 *     ({@link Kernel#launch} does it): CUDA's MAX_SHARED_MEMORY_PER_BLOCK_OPTIN (227 KiB on sm_90, 163 KiB
 *     on sm_80, 99 KiB on sm_86/89, 64 KiB on sm_75); HIP has no opt-in: the same as sharedMemoryPerBlock
 */
public record DeviceProps(int ordinal, String name, String arch, String archFull, long totalMemory, int warpSize,
        int multiprocessors, int maxThreadsPerBlock, int sharedMemoryPerBlock, int sharedMemoryPerBlockOptin) {

    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s (%s, %.1f GiB, %d compute units, wave size %d)", name, archFull,
                totalMemory / (double) (1L << 30), multiprocessors, warpSize);
    }
}
