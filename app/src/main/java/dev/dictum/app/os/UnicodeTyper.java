package dev.dictum.app.os;

/** Types text as key events, any Unicode character included. */
public interface UnicodeTyper {

    /**
     * @throws CannotTypeException before any key is sent, when this text cannot be typed exactly here
     *                             (the caller pastes it instead)
     */
    void type(String text, int delayMillis) throws InterruptedException, CannotTypeException;

    /** A text this typer cannot type exactly; nothing of it was sent. The message says why, in one line. */
    final class CannotTypeException extends Exception {
        public CannotTypeException(String message) {
            super(message);
        }
    }
}
