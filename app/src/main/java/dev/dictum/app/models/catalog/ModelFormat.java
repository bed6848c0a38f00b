package dev.dictum.app.models.catalog;

/** The on-disk model formats Dictum's engine reads, as the catalog names them. */
public enum ModelFormat {
    /** A whisper.cpp {@code ggml-*.bin} file (f16 or quantised). */
    GGML("whisper.cpp ggml"),
    /** A Hugging Face {@code openai/whisper-*} folder with {@code model.safetensors}. */
    HF_SAFETENSORS("Hugging Face safetensors"),
    /** A faster-whisper / CTranslate2 folder with {@code model.bin}. */
    CTRANSLATE2("CTranslate2 (faster-whisper)");

    private final String label;

    ModelFormat(String label) {
        this.label = label;
    }

    /** What the model manager shows. */
    public String label() {
        return label;
    }
}
