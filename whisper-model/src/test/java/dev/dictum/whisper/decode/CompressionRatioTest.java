package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompressionRatioTest {

    /** Expected values from CPython: len(b) / len(zlib.compress(b)). */
    @Test
    void matchesPythonZlibCompressAtTheDefaultLevel() {
        assertThat(CompressionRatio.of("")).isEqualTo(0.0);
        assertThat(CompressionRatio.of("hello world")).isEqualTo(11 / 19.0);
        assertThat(CompressionRatio.of("the the the the the the the the the the the the the the the the the the the the"))
                .isEqualTo(79 / 15.0);
        assertThat(CompressionRatio.of("Grüße aus Köln, ¿qué tal?")).isEqualTo(30 / 39.0);
        assertThat(CompressionRatio.of("Remind me to call Anna at 7 pm about the budget report."))
                .isEqualTo(55 / 62.0);
    }
}
