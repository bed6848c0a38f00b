package dev.dictum.whisper.mel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogMelStreamTest {

    private static final int N_MELS = 80;

    @ParameterizedTest
    @CsvSource({"toy-en-samples/sample_01.wav, 80", "toy-multi-samples/sample_de_1.wav, 128"})
    void shortClipInRandomChunksEqualsOneShotBitwise(String wav, int nMels) throws Exception {
        float[] audio = MelTestData.readWav16kMono(MelTestData.data(wav));
        float[] oneShot = new LogMel(nMels).window(audio);
        for (long seed = 1; seed <= 3; seed++) {
            MelFrameQueue frames = streamInRandomChunks(audio, nMels, new Random(seed), 2000);
            assertThat(frames.endFrame()).isEqualTo((audio.length + MelConstants.WINDOW_SAMPLES) / MelConstants.HOP_LENGTH);
            assertThat(LogMelNormalizer.window(frames, 0)).isEqualTo(oneShot);
        }
    }

    @Test
    void longSignalWindowsAtAnySeekEqualOneShotBitwise() {
        float[] audio = synthetic(70 * MelConstants.SAMPLE_RATE, 11);
        MelFrameQueue reference = new LogMel(N_MELS).allRawFrames(audio);
        MelFrameQueue streamed = streamInRandomChunks(audio, N_MELS, new Random(5), 30_000);
        assertThat(streamed.endFrame()).isEqualTo(reference.endFrame()).isEqualTo(10_000);
        for (int seek : new int[] {0, 2917, 3000, 7000}) {
            float[] expected = LogMelNormalizer.window(reference, seek);
            assertThat(LogMelNormalizer.window(streamed, seek)).as("seek %d", seek).isEqualTo(expected);
        }
        // The first window of the long file is also what the one-shot API gives.
        assertThat(LogMelNormalizer.window(streamed, 0)).isEqualTo(new LogMel(N_MELS).window(audio));
    }

    @Test
    void framesAreEmittedAsSoonAsTheirSamplesArrive() {
        MelFrameQueue frames = new MelFrameQueue(N_MELS);
        LogMelStream stream = new LogMelStream(N_MELS, frames);
        stream.push(new float[200]);
        assertThat(frames.endFrame()).isZero(); // frame 0 reflects sample 200 too
        stream.push(new float[1]);
        assertThat(frames.endFrame()).isEqualTo(1);
        stream.push(new float[158]);
        assertThat(frames.endFrame()).isEqualTo(1); // frame 1 needs samples up to 359
        stream.push(new float[1]);
        assertThat(frames.endFrame()).isEqualTo(2);
        stream.push(new float[160 * 10]);
        assertThat(frames.endFrame()).isEqualTo(12);
    }

    @Test
    void longRecordingUsesBoundedMemoryWhenCallerDiscards() {
        // 5 minutes fed in 100 ms chunks; the caller decodes each window once its frames are in and
        // discards what lies before its seek, as a transcription loop would.
        float[] audio = synthetic(5 * 60 * MelConstants.SAMPLE_RATE, 3);
        MelFrameQueue reference = new LogMel(N_MELS).allRawFrames(audio);
        MelFrameQueue frames = new MelFrameQueue(N_MELS);
        LogMelStream stream = new LogMelStream(N_MELS, frames);
        int seek = 0;
        int windowsChecked = 0;
        int chunk = MelConstants.SAMPLE_RATE / 10;
        for (int pos = 0; pos < audio.length || !stream.isFinished(); pos += chunk) {
            if (pos < audio.length) {
                stream.push(audio, pos, Math.min(chunk, audio.length - pos));
            } else {
                stream.finish();
            }
            while (frames.endFrame() - seek >= MelConstants.WINDOW_FRAMES
                    && seek < audio.length / MelConstants.HOP_LENGTH) {
                assertThat(LogMelNormalizer.window(frames, seek)).isEqualTo(LogMelNormalizer.window(reference, seek));
                windowsChecked++;
                seek += 2917; // a decoder rarely advances by exactly one window
                frames.discardBefore(seek);
            }
            assertThat(frames.capacityFrames()).isLessThanOrEqualTo(2 * (MelConstants.WINDOW_FRAMES + 64));
        }
        assertThat(windowsChecked).isEqualTo(11);
        System.out.printf("5 min streamed: queue capacity %d frames (%d floats)%n",
                frames.capacityFrames(), frames.capacityFrames() * N_MELS);
    }

    @Test
    void discardedFramesCannotBeNormalised() {
        MelFrameQueue frames = new LogMel(N_MELS).allRawFrames(new float[1000]);
        frames.discardBefore(10);
        assertThat(frames.firstFrame()).isEqualTo(10);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LogMelNormalizer.window(frames, 9))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> frames.get(9, 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** Streams {@code audio} in chunks of 0..maxChunk samples, then finishes. */
    static MelFrameQueue streamInRandomChunks(float[] audio, int nMels, Random random, int maxChunk) {
        MelFrameQueue frames = new MelFrameQueue(nMels);
        LogMelStream stream = new LogMelStream(nMels, frames);
        int pos = 0;
        while (pos < audio.length) {
            int n = Math.min(audio.length - pos, random.nextInt(maxChunk + 1));
            // Push from a fresh array half of the time, to show the stream keeps no reference.
            if (random.nextBoolean()) {
                stream.push(java.util.Arrays.copyOfRange(audio, pos, pos + n));
            } else {
                stream.push(audio, pos, n);
            }
            pos += n;
        }
        stream.finish();
        return frames;
    }

    /** A speech-like test signal: gliding harmonics, bursts, silences and a little noise. */
    static float[] synthetic(int length, long seed) {
        Random random = new Random(seed);
        float[] out = new float[length];
        double phase = 0;
        for (int i = 0; i < length; i++) {
            double t = (double) i / MelConstants.SAMPLE_RATE;
            double f0 = 120 + 60 * Math.sin(2 * Math.PI * 0.3 * t);
            phase += 2 * Math.PI * f0 / MelConstants.SAMPLE_RATE;
            double envelope = Math.max(0, Math.sin(2 * Math.PI * 0.7 * t)) * (0.5 + 0.5 * Math.sin(0.05 * t));
            double voice = 0.3 * Math.sin(phase) + 0.1 * Math.sin(3 * phase) + 0.05 * Math.sin(7 * phase);
            out[i] = (float) (envelope * voice + 1e-3 * random.nextGaussian());
        }
        return out;
    }
}
