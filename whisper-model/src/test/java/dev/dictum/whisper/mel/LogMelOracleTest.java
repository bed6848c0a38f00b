package dev.dictum.whisper.mel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Compares the log-mel with the Hugging Face oracle tensors. */
class LogMelOracleTest {

    @ParameterizedTest
    @CsvSource({
        "toy-en-samples/sample_01.wav, toy-en-oracle/sample_01.logmel.f32.bin, 80",
        "toy-en-samples/sample_02.wav, toy-en-oracle/sample_02.logmel.f32.bin, 80",
        "toy-multi-samples/sample_de_1.wav, toy-multi-oracle/sample_de_1.logmel.f32.bin, 128",
    })
    void matchesOracle(String wav, String oracle, int nMels) throws Exception {
        float[] audio = MelTestData.readWav16kMono(MelTestData.data(wav));
        float[] reference = MelTestData.readF32(MelTestData.data(oracle));
        assertThat(reference).hasSize(nMels * MelConstants.WINDOW_FRAMES);

        float[] ours = new LogMel(nMels).window(audio);

        double relative = MelTestData.relativeError(ours, reference);
        double maxAbs = MelTestData.maxAbsDiff(ours, reference);
        System.out.printf("log-mel %s (%d mels, %d samples): rel L2 err %.3g, max abs diff %.3g%n",
                wav, nMels, audio.length, relative, maxAbs);
        assertThat(relative).isLessThan(1e-5);
        // HF's own filters differ from the npz ones by up to 2.5e-5 in log-mel (oracle README).
        assertThat(maxAbs).isLessThan(5e-5);
    }
}
