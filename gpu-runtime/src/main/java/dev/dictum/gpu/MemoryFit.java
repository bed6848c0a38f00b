package dev.dictum.gpu;

/**
 * The one rule for whether a model fits a device: what it needs must stay within 92 % of the free
 * memory, the rest left to the driver's own allocations, fragmentation and the desktop's growth. The
 * GPU's refusal ({@link Backend#checkFits}) and the app's choice of backend before a load both use it.
 */
public final class MemoryFit {
    /** The share of the free memory a model may take. */
    static final double USABLE_SHARE = 0.92;

    private MemoryFit() {
    }

    /** The bytes a model may take of {@code freeBytes}. */
    public static long usable(long freeBytes) {
        return (long) (Math.max(0, freeBytes) * USABLE_SHARE);
    }

    /** Whether {@code needBytes} fit {@code freeBytes} with the margin. */
    public static boolean fits(long needBytes, long freeBytes) {
        return needBytes <= usable(freeBytes);
    }
}
