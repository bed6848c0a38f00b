package dev.dictum.audio;

import java.io.IOException;

/**
 * Any supported WAV as a stream of 16 kHz mono float samples, the input Whisper expects.
 * Memory stays bounded by the chunk size, so hours-long recordings are fine.
 */
public final class Audio16kStream implements AutoCloseable {
  public static final int SAMPLE_RATE = 16_000;
  private static final int SOURCE_CHUNK_FRAMES = 8_192;

  private final WavStream source;
  private final StreamingResampler resampler;
  private final float[] sourceChunk = new float[SOURCE_CHUNK_FRAMES];
  private float[] pending = new float[0];
  private int pendingPos;
  private boolean sourceDone;

  Audio16kStream(WavStream source) {
    this.source = source;
    this.resampler = new StreamingResampler(source.info().sampleRate(), SAMPLE_RATE);
  }

  /** The header of the underlying file (its own rate and channel count). */
  public WavInfo sourceInfo() {
    return source.info();
  }

  /** Samples this stream will deliver in total, or -1 if the source length is unknown. */
  public long expectedSamples() {
    long frames = source.info().frameCount();
    return frames < 0 ? -1 : Math.round(frames * (double) SAMPLE_RATE / source.info().sampleRate());
  }

  /** Fills {@code buf} with up to its length of 16 kHz samples; returns the count, or -1 at the end. */
  public int read(float[] buf) throws IOException {
    return read(buf, 0, buf.length);
  }

  public int read(float[] buf, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    if (len == 0) {
      return 0;
    }
    while (pendingPos == pending.length) {
      if (!refill()) {
        return -1;
      }
    }
    int n = Math.min(len, pending.length - pendingPos);
    System.arraycopy(pending, pendingPos, buf, off, n);
    pendingPos += n;
    return n;
  }

  /** Pulls the next source chunk through the resampler; false once everything was handed out. */
  private boolean refill() throws IOException {
    if (sourceDone) {
      return false;
    }
    int n = source.read(sourceChunk);
    if (n < 0) {
      sourceDone = true;
      pending = resampler.finish();
    } else {
      pending = resampler.process(sourceChunk, 0, n);
    }
    pendingPos = 0;
    return true;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
