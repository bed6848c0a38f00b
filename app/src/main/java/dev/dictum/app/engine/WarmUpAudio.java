package dev.dictum.app.engine;

import dev.dictum.app.dictation.Dictation;
import dev.dictum.audio.WavStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * What a warm-up dictation says: a 3 s English sentence of synthetic speech (espeak-ng, "Tell Mark that
 * I will be 9 minutes late.", the toy-en sample_02 clip), fed as a real dictation arrives: 100 ms pieces,
 * then a pause whose tail the trimmer would hold back, then that tail. With a quiet tone (before session
 * 9) the decoder ran a token or two and the pass at a pause never ran, so the first real dictation after
 * a start met both half-compiled: its text came 157 ms after the release in type mode, against ~2 ms in
 * the dictations after it (session 8's last-mile run). Any model decodes a sentence of speech.
 */
final class WarmUpAudio {
    static final int RATE = 16000;
    /** The trimmer's tail: what a pause report carries and the release then feeds (330 ms). */
    static final int TAIL_SAMPLES = RATE * 33 / 100;
    private static final String RESOURCE = "warm-up.wav";

    private WarmUpAudio() {
    }

    /**
     * Feeds {@code audio} to {@code d} as a dictation ending in quiet arrives: 100 ms pieces, a pause report
     * carrying the trimmer's tail, the tail's own time of quiet (the pass at the pause runs meanwhile, as
     * while the user stays quiet before the release; without it, finish() could come before that pass
     * started and the release run instead), then the tail.
     */
    static void feedAsSpoken(Dictation d, float[] audio) throws InterruptedException {
        int held = audio.length - TAIL_SAMPLES;
        for (int at = 0; at < held; at += RATE / 10) {
            d.feed(Arrays.copyOfRange(audio, at, Math.min(held, at + RATE / 10)));
        }
        float[] tail = Arrays.copyOfRange(audio, held, audio.length);
        d.pause(tail, 0.4);
        Thread.sleep(TAIL_SAMPLES * 1000L / RATE);
        d.feed(tail);
    }

    /** The sentence at 16 kHz, or 2 s of a quiet 220 Hz tone where the resource cannot be read. */
    static float[] speech() {
        try (InputStream in = WarmUpAudio.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                try (WavStream wav = WavStream.open(in, RESOURCE)) {
                    if (wav.info().sampleRate() == RATE) {
                        float[] buf = new float[RATE * 10];
                        int n = 0;
                        for (int r; n < buf.length && (r = wav.read(buf, n, buf.length - n)) > 0; ) {
                            n += r;
                        }
                        if (n > TAIL_SAMPLES) {
                            return Arrays.copyOf(buf, n);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // the tone below still warms the encoder and the session
        }
        float[] tone = new float[RATE * 2];
        for (int i = 0; i < tone.length; i++) {
            tone[i] = (float) (0.05 * Math.sin(2 * Math.PI * 220 * i / RATE));
        }
        return tone;
    }
}
