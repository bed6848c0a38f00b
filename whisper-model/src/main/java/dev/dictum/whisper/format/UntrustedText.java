package dev.dictum.whisper.format;

/**
 * Makes text that comes from a model file (tensor names, tokens, parser messages) safe for a
 * one-line error message: control and line-separator characters are escaped, long text is cut.
 */
public final class UntrustedText {
    private static final int MAX = 160;

    private UntrustedText() {
    }

    public static String oneLine(String text) {
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

    /** A name read from a file, quoted. */
    public static String quoted(String name) {
        return "'" + oneLine(name) + "'";
    }
}
