package dev.dictum.gpu.backend;

import dev.dictum.gpu.StepGraph;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.device.Stream;

/**
 * A decoder step captured from the backend's one stream as a CUDA graph: replaying it is one
 * {@code cuGraphLaunch} on the same stream instead of hundreds of kernel launches through JNA
 * (4.6 µs of host time each on the H100 machine, LaunchCostBench).
 */
final class GpuStepGraph implements StepGraph {
    private final GpuDriver driver;
    private final Stream stream;
    /** The backend, whose lock serialises every op on the stream. */
    private final Object lock;
    private long exec;

    private GpuStepGraph(GpuDriver driver, Stream stream, Object lock, long exec) {
        this.driver = driver;
        this.stream = stream;
        this.lock = lock;
        this.exec = exec;
    }

    /** Records what {@code step} queues on {@code stream} (nothing runs) and instantiates it. */
    static GpuStepGraph capture(GpuDriver driver, Stream stream, Object lock, Runnable step) {
        stream.device().bind();
        driver.streamBeginCapture(stream.handle());
        long graph;
        try {
            step.run();
        } catch (RuntimeException e) {
            // End the capture whatever happened, so that the stream runs eager work again.
            try {
                driver.graphDestroy(driver.streamEndCapture(stream.handle()));
            } catch (RuntimeException ignored) {
                e.addSuppressed(ignored);
            }
            throw e;
        }
        graph = driver.streamEndCapture(stream.handle());
        try {
            return new GpuStepGraph(driver, stream, lock, driver.graphInstantiate(graph));
        } finally {
            driver.graphDestroy(graph);
        }
    }

    @Override
    public void replay() {
        synchronized (lock) {
            if (exec == 0) {
                throw new IllegalStateException("step graph closed");
            }
            stream.device().bind();
            driver.graphLaunch(exec, stream.handle());
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (exec != 0) {
                long e = exec;
                exec = 0;
                stream.device().bind();
                driver.graphExecDestroy(e);
            }
        }
    }
}
