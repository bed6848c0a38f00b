package dev.dictum.whisper.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteLevelAlphabetTest {
    @Test
    void everyByteRoundTrips() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String spelled = ByteLevelAlphabet.spell(all);
        assertThat(spelled.chars().distinct().count()).isEqualTo(256);
        assertThat(spelled.chars().noneMatch(Character::isWhitespace)).isTrue();
        assertThat(ByteLevelAlphabet.toBytes(spelled)).containsExactly(all);
    }

    @Test
    void knownSpellings() {
        assertThat(ByteLevelAlphabet.spell(new byte[] {' '})).isEqualTo("Ġ");
        assertThat(ByteLevelAlphabet.spell(new byte[] {'\n'})).isEqualTo("Ċ");
        assertThat(ByteLevelAlphabet.spell("é".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo("Ã©");
        assertThat(ByteLevelAlphabet.toBytes("ĠNote")).containsExactly(" Note".getBytes());
    }

    @Test
    void charactersOutsideTheAlphabetAreRejected() {
        assertThatThrownBy(() -> ByteLevelAlphabet.toBytes("a b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("U+0020");
        assertThatThrownBy(() -> ByteLevelAlphabet.toBytes("日")).isInstanceOf(IllegalArgumentException.class);
    }
}
