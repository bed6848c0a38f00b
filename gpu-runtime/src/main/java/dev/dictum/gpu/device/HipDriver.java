package dev.dictum.gpu.device;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link GpuDriver} over the HIP runtime ({@code amdhip64_6.dll}, {@code libamdhip64.so.6}/{@code .so.5}). */
public final class HipDriver implements GpuDriver {
    private static final Map<String, HipDriver> OPEN = new ConcurrentHashMap<>();

    private final String library;
    private final HipApi api;

    private HipDriver(String library, HipApi api) {
        this.library = library;
        this.api = api;
    }

    /**
     * Loads the HIP runtime at {@code library} (a full path: discovery chose it). Once per process.
     *
     * @throws UnsatisfiedLinkError when the file cannot be loaded (missing, corrupt, wrong architecture,
     *                              a dependency missing)
     */
    public static HipDriver load(Path library) {
        String key = library.toAbsolutePath().toString();
        return OPEN.computeIfAbsent(key, k -> {
            NativeLibrary lib = NativeLibrary.getInstance(k);
            HipApi api = Native.load(k, HipApi.class);
            HipDirect.register(lib);
            return new HipDriver(k, api);
        });
    }

    @Override
    public String api() {
        return "hip";
    }

    @Override
    public String library() {
        return library;
    }

    @Override
    public String runtimeVersion() {
        IntByReference v = new IntByReference();
        check("hipRuntimeGetVersion", api.hipRuntimeGetVersion(v));
        // HIP_VERSION = major * 10^7 + minor * 10^5 + patch.
        int x = v.getValue();
        return (x / 10_000_000) + "." + (x / 100_000 % 100) + "." + (x % 100_000);
    }

    @Override
    public int driverVersion() {
        IntByReference v = new IntByReference();
        check("hipDriverGetVersion", api.hipDriverGetVersion(v));
        return v.getValue();
    }

    @Override
    public void init() {
        check("hipInit", api.hipInit(0));
    }

    @Override
    public int deviceCount() {
        IntByReference n = new IntByReference();
        check("hipGetDeviceCount", api.hipGetDeviceCount(n));
        return n.getValue();
    }

    @Override
    public DeviceProps properties(int ordinal) {
        byte[] name = new byte[256];
        check("hipDeviceGetName", api.hipDeviceGetName(name, name.length, ordinal));
        LongByReference total = new LongByReference();
        check("hipDeviceTotalMem", api.hipDeviceTotalMem(total, ordinal));
        String archFull = archName(ordinal);
        return new DeviceProps(ordinal, Native.toString(name, "UTF-8"), archFull.replaceFirst(":.*", ""), archFull,
                total.getValue(),
                attribute(HipApi.hipDeviceAttributeWarpSize, ordinal),
                attribute(HipApi.hipDeviceAttributeMultiprocessorCount, ordinal),
                attribute(HipApi.hipDeviceAttributeMaxThreadsPerBlock, ordinal),
                attribute(HipApi.hipDeviceAttributeMaxSharedMemoryPerBlock, ordinal),
                // no opt-in on AMD: a workgroup's LDS limit is the limit (64 KiB on RDNA)
                attribute(HipApi.hipDeviceAttributeMaxSharedMemoryPerBlock, ordinal));
    }

    /**
     * gcnArchName is only in the properties struct. Dictum reads the ROCm 6 layout on purpose
     * (hipGetDevicePropertiesR0600, the one 6.x headers compile to); 5.x runtimes lack that entry.
     */
    private String archName(int ordinal) {
        try (Memory props = new Memory(HipApi.PROPS_R0600_BYTES + 512L)) {
            props.clear();
            check("hipGetDevicePropertiesR0600", api.hipGetDevicePropertiesR0600(props, ordinal));
            return props.getString(HipApi.PROPS_R0600_GCN_ARCH_NAME, "US-ASCII");
        } catch (UnsatisfiedLinkError e) {
            return "unknown (HIP runtime before 6.0)";
        }
    }

    private int attribute(int attribute, int ordinal) {
        IntByReference v = new IntByReference();
        check("hipDeviceGetAttribute(" + attribute + ")", api.hipDeviceGetAttribute(v, attribute, ordinal));
        return v.getValue();
    }

    @Override
    public void setDevice(int ordinal) {
        check("hipSetDevice", api.hipSetDevice(ordinal));
        int current = currentDevice();
        if (current != ordinal) {
            throw new GpuException("hipSetDevice", "device " + ordinal + " asked for, hipGetDevice says " + current);
        }
    }

    /** The device current on this thread (hipGetDevice). */
    public int currentDevice() {
        IntByReference d = new IntByReference();
        check("hipGetDevice", api.hipGetDevice(d));
        return d.getValue();
    }

    @Override
    public long[] memoryInfo() {
        LongByReference free = new LongByReference();
        LongByReference total = new LongByReference();
        check("hipMemGetInfo", api.hipMemGetInfo(free, total));
        return new long[] {free.getValue(), total.getValue()};
    }

    @Override
    public long malloc(long bytes) {
        LongByReference p = new LongByReference();
        check("hipMalloc(" + bytes + " bytes)", api.hipMalloc(p, bytes));
        return p.getValue();
    }

    @Override
    public void free(long devicePointer) {
        check("hipFree", api.hipFree(devicePointer));
    }

