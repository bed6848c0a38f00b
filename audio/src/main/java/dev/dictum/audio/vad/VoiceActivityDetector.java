package dev.dictum.audio.vad;

import dev.dictum.audio.capture.Levels;

/**
 * Classifies 30 ms frames of 16 kHz audio as silence, noise or speech by two measures: loudness
 * (RMS in dBFS against a threshold) and voicing (the peak of the normalised autocorrelation at
 * pitch lags of 2–20 ms, after a pre-emphasis filter that whitens pink and brown noise). Voiced
 * speech repeats itself every pitch period; hiss, hum-free fans and traffic do not. Unvoiced
 * consonants look like noise here: {@link SpeechTrimmer} keeps them by keeping the audio around
 * voiced frames, and only voiced frames decide that someone spoke.
 *
 * <p>A hand-written detector rather than a library: the Java choices are WebRTC's VAD through
 * native code or an ONNX model, both heavy for a decision this coarse, which Whisper's own
 * no-speech probability checks a second time.
 */
public final class VoiceActivityDetector {
  public static final int SAMPLE_RATE = 16000;
  public static final int FRAME = 480;
  private static final int MIN_LAG = 32; // 500 Hz
  private static final int MAX_LAG = 320; // 50 Hz
  /** Normalised autocorrelation above which a frame counts as voiced. */
  static final float VOICING_THRESHOLD = 0.5f;

  private final float thresholdDb;
  private final float[] emphasised = new float[FRAME];

  /** @param thresholdDb frames quieter than this (dBFS) are silence; -50 suits most microphones */
  public VoiceActivityDetector(float thresholdDb) {
    this.thresholdDb = thresholdDb;
  }

  /** Classifies {@code FRAME} samples starting at {@code off}. */
  public FrameClass classify(float[] x, int off) {
    float db = Levels.dbfs(x, off, FRAME);
    if (db < thresholdDb) {
      return FrameClass.SILENCE;
    }
    return voicing(x, off) >= VOICING_THRESHOLD ? FrameClass.SPEECH : FrameClass.NOISE;
  }

  /** The normalised autocorrelation peak over pitch lags, in [-1, 1]. */
  float voicing(float[] x, int off) {
    float prev = off > 0 ? x[off - 1] : x[off];
    double mean = 0;
    for (int i = 0; i < FRAME; i++) {
      float v = x[off + i];
      emphasised[i] = v - 0.97f * prev;
      prev = v;
      mean += emphasised[i];
    }
    mean /= FRAME;
    for (int i = 0; i < FRAME; i++) {
      emphasised[i] -= (float) mean;
    }
    double best = 0;
    for (int lag = MIN_LAG; lag <= MAX_LAG; lag++) {
      double xy = 0;
      double xx = 0;
      double yy = 0;
      for (int i = 0; i + lag < FRAME; i++) {
        float a = emphasised[i];
        float b = emphasised[i + lag];
        xy += a * b;
        xx += a * a;
        yy += b * b;
      }
      if (xx > 0 && yy > 0) {
        best = Math.max(best, xy / Math.sqrt(xx * yy));
      }
    }
    return (float) best;
  }
}
