package dev.dictum.whisper.format.hf;

/**
 * Makes untrusted text (tensor names from a file header, parser messages) safe to put in a
 * one-line error message: control characters are escaped and very long text is cut.
 */
final class OneLine {
    private static final int MAX = 200;

    private OneLine() {
    }

    static String of(String text) {
        StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX) + 8);
        for (int i = 0; i < text.length() && sb.length() < MAX; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= MAX) {
            sb.append("...");
        }
        return sb.toString();
    }

    /** A name from a file, quoted. */
    static String quoted(String name) {
        return "'" + of(name) + "'";
    }
}
