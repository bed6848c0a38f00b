package dev.dictum.whisper.tokenizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whisper's byte-level BPE over a {@link Vocabulary}. A token's id is its BPE rank, so merging the
 * adjacent pair whose concatenation has the lowest rank, until no pair is a token, reproduces
 * tiktoken (and merges.txt, which is derived from the ranks) exactly.
 */
public final class BpeTokenizer {
    /**
     * GPT-2's pre-tokenisation: contractions, letter runs, digit runs and symbol runs, each with
     * at most one leading space, then whitespace. UNICODE_CHARACTER_CLASS makes {@code \s} match
     * Unicode whitespace as Python's regex module does (Java's default is ASCII only).
     */
    private static final Pattern PRE_TOKENS = Pattern.compile(
            "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
            Pattern.UNICODE_CHARACTER_CLASS);

    private final Vocabulary vocabulary;
    /** Token bytes as Latin-1 strings (one char a byte): a cheap, exact hash key for byte strings. */
    private final Map<String, Integer> ranks;

    public BpeTokenizer(Vocabulary vocabulary) {
        this.vocabulary = vocabulary;
        int n = vocabulary.textTokenCount();
        this.ranks = HashMap.newHashMap(n);
        for (int id = 0; id < n; id++) {
            Integer previous = ranks.putIfAbsent(key(vocabulary.bytes(id)), id);
            if (previous != null) {
                throw new IllegalArgumentException("tokens " + previous + " and " + id + " have the same bytes");
            }
        }
        for (int b = 0; b < 256; b++) {
            if (!ranks.containsKey(String.valueOf((char) b))) {
                throw new IllegalArgumentException("the vocabulary has no token for byte " + b
                        + ", so not every text can be encoded");
            }
        }
    }

    public Vocabulary vocabulary() {
        return vocabulary;
    }

    public SpecialTokens specials() {
        return vocabulary.specials();
    }

    /** Text tokens of {@code text}; special tokens are never produced (their spellings are plain text here). */
    public int[] encode(String text) {
        List<Integer> out = new ArrayList<>();
        Matcher m = PRE_TOKENS.matcher(text);
        while (m.find()) {
            encodePiece(m.group().getBytes(StandardCharsets.UTF_8), out);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The text of these tokens. Ids at or above eot (specials, timestamps) are skipped. The bytes
     * are joined before UTF-8 decoding because one character may be split across tokens; invalid
     * sequences become U+FFFD.
     */
    public String decode(int[] ids) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int eot = vocabulary.specials().eot();
        for (int id : ids) {
            if (id < 0) {
                throw new IllegalArgumentException("negative token id " + id);
            }
            if (id < eot) {
                bytes.writeBytes(vocabulary.bytes(id));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The bytes of one text token (a copy). */
    public byte[] tokenBytes(int id) {
        if (id < 0 || id >= vocabulary.textTokenCount()) {
            throw new IllegalArgumentException("token " + id + " is not a text token");
        }
        return vocabulary.bytes(id).clone();
    }

    private void encodePiece(byte[] piece, List<Integer> out) {
        Integer whole = ranks.get(key(piece));
        if (whole != null) {
            out.add(whole);
            return;
        }
        List<String> parts = new ArrayList<>(piece.length);
        for (byte b : piece) {
            parts.add(String.valueOf((char) (b & 0xFF)));
        }
        while (parts.size() > 1) {
            int best = -1;
            int bestRank = Integer.MAX_VALUE;
            for (int i = 0; i + 1 < parts.size(); i++) {
                Integer r = ranks.get(parts.get(i) + parts.get(i + 1));
                if (r != null && r < bestRank) {
                    bestRank = r;
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            parts.set(best, parts.get(best) + parts.get(best + 1));
            parts.remove(best + 1);
        }
        for (String p : parts) {
            out.add(ranks.get(p));
        }
    }

    private static String key(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
