package dev.dictum.whisper.session;

import dev.dictum.gpu.Backend;
import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.TextCodec;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.Transcriber;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.format.ModelFiles;
import dev.dictum.whisper.model.WhisperModel;
import dev.dictum.whisper.tokenizer.BpeTokenizer;
import java.nio.file.Path;

/**
 * The transcription API: a model loaded onto a backend, from which sessions are started. One
 * engine serves any number of sessions one after another (and concurrent ones, each decoding
 * on its own state; the encoder runs one window at a time).
 */
public final class WhisperEngine implements AutoCloseable {
    private final WhisperModel model;
    private final BpeTokenizer tokenizer;
    private final TextCodec codec;
    private final long loadNanos;

    private WhisperEngine(WhisperModel model, long loadNanos) {
        this.model = model;
        this.tokenizer = new BpeTokenizer(model.vocabulary());
        this.codec = new TextCodec() {
            @Override
            public int[] encode(String text) {
                return tokenizer.encode(text);
            }

            @Override
            public String decode(int[] tokens) {
                return tokenizer.decode(tokens);
            }
        };
        this.loadNanos = loadNanos;
    }

    /** Opens the model at {@code path} (any supported format) and loads it onto {@code backend}. */
    public static WhisperEngine load(Path path, Backend backend) {
        long t0 = System.nanoTime();
        WhisperModel model = WhisperModel.load(ModelFiles.open(path), backend);
        return new WhisperEngine(model, System.nanoTime() - t0);
    }

    public WhisperModel model() {
        return model;
    }

    public BpeTokenizer tokenizer() {
        return tokenizer;
    }

    public TextCodec codec() {
        return codec;
    }

    public long loadNanos() {
        return loadNanos;
    }

    /** Starts a session that is fed audio and then finished. */
    public TranscriptionSession startSession(TranscribeOptions options, ProgressListener progress) {
        return new TranscriptionSession(new Transcriber(model, codec), model.dims().nMels(), options, progress);
    }

    /** Transcribes audio that is all there already (16 kHz mono). */
    public TranscriptionResult transcribe(float[] audio16k, TranscribeOptions options) {
        try (TranscriptionSession s = startSession(options, ProgressListener.NONE)) {
            s.feed(audio16k);
            return s.finish();
        }
    }

    @Override
    public void close() {
        model.close();
    }
}
