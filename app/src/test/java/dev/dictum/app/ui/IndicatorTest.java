package dev.dictum.app.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.GraphicsEnvironment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.swing.SwingUtilities;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pill at the release: a text made at the pause is inserted before the pill changes (its reshaping
 * and repainting are X server work the paste would wait behind); a longer pass says "Transcribing…"
 * after {@link Indicator#TRANSCRIBING_AFTER_MILLIS}. Needs an X display (e2e-ci.sh runs it under
 * xvfb-run); skipped without one.
 */
class IndicatorTest {
    final List<String> shown = new CopyOnWriteArrayList<>();
    Indicator indicator;

    @BeforeEach
    void needsADisplay() {
        assumeTrue(System.getenv("DISPLAY") != null && !GraphicsEnvironment.isHeadless(), "skipped: no X display");
        indicator = new Indicator();
        indicator.onShow = shown::add;
    }

    @Test
    void aTextMadeAtThePauseGoesInBeforeThePillChanges() throws Exception {
        indicator.recording("Release to insert");
        indicator.transcribing("toy-en"); // the release
        indicator.transcribing("toy-en"); // inserting, 10-20 ms later
        indicator.idle(); // the text is in
        Thread.sleep(3L * Indicator.TRANSCRIBING_AFTER_MILLIS);
        SwingUtilities.invokeAndWait(() -> { });
        assertThat(shown).containsExactly("Recording", "");
    }

    @Test
    void aLongerPassSaysTranscribingOnceTheDelayHasPassed() throws Exception {
        indicator.recording("Release to insert");
        indicator.transcribing("toy-en");
        SwingUtilities.invokeAndWait(() -> { });
        assertThat(shown).as("right after the release").containsExactly("Recording");
        Thread.sleep(3L * Indicator.TRANSCRIBING_AFTER_MILLIS);
        SwingUtilities.invokeAndWait(() -> { });
        assertThat(shown).containsExactly("Recording", "Transcribing…");
        indicator.transcribing("toy-en"); // inserting
        indicator.idle();
        SwingUtilities.invokeAndWait(() -> { });
        assertThat(shown).endsWith("");
        indicator.recording("Release to insert"); // the next dictation starts moving again at once
        SwingUtilities.invokeAndWait(() -> { });
        assertThat(shown).endsWith("Recording");
    }
}
