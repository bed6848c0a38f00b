package dev.dictum.audio;

/** Measurements on test tones. */
final class Tones {
  private Tones() {}

  /** Amplitude of the {@code freq} component of x[from, from+n), by a single DFT bin. */
  static double amplitudeAt(float[] x, int from, int n, double freq, int rate) {
    double re = 0;
    double im = 0;
    for (int i = 0; i < n; i++) {
      double phase = 2 * Math.PI * freq * i / rate;
      re += x[from + i] * Math.cos(phase);
      im -= x[from + i] * Math.sin(phase);
    }
    return 2 * Math.hypot(re, im) / n;
  }

  /** Frequency estimated from rising zero crossings, interpolated between samples. */
  static double zeroCrossingFrequency(float[] x, int from, int to, int rate) {
    double first = -1;
    double last = -1;
    int crossings = 0;
    for (int i = from; i + 1 < to; i++) {
      if (x[i] < 0 && x[i + 1] >= 0) {
        double t = i + x[i] / (x[i] - x[i + 1]);
        if (first < 0) {
          first = t;
        } else {
          crossings++;
        }
        last = t;
      }
    }
    return crossings * (double) rate / (last - first);
  }

  static double rms(float[] x, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += (double) x[i] * x[i];
    }
    return Math.sqrt(sum / (to - from));
  }
}
