package dev.dictum.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StreamingResamplerTest {
  private static final int OUT = 16_000;

  @ParameterizedTest
  @ValueSource(ints = {8_000, 11_025, 22_050, 44_100, 48_000, 96_000})
  void oneKilohertzKeepsFrequencyAndAmplitude(int rate) {
    float[] in = Wavs.sine(1_000, 0.5, rate, 2 * rate);
    float[] out = oneShot(rate, in);

    // One second from the middle: whole periods, clear of the edges where the filter sees padding.
    int from = 8_000;
    assertThat(Tones.amplitudeAt(out, from, OUT, 1_000, OUT)).isCloseTo(0.5, offset(0.005));
    assertThat(Tones.zeroCrossingFrequency(out, from, from + OUT, OUT)).isCloseTo(1_000, offset(0.5));
  }

  @Test
  void twelveKilohertzAt48kIsFilteredOut() {
    int rate = 48_000;
    float[] in = Wavs.sine(12_000, 0.5, rate, rate);
    float[] out = oneShot(rate, in);
    // 12 kHz would alias to 4 kHz at a 16 kHz rate; the anti-aliasing filter must remove it.
    double inRms = Tones.rms(in, 0, in.length);
    double outRms = Tones.rms(out, 1_000, out.length - 1_000);
    assertThat(20 * Math.log10(outRms / inRms)).isLessThan(-40);
    assertThat(Tones.amplitudeAt(out, 4_000, 8_000, 4_000, OUT)).isLessThan(0.5 * 0.01);
  }

  @ParameterizedTest
  @ValueSource(ints = {8_000, 11_025, 22_050, 32_000, 44_100, 48_000, 96_000, 1_000, 384_000})
  void outputLengthFollowsTheRateRatio(int rate) {
    for (int n : new int[] {1, 7, 999, rate / 3 + 17, 3 * rate + 1}) {
      float[] out = oneShot(rate, new float[n]);
      assertThat((double) out.length).as("%d samples at %d Hz", n, rate).isCloseTo(n * 16_000.0 / rate, offset(2.0));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {8_000, 44_100, 48_000})
  void chunkedEqualsOneShot(int rate) {
    Random random = new Random(rate);
    float[] in = new float[3 * rate];
    for (int i = 0; i < in.length; i++) {
      in[i] = (float) (0.3 * Math.sin(i * 0.01) + 0.1 * random.nextGaussian());
    }
    float[] whole = oneShot(rate, in);

    StreamingResampler r = new StreamingResampler(rate, OUT);
    float[] chunked = new float[0];
    for (int pos = 0; pos < in.length; ) {
      int len = Math.min(in.length - pos, random.nextInt(5_000));
      chunked = concat(chunked, r.process(in, pos, len));
      pos += len;
    }
    chunked = concat(chunked, r.finish());

    assertThat(chunked).hasSameSizeAs(whole);
    double maxDiff = 0;
    double sumSq = 0;
    for (int i = 0; i < whole.length; i++) {
      double d = whole[i] - chunked[i];
      maxDiff = Math.max(maxDiff, Math.abs(d));
      sumSq += d * d;
    }
    // Not bit-identical: libresample keeps its clock in a double that it rebases at batch
    // boundaries, and chunking moves those. The drift stays around one 16-bit LSB (3e-5).
    assertThat(maxDiff).isLessThan(1e-4);
    assertThat(Math.sqrt(sumSq / whole.length)).isLessThan(1e-5);
  }

  @Test
  void sixteenKilohertzPassesThroughBitExact() {
    float[] in = {0.1f, -0.2f, Float.MIN_VALUE, 1f, -1f, 0.333f};
    StreamingResampler r = new StreamingResampler(OUT, OUT);
    assertThat(concat(r.process(in, 0, 4), r.process(in, 4, 2))).containsExactly(in);
    assertThat(r.finish()).isEmpty();
  }

  @Test
  void refusesUseAfterFinish() {
    StreamingResampler r = new StreamingResampler(44_100, OUT);
    r.finish();
    assertThatThrownBy(() -> r.process(new float[1])).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(r::finish).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void outputStaysAlignedWithInput() {
    // A click at 0.5 s must come out at 0.5 s: the filter delay is compensated, not passed on.
    int rate = 44_100;
    float[] in = new float[rate];
    in[rate / 2] = 1;
    float[] out = oneShot(rate, in);
    int peak = 0;
    for (int i = 1; i < out.length; i++) {
      if (Math.abs(out[i]) > Math.abs(out[peak])) {
        peak = i;
      }
    }
    assertThat(peak).isCloseTo(8_000, org.assertj.core.data.Offset.offset(1));
  }

  private static float[] oneShot(int rate, float[] in) {
    StreamingResampler r = new StreamingResampler(rate, OUT);
    return concat(r.process(in), r.finish());
  }

  private static float[] concat(float[] a, float[] b) {
    float[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
