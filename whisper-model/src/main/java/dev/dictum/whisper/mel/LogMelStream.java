package dev.dictum.whisper.mel;

/**
 * Streaming log-mel: push 16 kHz mono samples in chunks of any size while the user is still
 * speaking (or while a long file is being read); each raw log-mel frame goes to the sink as soon as
 * the 400 samples it is centred on are all in. {@link #finish()} then appends 30 s of zeros, as
 * OpenAI's {@code log_mel_spectrogram(audio, padding=N_SAMPLES)} does, so that the trailing frames
 * and every later window are exactly what the reference computes.
 *
 * <p>Frames are OpenAI's: frame t is centred on sample 160 t, the signal is reflected at its start
 * (so frame 0 waits for 201 samples), the padded signal has (L + 480000) / 160 frames and the one
 * past that is dropped. Emitted values are raw (log10 of the floored mel energy); normalise a window
 * with {@link LogMelNormalizer}.
 *
 * <p>Memory is bounded: at most one frame plus one input piece of samples is held, whatever the
 * chunk sizes. One instance per utterance; not thread-safe.
 */
public final class LogMelStream {

    /** Large chunks are taken in pieces of this many samples, so the buffer stays small. */
    private static final int PIECE_SAMPLES = 4096;

    private final MelFrameComputer computer;
    private final MelFrameSink sink;
    private final float[] frameOut;
    private final float[] silentFrame;
    /** Samples with absolute indices [bufferStart, bufferStart + bufferLength). */
    private final float[] buffer = new float[MelConstants.N_FFT + PIECE_SAMPLES];
    private long bufferStart;
    private int bufferLength;
    private int nextFrame;
    private boolean finished;

    public LogMelStream(int nMels, MelFrameSink sink) {
        this(MelFilterBank.slaney(nMels), sink);
    }

    public LogMelStream(MelFilterBank filters, MelFrameSink sink) {
        this(filters, sink, 0);
    }

    /**
     * A stream that resumes at frame {@code startFrame} (0 or at least 2: frames 0 and 1 reflect the
     * signal's start), for a caller that already has frames 0..startFrame-1: its first sample is
     * sample {@code 160 * startFrame - 200}, the first one that frame needs, so the first sample
     * pushed must be that one. Every frame it emits is the frame a stream from sample 0 would emit,
     * bit for bit (the same samples at the same indices through the same arithmetic).
     */
    public LogMelStream(int nMels, MelFrameSink sink, int startFrame) {
        this(MelFilterBank.slaney(nMels), sink, startFrame);
    }

    private LogMelStream(MelFilterBank filters, MelFrameSink sink, int startFrame) {
        if (startFrame < 0 || startFrame == 1) {
            throw new IllegalArgumentException("a stream resumes at frame 0 or from frame 2, not " + startFrame);
        }
        this.nextFrame = startFrame;
        this.bufferStart = firstSampleOf(startFrame);
        this.computer = new MelFrameComputer(filters);
        this.sink = sink;
        this.frameOut = new float[filters.nMels()];
        this.silentFrame = new float[filters.nMels()];
        java.util.Arrays.fill(silentFrame, MelConstants.RAW_SILENCE);
    }

    /** Samples pushed so far. */
    public long samplesPushed() {
        return bufferStart + bufferLength;
    }

    /** Frames emitted so far; the next frame emitted has this index. */
    public int framesEmitted() {
        return nextFrame;
    }

    public boolean isFinished() {
        return finished;
    }

    public void push(float[] samples) {
        push(samples, 0, samples.length);
    }

    /** Appends {@code samples[offset .. offset+length)}; returns the number of frames emitted. */
    public int push(float[] samples, int offset, int length) {
        if (finished) {
            throw new IllegalStateException("stream already finished");
        }
        java.util.Objects.checkFromIndexSize(offset, length, samples.length);
        int before = nextFrame;
        while (length > 0) {
            compact();
            int n = Math.min(length, buffer.length - bufferLength);
            System.arraycopy(samples, offset, buffer, bufferLength, n);
            bufferLength += n;
            offset += n;
            length -= n;
            long available = samplesPushed();
            while (frameReady(nextFrame, available)) {
                emitFrame(available);
            }
        }
        return nextFrame - before;
    }

