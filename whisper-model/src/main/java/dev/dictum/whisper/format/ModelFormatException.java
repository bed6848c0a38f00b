package dev.dictum.whisper.format;

/**
 * A model file or directory that cannot be used: missing, truncated, corrupt, impossible header
 * fields, wrong shapes, missing tensors, unknown dtypes. The message is one line meant for the
 * user and names the file and what is wrong with it.
 */
public class ModelFormatException extends RuntimeException {
    public ModelFormatException(String message) {
        super(message);
    }

    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
