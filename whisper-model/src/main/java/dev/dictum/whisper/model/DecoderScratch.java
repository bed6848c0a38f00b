package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;

/** The activations of {@code rows} decoder rows (a decoder state's scratch). */
final class DecoderScratch implements AutoCloseable {
    final int rows;
    final Buffer x;
    final Buffer h;
    final Buffer q;
    final Buffer kNew;
    final Buffer vNew;
    final Buffer att;
    final Buffer mlp;

    DecoderScratch(Backend be, int rows, int n) {
        this.rows = rows;
        long r = rows;
        x = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        h = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        q = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        kNew = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        vNew = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        att = be.allocate(r * n, MemoryCategory.DECODER_SCRATCH);
        mlp = be.allocate(r * 4 * n, MemoryCategory.DECODER_SCRATCH);
    }

    @Override
    public void close() {
        closeAll(x, h, q, kNew, vNew, att, mlp);
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
