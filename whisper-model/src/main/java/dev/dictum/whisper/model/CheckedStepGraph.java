package dev.dictum.whisper.model;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.StepGraph;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * One kind of decoder step captured as a graph (a backend with graphs: CUDA), valid for the window
 * buffers and the number of rows it was captured with. The first capture is checked: the step has just
 * run eagerly; its logits are poisoned with NaN, the graph replays the same step (rewriting the same
 * cache rows) and must give the eager logits bit for bit; a failure or a mismatch calls
 * {@code refuse} with why, restores the eager logits and turns this kind of step eager for good.
 */
final class CheckedStepGraph implements AutoCloseable {
    private final Backend be;
    private final int vocab;
    private final String what;
    private final Consumer<String> refuse;
    private StepGraph graph;
    private WindowBuffers window;
    private int rows;
    private boolean checked;
    private boolean off;

    /**
     * @param what   the step, for messages ("decoder step", "beam step")
     * @param refuse told why when a capture fails or its replay differs
     */
    CheckedStepGraph(Backend be, int vocab, String what, Consumer<String> refuse) {
        this.be = be;
        this.vocab = vocab;
        this.what = what;
        this.refuse = refuse;
    }

    /** Whether a graph of {@code rows} rows over {@code w} is ready to replay. */
    boolean replays(WindowBuffers w, int rows) {
        return graph != null && window == w && this.rows == rows;
    }

    void replay() {
        graph.replay();
    }

    /** Whether this kind of step runs eagerly for good (no graphs here, or one was refused). */
    boolean off() {
        return off;
    }

    /**
     * Captures {@code step}, which has just run eagerly over {@code w} for {@code rows} rows, its logits in
     * the first {@code rows * vocab} floats of {@code logits}; the first capture is checked as the class says.
     */
    void capture(Runnable step, WindowBuffers w, int rows, Buffer logits) {
        drop();
        StepGraph g;
        try {
            g = be.capture(step);
        } catch (RuntimeException e) {
            refuse("capturing the " + what + " failed: " + e.getMessage());
            return;
        }
        if (g == null) {
            off = true;
            return;
        }
        if (!checked) {
            int floats = rows * vocab;
            float[] eager = new float[floats];
            float[] replayed = new float[floats];
            float[] poison = new float[floats];
            Arrays.fill(poison, Float.NaN);
            try {
                be.download(logits, 0, eager, 0, floats);
                be.upload(poison, 0, logits, 0, floats);
                g.replay();
                be.download(logits, 0, replayed, 0, floats);
            } catch (RuntimeException e) {
                g.close();
                refuse("replaying the " + what + " failed: " + e.getMessage());
                be.upload(eager, 0, logits, 0, floats);
                return;
            }
            if (!Arrays.equals(eager, replayed)) {
                g.close();
                refuse("the replayed " + what + "'s logits differ from the eager step's");
                be.upload(eager, 0, logits, 0, floats);
                return;
            }
            checked = true;
        }
        graph = g;
        window = w;
        this.rows = rows;
    }

    private void refuse(String why) {
        off = true;
        refuse.accept(why);
    }

    /** Frees the graph unless it is over {@code w}. */
    void dropUnless(WindowBuffers w) {
        if (window != w) {
            drop();
        }
    }

    /** Frees the graph (the buffers it names are about to change). */
    void drop() {
        if (graph != null) {
            graph.close();
            graph = null;
        }
        window = null;
    }

    @Override
    public void close() {
        drop();
    }
}
