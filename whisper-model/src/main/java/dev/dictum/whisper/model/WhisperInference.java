package dev.dictum.whisper.model;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.function.BooleanSupplier;

/**
 * What decoding needs from a loaded model, whatever backend runs it: encode a 30-second window of
 * log-mel, then run the text decoder incrementally over it. Decoding strategies (greedy, beam,
 * sampling, timestamps, fallback) live above this interface and never see a backend.
 */
public interface WhisperInference extends AutoCloseable {

    WhisperDims dims();

    Vocabulary vocabulary();

    GenerationConfig generation();

    /**
     * Encodes one window of log-mel, row-major {@code [n_mels, 2 * n_audio_ctx]} (mel bin outer).
     * The handle holds the encoder output (and the cross-attention keys and values derived from it).
     */
    EncodedAudio encode(float[] logMel);

    /**
     * Encodes only the first {@code positions} encoder positions of the window (the first
     * {@code 2 * positions} mel frames, the first positional-embedding rows; whisper.cpp's
     * {@code audio_ctx}): the handle then holds {@code positions} rows and the decoder's
     * cross-attention reads only those. {@code n_audio_ctx} positions is {@link #encode(float[])}.
     * An implementation that cannot shorten the encoder encodes the whole window.
     */
    default EncodedAudio encode(float[] logMel, int positions) {
        return encode(logMel);
    }

    /**
     * {@link #encode(float[], int)} that can be called off: {@code keepGoing} is asked before the
     * encoder starts and between its layers, and once it says no the run throws {@link Preempted}
     * within one layer, keeping nothing (its output is freed; the model's state is as before). A
     * warm-up thus yields to a real dictation in milliseconds instead of a whole window's encode. An
     * implementation that cannot stop inside its encoder asks before and after it.
     */
    default EncodedAudio encode(float[] logMel, int positions, BooleanSupplier keepGoing) {
        if (!keepGoing.getAsBoolean()) {
            throw new Preempted("before the encoder");
        }
        EncodedAudio audio = encode(logMel, positions);
        if (!keepGoing.getAsBoolean()) {
            audio.close();
            throw new Preempted("after the encoder");
        }
        return audio;
    }

    /** A decoder with room for up to {@code maxBatch} parallel sequences of up to n_text_ctx tokens. */
    DecoderState newDecoder(int maxBatch);

    @Override
    void close();
}
