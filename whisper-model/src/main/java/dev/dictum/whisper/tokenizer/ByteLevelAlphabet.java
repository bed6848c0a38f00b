package dev.dictum.whisper.tokenizer;

import java.io.ByteArrayOutputStream;

/**
 * GPT-2's byte-level alphabet: the reversible map from the 256 byte values to printable Unicode
 * characters that vocab.json and tokenizer.json use to spell tokens. Bytes that are printable
 * Latin-1 stand for themselves; the others (controls, space, soft hyphen, ...) are moved to
 * U+0100 and up, in byte order, so that no token is spelled with whitespace or control characters.
 */
public final class ByteLevelAlphabet {
    private static final char[] BYTE_TO_CHAR = new char[256];
    private static final int[] CHAR_TO_BYTE = new int[512];

    static {
        java.util.Arrays.fill(CHAR_TO_BYTE, -1);
        int next = 256;
        for (int b = 0; b < 256; b++) {
            char c = standsForItself(b) ? (char) b : (char) next++;
            BYTE_TO_CHAR[b] = c;
            CHAR_TO_BYTE[c] = b;
        }
    }

    private ByteLevelAlphabet() {
    }

    private static boolean standsForItself(int b) {
        return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    }

    /**
     * The bytes a token spelled in the alphabet stands for.
     *
     * @throws IllegalArgumentException if a character is not in the alphabet
     */
    public static byte[] toBytes(String spelled) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(spelled.length());
        for (int i = 0; i < spelled.length(); i++) {
            char c = spelled.charAt(i);
            int b = c < CHAR_TO_BYTE.length ? CHAR_TO_BYTE[c] : -1;
            if (b < 0) {
                throw new IllegalArgumentException(String.format("character U+%04X is not in the byte-level alphabet",
                        (int) c));
            }
            out.write(b);
        }
        return out.toByteArray();
    }

    /** How vocab.json spells these bytes. */
    public static String spell(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            sb.append(BYTE_TO_CHAR[b & 0xFF]);
        }
        return sb.toString();
    }
}
