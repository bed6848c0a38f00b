package dev.dictum.whisper.session;

import dev.dictum.whisper.decode.MelWindowSource;
import dev.dictum.whisper.mel.LogMelNormalizer;
import dev.dictum.whisper.mel.LogMelStream;
import dev.dictum.whisper.mel.MelConstants;
import dev.dictum.whisper.mel.MelFrameQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Log-mel computed while audio arrives, served to the seek loop window by window. The producer
 * (whoever feeds audio) and the consumer (the decoding thread) meet here: {@link #window} waits
 * until its 3000 frames exist or the audio has ended, and {@link #push} waits while more than
 * {@link #MAX_WINDOWS_AHEAD} windows are queued past what the decoder still needs. Both bounds
 * together keep a two-hour file in a few megabytes of frames.
 */
final class StreamingMelSource implements MelWindowSource {
    /** Frames the producer may run ahead of the decoder's seek before it waits. */
    static final int MAX_WINDOWS_AHEAD = 3;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final MelFrameQueue frames;
    private final LogMelStream stream;
    private final int nMels;
    private boolean finished;
    private boolean cancelled;
    /** Left behind by a session that moved to another source (GPU failure): pushes are dropped. */
    private boolean abandoned;
    private long melNanos;

    StreamingMelSource(int nMels) {
        this(nMels, 0);
    }

    /**
     * A source whose frames 0..startFrame-1 the caller gives ({@link #acceptFrames}) before pushing
     * audio from sample {@link LogMelStream#firstSampleOf(int) firstSampleOf(startFrame)} on.
     */
    StreamingMelSource(int nMels, int startFrame) {
        this.nMels = nMels;
        this.frames = new MelFrameQueue(nMels);
        this.stream = new LogMelStream(nMels, frames, startFrame);
    }

    /** The first {@code count} raw frames, {@code nMels} floats each, frame after frame (before any push). */
    void acceptFrames(float[] raw, int count) {
        lock.lock();
        try {
            float[] frame = new float[nMels];
            for (int i = 0; i < count; i++) {
                System.arraycopy(raw, i * nMels, frame, 0, nMels);
                frames.acceptFrame(i, frame);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Adds 16 kHz mono samples; blocks while the decoder is far behind. */
    void push(float[] samples, int offset, int length) {
        lock.lock();
        try {
            while (!cancelled && !abandoned && frames.size() > MAX_WINDOWS_AHEAD * MelConstants.WINDOW_FRAMES) {
                changed.awaitUninterruptibly();
            }
            if (cancelled) {
                throw new CancellationException("transcription cancelled");
            }
            if (abandoned) {
                return;
            }
            if (finished) {
                throw new IllegalStateException("audio fed after the session was finished");
            }
            long t0 = System.nanoTime();
            stream.push(samples, offset, length);
            melNanos += System.nanoTime() - t0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** No one reads this source any more: a producer waiting in {@link #push} returns, later pushes are dropped. */
    void abandon() {
        lock.lock();
        try {
            abandoned = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The end of the audio: the trailing frames are computed against the zero padding. */
    void finish() {
        lock.lock();
        try {
            if (!finished) {
                long t0 = System.nanoTime();
                stream.finish();
                melNanos += System.nanoTime() - t0;
                finished = true;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes a waiting decoder or producer with a CancellationException. */
    void cancel() {
        lock.lock();
        try {
            cancelled = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    long melNanos() {
        lock.lock();
        try {
            return melNanos;
        } finally {
            lock.unlock();
        }
    }

    long samplesPushed() {
        lock.lock();
        try {
            return stream.samplesPushed();
        } finally {
            lock.unlock();
        }
    }

    /** Frames held now (for tests of the memory bound). */
    int queuedFrames() {
        lock.lock();
        try {
            return frames.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int melBins() {
        return nMels;
    }

    @Override
    public int totalFrames() {
        lock.lock();
        try {
            return finished ? contentFrames() : UNKNOWN;
        } finally {
            lock.unlock();
        }
    }

    /** Frames of audio content, as OpenAI counts them: the padded spectrogram less one window. */
    private int contentFrames() {
        return frames.endFrame() - MelConstants.WINDOW_FRAMES;
    }

    @Override
    public float[] window(int seekFrame) {
        lock.lock();
        try {
            while (!cancelled && !finished && frames.endFrame() < seekFrame + MelConstants.WINDOW_FRAMES) {
                changed.awaitUninterruptibly();
            }
            if (cancelled) {
                throw new CancellationException("transcription cancelled");
            }
            float[] out = new float[nMels * MelConstants.WINDOW_FRAMES];
            int silentFrom = finished ? LogMelStream.firstSilentFrame(stream.samplesPushed()) : Integer.MAX_VALUE;
            LogMelNormalizer.window(frames, seekFrame, out, silentFrom);
            return out;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void discardBefore(int frame) {
        lock.lock();
        try {
            frames.discardBefore(Math.min(frame, frames.endFrame()));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
