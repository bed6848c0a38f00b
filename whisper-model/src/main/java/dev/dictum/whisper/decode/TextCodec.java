package dev.dictum.whisper.decode;

/**
 * The text side of the tokenizer, as decoding needs it. The engine adapts
 * {@code dev.dictum.whisper.tokenizer.BpeTokenizer} to this; tests use a toy codec.
 */
public interface TextCodec {

    /** Text tokens of {@code text} (no special tokens). */
    int[] encode(String text);

    /** The text of these tokens; ids at or above eot (specials, timestamps) contribute nothing. */
    String decode(int[] tokens);
}
