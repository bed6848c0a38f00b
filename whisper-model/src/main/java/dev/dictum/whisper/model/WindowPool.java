package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import java.util.function.BooleanSupplier;

/**
 * Where encoded windows get their buffers. While {@code keep} says yes (a backend that captures
 * decoder steps; once it refuses graphs the home set is freed at its next return), one "home" set for full-size windows outlives its window: the next full window that is
 * encoded after the previous holder was closed takes the same buffers, so the decoder state's
 * captured step (which names them) is replayed instead of captured again. A window encoded while
 * the home set is still held (two windows alive at once: a speculative pass beside the final one,
 * beam search of one window while another is encoded) and every window of another size
 * ({@code --audio-ctx}) gets a fresh set that its close frees. Thread-safe.
 */
final class WindowPool {
    private final Backend be;
    private final int fullFrames;
    private final int cols;
    private final int layers;
    private final BooleanSupplier keep;
    private WindowBuffers home;
    private boolean homeHeld;
    private boolean closed;

    WindowPool(Backend be, int fullFrames, int cols, int layers, BooleanSupplier keep) {
        this.be = be;
        this.fullFrames = fullFrames;
        this.cols = cols;
        this.layers = layers;
        this.keep = keep;
    }

    /** Buffers for a window of {@code frames} encoder positions, held until {@link #give}. */
    synchronized WindowBuffers take(int frames) {
        if (closed) {
            throw new IllegalStateException("model closed");
        }
        if (frames == fullFrames && !homeHeld && keep.getAsBoolean()) {
            if (home == null) {
                home = WindowBuffers.allocate(be, frames, cols, layers);
            }
            homeHeld = true;
            return home;
        }
        return WindowBuffers.allocate(be, frames, cols, layers);
    }

    /** Gives back what {@link #take} gave: the home set waits for the next window, any other set is freed. */
    synchronized void give(WindowBuffers b) {
        if (b == home) {
            homeHeld = false;
            if (closed || !keep.getAsBoolean()) {
                home.free();
                home = null;
            }
        } else {
            b.free();
        }
    }

    /** Whether {@code b} is the set kept from window to window (tests, logs). */
    synchronized boolean isHome(WindowBuffers b) {
        return b != null && b == home;
    }

    /** Frees the home set now, or when its window is closed. */
    synchronized void close() {
        closed = true;
        if (home != null && !homeHeld) {
            home.free();
            home = null;
        }
    }
}
