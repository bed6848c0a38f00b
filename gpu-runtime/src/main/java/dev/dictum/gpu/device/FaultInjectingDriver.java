package dev.dictum.gpu.device;

import com.sun.jna.Pointer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test infrastructure: a real driver with one fault injected. The {@code nth} call (counting from 1)
 * of the method named {@code method} ("launch", "malloc", "streamSynchronize", ...) throws the
 * {@link GpuException} that driver would for a failed launch; every other call goes through.
 * Lets tests show what Dictum does when a device fails mid-transcription, on a machine whose GPU
 * does not fail on request.
 */
public final class FaultInjectingDriver implements GpuDriver {
    private final GpuDriver real;
    private final String method;
    private volatile int nth;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean fired;

    public FaultInjectingDriver(GpuDriver real, String method, int nth) {
        this.real = real;
        this.method = method;
        this.nth = nth;
    }

    /** Moves the fault to the {@code more}-th call of the watched method from now. */
    public void failAfter(int more) {
        nth = calls.get() + more;
    }

    /** Whether the fault has been thrown. */
    public boolean fired() {
        return fired;
    }

    /** Calls of the watched method so far. */
    public int calls() {
        return calls.get();
    }

    private void maybeFail(String name) {
        if (name.equals(method) && calls.incrementAndGet() == nth) {
            fired = true;
            boolean hip = real.api().equals("hip");
            throw new GpuException(hip ? "hipModuleLaunchKernel" : "cuLaunchKernel", hip ? 719 : 719,
                    hip ? "hipErrorLaunchFailure" : "CUDA_ERROR_LAUNCH_FAILED", "injected fault (call " + nth + " of "
                            + method + ")", null, null);
        }
    }

    @Override
    public String api() {
        return real.api();
    }

    @Override
    public String library() {
        return real.library();
    }

    @Override
    public String runtimeVersion() {
        return real.runtimeVersion();
    }

    @Override
    public int driverVersion() {
        return real.driverVersion();
    }

    @Override
    public void init() {
        maybeFail("init");
        real.init();
    }

    @Override
    public int deviceCount() {
        return real.deviceCount();
    }

    @Override
    public DeviceProps properties(int ordinal) {
        return real.properties(ordinal);
    }

    @Override
    public void setDevice(int ordinal) {
        real.setDevice(ordinal);
    }

    @Override
    public long[] memoryInfo() {
        return real.memoryInfo();
    }

    @Override
    public long malloc(long bytes) {
        maybeFail("malloc");
        return real.malloc(bytes);
    }

    @Override
    public void free(long devicePointer) {
        real.free(devicePointer);
    }

    @Override
    public long hostMalloc(long bytes) {
        return real.hostMalloc(bytes);
    }

    @Override
    public void hostFree(long hostPointer) {
        real.hostFree(hostPointer);
    }

    @Override
    public void copyHostToDeviceAsync(long dst, long srcHost, long bytes, long stream) {
        maybeFail("copyHostToDeviceAsync");
        real.copyHostToDeviceAsync(dst, srcHost, bytes, stream);
    }

    @Override
    public void copyDeviceToHostAsync(long dstHost, long src, long bytes, long stream) {
        maybeFail("copyDeviceToHostAsync");
        real.copyDeviceToHostAsync(dstHost, src, bytes, stream);
    }

    @Override
    public void copyDeviceToDeviceAsync(long dst, long src, long bytes, long stream) {
        maybeFail("copyDeviceToDeviceAsync");
        real.copyDeviceToDeviceAsync(dst, src, bytes, stream);
    }

    @Override
    public void memsetD32Async(long dst, int value, long count, long stream) {
        real.memsetD32Async(dst, value, count, stream);
    }

    @Override
    public long streamCreate() {
        return real.streamCreate();
    }

    @Override
    public void streamDestroy(long stream) {
        real.streamDestroy(stream);
    }

    @Override
    public void streamSynchronize(long stream) {
        maybeFail("streamSynchronize");
        real.streamSynchronize(stream);
    }

    @Override
    public long eventCreate() {
        return real.eventCreate();
    }

    @Override
    public void eventDestroy(long event) {
        real.eventDestroy(event);
    }

    @Override
    public void eventRecord(long event, long stream) {
        real.eventRecord(event, stream);
    }

    @Override
    public void streamWaitEvent(long stream, long event) {
        maybeFail("streamWaitEvent");
        real.streamWaitEvent(stream, event);
    }

    @Override
    public void deviceSynchronize() {
        real.deviceSynchronize();
    }

    @Override
    public long moduleLoadData(byte[] image, String moduleName) {
        return real.moduleLoadData(image, moduleName);
    }

    @Override
    public void moduleUnload(long module) {
        real.moduleUnload(module);
    }

    @Override
    public long moduleGetFunction(long module, String kernelName, String moduleName) {
        return real.moduleGetFunction(module, kernelName, moduleName);
    }

    @Override
    public void launch(long function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedBytes, long stream, Pointer kernelParams, String kernelName, String moduleName) {
        try {
            maybeFail("launch");
        } catch (GpuException e) {
            throw e.in(kernelName, moduleName);
        }
        real.launch(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes, stream, kernelParams,
                kernelName, moduleName);
    }

    @Override
    public void functionMaxDynamicShared(long function, int bytes, String kernelName, String moduleName) {
        real.functionMaxDynamicShared(function, bytes, kernelName, moduleName);
    }

    @Override
    public int functionRegisters(long function) {
        return real.functionRegisters(function);
    }

    @Override
    public void checkLastError(String afterWhat) {
        real.checkLastError(afterWhat);
    }

    @Override
    public boolean graphsSupported() {
        return real.graphsSupported();
    }

    @Override
    public void streamBeginCapture(long stream) {
        maybeFail("streamBeginCapture");
        real.streamBeginCapture(stream);
    }

    @Override
    public long streamEndCapture(long stream) {
        maybeFail("streamEndCapture");
        return real.streamEndCapture(stream);
    }

    @Override
    public long graphInstantiate(long graph) {
        maybeFail("graphInstantiate");
        return real.graphInstantiate(graph);
    }

    @Override
    public void graphLaunch(long graphExec, long stream) {
        maybeFail("graphLaunch");
        real.graphLaunch(graphExec, stream);
    }

    @Override
    public void graphDestroy(long graph) {
        real.graphDestroy(graph);
    }

    @Override
    public void graphExecDestroy(long graphExec) {
        real.graphExecDestroy(graphExec);
    }
}
