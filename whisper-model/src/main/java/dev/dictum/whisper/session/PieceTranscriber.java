package dev.dictum.whisper.session;

import dev.dictum.gpu.BackendFailure;
import dev.dictum.gpu.cpu.ComputePool;
import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.TextCodec;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.Transcriber;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.model.WhisperInference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Runs a {@link SessionJob} on the session's thread: the log-mel of its piece (the frames of audio
 * already fed kept from the last job over the same piece, {@link PieceMel}), then the transcription,
 * preemptible ({@link PreemptibleInference}) and moved to the CPU model after a device failure.
 */
final class PieceTranscriber {
    private final TextCodec codec;
    private final int nMels;
    private final TranscribeOptions options;
    private final Function<BackendFailure, WhisperInference> fallback;
    private volatile WhisperInference model;
    /** The log-mel frames of the piece the last job was over, kept for the next job over it. */
    private PieceMel pieceMel;

    /** @param fallback gives a CPU model after a device failure (the failed run is redone there); null where none can fail */
    PieceTranscriber(WhisperInference model, TextCodec codec, TranscribeOptions options,
            Function<BackendFailure, WhisperInference> fallback) {
        this.model = model;
        this.codec = codec;
        this.nMels = model.dims().nMels();
        this.options = options;
        this.fallback = fallback;
    }

    /** The model jobs run on now (the CPU one after a device failure). */
    WhisperInference model() {
        return model;
    }

    /**
     * Transcribes {@code job}; throws a CancellationException once {@code wanted} says no (checked
     * before every decoder step and encoder layer).
     */
    SessionJob.Ran run(SessionJob job, BooleanSupplier wanted) {
        long t0 = System.nanoTime();
        long cpu0 = ComputePool.cpuNanosWithCaller();
        if (pieceMel == null || pieceMel.start != job.range().start()) {
            pieceMel = new PieceMel(nMels, job.range().start());
        }
        StreamingMelSource mel = pieceMel.source(job.audio(), job.fed());
        long melNanos = System.nanoTime() - t0;
        TranscribeOptions o = job.language() == null || options.decoding().language() != null ? options
                : options.withDecoding(options.decoding().withLanguage(job.language()));
        while (true) {
            PreemptibleInference p = new PreemptibleInference(model, wanted);
            try {
                long t1 = System.nanoTime();
                TranscriptionResult r = new Transcriber(p, codec).transcribe(mel, o, ProgressListener.NONE,
                        job.context(), job.draft());
                long t2 = System.nanoTime();
                long cpu2 = ComputePool.cpuNanosWithCaller();
                return new SessionJob.Ran(r, t0, t2, melNanos, t2 - t1, cpu0 < 0 || cpu2 < 0 ? -1 : cpu2 - cpu0);
            } catch (BackendFailure e) {
                if (fallback == null) {
                    throw e;
                }
                model = fallback.apply(e);
                mel = pieceMel.source(job.audio(), job.fed());
            }
        }
    }
}