    @Override
    public long hostMalloc(long bytes) {
        LongByReference p = new LongByReference();
        check("hipHostMalloc(" + bytes + " bytes)", api.hipHostMalloc(p, bytes, 0));
        return p.getValue();
    }

    @Override
    public void hostFree(long hostPointer) {
        check("hipHostFree", api.hipHostFree(hostPointer));
    }

    @Override
    public void copyHostToDeviceAsync(long dst, long srcHost, long bytes, long stream) {
        check("hipMemcpyHtoDAsync", HipDirect.hipMemcpyHtoDAsync(dst, srcHost, bytes, stream));
    }

    @Override
    public void copyDeviceToHostAsync(long dstHost, long src, long bytes, long stream) {
        check("hipMemcpyDtoHAsync", HipDirect.hipMemcpyDtoHAsync(dstHost, src, bytes, stream));
    }

    @Override
    public void copyDeviceToDeviceAsync(long dst, long src, long bytes, long stream) {
        check("hipMemcpyDtoDAsync", HipDirect.hipMemcpyDtoDAsync(dst, src, bytes, stream));
    }

    @Override
    public void memsetD32Async(long dst, int value, long count, long stream) {
        check("hipMemsetD32Async", HipDirect.hipMemsetD32Async(dst, value, count, stream));
    }

    @Override
    public long streamCreate() {
        LongByReference s = new LongByReference();
        check("hipStreamCreate", api.hipStreamCreate(s));
        return s.getValue();
    }

    @Override
    public void streamDestroy(long stream) {
        check("hipStreamDestroy", api.hipStreamDestroy(stream));
    }

    @Override
    public void streamSynchronize(long stream) {
        check("hipStreamSynchronize", HipDirect.hipStreamSynchronize(stream));
    }

    @Override
    public long eventCreate() {
        LongByReference e = new LongByReference();
        check("hipEventCreateWithFlags", api.hipEventCreateWithFlags(e, 2)); // hipEventDisableTiming
        return e.getValue();
    }

    @Override
    public void eventDestroy(long event) {
        check("hipEventDestroy", api.hipEventDestroy(event));
    }

    @Override
    public void eventRecord(long event, long stream) {
        check("hipEventRecord", api.hipEventRecord(event, stream));
    }

    @Override
    public void streamWaitEvent(long stream, long event) {
        check("hipStreamWaitEvent", api.hipStreamWaitEvent(stream, event, 0));
    }

    @Override
    public void deviceSynchronize() {
        check("hipDeviceSynchronize", api.hipDeviceSynchronize());
    }

    @Override
    public long moduleLoadData(byte[] image, String moduleName) {
        try (Memory m = new Memory(image.length)) {
            m.write(0, image, 0, image.length);
            LongByReference module = new LongByReference();
            int status = api.hipModuleLoadData(module, m);
            if (status != HipApi.hipSuccess) {
                throw failure("hipModuleLoadData", status, null, moduleName);
            }
            return module.getValue();
        }
    }

    @Override
    public void moduleUnload(long module) {
        check("hipModuleUnload", api.hipModuleUnload(module));
    }

    @Override
    public long moduleGetFunction(long module, String kernelName, String moduleName) {
        LongByReference f = new LongByReference();
        int status = api.hipModuleGetFunction(f, module, kernelName);
        if (status != HipApi.hipSuccess) {
            throw failure("hipModuleGetFunction", status, kernelName, moduleName);
        }
        return f.getValue();
    }

    @Override
    public void launch(long function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedBytes, long stream, Pointer kernelParams, String kernelName, String moduleName) {
        int status = HipDirect.hipModuleLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                sharedBytes, stream, Pointer.nativeValue(kernelParams), 0L);
        if (status != HipApi.hipSuccess) {
            throw failure("hipModuleLaunchKernel", status, kernelName, moduleName);
        }
    }

    /**
     * A no-op: AMD has no opt-in (DeviceProps.sharedMemoryPerBlockOptin is sharedMemoryPerBlock here, so
     * {@link Kernel#launch} never asks for more and refuses a launch beyond it with its own error).
     */
    @Override
    public void functionMaxDynamicShared(long function, int bytes, String kernelName, String moduleName) {
    }

    @Override
    public int functionRegisters(long function) {
        IntByReference v = new IntByReference();
        check("hipFuncGetAttribute(NUM_REGS)", api.hipFuncGetAttribute(v, HipApi.HIP_FUNC_ATTRIBUTE_NUM_REGS,
                function));
        return v.getValue();
    }

    @Override
    public void checkLastError(String afterWhat) {
        int status = api.hipGetLastError();
        if (status != HipApi.hipSuccess) {
            throw failure("hipGetLastError after " + afterWhat, status, null, null);
        }
    }

    private void check(String call, int status) {
        if (status != HipApi.hipSuccess) {
            throw failure(call, status, null, null);
        }
    }

    private GpuException failure(String call, int status, String kernel, String module) {
        // HIP keeps the last error of any call until hipGetLastError reads it: this one is reported
        // now, so clear it, or the next check would report it again against an innocent call.
        api.hipGetLastError();
        String name;
        String text;
        try {
            name = api.hipGetErrorName(status);
            text = api.hipGetErrorString(status);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            name = "hipError " + status;
            text = null;
        }
        return new GpuException(call, status, name == null ? "hipError " + status : name, text, kernel, module);
    }
}
