package dev.dictum.kernels;

/**
 * Waves per SIMD of a kernel on gfx1010 (RDNA1, Navi 10) in wave32, from its register and LDS use.
 *
 * <p>The rule (RDNA1 ISA/whitepaper figures; the VGPR part is what LLVM's AMDGPU backend reports as
 * "Occupancy" for gfx1010, checked against its assembly comments for these kernels):
 * <ul>
 * <li>a SIMD32 holds at most 20 waves;</li>
 * <li>VGPRs: each SIMD32 lane has 1024 VGPRs in wave32, allocated to a wave in granules of 8, so
 * VGPR-bound waves = floor(1024 / roundUp(vgprs, 8));</li>
 * <li>SGPRs do not limit occupancy on gfx10 (every wave gets its full SGPR set);</li>
 * <li>LDS: a WGP (two CUs, four SIMD32s; HIP runs gfx10 in WGP mode) has 128 KiB; it holds
 * floor(131072 / ldsPerGroup) workgroups, whose waves (groupThreads / 32 each) spread over its 4
 * SIMDs, so LDS-bound waves per SIMD = floor(groups · wavesPerGroup / 4).</li>
 * </ul>
 * Waves per SIMD is the least of the three.
 */
final class Rdna1Occupancy {
    static final int MAX_WAVES = 20;
    static final int VGPRS_PER_LANE = 1024;
    static final int VGPR_GRANULE = 8;
    static final int LDS_PER_WGP = 128 * 1024;
    static final int SIMDS_PER_WGP = 4;

    private Rdna1Occupancy() {
    }

    static int byVgprs(long vgprs) {
        long alloc = Math.max(VGPR_GRANULE, (vgprs + VGPR_GRANULE - 1) / VGPR_GRANULE * VGPR_GRANULE);
        return (int) Math.min(MAX_WAVES, VGPRS_PER_LANE / alloc);
    }

    static int byLds(long ldsBytes, int groupThreads) {
        if (ldsBytes == 0) {
            return MAX_WAVES;
        }
        long groups = LDS_PER_WGP / ldsBytes;
        long wavesPerGroup = (groupThreads + 31) / 32;
        return (int) Math.min(MAX_WAVES, groups * wavesPerGroup / SIMDS_PER_WGP);
    }

    static int wavesPerSimd(long vgprs, long ldsBytes, int groupThreads) {
        return Math.min(byVgprs(vgprs), byLds(ldsBytes, groupThreads));
    }
}
