package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rule that keeps typed characters right: no keycode changes within the reuse time of its last key. */
class SpareKeycodesTest {
    private static final long SEC = 1_000_000_000L;
    private static final long A = 0x10000e0L; // stand-ins for keysyms the layout lacks
    private static final long B = 0x10000e1L;
    private static final long C = 0x10000e2L;
    private static final long D = 0x10000e3L;
    private static final long LAYOUT = 'x';

    private final Map<Integer, long[]> server = new HashMap<>(); // keycode → its keysyms, as the server holds them

    private SpareKeycodes pool(Integer... spare) {
        for (int kc : spare) {
            server.put(kc, new long[2]);
        }
        return new SpareKeycodes(List.of(spare), 2 * SEC);
    }

    private SpareKeycodes.Run type(SpareKeycodes p, long now, long... keysyms) {
        SpareKeycodes.Run run = p.plan(keysyms, 0, s -> s == LAYOUT, kc -> p.isOurs(kc, this::symsOf), now);
        run.remaps().forEach((kc, sym) -> server.put(kc, new long[] {sym, sym}));
        p.commit(run, now);
        return run;
    }

    private long[] symsOf(int kc) {
        return server.getOrDefault(kc, new long[2]);
    }

    @Test
    void aCharacterStaysOnItsKeycodeSoTheNextTextChangesNoMapping() {
        SpareKeycodes p = pool(100, 101, 102);
        SpareKeycodes.Run first = type(p, 0, A, LAYOUT, B, A);
        assertThat(first.end()).isEqualTo(4);
        assertThat(first.remaps()).containsExactly(Map.entry(100, A), Map.entry(101, B));
        SpareKeycodes.Run again = type(p, SEC / 100, B, A, LAYOUT);
        assertThat(again.end()).isEqualTo(3);
        assertThat(again.remaps()).isEmpty();
        assertThat(again.keyOf()).containsOnly(Map.entry(A, 100), Map.entry(B, 101));
    }

    @Test
    void aNewCharacterTakesAnEmptyKeycodeBeforeACarriedOneHoweverOld() {
        SpareKeycodes p = pool(100, 101);
        type(p, 0, A);
        SpareKeycodes.Run run = type(p, 100 * SEC, C);
        assertThat(run.remaps()).containsExactly(Map.entry(101, C));
    }

    @Test
    void aKeycodeTypedLessThanTheReuseTimeAgoIsNotChangedTheRunStopsBeforeTheCharacterInstead() {
        SpareKeycodes p = pool(100, 101);
        type(p, 0, A, B);
        long now = 2 * SEC - 1;
        SpareKeycodes.Run blocked = p.plan(new long[] {A, LAYOUT, C, B}, 0, s -> s == LAYOUT, kc -> true, now);
        assertThat(blocked.end()).isEqualTo(2);
        assertThat(blocked.remaps()).isEmpty();
        assertThat(p.nanosUntilReady(now)).isEqualTo(1);
    }

    @Test
    void onceOldEnoughTheLeastRecentlyTypedKeycodeTakesTheNewCharacter() {
        SpareKeycodes p = pool(100, 101);
        type(p, 0, A);
        type(p, SEC, B);
        SpareKeycodes.Run run = type(p, 2 * SEC, C, B);
        assertThat(run.end()).isEqualTo(2);
        assertThat(run.remaps()).containsExactly(Map.entry(100, C));
        // A was moved off its keycode: it needs one again, and 101 (B) was typed just now.
        SpareKeycodes.Run a = p.plan(new long[] {A}, 0, s -> false, kc -> true, 2 * SEC + 1);
        assertThat(a.end()).isZero();
        assertThat(p.nanosUntilReady(2 * SEC + 1)).isEqualTo(2 * SEC - 1);
    }

    @Test
    void aKeycodeThatAnotherProgramMappedIsLeftAloneAndOneThatWasClearedIsForgotten() {
        SpareKeycodes p = pool(100, 101, 102);
        type(p, 0, A, B);
        server.put(100, new long[] {'q', 'Q'}); // another program took 100 (Dictum's A)
        server.put(101, new long[2]); // a layout switch cleared 101 (Dictum's B)
        p.reconcile(this::symsOf);
        assertThat(p.isOurs(100, this::symsOf)).isFalse();
        SpareKeycodes.Run run = type(p, 10 * SEC, A, B, C);
        assertThat(run.end()).isEqualTo(2);
        assertThat(run.remaps()).containsExactly(Map.entry(101, A), Map.entry(102, B));
        assertThat(Set.copyOf(p.takeCarried())).containsExactlyInAnyOrder(101, 102);
    }

    @Test
    void aKeymapWithoutSpareKeycodesCannotType() {
        assertThatThrownBy(() -> new SpareKeycodes(List.of(), SEC)).hasMessageContaining("no spare keycode");
    }

    @Test
    void theRunStartsWhereTheLastOneEnded() {
        SpareKeycodes p = pool(100);
        type(p, 0, A);
        SpareKeycodes.Run run = p.plan(new long[] {A, D, LAYOUT}, 1, s -> s == LAYOUT, kc -> true, 3 * SEC);
        assertThat(run.end()).isEqualTo(3);
        assertThat(run.remaps()).containsExactly(Map.entry(100, D));
    }

    @Test
    void aTextCountsOneKeycodePerDistinctMissingKeysym() {
        assertThat(SpareKeycodes.needed(new long[] {A, LAYOUT, B, A, LAYOUT, C}, s -> s == LAYOUT)).isEqualTo(3);
        SpareKeycodes p = pool(100, 101, 102);
        server.put(101, new long[] {'q', 'Q'}); // another program's
        assertThat(p.usable(kc -> p.isOurs(kc, this::symsOf))).isEqualTo(2);
    }

    /** A text that fits never takes back a keycode it typed itself: the earlier texts' go first, oldest first. */
    @Test
    void aTextThatFitsWaitsOnlyForKeycodesOfEarlierTexts() {
        SpareKeycodes p = pool(100, 101);
        type(p, 0, A);
        type(p, SEC, B);
        long[] text = {C, D};
        SpareKeycodes.Run first = p.plan(text, 0, s -> false, kc -> true, 2 * SEC);
        assertThat(first.end()).isEqualTo(1);
        assertThat(first.remaps()).containsExactly(Map.entry(100, C));
        p.commit(first, 2 * SEC);
        assertThat(p.nanosUntilReady(2 * SEC)).as("101 (B, the earlier text's) is the one waited for").isEqualTo(SEC);
        SpareKeycodes.Run rest = p.plan(text, 1, s -> false, kc -> true, 3 * SEC);
        assertThat(rest.end()).isEqualTo(2);
        assertThat(rest.remaps()).containsExactly(Map.entry(101, D));
    }

    /** Nothing carried, nothing to wait for, whatever nanoTime's sign (the quit that never ended). */
    @Test
    void withNoKeycodeCarriedNothingIsWaitedFor() {
        SpareKeycodes p = pool(100);
        assertThat(p.nanosUntilReady(Long.MAX_VALUE / 2)).isZero();
        assertThat(p.nanosUntilReady(-5 * SEC)).isZero();
        type(p, -5 * SEC, A);
        assertThat(p.nanosUntilReady(-5 * SEC)).isEqualTo(2 * SEC);
        assertThat(p.nanosUntilReady(0)).isZero();
    }
}
