package dev.dictum.gpu;

/**
 * A backend's device failed (a launch, a copy, out of memory): the work in flight is lost and the
 * caller should finish it elsewhere (the CPU). Vendor-neutral so that the model code can catch it
 * without knowing which GPU runtime is underneath.
 */
public class BackendFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BackendFailure(String message) {
        super(message);
    }

    public BackendFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
