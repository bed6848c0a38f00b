package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The activations of phases that never need them at the same time, in backend memory they share
 * ({@link Backend#allocateOverlaid}: the GPU lays every phase out from the start of one allocation, so it
 * holds that memory once, as large as the largest phase; issue 22 item 1). The model's region serves the
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
 * <p>Two allocations: the kept one holds the {@code kept} phase's buffers (the decoders': a captured
 * decoder step names them, so they never move while the region is open) and, laid over them, as many
 * of each other phase's buffers as fit, largest first; the tail holds the rest of the other phases'
 * (overlaid too). {@link #trim} frees the tail (the idle trim: an idle model keeps only what its
 * captured steps name) and the next lease that needs it allocates it again; {@link #release} (the idle
 * trim of a model without captured steps) and {@link #close} free both.
 */
final class ScratchRegion implements AutoCloseable {
    /** Who may hold the region. */
    enum Phase {
        ENCODER, DECODER
    }

    private final Backend be;
    private final MemoryCategory category;
    private final Map<Phase, long[]> layouts;
    /** Per phase, which of its buffers lie in the tail (none of the kept phase's). */
    private final Map<Phase, boolean[]> inTail;
    /** Fair: a thread that feeds in a loop hands the region to a waiting encoder instead of taking it back at once. */
    private final ReentrantLock lock = new ReentrantLock(true);
    /** Guarded by lock: per phase its buffers, null before the first lease; tail entries null while trimmed. */
    private Map<Phase, Buffer[]> buffers;
    private List<Buffer> kepts;
    private List<Buffer> tail;
    private int generation;
    private Phase holder;
    private boolean poisonEachLease;
    private boolean closed;

    /**
     * A region for {@code layouts} (per phase, the size in floats of each of its buffers) whose {@code kept}
     * phase's buffers stay where they are until {@link #close}.
     */
    ScratchRegion(Backend be, MemoryCategory category, Map<Phase, long[]> layouts, Phase kept) {
        this.be = be;
        this.category = category;
        this.layouts = new EnumMap<>(layouts);
        this.inTail = plan(this.layouts, kept);
    }

    /**
     * Which buffers of each phase other than {@code kept} go to the tail: first fit, largest first, into the
     * kept phase's floats; the rest go to the tail.
     */
    private static Map<Phase, boolean[]> plan(Map<Phase, long[]> layouts, Phase kept) {
        long room = sum(layouts.get(kept), null, false);
        Map<Phase, boolean[]> plan = new EnumMap<>(Phase.class);
        for (var e : layouts.entrySet()) {
            long[] sizes = e.getValue();
            boolean[] tail = new boolean[sizes.length];
            if (e.getKey() != kept) {
                Integer[] bySize = new Integer[sizes.length];
                for (int i = 0; i < sizes.length; i++) {
                    bySize[i] = i;
                }
                Arrays.sort(bySize, (x, y) -> Long.compare(sizes[y], sizes[x]));
                long left = room;
                for (int i : bySize) {
                    if (sizes[i] <= left) {
                        left -= sizes[i];
                    } else {
                        tail[i] = true;
                    }
                }
            }
            plan.put(e.getKey(), tail);
        }
        return plan;
    }

    /** The floats of {@code sizes} in ({@code tail}) or out of the tail; every one where {@code inTail} is null. */
    private static long sum(long[] sizes, boolean[] inTail, boolean tail) {
        long s = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (inTail == null || inTail[i] == tail) {
                s += sizes[i];
            }
        }
        return s;
    }

    /**
     * The floats such a region holds with its tail (ModelMemory's estimate): the kept allocation, as large as
     * its largest phase, and the tail, as large as the largest phase's part in it (the GPU adds each buffer's
     * alignment to 256 bytes).
     */
    static long floatsHeld(Map<Phase, long[]> layouts, Phase kept) {
        Map<Phase, boolean[]> plan = plan(layouts, kept);
        long head = 0;
        long tail = 0;
        for (var e : layouts.entrySet()) {
            head = Math.max(head, sum(e.getValue(), plan.get(e.getKey()), false));
            tail = Math.max(tail, sum(e.getValue(), plan.get(e.getKey()), true));
        }
        return head + tail;
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
                allocateKept();
            }
            if (tail == null && sum(layout, inTail.get(phase), true) > 0) {
                allocateTail();
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

    /** The kept allocation: the kept phase's buffers and, over them, the other phases' that are not in the tail. */
    private void allocateKept() {
        Map<Phase, Buffer[]> m = new EnumMap<>(Phase.class);
        kepts = place(false, m);
        buffers = m;
        generation++;
    }

    private void allocateTail() {
        tail = place(true, buffers);
    }

    /** Allocates every phase's buffers in ({@code inTheTail}) or out of the tail, overlaid, into {@code into}. */
    private List<Buffer> place(boolean inTheTail, Map<Phase, Buffer[]> into) {
        List<Phase> phases = new ArrayList<>(layouts.keySet());
        long[][] sizes = new long[phases.size()][];
        int[][] index = new int[phases.size()][];
        for (int p = 0; p < phases.size(); p++) {
            long[] all = layouts.get(phases.get(p));
            boolean[] t = inTail.get(phases.get(p));
            int n = 0;
            index[p] = new int[all.length];
            for (int i = 0; i < all.length; i++) {
                if (t[i] == inTheTail) {
                    index[p][n++] = i;
                }
            }
            sizes[p] = new long[n];
            for (int k = 0; k < n; k++) {
                sizes[p][k] = all[index[p][k]];
            }
        }
        Buffer[][] got = be.allocateOverlaid(sizes, category);
        List<Buffer> placed = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            Buffer[] own = into.computeIfAbsent(phases.get(p), ph -> new Buffer[layouts.get(ph).length]);
            for (int k = 0; k < got[p].length; k++) {
                own[index[p][k]] = got[p][k];
                placed.add(got[p][k]);
            }
        }
        return placed;
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

    /**
     * Frees the tail until a lease needs it again (waits for a lease in progress); the kept allocation, which
     * captured decoder steps name, stays.
     */
    void trim() {
        lock.lock();
        try {
            if (tail != null) {
                DecoderScratch.closeAll(tail.toArray(new Buffer[0]));
                tail = null;
                for (var e : buffers.entrySet()) {
                    boolean[] t = inTail.get(e.getKey());
                    for (int i = 0; i < t.length; i++) {
                        if (t[i]) {
                            e.getValue()[i] = null;
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees both allocations (waits for a lease in progress): for a model that keeps no captured step (no
     * graphs: the CPU, HIP). The next lease allocates anew, with a new {@link Lease#generation()}.
     */
    void release() {
        trim();
        lock.lock();
        try {
            if (kepts != null) {
                DecoderScratch.closeAll(kepts.toArray(new Buffer[0]));
                kepts = null;
                buffers = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Frees everything (waits for a lease in progress); no lease is given after it. */
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

        /** Which kept allocation the buffers are of (a captured step names one). */
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
