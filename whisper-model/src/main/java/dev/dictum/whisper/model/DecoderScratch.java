package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;

/**
 * The activations of {@code rows} decoder rows: buffers of their own (a feed larger than the shared
 * region's rows) or a decoder layout's part of a {@link ScratchRegion} ({@link DecoderActivations}).
 */
final class DecoderScratch implements AutoCloseable {
    /** Buffers per scratch: x, h, q, kNew, vNew, att, mlp ({@link #layout}). */
    static final int BUFFERS = 7;
    final int rows;
    /** Whether {@link #close} frees the buffers (not where they are a region's). */
    private final boolean owned;
    final Buffer x;
    final Buffer h;
    final Buffer q;
    final Buffer kNew;
    final Buffer vNew;
    final Buffer att;
    final Buffer mlp;

    /** Buffers of its own, counted as decoder scratch. */
    DecoderScratch(Backend be, int rows, int n) {
        this.rows = rows;
        this.owned = true;
        long r = rows;
        x = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        h = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        q = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        kNew = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        vNew = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        att = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        mlp = be.allocate(r * 4 * n, MemoryCategory.DECODER_SCRATCH);
    }

    /** {@link #BUFFERS} buffers of a region's lease from index {@code from}, laid out as {@link #layout}. */
    DecoderScratch(int rows, ScratchRegion.Lease lease, int from) {
        this.rows = rows;
        this.owned = false;
        x = lease.buffer(from);
        h = lease.buffer(from + 1);
        q = lease.buffer(from + 2);
        kNew = lease.buffer(from + 3);
        vNew = lease.buffer(from + 4);
        att = lease.buffer(from + 5);
        mlp = lease.buffer(from + 6);
    }

    /** The sizes in floats of {@code rows} rows' buffers of width {@code n}, in the fields' order. */
    static long[] layout(int rows, int n) {
        long v = (long) rows * n;
        return new long[] {v, v, v, v, v, v, 4 * v};
    }

    @Override
    public void close() {
        if (owned) {
            closeAll(x, h, q, kNew, vNew, att, mlp);
        }
    }

    /** Closes every buffer that is not null. */
    static void closeAll(Buffer... buffers) {
        for (Buffer b : buffers) {
            if (b != null) {
                b.close();
            }
        }
    }
}
