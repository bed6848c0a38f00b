package dev.dictum.whisper.session;

import dev.dictum.gpu.BackendFailure;
import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.decode.Transcriber;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.function.Function;

/**
 * One utterance or file being transcribed: fed audio while it is still being recorded, then
 * finished. Decoding runs on its own thread from the start, so every 30-second window that is
 * complete is encoded and decoded while the user is still talking; {@link #finish()} only waits
 * for the last one. Not for use by several feeding threads at once.
 *
 * <p>On a backend that can fail (a GPU), the session keeps the audio it was fed. If the device fails
 * mid-transcription, the decoding thread takes a CPU transcriber from {@code fallback}, moves to a
 * fresh log-mel source, replays the kept audio into it and transcribes from the start: the caller
 * gets the CPU's result and loses nothing it said.
 */
public final class TranscriptionSession implements AutoCloseable {
    private final int nMels;
    private final Thread decoder;
    private final Function<BackendFailure, Transcriber> fallback;
    private final Object lock = new Object();
    private volatile StreamingMelSource mel;
    private float[] kept = new float[0];
    private int keptLength;
    /** While true, fed audio is only kept; the replay thread pushes it into the new source. */
    private boolean replaying;
    private boolean finishRequested;
    private volatile TranscriptionResult result;
    private volatile RuntimeException failure;
    private volatile boolean closed;

    TranscriptionSession(Transcriber transcriber, int nMels, TranscribeOptions options, ProgressListener progress) {
        this(transcriber, nMels, options, progress, null);
    }

    /** @param fallback gives a CPU transcriber after a device failure; null where none can fail */
    TranscriptionSession(Transcriber transcriber, int nMels, TranscribeOptions options, ProgressListener progress,
            Function<BackendFailure, Transcriber> fallback) {
        this.nMels = nMels;
        this.mel = new StreamingMelSource(nMels);
        this.fallback = fallback;
        this.decoder = Thread.ofPlatform().name("dictum-decode").daemon().unstarted(() -> {
            try {
                try {
                    result = transcriber.transcribe(mel, options, progress);
                } catch (BackendFailure e) {
                    if (fallback == null) {
                        throw e;
                    }
                    Transcriber cpu = fallback.apply(e);
                    result = cpu.transcribe(switchToReplay(), options, progress);
                }
            } catch (CancellationException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = e;
                mel.cancel(); // unblock a producer waiting for room
            } catch (Error e) {
                failure = new IllegalStateException("decoding failed: " + e, e);
                mel.cancel();
            }
        });
        decoder.start();
    }

    /**
     * Feeds 16 kHz mono samples in [-1, 1]. May block briefly while decoding catches up.
     *
     * @throws IllegalArgumentException on a NaN or infinite sample (nothing of this chunk is used)
     */
    public void feed(float[] samples, int offset, int length) {
        checkOpen();
        for (int i = offset; i < offset + length; i++) {
            if (!Float.isFinite(samples[i])) {
                throw new IllegalArgumentException("audio sample " + (mel.samplesPushed() + i - offset) + " is "
                        + samples[i]);
            }
        }
        if (failure != null) {
            throw failure;
        }
        StreamingMelSource target;
        synchronized (lock) {
            if (fallback != null) {
                keep(samples, offset, length);
            }
            target = replaying ? null : mel;
        }
        if (target != null) {
            target.push(samples, offset, length);
        }
    }

    public void feed(float[] samples) {
        feed(samples, 0, samples.length);
    }

    private void keep(float[] samples, int offset, int length) {
        if (keptLength + length > kept.length) {
            kept = Arrays.copyOf(kept, Math.max(keptLength + length, kept.length * 2));
        }
        System.arraycopy(samples, offset, kept, keptLength, length);
        keptLength += length;
    }

    /**
     * On the decoding thread after a device failure: a new source, fed the kept audio by a replay
     * thread (the decoder must be free to consume while it pushes), then whatever arrives after.
     */
    private StreamingMelSource switchToReplay() {
        StreamingMelSource fresh = new StreamingMelSource(nMels);
        StreamingMelSource old;
        synchronized (lock) {
            old = mel;
            mel = fresh;
            replaying = true;
        }
        old.abandon();
        Thread.ofPlatform().name("dictum-replay").daemon().start(() -> {
            try {
                int done = 0;
                while (true) {
                    int upTo;
                    float[] source;
                    synchronized (lock) {
                        upTo = keptLength;
                        source = kept;
                        if (done == upTo) {
                            replaying = false;
                            if (finishRequested) {
                                fresh.finish();
                            }
                            return;
                        }
                    }
                    int n = Math.min(upTo - done, 16000);
                    fresh.push(source, done, n);
                    done += n;
                }
            } catch (CancellationException e) {
                // cancelled while replaying: the decoder sees it too
            }
        });
        return fresh;
    }

    /** Seconds of audio fed so far. */
    public double secondsFed() {
        if (fallback != null) {
            synchronized (lock) {
                return keptLength / 16000.0;
            }
        }
        return mel.samplesPushed() / 16000.0;
    }

    /** Ends the audio and waits for the transcript. */
    public TranscriptionResult finish() {
        checkOpen();
        synchronized (lock) {
            finishRequested = true;
            if (!replaying) {
                mel.finish();
            }
        }
        join();
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    /** Nanoseconds spent computing log-mel so far. */
    public long melNanos() {
        return mel.melNanos();
    }

    /** Stops decoding and drops the audio. */
    public void cancel() {
        mel.cancel();
        join();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (decoder.isAlive()) {
                cancel();
            }
        }
    }

    private void join() {
        try {
            decoder.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            mel.cancel();
            throw new CancellationException("interrupted while waiting for the transcript");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
    }
}
