package dev.dictum.app.os;

/**
 * Tells whether another program changed the clipboard, so that its contents can be read while the
 * user speaks and read again at the release only when they changed (issue 23 item 1). X11 counts
 * XFixes selection-owner events; Windows has the clipboard sequence number.
 */
public interface ClipboardChanges {

    /**
     * A number that changes whenever another program puts something on the clipboard; negative
     * when unknown (then the clipboard is read at every paste).
     */
    long generation();

    /** Dictum has just put something on the clipboard: where the platform can, its own changes are not counted. */
    default void ownedByUs() {
    }

    /** No watch on this platform: the clipboard is read at the release, as before. */
    ClipboardChanges UNKNOWN = () -> -1;
}
