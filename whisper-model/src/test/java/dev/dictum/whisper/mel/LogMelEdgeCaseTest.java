package dev.dictum.whisper.mel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LogMelEdgeCaseTest {

    private static final int N_MELS = 80;
    private static final int W = MelConstants.WINDOW_FRAMES;

    @Test
    void emptyAudioIsAllMinusOnePointFive() {
        // log10(1e-10) = -10 everywhere; the max is -10, so nothing is clamped; (-10 + 4) / 4 = -1.5.
        for (int nMels : new int[] {80, 128}) {
            float[] window = new LogMel(nMels).window(new float[0]);
            assertThat(window).hasSize(nMels * W).containsOnly(-1.5f);
            assertThat(streamWindow(new float[0], nMels)).isEqualTo(window);
        }
    }

    @Test
    void singleSampleGivesAFlatSpectrumInItsFirstFrame() {
        float[] audio = {0.5f};
        LogMel logMel = new LogMel(N_MELS);
        MelFrameQueue frames = logMel.allRawFrames(audio);
        assertThat(frames.endFrame()).isEqualTo(W); // (1 + 480000) / 160
        // Frame 0 sees only sample 0, at its centre where the Hann window is 1: |X[k]|^2 = 0.25.
        double[][] filters = MelFilterBank.slaney(N_MELS).dense();
        for (int m = 0; m < N_MELS; m++) {
            double sum = 0;
            for (double w : filters[m]) {
                sum += w;
            }
            assertThat((double) frames.get(0, m)).isCloseTo(Math.log10(0.25 * sum), org.assertj.core.data.Offset.offset(1e-6));
        }
        // Frames 2 onwards no longer reach sample 0.
        for (int t = 2; t < W; t++) {
            for (int m = 0; m < N_MELS; m++) {
                assertThat(frames.get(t, m)).isEqualTo(MelConstants.RAW_SILENCE);
            }
        }
        assertThat(streamWindow(audio, N_MELS)).isEqualTo(logMel.window(audio));
    }

    @Test
    void exactlyThirtySeconds() {
        float[] audio = LogMelStreamTest.synthetic(MelConstants.WINDOW_SAMPLES, 21);
        LogMel logMel = new LogMel(N_MELS);
        float[] window = logMel.window(audio);
        assertThat(window).hasSize(N_MELS * W);
        assertThat(streamWindow(audio, N_MELS)).isEqualTo(window);
        // The frames past 30 s exist in the stream and are the reference's (zero padding after the end).
        MelFrameQueue frames = LogMelStreamTest.streamInRandomChunks(audio, N_MELS, new Random(2), 5000);
        assertThat(frames.endFrame()).isEqualTo(2 * W);
        assertThat(LogMelNormalizer.window(frames, W)).isEqualTo(LogMelNormalizer.window(logMel.allRawFrames(audio), W));
    }

    @Test
    void oneSamplePastThirtySecondsOnlyTouchesTheLastFrame() {
        float[] shorter = LogMelStreamTest.synthetic(MelConstants.WINDOW_SAMPLES, 21);
        float[] longer = java.util.Arrays.copyOf(shorter, MelConstants.WINDOW_SAMPLES + 1);
        longer[MelConstants.WINDOW_SAMPLES] = 0.9f;
        LogMel logMel = new LogMel(N_MELS);
        MelFrameQueue a = logMel.allRawFrames(shorter);
        MelFrameQueue b = logMel.allRawFrames(longer);
        assertThat(b.endFrame()).isEqualTo(2 * W); // (480001 + 480000) / 160 rounds down
        for (int t = 0; t < W - 1; t++) {
            for (int m = 0; m < N_MELS; m++) {
                assertThat(b.get(t, m)).isEqualTo(a.get(t, m));
            }
        }
        // Frame 2999 covers samples [479800, 480200), so sample 480000 lands in it.
        boolean differs = false;
        for (int m = 0; m < N_MELS; m++) {
            differs |= b.get(W - 1, m) != a.get(W - 1, m);
        }
        assertThat(differs).isTrue();
        assertThat(streamWindow(longer, N_MELS)).isEqualTo(logMel.window(longer));
    }

    @Test
    void partialWindowTreatsMissingFramesAsSilence() {
        // Live use: normalise before the stream is finished; the tail reads as silence.
        float[] audio = LogMelStreamTest.synthetic(5 * MelConstants.SAMPLE_RATE, 4);
        MelFrameQueue frames = new MelFrameQueue(N_MELS);
        LogMelStream stream = new LogMelStream(N_MELS, frames);
        stream.push(audio);
        int produced = frames.endFrame();
        float[] live = LogMelNormalizer.window(frames, 0);
        stream.finish();
        float[] finished = LogMelNormalizer.window(frames, 0);
        // Identical except the frames that straddle the end of the audio (not yet computable live).
        for (int m = 0; m < N_MELS; m++) {
            for (int t = 0; t < W; t++) {
                if (t < produced || t >= audio.length / MelConstants.HOP_LENGTH + 2) {
                    assertThat(live[m * W + t]).isEqualTo(finished[m * W + t]);
                }
            }
        }
    }

    private static float[] streamWindow(float[] audio, int nMels) {
        return LogMelNormalizer.window(LogMelStreamTest.streamInRandomChunks(audio, nMels, new Random(9), 777), 0);
    }
}
