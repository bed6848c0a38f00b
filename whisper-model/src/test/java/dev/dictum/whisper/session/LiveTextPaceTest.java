package dev.dictum.whisper.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The live text's pace follows the engine: often on a GPU, about once a second on a slow CPU. */
class LiveTextPaceTest {
    private static final long MS = 1_000_000L;

    @Test
    void fastEngineGetsLiveTextEveryQuarterSecond() {
        assertThat(LiveTextPace.every(20 * MS)).isEqualTo(250 * MS); // a GPU pass over a short piece
        assertThat(LiveTextPace.every(0)).isEqualTo(250 * MS);
    }

    @Test
    void middleEnginesLeaveThreeQuartersOfTheTimeFree() {
        assertThat(LiveTextPace.every(100 * MS)).isEqualTo(400 * MS);
        assertThat(LiveTextPace.every(200 * MS)).isEqualTo(800 * MS);
    }

    @Test
    void slowEnginesStayAtOncePerSecond() {
        assertThat(LiveTextPace.every(300 * MS)).isEqualTo(1000 * MS); // toy-en on a 2-core CPU
        assertThat(LiveTextPace.every(5000 * MS)).isEqualTo(1000 * MS);
    }
}
