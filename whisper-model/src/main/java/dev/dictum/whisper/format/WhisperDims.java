package dev.dictum.whisper.format;

/**
 * The hyper-parameters that fix a Whisper model's shapes (OpenAI's ModelDimensions).
 * tiny: 80 mels, 1500/384/6/4 audio, 448/384/6/4 text; large-v3: 128 mels, 1280/20/32 both sides;
 * large-v3-turbo: 32 encoder layers, 4 decoder layers.
 */
public record WhisperDims(
        int nMels,
        int nAudioCtx,
        int nAudioState,
        int nAudioHead,
        int nAudioLayer,
        int nVocab,
        int nTextCtx,
        int nTextState,
        int nTextHead,
        int nTextLayer) {

    public WhisperDims {
        check("n_mels", nMels, 1, 512);
        check("n_audio_ctx", nAudioCtx, 1, 1 << 16);
        check("n_audio_state", nAudioState, 1, 1 << 14);
        check("n_audio_head", nAudioHead, 1, 1 << 10);
        check("n_audio_layer", nAudioLayer, 1, 1 << 10);
        check("n_vocab", nVocab, 51864, 51866);
        check("n_text_ctx", nTextCtx, 1, 1 << 16);
        check("n_text_state", nTextState, 1, 1 << 14);
        check("n_text_head", nTextHead, 1, 1 << 10);
        check("n_text_layer", nTextLayer, 1, 1 << 10);
        if (nAudioState % nAudioHead != 0 || nTextState % nTextHead != 0) {
            throw new IllegalArgumentException("model state size is not a multiple of the number of heads");
        }
    }

    private static void check(String what, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(what + " = " + v + " is outside [" + lo + ", " + hi + "]");
        }
    }

    /** English-only models (tiny.en ... medium.en) have 51864 tokens; multilingual ones 51865 or 51866. */
    public boolean isMultilingual() {
        return nVocab >= 51865;
    }

    /** Audio samples per 30-second window at 16 kHz follow from the audio context: 2 frames a position. */
    public int melFrames() {
        return 2 * nAudioCtx;
    }
}
