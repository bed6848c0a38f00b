package dev.dictum.whisper.decode;

import dev.dictum.whisper.tokenizer.SpecialTokens;

/** OpenAI's {@code task}: X to X speech recognition, or X to English translation. */
public enum Task {
    TRANSCRIBE,
    TRANSLATE;

    /** The task token that follows the language token in a multilingual sot sequence. */
    public int token(SpecialTokens specials) {
        return this == TRANSCRIBE ? specials.transcribe() : specials.translate();
    }
}
