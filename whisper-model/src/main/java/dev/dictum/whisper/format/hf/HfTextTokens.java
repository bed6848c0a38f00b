package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.tokenizer.ByteLevelAlphabet;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The text tokens (ids 0 .. eot-1, the BPE ranks) of a Hugging Face vocabulary as bytes. The
 * vocabulary file also lists {@code <|endoftext|>}; entries at or above eot must be such special
 * tokens, and the text ids must be dense, each used once.
 */
final class HfTextTokens {
    private HfTextTokens() {
    }

    static List<byte[]> of(HfTokenizerFiles files, int eot, int vocabSize) {
        String source = files.vocabSource();
        byte[][] tokens = new byte[eot][];
        for (Map.Entry<String, Integer> e : files.vocab().entrySet()) {
            String spelled = e.getKey();
            int id = e.getValue();
            if (id >= eot) {
                if (!isSpecial(spelled)) {
                    throw new ModelFormatException(source + ": text token " + UntrustedText.quoted(spelled) + " has id " + id
                            + ", but vocab_size " + vocabSize + " leaves room for only " + eot + " text tokens");
                }
                continue; // a special token; its id is checked with the others
            }
            if (tokens[id] != null) {
                throw new ModelFormatException(source + ": id " + id + " is used by two tokens, one of them "
                        + UntrustedText.quoted(spelled));
            }
            try {
                tokens[id] = ByteLevelAlphabet.toBytes(spelled);
            } catch (IllegalArgumentException notByteLevel) {
                throw new ModelFormatException(source + ": token " + UntrustedText.quoted(spelled) + " (id " + id + "): "
                        + notByteLevel.getMessage(), notByteLevel);
            }
        }
        for (int id = 0; id < eot; id++) {
            if (tokens[id] == null) {
                long present = Arrays.stream(tokens).filter(t -> t != null).count();
                throw new ModelFormatException(source + ": has " + present + " text tokens and none with id " + id
                        + ", but vocab_size " + vocabSize + " needs ids 0.." + (eot - 1));
            }
        }
        return Arrays.asList(tokens);
    }

    static boolean isSpecial(String content) {
        return content.length() > 4 && content.startsWith("<|") && content.endsWith("|>");
    }
}
