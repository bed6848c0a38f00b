package dev.dictum.gpu.device;

import com.sun.jna.Pointer;

/**
 * The few runtime calls Dictum makes, the same for HIP and the CUDA driver API (near twins):
 * handles are raw addresses as {@code long}; every method checks the status and throws
 * {@link GpuException} naming the call. Implementations: {@link HipDriver}, {@link CudaDriver};
 * tests wrap one to inject faults.
 */
public interface GpuDriver {

    /** "hip" or "cuda". */
    String api();

    /** The library file loaded. */
    String library();

    /** The runtime's version as a readable string, e.g. "6.2.41134" or "CUDA 13.0". */
    String runtimeVersion();

    /** The driver's version as the API encodes it (HIP: as hipDriverGetVersion; CUDA: 1000·major + 10·minor). */
    int driverVersion();

    void init();

    int deviceCount();

    DeviceProps properties(int ordinal);

    /** Makes {@code ordinal} current on the calling thread (HIP: hipSetDevice; CUDA: its primary context). */
    void setDevice(int ordinal);

    /** {free, total} bytes on the current device. */
    long[] memoryInfo();

    long malloc(long bytes);

    void free(long devicePointer);

    /** Page-locked host memory (for async copies). */
    long hostMalloc(long bytes);

    void hostFree(long hostPointer);

    void copyHostToDeviceAsync(long dst, long srcHost, long bytes, long stream);

    void copyDeviceToHostAsync(long dstHost, long src, long bytes, long stream);

    void copyDeviceToDeviceAsync(long dst, long src, long bytes, long stream);

    /** Sets {@code count} 32-bit words at {@code dst} to {@code value}. */
    void memsetD32Async(long dst, int value, long count, long stream);

    long streamCreate();

    void streamDestroy(long stream);

    void streamSynchronize(long stream);

    void deviceSynchronize();

    /** An event that orders work between streams (no timing: a record costs only its place in the queue). */
    long eventCreate();

    void eventDestroy(long event);

    /** Marks the point of {@code stream}'s queue that {@link #streamWaitEvent} waits for: everything queued on it so far. */
    void eventRecord(long event, long stream);

    /** Work queued on {@code stream} after this waits until the latest {@link #eventRecord} of {@code event} is reached. */
    void streamWaitEvent(long stream, long event);

    long moduleLoadData(byte[] image, String moduleName);

    void moduleUnload(long module);

    long moduleGetFunction(long module, String kernelName, String moduleName);

    /** {@code kernelParams} is an array of pointers to each argument's value (as cuLaunchKernel takes). */
    void launch(long function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedBytes, long stream, Pointer kernelParams, String kernelName, String moduleName);

    /**
     * Lets {@code function} be launched with up to {@code bytes} of dynamic shared memory, above the
     * default per-block limit and up to {@link DeviceProps#sharedMemoryPerBlockOptin} (CUDA:
     * cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES). HIP has no opt-in: within the limit a no-op,
     * beyond it an error.
     */
    void functionMaxDynamicShared(long function, int bytes, String kernelName, String moduleName);

    /** Registers a kernel uses per thread (as the function attribute NUM_REGS). */
    int functionRegisters(long function);

    /** Checks the runtime's sticky/last error after launches (HIP: hipGetLastError; CUDA: none, 0). */
    void checkLastError(String afterWhat);

    /*
     * Stream capture into graphs (CUDA graphs): one launch replays a whole decoder step. A driver
     * without them (HIP here: hipGraph on Windows ROCm 6.2 with gfx1010 is unproven) keeps these
     * defaults and Dictum stays eager.
     */

    /** Whether {@link #streamBeginCapture} and the graph calls below work with this driver. */
    default boolean graphsSupported() {
        return false;
    }

    /** Starts recording (not running) what is queued on {@code stream} (relaxed capture mode). */
    default void streamBeginCapture(long stream) {
        throw new UnsupportedOperationException(api() + ": no graphs");
    }

    /** Ends recording and returns the graph; the stream runs work again. */
    default long streamEndCapture(long stream) {
        throw new UnsupportedOperationException(api() + ": no graphs");
    }

    /** An executable graph of {@code graph}. */
    default long graphInstantiate(long graph) {
        throw new UnsupportedOperationException(api() + ": no graphs");
    }

    default void graphLaunch(long graphExec, long stream) {
        throw new UnsupportedOperationException(api() + ": no graphs");
    }

    default void graphDestroy(long graph) {
        throw new UnsupportedOperationException(api() + ": no graphs");
    }

    default void graphExecDestroy(long graphExec) {
        throw new UnsupportedOperationException(api() + ": no graphs");
    }
}
