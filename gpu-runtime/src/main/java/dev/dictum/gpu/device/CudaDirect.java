package dev.dictum.gpu.device;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/** The CUDA driver calls made per op, bound by JNA direct mapping (see {@link HipDirect}). */
final class CudaDirect {
    private static NativeLibrary registered;

    private CudaDirect() {
    }

    static synchronized void register(NativeLibrary library) {
        if (registered == null) {
            Native.register(CudaDirect.class, library);
            registered = library;
        } else if (!registered.getFile().equals(library.getFile())) {
            throw new IllegalStateException("CUDA calls are bound to " + registered.getFile()
                    + " already; one CUDA driver per process");
        }
    }

    static native int cuLaunchKernel(long f, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedMemBytes, long stream, long kernelParams, long extra);

    static native int cuMemcpyHtoDAsync_v2(long dst, long src, long bytes, long stream);

    static native int cuMemcpyDtoHAsync_v2(long dst, long src, long bytes, long stream);

    static native int cuMemcpyDtoDAsync_v2(long dst, long src, long bytes, long stream);

    static native int cuMemsetD32Async(long dst, int value, long count, long stream);

    static native int cuStreamSynchronize(long stream);
}
