package dev.dictum.audio.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MicrophoneTest {

  /** A 48 kHz stereo line that delivers a ramp of {@code bytesBeforeLoss} bytes, then fails as an unplugged device does. */
  private static final class FailingLine implements PcmLine {
    private final int bytesBeforeLoss;
    private int sent;

    FailingLine(int bytesBeforeLoss) {
      this.bytesBeforeLoss = bytesBeforeLoss;
    }

    @Override
    public int sampleRate() {
      return 48000;
    }

    @Override
    public int channels() {
      return 2;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      if (sent >= bytesBeforeLoss) {
        throw new IOException("device unplugged");
      }
      int n = Math.min(len, bytesBeforeLoss - sent);
      n -= n % 4;
      for (int i = 0; i < n; i += 2) {
        short v = 8000; // a constant level, both channels
        buf[off + i] = (byte) v;
        buf[off + i + 1] = (byte) (v >> 8);
      }
      sent += n;
      sleepQuietly(2);
      return n;
    }

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public void close() {
    }
  }

  @Test
  void aDeviceThatDisappearsKeepsWhatWasRecordedAndIsReopened() throws Exception {
    AtomicInteger opens = new AtomicInteger();
    CountDownLatch lost = new CountDownLatch(1);
    List<float[]> got = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    // 1 s of 48 kHz stereo, then the failure; the second open gives a working line again.
    LineOpener opener = name -> opens.incrementAndGet() == 1 ? new FailingLine(48000 * 4) : new FailingLine(Integer.MAX_VALUE);
    try (Microphone mic = new Microphone(opener, null)) {
      AudioSink sink = new AudioSink() {
        @Override
        public void audio(float[] samples16k) {
          synchronized (got) {
            got.add(samples16k);
          }
        }

        @Override
        public void deviceLost(String reason) {
          reasons.add(reason);
          lost.countDown();
        }
      };
      while (!mic.attach(sink)) {
        Thread.sleep(5);
      }
      assertThat(lost.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(reasons).containsExactly("device unplugged");
      int samples;
      synchronized (got) {
        samples = got.stream().mapToInt(a -> a.length).sum();
      }
      // Up to 1 s at 16 kHz (less the resampler's look-ahead), all of it at the line's level.
      assertThat(samples).isBetween(8000, 16000);
      assertThat(got.get(got.size() / 2)[0]).isCloseTo(8000 / 32768f, org.assertj.core.data.Offset.offset(0.01f));
      // The microphone comes back by itself: a new recording attaches once the device is reopened.
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (mic.activeDevice() == null && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(opens.get()).isGreaterThanOrEqualTo(2);
      assertThat(mic.attach(sink)).isTrue();
    }
  }

  @Test
  void noDeviceMeansAttachRefusesWithAReason() throws Exception {
    try (Microphone mic = new Microphone(name -> {
      throw new IOException("microphone 'USB' is not connected");
    }, "USB")) {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (mic.problem() == null && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      assertThat(mic.problem()).isEqualTo("No microphone: microphone 'USB' is not connected");
      assertThat(mic.attach(new AudioSink() {
        @Override
        public void audio(float[] samples16k) {
        }

        @Override
        public void deviceLost(String reason) {
        }
      })).isFalse();
    }
  }

  @Test
  void levelsAreInDbfs() {
    float[] full = new float[100];
    java.util.Arrays.fill(full, 1f);
    assertThat(Levels.dbfs(full, 0, 100)).isEqualTo(0f);
    assertThat(Levels.dbfs(new float[100], 0, 100)).isEqualTo(Levels.FLOOR_DB);
    assertThat(Levels.meter(-30)).isEqualTo(0.5f);
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
