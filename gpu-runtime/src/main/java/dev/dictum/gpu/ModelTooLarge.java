package dev.dictum.gpu;

/** A model's weights and working memory do not fit the device: refused before anything is uploaded. */
public final class ModelTooLarge extends BackendFailure {
    private static final long serialVersionUID = 1L;

    public ModelTooLarge(String message) {
        super(message);
    }
}
