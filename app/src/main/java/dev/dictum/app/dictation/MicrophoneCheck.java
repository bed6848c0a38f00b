package dev.dictum.app.dictation;

import dev.dictum.app.sound.Playback;
import dev.dictum.audio.capture.AudioSink;
import dev.dictum.audio.capture.Microphone;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The settings window's "Test": records a few seconds from the chosen input through the running
 * microphone (never while a dictation records or is transcribed) and plays them back.
 */
public final class MicrophoneCheck {
    private static final int TEST_SECONDS = 3;

    private final Microphone mic;
    private final DictationController controller;

    public MicrophoneCheck(Microphone mic, DictationController controller) {
        this.mic = mic;
        this.controller = controller;
    }

    /** Completes with a one-line result ("Recorded 3.0 s, peak -12 dBFS; played back"), or fails with why not. */
    public CompletableFuture<String> run() {
        return CompletableFuture.supplyAsync(() -> {
            if (controller.status().state() != DictationState.IDLE) {
                throw new IllegalStateException("Dictum is recording or transcribing; try again when it is done");
            }
            float[] audio = new float[16000 * TEST_SECONDS];
            int[] filled = {0};
            String[] lost = {null};
            AudioSink sink = new AudioSink() {
                @Override
                public void audio(float[] s) {
                    synchronized (filled) {
                        int n = Math.min(s.length, audio.length - filled[0]);
                        System.arraycopy(s, 0, audio, filled[0], n);
                        filled[0] += n;
                    }
                }

                @Override
                public void deviceLost(String reason) {
                    lost[0] = reason;
                }
            };
            if (!mic.attach(sink)) {
                throw new IllegalStateException("no microphone: " + mic.problem());
            }
            try {
                Thread.sleep(TEST_SECONDS * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                mic.detach();
            }
            if (lost[0] != null) {
                throw new IllegalStateException("the microphone stopped: " + lost[0]);
            }
            float peak = 0;
            for (int i = 0; i < filled[0]; i++) {
                peak = Math.max(peak, Math.abs(audio[i]));
            }
            Playback.play16k(audio, filled[0]);
            return String.format(Locale.ROOT, "Recorded %.1f s, peak %.0f dBFS; played back",
                    filled[0] / 16000.0, 20 * Math.log10(Math.max(peak, 1e-5)));
        });
    }
}
