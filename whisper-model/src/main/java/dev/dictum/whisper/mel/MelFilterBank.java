package dev.dictum.whisper.mel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slaney-style mel filters, as librosa's {@code filters.mel(sr=16000, n_fft=400, n_mels=N,
 * htk=False, norm="slaney")} computes them and OpenAI ships them in {@code mel_filters.npz}:
 * triangles on the Slaney mel scale (linear below 1 kHz, logarithmic above), each scaled by
 * 2 / (its bandwidth in Hz) so that the filters have roughly constant energy.
 *
 * <p>Computed in float64 rather than loaded from the npz, so there is no asset to ship; a test
 * checks that the result rounds to the npz values. Each filter is nonzero on at most 14 of the 201
 * bins, so only that span is stored and applied. Instances are immutable and shared per n_mels.
 */
public final class MelFilterBank {

    private static final double FMIN = 0.0;
    private static final double FMAX = MelConstants.SAMPLE_RATE / 2.0;
    // The Slaney scale: linear at 3 mels per 200 Hz up to 1 kHz, then log with 27 steps per 6.4x.
    private static final double LINEAR_HZ_PER_MEL = 200.0 / 3.0;
    private static final double LOG_REGION_START_HZ = 1000.0;
    private static final double LOG_REGION_START_MEL = (LOG_REGION_START_HZ - FMIN) / LINEAR_HZ_PER_MEL;
    private static final double LOG_STEP = Math.log(6.4) / 27.0;

    private static final Map<Integer, MelFilterBank> CACHE = new ConcurrentHashMap<>();

    private final int nMels;
    /** First bin of each filter's nonzero span. */
    private final int[] firstBin;
    /** The nonzero span of each filter, starting at firstBin. */
    private final double[][] weights;

    private MelFilterBank(int nMels, double[][] dense) {
        this.nMels = nMels;
        this.firstBin = new int[nMels];
        this.weights = new double[nMels][];
        for (int m = 0; m < nMels; m++) {
            int lo = 0;
            while (lo < dense[m].length && dense[m][lo] == 0.0) {
                lo++;
            }
            int hi = dense[m].length;
            while (hi > lo && dense[m][hi - 1] == 0.0) {
                hi--;
            }
            firstBin[m] = lo;
            weights[m] = java.util.Arrays.copyOfRange(dense[m], lo, hi);
        }
    }

    /** The shared filter bank for {@code nMels} mel bins (Whisper uses 80 or 128). */
    public static MelFilterBank slaney(int nMels) {
        if (nMels < 1 || nMels > 512) {
            throw new IllegalArgumentException("unsupported number of mel bins: " + nMels);
        }
        return CACHE.computeIfAbsent(nMels, n -> new MelFilterBank(n, computeDense(n)));
    }

    public int nMels() {
        return nMels;
    }

    /** The full [nMels][201] matrix (a fresh copy; for tests and diagnostics). */
    public double[][] dense() {
        double[][] out = new double[nMels][MelConstants.N_FREQ_BINS];
        for (int m = 0; m < nMels; m++) {
            System.arraycopy(weights[m], 0, out[m], firstBin[m], weights[m].length);
        }
        return out;
    }

    /** mel[m] = sum_k filter[m][k] * power[k], over each filter's nonzero span only. */
    void apply(double[] power, double[] mel) {
        for (int m = 0; m < nMels; m++) {
            double[] w = weights[m];
            int base = firstBin[m];
            double sum = 0.0;
            for (int j = 0; j < w.length; j++) {
                sum += w[j] * power[base + j];
            }
            mel[m] = sum;
        }
    }

    private static double[][] computeDense(int nMels) {
        int nBins = MelConstants.N_FREQ_BINS;
        double[] fftFreqs = new double[nBins];
        for (int k = 0; k < nBins; k++) {
            fftFreqs[k] = k * (double) MelConstants.SAMPLE_RATE / MelConstants.N_FFT;
        }
        // nMels + 2 points evenly spaced in mel: filter m rises from point m to m+1, falls to m+2.
        int nPoints = nMels + 2;
        double melMin = hzToMel(FMIN);
        double melMax = hzToMel(FMAX);
        double step = (melMax - melMin) / (nPoints - 1);
        double[] pointsHz = new double[nPoints];
        for (int i = 0; i < nPoints; i++) {
            double mel = i == nPoints - 1 ? melMax : melMin + i * step;
            pointsHz[i] = melToHz(mel);
        }
        double[][] dense = new double[nMels][nBins];
        for (int m = 0; m < nMels; m++) {
            double lowerWidth = pointsHz[m + 1] - pointsHz[m];
            double upperWidth = pointsHz[m + 2] - pointsHz[m + 1];
            double slaneyNorm = 2.0 / (pointsHz[m + 2] - pointsHz[m]);
            for (int k = 0; k < nBins; k++) {
                double rising = -(pointsHz[m] - fftFreqs[k]) / lowerWidth;
                double falling = (pointsHz[m + 2] - fftFreqs[k]) / upperWidth;
                dense[m][k] = Math.max(0.0, Math.min(rising, falling)) * slaneyNorm;
            }
        }
        return dense;
    }

    static double hzToMel(double hz) {
        if (hz >= LOG_REGION_START_HZ) {
            return LOG_REGION_START_MEL + Math.log(hz / LOG_REGION_START_HZ) / LOG_STEP;
        }
        return (hz - FMIN) / LINEAR_HZ_PER_MEL;
    }

    static double melToHz(double mel) {
        if (mel >= LOG_REGION_START_MEL) {
            return LOG_REGION_START_HZ * Math.exp(LOG_STEP * (mel - LOG_REGION_START_MEL));
        }
        return FMIN + LINEAR_HZ_PER_MEL * mel;
    }
}
