package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each beam's beam_size + 1 best continuations: the vectorised scan against a full sort (best first, the
 * lower id first on ties), on fresh vocabulary rows with many ties, masked entries and the best ones at
 * either end and across vector boundaries.
 */
class BeamTopKTest {
    @ParameterizedTest(name = "vocab={0} k={1}")
    @CsvSource({"51866,6", "51865,6", "51864,2", "33,6", "6,6", "5,6", "17,3", "1,2"})
    void theTopKAreTheSortsFirstK(int vocab, int k) {
        Random random = new Random(vocab * 7919L + k + System.nanoTime());
        for (int round = 0; round < 20; round++) {
            float[] row = new float[vocab];
            for (int i = 0; i < vocab; i++) { // coarse values: ties everywhere
                row[i] = round % 2 == 0 ? (float) Math.floor(random.nextGaussian() * 4) : (float) random.nextGaussian();
            }
            for (int i = random.nextInt(7); i < vocab; i += 1 + random.nextInt(9)) {
                row[i] = LogitMath.MASKED;
            }
            if (round % 5 == 1) {
                row[vocab - 1] = 100; // the best at the very end
            } else if (round % 5 == 2) {
                row[0] = 100;
            }
            int[] want = IntStream.range(0, vocab).boxed()
                    .sorted(Comparator.<Integer>comparingDouble(i -> -row[i]).thenComparingInt(i -> i))
                    .limit(k).mapToInt(Integer::intValue).toArray();
            int[] top = new int[k];
            int got = BeamSearchDecoder.topK(row, top);
            assertThat(got).isEqualTo(Math.min(k, vocab));
            assertThat(java.util.Arrays.copyOf(top, got)).as("round %d", round).containsExactly(want);
        }
    }
}
