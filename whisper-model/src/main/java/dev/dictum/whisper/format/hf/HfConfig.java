package dev.dictum.whisper.format.hf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WhisperDims;
import java.nio.file.Path;

/**
 * What config.json says: the model dimensions, and the whole object for the token ids it states
 * (decoder_start_token_id, eos_token_id), which are checked against the vocabulary size later.
 */
record HfConfig(WhisperDims dims, JsonNode json) {

    static HfConfig read(Path file) {
        JsonNode c = JsonFiles.readObject(file);
        int dModel = JsonFiles.requiredInt(c, "d_model", file);
        WhisperDims dims;
        try {
            dims = new WhisperDims(
                    JsonFiles.requiredInt(c, "num_mel_bins", file),
                    JsonFiles.requiredInt(c, "max_source_positions", file),
                    dModel,
                    JsonFiles.requiredInt(c, "encoder_attention_heads", file),
                    JsonFiles.requiredInt(c, "encoder_layers", file),
                    JsonFiles.requiredInt(c, "vocab_size", file),
                    JsonFiles.requiredInt(c, "max_target_positions", file),
                    dModel,
                    JsonFiles.requiredInt(c, "decoder_attention_heads", file),
                    JsonFiles.requiredInt(c, "decoder_layers", file));
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(file + ": not a Whisper model: " + e.getMessage(), e);
        }
        return new HfConfig(dims, c);
    }
}
