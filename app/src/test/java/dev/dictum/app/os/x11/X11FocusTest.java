package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.os.TargetWindow;
import org.junit.jupiter.api.Test;

/** Needs an X display (the e2e script's Xvfb, or a desktop); skipped without one. */
class X11FocusTest {

    @Test
    void givingTheFocusToAWindowThatIsGoneFailsQuietlyInsteadOfEndingTheProcess() throws Exception {
        assumeTrue(X11Focus.available(), "skipped: no X display (DISPLAY is not set)");
        try (X11Focus focus = new X11Focus()) {
            TargetWindow before = focus.focused();
            // 0x3fffff0 names no window: XSetInputFocus raises BadWindow, which Xlib's default handler turns into exit().
            assertThat(focus.refocus(new TargetWindow(0x3fffff0L, ""))).isFalse();
            assertThat(focus.focused()).isEqualTo(before);
        }
    }
}
