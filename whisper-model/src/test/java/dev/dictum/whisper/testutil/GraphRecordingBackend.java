package dev.dictum.whisper.testutil;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.StepGraph;
import dev.dictum.gpu.cpu.CpuBackend;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The CPU backend with step graphs that behave as CUDA graphs do, for tests without a GPU: a
 * capture records the ops the step queues with the buffers they were given (nothing runs), and a
 * replay runs exactly those ops again, reading the step buffer when they run. So a replay after the
 * model switched to other buffers still reads and writes the captured ones, as a stale CUDA graph
 * would. Every buffer it allocates is tracked: an op on a buffer that was closed (a graph replayed
 * after the memory it names was freed) throws instead of reading dead memory.
 */
public final class GraphRecordingBackend {
    private final CpuBackend cpu = new CpuBackend();
    private final Backend backend;
    private final AtomicInteger captures = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();
    private final AtomicInteger eagerSteps = new AtomicInteger();
    private final AtomicInteger liveBuffers = new AtomicInteger();
    private List<Object[]> recording;

    /** A buffer of the CPU backend that knows whether it was closed. */
    private final class Tracked implements Buffer {
        final Buffer inner;
        boolean closed;

        Tracked(Buffer inner) {
            this.inner = inner;
            liveBuffers.incrementAndGet();
        }

        @Override
        public long floats() {
            return inner.floats();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                liveBuffers.decrementAndGet();
                inner.close();
            }
        }
    }

    public GraphRecordingBackend() {
        backend = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, m, args) -> handle(m, args));
    }

    private synchronized Object handle(Method m, Object[] args) throws Throwable {
        switch (m.getName()) {
            case "capturesSteps":
                return true;
            case "refuseGraphs":
                throw new AssertionError("a faithful graph was refused: " + args[0]);
            case "capture":
                return capture((Runnable) args[0]);
            case "allocate", "allocateHalf": // the window's cross K/V come from allocateHalf
                if (m.getReturnType() == Buffer[].class) { // a set (the K/V caches of every layer)
                    Buffer[] set = (Buffer[]) invoke(m, args);
                    for (int i = 0; i < set.length; i++) {
                        set[i] = new Tracked(set[i]);
                    }
                    return set;
                }
                return new Tracked((Buffer) invoke(m, args));
            case "allocateOverlaid": // the scratch region the encoder and the decoders share
                Buffer[][] phases = (Buffer[][]) invoke(m, args);
                for (Buffer[] phase : phases) {
                    for (int i = 0; i < phase.length; i++) {
                        phase[i] = new Tracked(phase[i]);
                    }
                }
                return phases;
            default:
                break;
        }
        if (recording != null) {
            if (m.getReturnType() != void.class) {
                throw new AssertionError(m.getName() + " during a capture returns a value the graph cannot hold");
            }
            if (m.getName().equals("upload") || m.getName().equals("download") || m.getName().equals("uploadInts")) {
                throw new AssertionError(m.getName() + " during a capture");
            }
            recording.add(new Object[] {m, args});
            return null;
        }
        if (m.getName().equals("embedStep")) {
            eagerSteps.incrementAndGet();
        }
        return invoke(m, args);
    }

    private Object invoke(Method m, Object[] args) throws Throwable {
        Object[] raw = args == null ? null : args.clone();
        if (raw != null) {
            for (int i = 0; i < raw.length; i++) {
                if (raw[i] instanceof Backend.Projection[] ps) { // project's outputs sit inside its records
                    Backend.Projection[] inner = new Backend.Projection[ps.length];
                    for (int j = 0; j < ps.length; j++) {
                        inner[j] = new Backend.Projection(ps[j].w(), ps[j].bias(), unwrap(m, ps[j].out()));
                    }
                    raw[i] = inner;
                } else if (raw[i] instanceof Backend.Projection p) { // projectStep's: one record each
                    raw[i] = new Backend.Projection(p.w(), p.bias(), unwrap(m, p.out()));
                } else if (raw[i] instanceof Buffer b) {
                    raw[i] = unwrap(m, b);
                }
            }
        }
        try {
            return m.invoke(cpu, raw);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Buffer unwrap(Method m, Buffer b) {
        if (b instanceof Tracked t) {
            if (t.closed) {
                throw new IllegalStateException(m.getName() + " on a closed buffer");
            }
            return t.inner;
        }
        return b;
    }

    private StepGraph capture(Runnable step) {
        List<Object[]> ops = new ArrayList<>();
        recording = ops;
        try {
            step.run();
        } finally {
            recording = null;
        }
        captures.incrementAndGet();
        return new StepGraph() {
            boolean closed;

            @Override
            public void replay() {
                synchronized (GraphRecordingBackend.this) {
                    if (closed) {
                        throw new IllegalStateException("step graph closed");
                    }
                    replays.incrementAndGet();
                    for (Object[] op : ops) {
                        try {
                            invoke((Method) op[0], (Object[]) op[1]);
                        } catch (RuntimeException | Error e) {
                            throw e;
                        } catch (Throwable e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    public Backend backend() {
        return backend;
    }

    /** Steps captured so far. */
    public int captures() {
        return captures.get();
    }

    /** Graph replays so far (the first capture's check included). */
    public int replays() {
        return replays.get();
    }

    /** Decoder steps run op by op so far (outside captures and replays). */
    public int eagerSteps() {
        return eagerSteps.get();
    }

    /** Buffers allocated and not closed. */
    public int liveBuffers() {
        return liveBuffers.get();
    }
}
