package dev.dictum.app.models;

/** The model file formats Dictum reads. */
public enum ModelFormat {
    HUGGING_FACE("Hugging Face"),
    GGML("whisper.cpp"),
    CTRANSLATE2("CTranslate2");

    private final String label;

    ModelFormat(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
