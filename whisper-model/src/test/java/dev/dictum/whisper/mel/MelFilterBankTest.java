package dev.dictum.whisper.mel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MelFilterBankTest {

    @ParameterizedTest
    @ValueSource(ints = {80, 128})
    void matchesOpenAiNpzFilters(int nMels) throws Exception {
        float[][] reference = MelTestData.readNpz2d(
                MelTestData.data("whisper-assets/mel_filters.npz"), "mel_" + nMels);
        double[][] ours = MelFilterBank.slaney(nMels).dense();

        assertThat(reference.length).isEqualTo(nMels);
        double maxAbs = 0, maxRef = 0;
        for (int m = 0; m < nMels; m++) {
            assertThat(reference[m].length).isEqualTo(MelConstants.N_FREQ_BINS);
            for (int k = 0; k < MelConstants.N_FREQ_BINS; k++) {
                maxAbs = Math.max(maxAbs, Math.abs(ours[m][k] - reference[m][k]));
                maxRef = Math.max(maxRef, Math.abs(reference[m][k]));
                // Same support: a weight is zero here exactly where it is zero in the npz.
                assertThat(ours[m][k] == 0.0).isEqualTo(reference[m][k] == 0f);
            }
        }
        System.out.printf("mel_%d filters: max |ours - npz| = %.3g (relative to max weight %.3g: %.3g)%n",
                nMels, maxAbs, maxRef, maxAbs / maxRef);
        // The npz is float32, so float32 rounding (~6e-8 relative) is the floor.
        assertThat(maxAbs / maxRef).isLessThan(1e-6);
    }

    @ParameterizedTest
    @ValueSource(ints = {80, 128})
    void isSharedAndSparse(int nMels) {
        MelFilterBank bank = MelFilterBank.slaney(nMels);
        assertThat(MelFilterBank.slaney(nMels)).isSameAs(bank);
        double[][] dense = bank.dense();
        for (double[] row : dense) {
            long nonzero = java.util.Arrays.stream(row).filter(w -> w != 0).count();
            assertThat(nonzero).isBetween(1L, 14L);
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, 500, 999.9, 1000, 1000.1, 4321, 8000})
    void melScaleRoundTrips(double hz) {
        assertThat(MelFilterBank.melToHz(MelFilterBank.hzToMel(hz))).isCloseTo(hz, org.assertj.core.data.Offset.offset(1e-9));
    }
}
