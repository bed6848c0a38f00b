package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.whisper.format.WhisperDims;
import java.util.Map;

/**
 * A decoder state's activations for one feed: the one-token step's, the beam step's, a batch of rows,
 * the last rows' LayerNorm, the logits and a draft's logits. They live in the model's
 * {@link ScratchRegion}, shared with the encoder and with every other state of up to
 * {@link ModelMemory#MAX_SEQUENCES} sequences (issue 22 item 1), and are valid only while the lease
 * {@link #acquire} gave is open: nothing in them outlives a feed. A state of more sequences has a
 * region of its own. A feed of more rows than the region holds (a long prompt given to several
 * sequences) or a draft of more than {@link #DRAFT_ROWS} positions takes buffers of its own, grown
 * as needed and freed with the state.
 */
final class DecoderActivations implements AutoCloseable {
    /** Draft positions whose logits the region holds (a longer draft's take buffers of their own). */
    static final int DRAFT_ROWS = 32;
    private static final int ONE = 0;
    private static final int BEAM = ONE + DecoderScratch.BUFFERS;
    private static final int ROWS = BEAM + DecoderScratch.BUFFERS;
    private static final int LAST = ROWS + DecoderScratch.BUFFERS;
    private static final int LOGITS = LAST + 1;
    private static final int DRAFT_LOGITS = LOGITS + 1;

    private final Backend be;
    private final int n;
    private final int vocab;
    private final int batch;
    private final int rowsHeld;
    private final ScratchRegion region;
    /** The region is this state's own (more sequences than the model's holds): closed with it. */
    private final boolean ownRegion;
    /** The generation the fields below are of (0: none yet). */
    private int bound;
    private DecoderScratch one;
    private DecoderScratch beamOne;
    private DecoderScratch rows;
    private Buffer last;
    private Buffer logits;
    private Buffer draftLogits;
    private DecoderScratch ownRows;
    private Buffer ownDraftLogits;
    private int ownDraftRows;

    /**
     * The sizes in floats of a decoder's buffers in a region, for states of up to {@code batch} sequences:
     * the one-token step's, the beam step's ({@code batch} rows), n_text_ctx rows of a feed, then
     * {@code batch} rows of the last LayerNorm and of logits, and {@link #DRAFT_ROWS} rows of a draft's logits.
     */
    static long[] layout(WhisperDims d, int batch) {
        int n = d.nTextState();
        long[] one = DecoderScratch.layout(1, n);
        long[] beam = DecoderScratch.layout(batch, n);
        long[] rows = DecoderScratch.layout(d.nTextCtx(), n);
        long[] all = new long[DRAFT_LOGITS + 1];
        System.arraycopy(one, 0, all, ONE, one.length);
        System.arraycopy(beam, 0, all, BEAM, beam.length);
        System.arraycopy(rows, 0, all, ROWS, rows.length);
        all[LAST] = (long) batch * n;
        all[LOGITS] = (long) batch * d.nVocab();
        all[DRAFT_LOGITS] = (long) DRAFT_ROWS * d.nVocab();
        return all;
    }

    /** For a state of {@code maxBatch} sequences: in {@code shared} (laid out for {@code sharedBatch}) where it fits. */
    DecoderActivations(Backend be, WhisperDims d, int maxBatch, ScratchRegion shared, int sharedBatch) {
        this.be = be;
        this.n = d.nTextState();
        this.vocab = d.nVocab();
        this.rowsHeld = d.nTextCtx();
        this.ownRegion = maxBatch > sharedBatch;
        this.batch = ownRegion ? maxBatch : sharedBatch;
        this.region = ownRegion ? new ScratchRegion(be, MemoryCategory.DECODER_SCRATCH,
                Map.of(ScratchRegion.Phase.DECODER, layout(d, maxBatch)), ScratchRegion.Phase.DECODER) : shared;
    }

    /**
     * Holds the region for one feed. Where its buffers are not those of this state's last feed (the first
     * feed, or another kept allocation), {@code moved} runs first: a graph captured over the old ones must go.
     */
    ScratchRegion.Lease acquire(Runnable moved) {
        ScratchRegion.Lease l = region.acquire(ScratchRegion.Phase.DECODER);
        if (l.generation() != bound) {
            try {
                moved.run();
                one = new DecoderScratch(1, l, ONE);
                beamOne = new DecoderScratch(batch, l, BEAM);
                rows = new DecoderScratch(rowsHeld, l, ROWS);
                last = l.buffer(LAST);
                logits = l.buffer(LOGITS);
                draftLogits = l.buffer(DRAFT_LOGITS);
                bound = l.generation();
            } catch (RuntimeException | Error e) {
                l.close();
                throw e;
            }
        }
        return l;
    }

    /** The one-token step's activations (one row). */
    DecoderScratch one() {
        return one;
    }

    /** The beam step's activations (the state's largest batch of rows). */
    DecoderScratch beamOne() {
        return beamOne;
    }

    /** Each sequence's last row after its LayerNorm, for the logits. */
    Buffer last() {
        return last;
    }

    /** A row of logits per sequence. */
    Buffer logits() {
        return logits;
    }

    /** Activations of {@code count} rows: the region's, or (more rows than it holds) buffers of this state's own. */
    DecoderScratch rows(int count) {
        if (count <= rows.rows) {
            return rows;
        }
        if (ownRows == null || ownRows.rows < count) {
            if (ownRows != null) {
                ownRows.close();
                ownRows = null;
            }
            ownRows = new DecoderScratch(be, count, n);
        }
        return ownRows;
    }

    /** Logits of {@code count} draft positions: the region's, or (more than {@link #DRAFT_ROWS}) a buffer of its own. */
    Buffer draftLogits(int count) {
        if (count <= DRAFT_ROWS) {
            return draftLogits;
        }
        if (ownDraftLogits == null || ownDraftRows < count) {
            if (ownDraftLogits != null) {
                ownDraftLogits.close();
                ownDraftLogits = null;
            }
            ownDraftLogits = be.allocate((long) count * vocab, MemoryCategory.DECODER_SCRATCH);
            ownDraftRows = count;
        }
        return ownDraftLogits;
    }

    @Override
    public void close() {
        DecoderScratch.closeAll(ownDraftLogits);
        if (ownRows != null) {
            ownRows.close();
        }
        if (ownRegion) {
            region.close();
        }
    }
}
