package dev.dictum.gpu.device;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link GpuDriver} over the CUDA driver API ({@code nvcuda.dll}, {@code libcuda.so.1}). Each device
 * is used through its primary context, made current on a thread by {@link #setDevice}.
 */
public final class CudaDriver implements GpuDriver {
    private static final Map<String, CudaDriver> OPEN = new ConcurrentHashMap<>();

    private final String library;
    private final CudaApi api;
    private final Map<Integer, Long> contexts = new ConcurrentHashMap<>();

    private CudaDriver(String library, CudaApi api) {
        this.library = library;
        this.api = api;
    }

    /**
     * Loads the CUDA driver library by name or path ({@code libcuda.so.1}, {@code nvcuda.dll}).
     *
     * @throws UnsatisfiedLinkError when it cannot be loaded (no NVIDIA driver installed)
     */
    public static CudaDriver load(String library) {
        return OPEN.computeIfAbsent(library, k -> {
            NativeLibrary lib = NativeLibrary.getInstance(k);
            CudaApi api = Native.load(k, CudaApi.class);
            CudaDirect.register(lib);
            return new CudaDriver(lib.getFile() == null ? k : lib.getFile().toString(), api);
        });
    }

    @Override
    public String api() {
        return "cuda";
    }

    @Override
    public String library() {
        return library;
    }

    @Override
    public String runtimeVersion() {
        int v = driverVersion();
        return "CUDA " + v / 1000 + "." + v % 1000 / 10;
    }

    @Override
    public int driverVersion() {
        IntByReference v = new IntByReference();
        check("cuDriverGetVersion", api.cuDriverGetVersion(v));
        return v.getValue();
    }

    @Override
    public void init() {
        check("cuInit", api.cuInit(0));
    }

    @Override
    public int deviceCount() {
        IntByReference n = new IntByReference();
        check("cuDeviceGetCount", api.cuDeviceGetCount(n));
        return n.getValue();
    }

    private int device(int ordinal) {
        IntByReference d = new IntByReference();
        check("cuDeviceGet", api.cuDeviceGet(d, ordinal));
        return d.getValue();
    }

    @Override
    public DeviceProps properties(int ordinal) {
        int dev = device(ordinal);
        byte[] name = new byte[256];
        check("cuDeviceGetName", api.cuDeviceGetName(name, name.length, dev));
        LongByReference total = new LongByReference();
        check("cuDeviceTotalMem", api.cuDeviceTotalMem_v2(total, dev));
        String arch = "sm_" + attribute(CudaApi.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
                + attribute(CudaApi.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        return new DeviceProps(ordinal, Native.toString(name, "UTF-8"), arch, arch, total.getValue(),
                attribute(CudaApi.CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev),
                attribute(CudaApi.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
                attribute(CudaApi.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev),
                attribute(CudaApi.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, dev),
                attribute(CudaApi.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
    }

    private int attribute(int attribute, int dev) {
        IntByReference v = new IntByReference();
        check("cuDeviceGetAttribute(" + attribute + ")", api.cuDeviceGetAttribute(v, attribute, dev));
        return v.getValue();
    }

    @Override
    public void setDevice(int ordinal) {
        boolean[] retained = {false};
        long ctx = contexts.computeIfAbsent(ordinal, o -> {
            LongByReference c = new LongByReference();
            check("cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain(c, device(o)));
            retained[0] = true;
            return c.getValue();
        });
        check("cuCtxSetCurrent", api.cuCtxSetCurrent(ctx));
        if (retained[0]) {
            releaseStackReserve();
        }
    }

    /**
     * Gives back the context's stack reserve (issue 22, where the context's memory went): a context
     * reserves its per-thread stack limit, 1 KiB by default, for every thread the device can hold: 264 MiB
     * of an H200's 518 MiB context (measured: the per-process figure falls to 254 MiB at a limit of 0).
     * Dictum's kernels use no stack (0-byte frames, no spills), and the driver raises the limit by itself
     * at the launch of a kernel that needs more, so 0 costs nothing. A driver that refuses keeps its
     * default: only memory is at stake.
     */
    private void releaseStackReserve() {
        api.cuCtxSetLimit(CudaApi.CU_LIMIT_STACK_SIZE, 0);
    }

    /** The current context's per-thread stack limit in bytes (what it reserves for every resident thread). */
    public long stackBytesPerThread() {
        LongByReference v = new LongByReference();
        check("cuCtxGetLimit", api.cuCtxGetLimit(v, CudaApi.CU_LIMIT_STACK_SIZE));
        return v.getValue();
    }

    @Override
    public long[] memoryInfo() {
        LongByReference free = new LongByReference();
        LongByReference total = new LongByReference();
        check("cuMemGetInfo", api.cuMemGetInfo_v2(free, total));
        return new long[] {free.getValue(), total.getValue()};
    }

    @Override
    public long malloc(long bytes) {
        LongByReference p = new LongByReference();
        check("cuMemAlloc(" + bytes + " bytes)", api.cuMemAlloc_v2(p, bytes));
        return p.getValue();
    }

    @Override
    public void free(long devicePointer) {
        check("cuMemFree", api.cuMemFree_v2(devicePointer));
    }

    @Override
    public long hostMalloc(long bytes) {
        LongByReference p = new LongByReference();
        check("cuMemAllocHost(" + bytes + " bytes)", api.cuMemAllocHost_v2(p, bytes));
        return p.getValue();
    }

    @Override
    public void hostFree(long hostPointer) {
        check("cuMemFreeHost", api.cuMemFreeHost(hostPointer));
    }

    @Override
    public void copyHostToDeviceAsync(long dst, long srcHost, long bytes, long stream) {
        check("cuMemcpyHtoDAsync", CudaDirect.cuMemcpyHtoDAsync_v2(dst, srcHost, bytes, stream));
    }

    @Override
    public void copyDeviceToHostAsync(long dstHost, long src, long bytes, long stream) {
        check("cuMemcpyDtoHAsync", CudaDirect.cuMemcpyDtoHAsync_v2(dstHost, src, bytes, stream));
    }

    @Override
    public void copyDeviceToDeviceAsync(long dst, long src, long bytes, long stream) {
        check("cuMemcpyDtoDAsync", CudaDirect.cuMemcpyDtoDAsync_v2(dst, src, bytes, stream));
    }

    @Override
    public void memsetD32Async(long dst, int value, long count, long stream) {
        check("cuMemsetD32Async", CudaDirect.cuMemsetD32Async(dst, value, count, stream));
    }

    @Override
    public long streamCreate() {
        LongByReference s = new LongByReference();
        // CU_STREAM_NON_BLOCKING (1): never implicitly ordered with the legacy default stream,
        // which Dictum never uses (every copy and launch names this stream).
        check("cuStreamCreate", api.cuStreamCreate(s, 1));
        return s.getValue();
    }

    @Override
    public void streamDestroy(long stream) {
        check("cuStreamDestroy", api.cuStreamDestroy_v2(stream));
    }

    @Override
    public void streamSynchronize(long stream) {
        check("cuStreamSynchronize", CudaDirect.cuStreamSynchronize(stream));
    }

    @Override
    public long eventCreate() {
        LongByReference e = new LongByReference();
        check("cuEventCreate", api.cuEventCreate(e, 2)); // CU_EVENT_DISABLE_TIMING
        return e.getValue();
    }

    @Override
    public void eventDestroy(long event) {
        check("cuEventDestroy", api.cuEventDestroy_v2(event));
    }

    @Override
    public void eventRecord(long event, long stream) {
        check("cuEventRecord", api.cuEventRecord(event, stream));
    }

    @Override
    public void streamWaitEvent(long stream, long event) {
        check("cuStreamWaitEvent", api.cuStreamWaitEvent(stream, event, 0));
    }

    @Override
    public void deviceSynchronize() {
        check("cuCtxSynchronize", api.cuCtxSynchronize());
    }

    @Override
    public long moduleLoadData(byte[] image, String moduleName) {
        // PTX must end in a NUL; a cubin ignores what follows it.
        try (Memory m = new Memory(image.length + 1L)) {
            m.write(0, image, 0, image.length);
            m.setByte(image.length, (byte) 0);
            LongByReference module = new LongByReference();
            int status = api.cuModuleLoadData(module, m);
            if (status != CudaApi.CUDA_SUCCESS) {
                throw failure("cuModuleLoadData", status, null, moduleName);
            }
            return module.getValue();
        }
    }

    @Override
    public void moduleUnload(long module) {
        check("cuModuleUnload", api.cuModuleUnload(module));
    }

    @Override
    public long moduleGetFunction(long module, String kernelName, String moduleName) {
        LongByReference f = new LongByReference();
        int status = api.cuModuleGetFunction(f, module, kernelName);
        if (status != CudaApi.CUDA_SUCCESS) {
            throw failure("cuModuleGetFunction", status, kernelName, moduleName);
        }
        return f.getValue();
    }

    @Override
    public void launch(long function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedBytes, long stream, Pointer kernelParams, String kernelName, String moduleName) {
        int status = CudaDirect.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                stream, Pointer.nativeValue(kernelParams), 0L);
        if (status != CudaApi.CUDA_SUCCESS) {
            throw failure("cuLaunchKernel", status, kernelName, moduleName);
        }
    }

    @Override
    public int functionRegisters(long function) {
        IntByReference v = new IntByReference();
        check("cuFuncGetAttribute(NUM_REGS)", api.cuFuncGetAttribute(v, CudaApi.CU_FUNC_ATTRIBUTE_NUM_REGS,
                function));
        return v.getValue();
    }

    @Override
    public void functionMaxDynamicShared(long function, int bytes, String kernelName, String moduleName) {
        int status = api.cuFuncSetAttribute(function, CudaApi.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
        if (status != CudaApi.CUDA_SUCCESS) {
            throw failure("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + bytes + ")", status, kernelName,
                    moduleName);
        }
    }

    @Override
    public boolean graphsSupported() {
        return true;
    }

    @Override
    public void streamBeginCapture(long stream) {
        check("cuStreamBeginCapture", api.cuStreamBeginCapture_v2(stream, CudaApi.CU_STREAM_CAPTURE_MODE_RELAXED));
    }

    @Override
    public long streamEndCapture(long stream) {
        LongByReference g = new LongByReference();
        check("cuStreamEndCapture", api.cuStreamEndCapture(stream, g));
        return g.getValue();
    }

    @Override
    public long graphInstantiate(long graph) {
        LongByReference e = new LongByReference();
        check("cuGraphInstantiateWithFlags", api.cuGraphInstantiateWithFlags(e, graph, 0L));
        return e.getValue();
    }

    @Override
    public void graphLaunch(long graphExec, long stream) {
        check("cuGraphLaunch", api.cuGraphLaunch(graphExec, stream));
    }

    @Override
    public void graphDestroy(long graph) {
        check("cuGraphDestroy", api.cuGraphDestroy(graph));
    }

    @Override
    public void graphExecDestroy(long graphExec) {
        check("cuGraphExecDestroy", api.cuGraphExecDestroy(graphExec));
    }

    @Override
    public void checkLastError(String afterWhat) {
        // The driver API has no sticky last-error call: launch failures come back from cuLaunchKernel
        // and execution failures from the next synchronizing call.
    }

    private void check(String call, int status) {
        if (status != CudaApi.CUDA_SUCCESS) {
            throw failure(call, status, null, null);
        }
    }

    private GpuException failure(String call, int status, String kernel, String module) {
        PointerByReference name = new PointerByReference();
        PointerByReference text = new PointerByReference();
        String n = api.cuGetErrorName(status, name) == CudaApi.CUDA_SUCCESS && name.getValue() != null
                ? name.getValue().getString(0, "US-ASCII") : "CUresult " + status;
        String t = api.cuGetErrorString(status, text) == CudaApi.CUDA_SUCCESS && text.getValue() != null
                ? text.getValue().getString(0, "US-ASCII") : null;
        return new GpuException(call, status, n, t, kernel, module);
    }
}
