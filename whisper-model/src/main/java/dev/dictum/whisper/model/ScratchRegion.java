package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The activations of phases that never need them at the same time, in one backend region
 * ({@link Backend#allocateOverlaid}: the GPU lays every phase out from the region's start, so it holds
 * the region once, as large as the largest phase; issue 22 item 1). The model's region serves the
 * encoder (an encode and its cross K/V projection) and every decoder state of up to
 * {@link ModelMemory#MAX_SEQUENCES} sequences (one feed); nothing a phase leaves there survives the
 * next phase, so every user writes a buffer before it reads it, within one lease.
 *
 * <p>Who holds it: a {@link Lease}, taken for one encode or one feed and closed at its end (also when
 * it throws, e.g. {@link Preempted}). A lease from another thread waits (the model is used by several
 * threads at times: a warm-up's last step beside a dictation's encode, two sessions); a thread that
 * asks again while it holds a lease gets an {@link IllegalStateException} naming both phases (two
 * phases of one thread at once would be a bug that overlaps them, never waited out). The GPU's
 * queue needs nothing more: every op and graph runs on the backend's one stream in the order the
 * leases queued them.
 *
 * <p>{@link #release} frees the memory (idle trim; it waits for a running lease); the next lease
 * allocates it again, with a new {@link Lease#generation()}: a captured decoder step names the
 * buffers of one generation and must be captured again for another.
 */
final class ScratchRegion implements AutoCloseable {
    /** Who may hold the region. */
    enum Phase {
        ENCODER, DECODER
    }

    private final Backend be;
    private final MemoryCategory category;
    private final Map<Phase, long[]> layouts;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private Map<Phase, Buffer[]> buffers;
    private int generation;
    private Phase holder;
    private boolean poisonEachLease;
    private boolean closed;

    /** A region for {@code layouts}: per phase, the size in floats of each of its buffers. */
    ScratchRegion(Backend be, MemoryCategory category, Map<Phase, long[]> layouts) {
        this.be = be;
        this.category = category;
        this.layouts = new EnumMap<>(layouts);
    }

    /** The phase's buffers until the lease is closed (waits while another thread holds the region). */
    Lease acquire(Phase phase) {
        long[] layout = layouts.get(phase);
        if (layout == null) {
            throw new IllegalArgumentException("no " + phase + " phase in this region");
        }
        if (lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("the " + phase + " phase asked for the scratch the " + holder
                    + " phase of this thread holds: both would use the same memory");
        }
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the model was closed");
            }
            if (buffers == null) {
                allocate();
            }
            holder = phase;
            Buffer[] own = buffers.get(phase);
            if (poisonEachLease) {
                poison(own);
            }
            return new Lease(own, generation);
        } catch (RuntimeException | Error e) {
            holder = null;
            lock.unlock();
            throw e;
        }
    }

    private void allocate() {
        Phase[] phases = layouts.keySet().toArray(new Phase[0]);
        long[][] sizes = new long[phases.length][];
        for (int p = 0; p < phases.length; p++) {
            sizes[p] = layouts.get(phases[p]);
        }
        Buffer[][] all = be.allocateOverlaid(sizes, category);
        Map<Phase, Buffer[]> m = new EnumMap<>(Phase.class);
        for (int p = 0; p < phases.length; p++) {
            m.put(phases[p], all[p]);
        }
        buffers = m;
        generation++;
    }

    /** NaN in every buffer of a lease, as if another phase had just written there (tests: {@link #poisonEachLease}). */
    private void poison(Buffer[] own) {
        for (Buffer b : own) {
            float[] nan = new float[(int) b.floats()];
            Arrays.fill(nan, Float.NaN);
            be.upload(nan, 0, b, 0, nan.length);
        }
    }

    /**
     * Tests: every lease starts with NaN in each of its buffers, so a phase that read what it (or a
     * captured graph of it) left there before another phase ran gives NaN, as it could on a GPU.
     */
    void poisonEachLease() {
        lock.lock();
        try {
            poisonEachLease = true;
        } finally {
            lock.unlock();
        }
    }

    /** Frees the memory until the next lease (waits for one in progress); the next lease has a new generation. */
    void release() {
        lock.lock();
        try {
            if (buffers != null) {
                for (Buffer[] phase : buffers.values()) {
                    DecoderScratch.closeAll(phase);
                }
                buffers = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether the memory is held now (tests). */
    boolean held() {
        lock.lock();
        try {
            return buffers != null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        release();
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    /** One phase's hold on the region: its buffers, in its layout's order, until {@link #close}. */
    final class Lease implements AutoCloseable {
        private final Buffer[] own;
        private final int generation;
        private boolean open = true;

        private Lease(Buffer[] own, int generation) {
            this.own = own;
            this.generation = generation;
        }

        /** The phase's i-th buffer. */
        Buffer buffer(int i) {
            if (!open) {
                throw new IllegalStateException("the scratch lease was closed");
            }
            return own[i];
        }

        /** Which allocation the buffers are of: another after a {@link ScratchRegion#release}. */
        int generation() {
            return generation;
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                holder = null;
                lock.unlock();
            }
        }
    }
}
