package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.os.UnicodeTyper;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Typing into a real X client (the end-to-end script's Tk window), every character checked. Needs an
 * X display and python3 with Tk (e2e-ci.sh runs it under xvfb-run); skipped without them.
 *
 * <p>Session 5's batched typing lost "à" and "û" of the second text end to end ("L'hôtel  Lyon
 * cote"): it cleared the spare keycodes 1 s after a text, and the target, slowed by the machine's
 * load, had not read that text's key events yet. Xlib marks its keymap stale when it <i>reads</i> a
 * MappingNotify, and translates every event it has not handled yet with the map it fetches then, so
 * keys read in the same go as a later change resolve with the changed map: NoSymbol for a cleared
 * keycode. {@link #aTargetThatStallsPastAClearOrRemapStillGetsEveryCharacter} makes that load
 * happen on purpose (SIGSTOP on the target).
 */
class X11TyperTest {
    static final String FRENCH = "L'hôtel à Lyon coûte 120 € la nuit.";
    static final String GERMAN = "Grüße aus Köln: Straße, Äpfel, Öl und Übermaß — schön!";

    @TempDir
    Path dir;

    @BeforeEach
    void needsADisplayAndTk() {
        assumeTrue(XDisplay.available(), "skipped: no X display (DISPLAY is not set)");
        assumeTrue(TkTarget.available(), "skipped: no python3 with tkinter for the target window");
    }

    @Test
    void textsInARowArriveExactly() throws Exception {
        try (TkTarget target = TkTarget.start(dir); X11Typer typer = new X11Typer()) {
            typer.type(FRENCH, 0);
            typer.type("\n" + GERMAN, 0); // new characters beside the kept ones
            Thread.sleep(1200); // past session 5's clear of the spare keycodes
            typer.type("\n" + FRENCH + " Ça va? Œuvre, naïve, déjà vu.", 0);
            String expected = FRENCH + "\n" + GERMAN + "\n" + FRENCH + " Ça va? Œuvre, naïve, déjà vu.";
            assertThat(target.awaitText(expected, 20)).as("the window holds [%s]", target.text()).isTrue();
        }
    }

    @Test
    void aTargetThatStallsPastAClearOrRemapStillGetsEveryCharacter() throws Exception {
        try (TkTarget target = TkTarget.start(dir); X11Typer typer = new X11Typer()) {
            typer.type(FRENCH, 0);
            assertThat(target.awaitText(FRENCH, 20)).as("the window holds [%s]", target.text()).isTrue();
            target.stall(); // the e2e's second text (paste-last) met a target the load kept from running
            typer.type("\n" + FRENCH, 0);
            typer.type("\n" + GERMAN, 0);
            Thread.sleep(1500);
            target.resume();
            String expected = FRENCH + "\n" + FRENCH + "\n" + GERMAN;
            assertThat(target.awaitText(expected, 20)).as("the window holds [%s]", target.text()).isTrue();
        }
    }

    /**
     * Session 6: a CJK text needing more new characters than there are spare keycodes reused keycodes
     * it had typed itself 2 s earlier; under load the target had not read those keys yet and printed
     * the wrong characters. Such a text is now refused before its first key (the inserter pastes it).
     */
    @Test
    void aTextWithMoreNewCharactersThanSpareKeycodesIsRefusedBeforeItsFirstKey() throws Exception {
        try (TkTarget target = TkTarget.start(dir); X11Typer typer = new X11Typer()) {
            String cjk = IntStream.range(0, typer.spareKeycodes() + 1).mapToObj(i -> Character.toString(0x4e00 + i * 7))
                    .collect(Collectors.joining());
            assertThatThrownBy(() -> typer.type(cjk + "。", 0)).isInstanceOf(UnicodeTyper.CannotTypeException.class)
                    .hasMessageContaining("spare keys");
            typer.type("ok", 0);
            assertThat(target.awaitText("ok", 20)).as("the window holds [%s]", target.text()).isTrue();
        }
    }

    /**
     * A text whose new characters need the keycodes an earlier text typed with waits until those keys
     * are {@link X11Typer#REUSE_AFTER_MILLIS} old. The target has handled the earlier text before the
     * second is typed, so what is checked is the wait and the remapped characters, not the target's speed.
     */
    @Test
    void aKeycodeOfAnEarlierTextTakesANewCharacterOnlyAfterTheReuseWait() throws Exception {
        try (TkTarget target = TkTarget.start(dir); X11Typer typer = new X11Typer()) {
            int spare = typer.spareKeycodes();
            assumeTrue(spare + 6 <= 64, "skipped: more spare keycodes than the test's Cyrillic letters");
            String first = IntStream.range(0, spare).mapToObj(i -> Character.toString(0x0410 + i))
                    .collect(Collectors.joining());
            String second = IntStream.range(spare, spare + 6).mapToObj(i -> Character.toString(0x0410 + i))
                    .collect(Collectors.joining());
            long t0 = System.nanoTime();
            typer.type(first, 0);
            assertThat(target.awaitText(first, 20)).as("the window holds [%s]", target.text()).isTrue();
            typer.type(" " + second, 0);
            long tookMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(target.awaitText(first + " " + second, 20)).as("the window holds [%s]", target.text()).isTrue();
            assertThat(tookMillis).as("the first text's keycodes are reused only after the wait")
                    .isGreaterThanOrEqualTo(X11Typer.REUSE_AFTER_MILLIS);
        }
    }

    @Test
    void thePerCharacterModeTypesTheSameText() throws Exception {
        try (TkTarget target = TkTarget.start(dir); X11Typer typer = new X11Typer()) {
            long t0 = System.nanoTime();
            typer.type(GERMAN, 5);
            long tookMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(target.awaitText(GERMAN, 20)).as("the window holds [%s]", target.text()).isTrue();
            assertThat(tookMillis).isGreaterThanOrEqualTo(5L * GERMAN.codePointCount(0, GERMAN.length()));
        }
    }
}
