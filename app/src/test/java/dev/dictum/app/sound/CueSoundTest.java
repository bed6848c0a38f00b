package dev.dictum.app.sound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.AudioSettings;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class CueSoundTest {

    static short[] samples(byte[] pcm) {
        short[] s = new short[pcm.length / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) ((pcm[2 * i] & 0xff) | (pcm[2 * i + 1] << 8));
        }
        return s;
    }

    static int peak(short[] s) {
        int p = 0;
        for (short v : s) {
            p = Math.max(p, Math.abs(v));
        }
        return p;
    }

    @Test
    void cuesAreShortSoftEdgedAndScaleWithTheVolume() {
        for (CueSound c : CueSound.values()) {
            short[] full = samples(c.pcm(1.0));
            assertThat(c.millis()).isBetween(100L, 250L);
            assertThat(full.length).isCloseTo((int) (CueSound.RATE * c.millis() / 1000), Offset.offset(4));
            assertThat(Math.abs(full[0])).isZero(); // fades in: no click
            assertThat(Math.abs(full[full.length - 1])).isLessThan(200); // fades out
            assertThat(peak(full)).isBetween(15000, 16500); // half scale at full volume
            assertThat(peak(samples(c.pcm(0.4)))).isBetween(6000, 6700);
            assertThat(peak(samples(c.pcm(0)))).isZero();
        }
    }

    @Test
    void startRisesAndStopFalls() {
        assertThat(zeroCrossings(CueSound.START.pcm(1), 0, 0.06))
                .isLessThan(zeroCrossings(CueSound.START.pcm(1), 0.08, 0.14));
        assertThat(zeroCrossings(CueSound.STOP.pcm(1), 0, 0.06))
                .isGreaterThan(zeroCrossings(CueSound.STOP.pcm(1), 0.08, 0.14));
    }

    @Test
    void offCuesAreNotQueuedAndPlayingNeverBlocks() {
        AtomicReference<AudioSettings> s = new AtomicReference<>(AudioSettings.defaults().withSoundCues(false));
        try (SoundCues cues = new SoundCues(s::get)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                cues.play(CueSound.START); // off: nothing queued
            }
            s.set(AudioSettings.defaults());
            for (int i = 0; i < 50; i++) {
                cues.play(CueSound.STOP); // on: two wait, the rest are dropped, none blocks
            }
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(200);
        }
    }

    private static int zeroCrossings(byte[] pcm, double fromSeconds, double toSeconds) {
        short[] s = samples(pcm);
        int n = 0;
        for (int i = (int) (fromSeconds * CueSound.RATE) + 1; i < (int) (toSeconds * CueSound.RATE); i++) {
            if ((s[i - 1] < 0) != (s[i] < 0)) {
                n++;
            }
        }
        return n;
    }
}
