package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import static dev.dictum.app.os.Modifier.ALT;
import static dev.dictum.app.os.Modifier.CTRL;

import dev.dictum.app.os.Grab;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Needs an X display (e2e-ci.sh runs it under xvfb-run); skipped without one. */
class X11GrabsTest {

    @Test
    void aCombinationAnotherClientHoldsIsReportedAndFreedOnesCanBeTaken() {
        assumeTrue(X11Grabs.available(), "skipped: no X display (DISPLAY is not set)");
        Grab dictate = new Grab(Set.of(CTRL, ALT), "Space", 0, false);
        Grab cancel = new Grab(Set.of(), "Escape", 0, true);
        Grab f9 = new Grab(Set.of(), "F9", 0, false);
        Grab side = new Grab(Set.of(CTRL), null, 4, false);
        try (X11Grabs other = new X11Grabs(); X11Grabs ours = new X11Grabs()) {
            assertThat(other.hold(Set.of(dictate))).isEmpty();
            assertThat(ours.hold(Set.of(dictate, cancel, f9, side)))
                    .containsOnlyKeys(dictate).containsValue("another program holds it");
            // Escape is given back when the recording ends; then the other client may take it.
            assertThat(ours.hold(Set.of(f9))).isEmpty();
            assertThat(other.hold(Set.of(dictate, cancel))).isEmpty();
            other.hold(Set.of());
            assertThat(ours.hold(Set.of(dictate, f9))).isEmpty();
            // A desktop that holds Alt+Escape: cancel still gets plain Escape.
            ours.hold(Set.of());
            assertThat(other.hold(Set.of(new Grab(Set.of(ALT), "Escape", 0, false)))).isEmpty();
            assertThat(ours.hold(Set.of(cancel))).isEmpty();
            assertThat(other.hold(Set.of(new Grab(Set.of(), "Escape", 0, false)))).isNotEmpty();
            ours.hold(Set.of());
            assertThat(other.hold(Set.of(new Grab(Set.of(), "Escape", 0, false)))).isEmpty();
        }
    }
}
