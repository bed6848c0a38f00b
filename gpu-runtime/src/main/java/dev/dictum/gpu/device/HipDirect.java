package dev.dictum.gpu.device;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The HIP calls made per op (launches, copies, fills, stream waits), bound by JNA direct mapping:
 * a static native method each, no proxy or argument conversion in the way. All exist in ROCm 5.x
 * and 6.x, so registration never fails on a symbol.
 */
final class HipDirect {
    private static NativeLibrary registered;

    private HipDirect() {
    }

    static synchronized void register(NativeLibrary library) {
        if (registered == null) {
            Native.register(HipDirect.class, library);
            registered = library;
        } else if (!registered.getFile().equals(library.getFile())) {
            throw new IllegalStateException("HIP calls are bound to " + registered.getFile()
                    + " already; one HIP runtime per process");
        }
    }

    static native int hipModuleLaunchKernel(long f, int gridX, int gridY, int gridZ, int blockX, int blockY,
            int blockZ, int sharedMemBytes, long stream, long kernelParams, long extra);

    static native int hipMemcpyHtoDAsync(long dst, long src, long bytes, long stream);

    static native int hipMemcpyDtoHAsync(long dst, long src, long bytes, long stream);

    static native int hipMemcpyDtoDAsync(long dst, long src, long bytes, long stream);

    static native int hipMemsetD32Async(long dst, int value, long count, long stream);

    static native int hipStreamSynchronize(long stream);
}
