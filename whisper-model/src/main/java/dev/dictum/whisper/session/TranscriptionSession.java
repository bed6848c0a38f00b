package dev.dictum.whisper.session;

import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.decode.Transcriber;
import java.util.concurrent.CancellationException;

/**
 * One utterance or file being transcribed: fed audio while it is still being recorded, then
 * finished. Decoding runs on its own thread from the start, so every 30-second window that is
 * complete is encoded and decoded while the user is still talking; {@link #finish()} only waits
 * for the last one. Not for use by several feeding threads at once.
 */
public final class TranscriptionSession implements AutoCloseable {
    private final StreamingMelSource mel;
    private final Thread decoder;
    private volatile TranscriptionResult result;
    private volatile RuntimeException failure;
    private volatile boolean closed;

    TranscriptionSession(Transcriber transcriber, int nMels, TranscribeOptions options, ProgressListener progress) {
        this.mel = new StreamingMelSource(nMels);
        this.decoder = Thread.ofPlatform().name("dictum-decode").daemon().unstarted(() -> {
            try {
                result = transcriber.transcribe(mel, options, progress);
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
        mel.push(samples, offset, length);
    }

    public void feed(float[] samples) {
        feed(samples, 0, samples.length);
    }

    /** Seconds of audio fed so far. */
    public double secondsFed() {
        return mel.samplesPushed() / 16000.0;
    }

    /** Ends the audio and waits for the transcript. */
    public TranscriptionResult finish() {
        checkOpen();
        mel.finish();
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