    /**
     * Ends the audio: appends 30 s of zeros (conceptually; no buffer is allocated) and emits every
     * remaining frame, so that {@link #framesEmitted()} becomes (L + 480000) / 160. Returns the
     * number of frames emitted; a second call does nothing.
     */
    public int finish() {
        if (finished) {
            return 0;
        }
        finished = true;
        int before = nextFrame;
        long audioLength = samplesPushed();
        long totalFrames = (audioLength + MelConstants.WINDOW_SAMPLES) / MelConstants.HOP_LENGTH;
        if (totalFrames > Integer.MAX_VALUE) {
            throw new IllegalStateException("audio too long for int frame indices");
        }
        while (nextFrame < totalFrames) {
            long frameStart = (long) nextFrame * MelConstants.HOP_LENGTH - MelConstants.CENTER_PAD;
            if (frameStart >= audioLength) {
                // Entirely in the zero padding: the FFT would give exactly zero power.
                sink.acceptFrame(nextFrame++, silentFrame);
            } else {
                emitFrame(audioLength);
            }
        }
        return nextFrame - before;
    }

    /** The first sample frame {@code frame} reads (0 for the reflected frames 0 and 1). */
    public static long firstSampleOf(int frame) {
        return Math.max(0L, (long) frame * MelConstants.HOP_LENGTH - MelConstants.CENTER_PAD);
    }

    /** The first frame of audio of {@code samples} samples that lies wholly in the zero padding: silence. */
    public static int firstSilentFrame(long samples) {
        return (int) Math.min(Integer.MAX_VALUE,
                (samples + MelConstants.CENTER_PAD + MelConstants.HOP_LENGTH - 1) / MelConstants.HOP_LENGTH);
    }

    /** Frames whose samples all lie in the first {@code samples} samples (what later audio cannot change). */
    public static int framesWithin(long samples) {
        if (samples <= MelConstants.CENTER_PAD) {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, (samples - MelConstants.CENTER_PAD) / MelConstants.HOP_LENGTH + 1);
    }

    /** Frame t needs samples up to 160 t + 199, and frame 0 also sample 200 for its reflection. */
    private static boolean frameReady(int frame, long available) {
        long needed = (long) frame * MelConstants.HOP_LENGTH + MelConstants.CENTER_PAD;
        return available >= Math.max(needed, MelConstants.CENTER_PAD + 1);
    }

    /** Computes and emits frame nextFrame; samples at index >= audioLength read as zero. */
    private void emitFrame(long audioLength) {
        double[] frame = computer.samples();
        long start = (long) nextFrame * MelConstants.HOP_LENGTH - MelConstants.CENTER_PAD;
        for (int j = 0; j < MelConstants.N_FFT; j++) {
            long index = start + j;
            if (index < 0) {
                index = -index; // reflect padding at the start (frames 0 and 1)
            }
            frame[j] = index < audioLength ? buffer[(int) (index - bufferStart)] : 0.0;
        }
        computer.compute(frameOut, 0);
        sink.acceptFrame(nextFrame++, frameOut);
    }

    /** Drops samples no future frame needs (those before the next frame's first sample). */
    private void compact() {
        long keepFrom = Math.max(0L, (long) nextFrame * MelConstants.HOP_LENGTH - MelConstants.CENTER_PAD);
        int drop = (int) Math.min(bufferLength, keepFrom - bufferStart);
        if (drop > 0) {
            System.arraycopy(buffer, drop, buffer, 0, bufferLength - drop);
            bufferStart += drop;
            bufferLength -= drop;
        }
    }
}
