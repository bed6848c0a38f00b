package dev.dictum.app.dictation;

import dev.dictum.app.os.TargetWindow;
import dev.dictum.audio.capture.AudioSink;
import dev.dictum.audio.vad.SpeechTrimmer;
import dev.dictum.audio.vad.VoiceActivityDetector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One recording in progress: keeps every sample (for its WAV) and streams the part the speech
 * trimmer lets through into the engine session, so decoding runs while the user speaks. Audio
 * arrives on the capture thread; everything else happens on the controller's threads.
 */
final class Recording implements AudioSink {
    final Instant startedAt;
    final long startNanos;
    final TargetWindow target;
    private final GrowingAudio all = new GrowingAudio();
    private final SpeechTrimmer trimmer;
    private final SpeechStretch stretch = new SpeechStretch();
    private final List<float[]> unsent = new ArrayList<>();
    private final Consumer<Recording> onDeviceLost;
    private Dictation session;
    private RuntimeException feedFailure;
    private boolean closed;
    volatile String lostReason;
    volatile long stopNanos;
    volatile boolean enterAfter;
    private int preRollSamples;
    /** Where the audio also goes as it arrives, to survive a crash; null when none could be created. */
    volatile CaptureJournal journal;

    private final boolean trim;

    /** @param trim pass only the speech (and its margins) to the engine; false: everything recorded */
    Recording(Instant startedAt, long startNanos, TargetWindow target, Dictation session, float speechThresholdDb,
            boolean trim, Consumer<Recording> onDeviceLost) {
        this.trim = trim;
        this.startedAt = startedAt;
        this.startNanos = startNanos;
        this.target = target;
        this.session = session;
        this.onDeviceLost = onDeviceLost;
        // The trimmer's events are the one source of pauses: the session cuts and speculates on them,
        // the long-speech warning follows the same pieces (SpeechStretch).
        this.trimmer = new SpeechTrimmer(new VoiceActivityDetector(speechThresholdDb), chunk -> {
            stretch.fed(chunk.length);
            if (this.trim) {
                send(chunk);
            }
        });
        // At a pause the trimmed recording so far is known up to its tail: the session may transcribe it.
        trimmer.onPause((tail, quietSeconds) -> {
            stretch.paused(tail.length, quietSeconds);
            if (this.trim && this.session != null && feedFailure == null) {
                this.session.pause(tail, quietSeconds);
            }
        });
    }

    @Override
    public synchronized void audio(float[] samples16k) {
        if (closed) {
            return;
        }
        all.append(samples16k);
        CaptureJournal j = journal;
        if (j != null) {
            j.append(samples16k);
        }
        trimmer.push(samples16k); // also without trimming: it still measures whether anyone spoke
        if (!trim) {
            send(samples16k);
        }
    }

    @Override
    public void deviceLost(String reason) {
        lostReason = reason;
        onDeviceLost.accept(this);
    }

    /** No more audio: flushes the trimmer's tail into the session. */
    synchronized void close() {
        if (!closed) {
            closed = true;
            trimmer.finish();
        }
    }

    synchronized float[] samples() {
        return all.toArray();
    }

    /** Marks what arrived so far as the microphone's pre-buffer (sent during attach). */
    synchronized void markPreRoll() {
        preRollSamples = all.size();
    }

    /** Audio recorded after the press, in milliseconds (what "too short" is judged on). */
    synchronized long heldMillis() {
        return (all.size() - preRollSamples) / 16L;
    }

    synchronized double seconds() {
        return all.size() / 16000.0;
    }

    /** The recording's outcome is kept (WAV saved, or not worth keeping): its crash journal goes. */
    void dropJournal() {
        CaptureJournal j = journal;
        journal = null;
        if (j != null) {
            j.discard();
        }
    }

    boolean heardSpeech() {
        return trimmer.heardSpeech();
    }

    /** Whether the speech has gone on so long without a pause that the session must cut mid-sentence. */
    boolean longSpeech() {
        return stretch.tooLong();
    }

    /** The session to finish: the streaming one, or one started now with everything kept back. */
    synchronized Dictation session(SpeechEngine lateEngine) {
        if (feedFailure != null) {
            throw feedFailure;
        }
        if (session == null && lateEngine != null) {
            session = lateEngine.start();
            for (float[] chunk : unsent) {
                session.feed(chunk);
            }
            unsent.clear();
        }
        return session;
    }

    synchronized boolean hasSession() {
        return session != null;
    }

    synchronized void cancel() {
        closed = true;
        if (session != null) {
            session.cancel();
        }
    }

    private void send(float[] trimmed) {
        if (session == null) {
            unsent.add(trimmed);
            return;
        }
        if (feedFailure == null) {
            try {
                session.feed(trimmed);
            } catch (RuntimeException e) {
                feedFailure = e; // reported when the transcript is awaited; the WAV is kept
            }
        }
    }
}
