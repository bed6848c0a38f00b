package dev.dictum.whisper.testutil;

import dev.dictum.whisper.format.WhisperDims;

/**
 * The smallest Whisper dimensions the file formats allow: real vocabularies (the token embedding
 * dominates, 51864 x 32), everything else minimal but with rows of 32 so that every ggml block
 * type applies, and two decoder layers so that alignment heads have a second half.
 */
public final class TinyWhisper {
    public static final WhisperDims EN = new WhisperDims(80, 16, 32, 2, 1, 51864, 8, 32, 2, 2);
    public static final WhisperDims MULTI = new WhisperDims(128, 16, 32, 2, 1, 51866, 8, 32, 2, 2);
    public static final WhisperDims MULTI_V2 = new WhisperDims(8, 16, 32, 2, 1, 51865, 8, 32, 2, 2);

    private TinyWhisper() {
    }
}
