package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import org.junit.jupiter.api.Test;

/**
 * The map changes another X client is told of ({@link X11Typer#CHANGE_AGAIN_AFTER_MILLIS}): one change
 * per text that needs new keycodes (the server sends several notices for each), made twice when the
 * change before it is recent, so a target whose libX11 forgot the first (read during its fetch of the
 * earlier change) still learns of it before the keys.
 * X11TyperTest.textsInARowArriveExactly is the end-to-end check (without the repeat, 4-8 % of its
 * runs under load lost the second text's new characters); this one counts the notices themselves.
 */
class X11TyperMapNoticeTest {
    private static final int MAPPING_NOTIFY = 34;

    @Test
    void aChangeRightAfterAnotherIsAnnouncedTwiceAndOneLongAfterOnce() throws Exception {
        assumeTrue(XDisplay.available(), "skipped: no X display (DISPLAY is not set)");
        try (X11Typer typer = new X11Typer(); XDisplay watcher = XDisplay.open()) {
            // Any key lookup loads libX11's XKB keymap, which asks the server for map notices (as in a target)
            assertThat(Xlib.INSTANCE.XKeysymToKeycode(watcher.handle, 'a')).isNotZero();
            Xlib.INSTANCE.XSync(watcher.handle, 1); // from here on, every notice counts
            typer.type("ô", 0); // no window has the focus: the keys go nowhere, the map changes
            notices(watcher);
            Thread.sleep(X11Typer.REUSE_AFTER_MILLIS + 100);
            typer.type("à", 0); // one keycode changed, long after the last change
            int lone = notices(watcher); // the server sends several per change (XKB's parts of the map)
            typer.type("ü", 0); // one keycode changed, at once after the last
            int soon = notices(watcher);
            typer.type("ô à ü", 0); // no change
            int none = notices(watcher);
            assertThat(lone).as("the notices of a lone change").isPositive();
            assertThat(soon).as("the notices of a change right after another").isEqualTo(2 * lone);
            assertThat(none).as("the notices of a text with no new character").isZero();
        }
    }

    /** The MappingNotify events the watcher has received since the last call. */
    private static int notices(XDisplay watcher) {
        Xlib x = Xlib.INSTANCE;
        x.XSync(watcher.handle, 0);
        Memory event = new Memory(192); // an XEvent
        int count = 0;
        while (x.XPending(watcher.handle) > 0) {
            x.XNextEvent(watcher.handle, event);
            if (event.getInt(0) == MAPPING_NOTIFY) {
                count++;
            }
        }
        return count;
    }
}
