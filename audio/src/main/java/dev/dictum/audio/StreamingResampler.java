package dev.dictum.audio;

import be.tarsos.dsp.resample.Resampler;
import java.util.Arrays;

/**
 * Converts a mono stream from one sample rate to another, chunk by chunk, with the same result as
 * converting it in one piece (the filter history carries over, so chunk boundaries do not click).
 *
 * <p>Wraps TarsosDSP's port of libresample in high-quality mode (windowed-sinc, 35 zero crossings,
 * cut-off at 45% of the lower rate). That filter looks ahead by some hundred input samples, so
 * output lags input until {@link #finish()} flushes the tail. Equal rates pass through bit-exact.
 *
 * <p>Not thread-safe.
 */
public final class StreamingResampler {
  private final double factor;
  private final Resampler resampler; // null when passing through
  private long inputFrames;
  private long outputFrames;
  private boolean finished;
  private float[] out = new float[0];

  public StreamingResampler(int inputRate, int outputRate) {
    if (inputRate <= 0 || outputRate <= 0) {
      throw new IllegalArgumentException("sample rates must be positive: " + inputRate + " -> " + outputRate);
    }
    this.factor = (double) outputRate / inputRate;
    this.resampler = inputRate == outputRate ? null : new Resampler(true, factor, factor);
  }

  /** Feeds {@code len} samples and returns the output that became ready (possibly none). */
  public float[] process(float[] in, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, in.length);
    if (finished) {
      throw new IllegalStateException("process() after finish()");
    }
    inputFrames += len;
    if (resampler == null) {
      outputFrames += len;
      return Arrays.copyOfRange(in, off, off + len);
    }
    return run(in, off, len, false);
  }

  public float[] process(float[] in) {
    return process(in, 0, in.length);
  }

  /**
   * Flushes the filter tail; call once after the last input. The total output then holds
   * round(inputFrames * outputRate / inputRate) samples, so durations line up with the source.
   */
  public float[] finish() {
    if (finished) {
      throw new IllegalStateException("finish() called twice");
    }
    finished = true;
    if (resampler == null) {
      return new float[0];
    }
    float[] tail = run(new float[0], 0, 0, true);
    long expected = Math.round(inputFrames * factor);
    long excess = outputFrames - expected;
    if (excess > 0 && excess <= tail.length) {
      // libresample rounds the length of the zero-padded end up; drop the surplus.
      outputFrames = expected;
      return Arrays.copyOf(tail, (int) (tail.length - excess));
    }
    return tail;
  }

  /** Total samples handed out so far. */
  public long outputFrames() {
    return outputFrames;
  }

  private float[] run(float[] in, int off, int len, boolean last) {
    int produced = 0;
    int consumed = 0;
    while (true) {
      int room = (int) Math.min(Integer.MAX_VALUE - 8, (long) Math.ceil((len - consumed) * factor) + 1024);
      if (out.length - produced < room) {
        out = Arrays.copyOf(out, produced + room);
      }
      Resampler.Result r =
          resampler.process(factor, in, off + consumed, len - consumed, last, out, produced, out.length - produced);
      consumed += r.inputSamplesConsumed;
      produced += r.outputSamplesGenerated;
      boolean outputFull = produced == out.length;
      // The resampler stops early only when its output space runs out; otherwise it has taken
      // all input and emitted all it can. A call that does nothing means it is drained.
      boolean progress = r.inputSamplesConsumed > 0 || r.outputSamplesGenerated > 0;
      if (!progress || (consumed == len && !outputFull)) {
        break;
      }
    }
    outputFrames += produced;
    return Arrays.copyOf(out, produced);
  }
}
