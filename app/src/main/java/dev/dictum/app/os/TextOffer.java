package dev.dictum.app.os;

/**
 * Puts the dictated text on the clipboard by the platform's own means, where the toolkit's way is
 * slow (issue 23): on X11, AWT's {@code Clipboard.setContents} fetches a server time stamp through its
 * toolkit thread and took ~96 ms in 2-3 of 20 pastes. The restore of what the user had stays with
 * the toolkit, which can offer every format.
 */
public interface TextOffer {

    /**
     * Makes {@code text} the clipboard's contents until another program (or the toolkit) takes the
     * clipboard; {@code onRead} runs, once, when a program first fetches the text.
     *
     * @return false when the text was not offered (then the toolkit's clipboard is used)
     */
    boolean offer(String text, Runnable onRead);

    /** No faster way on this platform. */
    TextOffer NONE = (text, onRead) -> false;
}
