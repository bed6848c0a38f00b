package dev.dictum.app.dictation;

import dev.dictum.app.os.TargetWindow;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeadingSpaceTest {
    static final TargetWindow EDITOR = new TargetWindow(7, "editor");
    static final LeadingSpace.Previous SENTENCE = new LeadingSpace.Previous("I will be late.", EDITOR, 100_000);

    @Test
    void aSpaceAfterASentenceJustDictatedIntoTheSameUntouchedWindow() {
        assertThat(LeadingSpace.needed(SENTENCE, EDITOR, 105_000, 0)).isTrue();
        // The hook's echo of the app's own paste arrives just after the insertion: not an edit.
        assertThat(LeadingSpace.needed(SENTENCE, EDITOR, 105_000, 100_100)).isTrue();
    }

    @Test
    void noSpaceAcrossAClearedFieldOrAMovedCaret() {
        // Ctrl+A, Backspace or a click after the insertion: the field may be empty now.
        assertThat(LeadingSpace.needed(SENTENCE, EDITOR, 105_000, 103_000)).isFalse();
    }

    @Test
    void noSpaceInAnotherWindowLongAfterOrAfterNoSentenceEnd() {
        assertThat(LeadingSpace.needed(SENTENCE, new TargetWindow(8, "terminal"), 105_000, 0)).isFalse();
        assertThat(LeadingSpace.needed(SENTENCE, EDITOR, 100_000 + LeadingSpace.WINDOW_MILLIS + 1, 0)).isFalse();
        assertThat(LeadingSpace.needed(new LeadingSpace.Previous("and then", EDITOR, 100_000), EDITOR, 105_000, 0))
                .isFalse();
        assertThat(LeadingSpace.needed(null, EDITOR, 105_000, 0)).isFalse();
        assertThat(LeadingSpace.needed(SENTENCE, TargetWindow.UNKNOWN, 105_000, 0)).isFalse();
    }
}
