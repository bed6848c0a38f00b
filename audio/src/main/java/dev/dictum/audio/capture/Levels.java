package dev.dictum.audio.capture;

/** Loudness of a block of samples. */
public final class Levels {
  /** What silence reads as (digital zero has no logarithm). */
  public static final float FLOOR_DB = -100f;

  private Levels() {
  }

  /** RMS level in dB relative to full scale: 0 for a full-scale square wave, about -3 for a full sine. */
  public static float dbfs(float[] x, int off, int len) {
    if (len <= 0) {
      return FLOOR_DB;
    }
    double sum = 0;
    for (int i = off; i < off + len; i++) {
      sum += (double) x[i] * x[i];
    }
    double rms = Math.sqrt(sum / len);
    return rms <= 1e-5 ? FLOOR_DB : (float) (20 * Math.log10(rms));
  }

  /** A meter position in [0, 1]: -60 dBFS and below is empty, 0 dBFS full. */
  public static float meter(float dbfs) {
    return Math.clamp((dbfs + 60f) / 60f, 0f, 1f);
  }
}
