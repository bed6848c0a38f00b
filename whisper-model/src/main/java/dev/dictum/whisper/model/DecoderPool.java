package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import java.util.function.BooleanSupplier;

/**
 * Where decoder states come from. While {@code keep} says yes (a backend that captures decoder steps), one
 * greedy state (room for one sequence) outlives its transcription: closing the handle
 * {@link #lease} gave puts it back, and the next greedy transcription gets the same state with its
 * captured step, valid for the model's pooled window buffers. A second greedy state wanted while
 * the first is out is made fresh and freed when given back if one is already waiting; beam and
 * best-of states (several sequences) are made per transcription as before. A state whose last call
 * threw is freed, not kept. Thread-safe.
 */
final class DecoderPool {
    private final Backend be;
    private final TextDecoder dec;
    private final ScratchRegion scratch;
    private final BooleanSupplier keep;
    private KvDecoderState idle;
    private boolean closed;

    DecoderPool(Backend be, TextDecoder dec, ScratchRegion scratch, BooleanSupplier keep) {
        this.be = be;
        this.dec = dec;
        this.scratch = scratch;
        this.keep = keep;
    }

    DecoderState lease(int maxBatch) {
        if (maxBatch != 1 || !keep.getAsBoolean()) {
            return new KvDecoderState(be, dec, scratch, maxBatch);
        }
        KvDecoderState s;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("model closed");
            }
            s = idle;
            idle = null;
        }
        return new Lease(s != null ? s : new KvDecoderState(be, dec, scratch, 1));
    }

    private void giveBack(KvDecoderState s) {
        boolean wanted = keep.getAsBoolean();
        synchronized (this) {
            if (!closed && idle == null && wanted) {
                idle = s;
                return;
            }
        }
        s.close();
    }

    /** Whether a state is waiting for the next transcription (tests). */
    synchronized boolean holdsIdle() {
        return idle != null;
    }

    synchronized void close() {
        closed = true;
        if (idle != null) {
            idle.close();
            idle = null;
        }
    }

    /** A pooled state, lent until {@link #close()}; unusable after it. */
    private final class Lease implements DecoderState {
        private KvDecoderState state;
        /** False while a call is running or after one threw: such a state is not given back. */
        private boolean healthy = true;

        Lease(KvDecoderState state) {
            this.state = state;
        }

        private KvDecoderState open() {
            if (state == null) {
                throw new IllegalStateException("decoder state closed");
            }
            return state;
        }

        @Override
        public void reset(EncodedAudio audio, int batch) {
            KvDecoderState s = open();
            healthy = false;
            s.reset(audio, batch);
            healthy = true;
        }

        @Override
        public void feed(int[][] tokens, float[][] logits) {
            KvDecoderState s = open();
            healthy = false;
            s.feed(tokens, logits);
            healthy = true;
        }

        @Override
        public void feedAll(int[] tokens, int from, float[][] logits) {
            KvDecoderState s = open();
            healthy = false;
            s.feedAll(tokens, from, logits);
            healthy = true;
        }

        @Override
        public void truncate(int length) {
            open().truncate(length);
        }

        @Override
        public void reorder(int[] sourceOf) {
            KvDecoderState s = open();
            healthy = false;
            s.reorder(sourceOf);
            healthy = true;
        }

        @Override
        public int batch() {
            return open().batch();
        }

        @Override
        public int length() {
            return open().length();
        }

        @Override
        public void close() {
            if (state == null) {
                return;
            }
            KvDecoderState s = state;
            state = null;
            if (healthy) {
                giveBack(s);
            } else {
                s.close();
            }
        }
    }
}
