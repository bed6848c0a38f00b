package dev.dictum.app.sound;

/**
 * The four cues, each a few short sine tones made in code (no bundled samples): rising for
 * start, falling for stop, two low blips for cancel, a low buzz for an error. Soft edges (5 ms
 * fades) keep them from clicking.
 */
public enum CueSound {
    START(new double[][] {{660, 70}, {990, 90}}),
    STOP(new double[][] {{990, 70}, {660, 90}}),
    CANCEL(new double[][] {{440, 60}, {0, 40}, {440, 60}}),
    ERROR(new double[][] {{220, 220}});

    public static final int RATE = 44100;
    private static final double FADE_MILLIS = 5;

    private final double[][] tones; // {hertz (0: silence), milliseconds}

    CueSound(double[][] tones) {
        this.tones = tones;
    }

    /** Signed 16-bit little-endian mono PCM at {@link #RATE}, at {@code volume} (0-1). */
    public byte[] pcm(double volume) {
        int total = 0;
        for (double[] t : tones) {
            total += (int) (RATE * t[1] / 1000);
        }
        byte[] out = new byte[total * 2];
        int pos = 0;
        double amplitude = 0.5 * Math.clamp(volume, 0, 1) * Short.MAX_VALUE;
        int fade = (int) (RATE * FADE_MILLIS / 1000);
        for (double[] t : tones) {
            int n = (int) (RATE * t[1] / 1000);
            for (int i = 0; i < n; i++, pos++) {
                double edge = Math.min(1, Math.min(i, n - 1 - i) / (double) fade);
                short v = (short) Math.round(amplitude * edge * Math.sin(2 * Math.PI * t[0] * i / RATE));
                out[2 * pos] = (byte) v;
                out[2 * pos + 1] = (byte) (v >> 8);
            }
        }
        return out;
    }

    /** How long the cue lasts. */
    public long millis() {
        double ms = 0;
        for (double[] t : tones) {
            ms += t[1];
        }
        return Math.round(ms);
    }
}
