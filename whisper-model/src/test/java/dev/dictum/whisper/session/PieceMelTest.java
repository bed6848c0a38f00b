package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The open piece's log-mel kept from job to job gives every job the windows that computing its
 * audio from scratch gives, bit for bit: growing audio, a pause's tail after the fed audio, a job over
 * less audio than was fed (a committed piece), the first frames (reflected) and very short audio.
 */
class PieceMelTest {
    private static final int N_MELS = 80;

    private static StreamingMelSource scratch(float[] audio) {
        StreamingMelSource m = new StreamingMelSource(N_MELS);
        m.push(audio, 0, audio.length);
        m.finish();
        return m;
    }

    private static void assertSame(StreamingMelSource got, float[] audio, String what) {
        StreamingMelSource want = scratch(audio);
        assertThat(got.totalFrames()).as(what).isEqualTo(want.totalFrames());
        float[] g = got.window(0);
        float[] w = want.window(0);
        assertThat(Arrays.equals(g, w)).as(what + ": window bit for bit").isTrue();
    }

    @Test
    void everyJobGetsTheFromScratchWindow() {
        SplittableRandom r = new SplittableRandom(7);
        float[] dictation = new float[16000 * 12];
        for (int i = 0; i < dictation.length; i++) {
            dictation[i] = (float) (0.3 * Math.sin(i * 0.031 * (1 + (i / 8000) % 5)) + 0.05 * r.nextGaussian());
        }
        PieceMel cache = new PieceMel(N_MELS, 0);
        int[] fedPoints = {150, 201, 359, 360, 361, 4000, 16000, 16001, 40000, 40000, 95000, 150000, 191999};
        for (int fed : fedPoints) {
            float[] audio = Arrays.copyOf(dictation, fed);
            assertSame(cache.source(audio, fed), audio, "fed " + fed);
            // a speculation: the fed audio plus a tail of quiet that was not fed
            float[] withTail = Arrays.copyOf(audio, fed + 6400);
            assertSame(cache.source(withTail, fed), withTail, "fed " + fed + " + tail");
            // a committed piece shorter than what was fed
            int cut = Math.max(1, fed - 1234);
            float[] piece = Arrays.copyOf(dictation, cut);
            assertSame(cache.source(piece, cut), piece, "piece of " + cut + " after " + fed + " fed");
        }
    }
}
