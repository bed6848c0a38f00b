package dev.dictum.whisper.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EncoderContextTest {

    @Test
    void parsesFullAutoAndANumberOfPositions() {
        assertThat(EncoderContext.parse("full")).isEqualTo(EncoderContext.FULL);
        assertThat(EncoderContext.parse(" AUTO ")).isEqualTo(EncoderContext.AUTO);
        assertThat(EncoderContext.parse("768").positionsFor(200, 1500)).isEqualTo(768);
        assertThat(EncoderContext.parse("1500").toString()).isEqualTo("1500");
        assertThat(TranscribeOptions.defaults().encoderContext()).isEqualTo(EncoderContext.FULL);
    }

    @Test
    void invalidValuesGiveOneLineMessages() {
        for (String bad : new String[] {"", "half", "0", "-3", "1501", "12.5"}) {
            assertThatThrownBy(() -> EncoderContext.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1500")
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void autoIsTheSpeechLengthWithAMarginRoundedUpAndNeverMoreThanFull() {
        assertThat(EncoderContext.AUTO.positionsFor(200, 1500)).isEqualTo(192); // 2 s: 100 + 64 -> 192
        assertThat(EncoderContext.AUTO.positionsFor(1000, 1500)).isEqualTo(576); // 10 s
        assertThat(EncoderContext.AUTO.positionsFor(2900, 1500)).isEqualTo(1500);
        assertThat(EncoderContext.FULL.positionsFor(200, 1500)).isEqualTo(1500);
        assertThat(EncoderContext.parse("1400").positionsFor(200, 1000)).isEqualTo(1000);
    }
}
