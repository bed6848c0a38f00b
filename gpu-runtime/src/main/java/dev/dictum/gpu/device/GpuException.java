package dev.dictum.gpu.device;

/**
 * A GPU runtime call that did not return success: names the call, the status the runtime gave
 * (its name and text), and where known the kernel and module it concerned. Every status of every
 * HIP or CUDA call Dictum makes ends up here, so a failure is never silent and never a bare code.
 */
public final class GpuException extends dev.dictum.gpu.BackendFailure {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int status;
    private final String statusName;
    private final String kernel;
    private final String module;

    public GpuException(String call, int status, String statusName, String statusText, String kernel, String module) {
        super(message(call, status, statusName, statusText, kernel, module));
        this.call = call;
        this.status = status;
        this.statusName = statusName;
        this.kernel = kernel;
        this.module = module;
    }

    /** A failure that is not a runtime status (a missing kernel, a bad code object choice). */
    public GpuException(String call, String message) {
        super(call + ": " + message);
        this.call = call;
        this.status = -1;
        this.statusName = "";
        this.kernel = null;
        this.module = null;
    }

    private static String message(String call, int status, String name, String text, String kernel, String module) {
        StringBuilder b = new StringBuilder(call).append(" failed: ").append(name).append(" (").append(status)
                .append(')');
        if (text != null && !text.isBlank() && !text.equals(name)) {
            b.append(": ").append(text);
        }
        if (kernel != null) {
            b.append(" [kernel ").append(kernel);
            if (module != null) {
                b.append(" in module ").append(module);
            }
            b.append(']');
        } else if (module != null) {
            b.append(" [module ").append(module).append(']');
        }
        return b.toString();
    }

    /** The same failure, said of a kernel of a module. */
    public GpuException in(String kernelName, String moduleName) {
        if (status < 0) {
            return this;
        }
        GpuException e = new GpuException(call, status, statusName, null, kernelName, moduleName);
        e.initCause(this);
        return e;
    }

    public String call() {
        return call;
    }

    public int status() {
        return status;
    }

    public String statusName() {
        return statusName;
    }

    public String kernel() {
        return kernel;
    }

    public String module() {
        return module;
    }

    /** True when the runtime said the device ran out of memory. */
    public boolean outOfMemory() {
        return statusName.contains("OUT_OF_MEMORY") || statusName.contains("OutOfMemory")
                || statusName.contains("MemoryAllocation");
    }
}
