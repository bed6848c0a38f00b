package dev.dictum.app.os;

/**
 * The window that had focus when a recording started: the text goes there.
 *
 * @param id    the platform's handle (an X11 window id, an HWND), 0 when unknown
 * @param title for logs only when the user allows transcripts there; may be empty
 */
public record TargetWindow(long id, String title) {
    public static final TargetWindow UNKNOWN = new TargetWindow(0, "");
}
