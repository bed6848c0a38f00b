package dev.dictum.whisper.model;

/** The encoder's output for one 30-second window; backend memory, freed by {@link #close()}. */
public interface EncodedAudio extends AutoCloseable {

    /** Copies the encoder output {@code [n_audio_ctx, n_audio_state]} to the host (tests, oracles). */
    float[] toHost();

    @Override
    void close();
}
