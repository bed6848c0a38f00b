package dev.dictum.app.sound;

import dev.dictum.audio.AudioInput;
import java.io.IOException;
import java.nio.file.Path;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.SourceDataLine;

/** Plays 16 kHz mono audio on the default output, blocking until it has been heard. */
public final class Playback {
    private Playback() {
    }

    /** Plays the first {@code n} samples. */
    public static void play16k(float[] samples, int n) {
        AudioFormat format = new AudioFormat(16000, 16, 1, true, false);
        byte[] pcm = new byte[n * 2];
        for (int i = 0; i < n; i++) {
            int v = Math.round(Math.max(-1f, Math.min(1f, samples[i])) * 32767);
            pcm[2 * i] = (byte) v;
            pcm[2 * i + 1] = (byte) (v >> 8);
        }
        try (SourceDataLine line = AudioSystem.getSourceDataLine(format)) {
            line.open(format);
            line.start();
            line.write(pcm, 0, pcm.length);
            line.drain();
        } catch (Exception e) {
            throw new IllegalStateException("cannot play back: " + e.getMessage(), e);
        }
    }

    /** Plays a saved recording (any WAV the audio module reads). */
    public static void playWav(Path wav) throws IOException {
        float[] audio = AudioInput.readMono16k(wav);
        play16k(audio, audio.length);
    }
}
