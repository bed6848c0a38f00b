package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;

/**
 * Which cache row holds each position of each sequence, so that beam search reorders its beams by
 * rewriting these small tables instead of copying cache rows (issue 22 item 4: large-v3's beam-5
 * caches were kept twice for the copy).
 *
 * <p>Sequence b writes position p's key and value to its own row, {@code b * beamStride + p * posStride}
 * (the state's layout, set at each reset). Until the first reorder every sequence reads its own rows, which strided
 * attention addresses directly. A reorder gives sequence i the rows that its source sequence read up to
 * the current length and its own rows from there on: a row is written only at its position and only
 * by its owner, when every sequence is shorter than that position, so no sequence's history is ever
 * overwritten (truncating sets the rows from the new length on back to the own ones). From the first
 * reorder on, attention reads the rows through the table ({@link Backend#attentionRows}), which this
 * class keeps on the backend: {@code ctx} ints per sequence as their bit patterns.
 */
final class BeamRows implements AutoCloseable {
    private final Backend be;
    private final int maxBatch;
    private final int ctx;
    private int beamStride;
    private int posStride;
    /** rowOf[b * ctx + p]: the row sequence b reads for position p (valid while {@link #moved}). */
    private int[] rowOf;
    private int[] spare;
    private float[] bits;
    /** The table on the backend, allocated at the first reorder or by {@link #allocateTable}. */
    private Buffer table;
    private boolean moved;
    /** Whether the table on the backend holds every sequence's own rows since the last reset. */
    private boolean ownPublished;

    BeamRows(Backend be, int maxBatch, int ctx) {
        this.be = be;
        this.maxBatch = maxBatch;
        this.ctx = ctx;
        this.beamStride = ctx;
        this.posStride = 1;
    }

    /** Sequence b's own row for position p: where it writes that position's key and value. */
    int own(int b, int p) {
        return b * beamStride + p * posStride;
    }

    /** Whether some sequence reads rows other than its own (attention must go through {@link #table}). */
    boolean moved() {
        return moved;
    }

    /** The table on the backend: sequence b's row for position p at {@code b * stride() + p}. */
    Buffer table() {
        return table;
    }

    int stride() {
        return ctx;
    }

    /**
     * A new decoding whose rows lie {@code beamStride} apart between sequences and {@code posStride}
     * between positions (any layout that gives every sequence and position a row of its own): every
     * sequence reads its own rows.
     */
    void reset(int beamStride, int posStride) {
        this.beamStride = beamStride;
        this.posStride = posStride;
        moved = false;
        ownPublished = false;
    }

    /** Allocates the table now (a captured step names its address, so it must exist before the capture). */
    void allocateTable() {
        if (rowOf == null) {
            rowOf = new int[maxBatch * ctx];
            spare = new int[maxBatch * ctx];
            bits = new float[maxBatch * ctx];
            table = be.allocate((long) maxBatch * ctx, MemoryCategory.DECODER_SCRATCH);
        }
    }

    /**
     * Makes the table on the backend valid for {@code batch} sequences before any reorder (each its own
     * rows), for a step that always reads through it; once per decoding.
     */
    void publishOwnRows(int batch) {
        allocateTable();
        if (moved || ownPublished) {
            return;
        }
        for (int b = 0; b < batch; b++) {
            for (int p = 0; p < ctx; p++) {
                rowOf[b * ctx + p] = own(b, p);
            }
        }
        upload(batch);
        ownPublished = true;
    }

    /**
     * Sequence i continues old sequence {@code sourceOf[i]} (checked by the caller), whose first
     * {@code length} positions it now reads.
     */
    void reorder(int[] sourceOf, int length) {
        allocateTable();
        for (int i = 0; i < sourceOf.length; i++) {
            int src = sourceOf[i];
            for (int p = 0; p < length; p++) {
                spare[i * ctx + p] = moved ? rowOf[src * ctx + p] : own(src, p);
            }
            for (int p = length; p < ctx; p++) {
                spare[i * ctx + p] = own(i, p);
            }
        }
        int[] t = rowOf;
        rowOf = spare;
        spare = t;
        moved = true;
        upload(sourceOf.length);
    }

    /** Positions from {@code length} on are forgotten: each of the {@code batch} sequences writes its own rows there again. */
    void truncate(int length, int batch) {
        if (!moved) {
            return;
        }
        for (int b = 0; b < batch; b++) {
            for (int p = length; p < ctx; p++) {
                rowOf[b * ctx + p] = own(b, p);
            }
        }
        upload(batch);
    }

    private void upload(int batch) {
        int count = batch * ctx;
        for (int i = 0; i < count; i++) {
            bits[i] = Float.intBitsToFloat(rowOf[i]);
        }
        be.upload(bits, 0, table, 0, count);
    }

    @Override
    public void close() {
        if (table != null) {
            table.close();
            table = null;
        }
    }
}
