package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.whisper.decode.MelWindowSource;
import dev.dictum.whisper.mel.LogMel;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The producer/consumer meeting point of a session: windows equal the one-shot log-mel, a decoder
 * that waits for frames is woken by the producer, and two hours of audio pass through with a
 * bounded number of frames held.
 */
class StreamingMelSourceTest {

    @Test
    void aShortRecordingGivesTheOneShotWindowOnceFinished() throws Exception {
        float[] audio = EngineBenchmark.syntheticAudio(7.3);
        StreamingMelSource src = new StreamingMelSource(80);
        float[][] got = new float[1][];
        Thread consumer = Thread.ofPlatform().start(() -> got[0] = src.window(0));
        for (int i = 0; i < audio.length; i += 999) {
            src.push(audio, i, Math.min(999, audio.length - i));
        }
        Thread.sleep(50);
        assertThat(consumer.isAlive()).as("a window of a recording still going on waits").isTrue();
        src.finish();
        consumer.join(10_000);
        assertThat(got[0]).isEqualTo(new LogMel(80).window(audio));
        assertThat(src.totalFrames()).isEqualTo(audio.length / 160);
    }

    @Test
    void twoHoursPassWindowByWindowInBoundedMemory() throws Exception {
        StreamingMelSource src = new StreamingMelSource(80);
        int seconds = 2 * 3600;
        AtomicInteger maxQueued = new AtomicInteger();
        AtomicInteger windows = new AtomicInteger();
        Thread decoder = Thread.ofPlatform().start(() -> {
            int seek = 0;
            while (src.totalFrames() == MelWindowSource.UNKNOWN || seek < src.totalFrames()) {
                float[] w = src.window(seek);
                assertThat(w).hasSize(80 * 3000);
                windows.incrementAndGet();
                maxQueued.accumulateAndGet(src.queuedFrames(), Math::max);
                seek += 3000;
                src.discardBefore(seek);
                try {
                    Thread.sleep(15); // a decoder slower than the producer: the producer must wait
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        float[] second = EngineBenchmark.syntheticAudio(1);
        for (int s = 0; s < seconds; s++) {
            src.push(second, 0, second.length);
            maxQueued.accumulateAndGet(src.queuedFrames(), Math::max);
        }
        src.finish();
        decoder.join(120_000);
        assertThat(decoder.isAlive()).isFalse();
        assertThat(windows.get()).isEqualTo(seconds / 30);
        // Never more than the producer's lead plus the window in use: about 1 MB of frames per
        // 1000 (80 mels), not the 230 MB two hours would take.
        assertThat(maxQueued.get()).isLessThanOrEqualTo((StreamingMelSource.MAX_WINDOWS_AHEAD + 1) * 3000 + 200);
    }

    @Test
    void cancelWakesAWaitingDecoder() throws Exception {
        StreamingMelSource src = new StreamingMelSource(128);
        Throwable[] thrown = new Throwable[1];
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                src.window(0);
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        Thread.sleep(50);
        src.cancel();
        consumer.join(10_000);
        assertThat(thrown[0]).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> src.push(new float[10], 0, 10)).isInstanceOf(CancellationException.class);
    }
}
