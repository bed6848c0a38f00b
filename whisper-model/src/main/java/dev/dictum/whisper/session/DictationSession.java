package dev.dictum.whisper.session;

import dev.dictum.gpu.BackendFailure;
import dev.dictum.whisper.decode.TextCodec;
import dev.dictum.whisper.decode.Timings;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.session.SessionJob.Kind;
import dev.dictum.whisper.session.SessionJob.Ran;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One dictation: fed the (already trimmed) audio while the user speaks, asked for the text at the
 * release. Behind that it does three things on its own thread, with the engine otherwise idle:
 * <ul>
 * <li><b>Speculation at pauses.</b> The caller says, at a pause, what the audio would be if the
 *     user released the key now ({@link #pause}: what was fed plus the tail its trimmer would still
 *     add). That audio is transcribed at once. If the release comes before anything else is fed, the
 *     final audio is sample for sample the audio already transcribed, and its text is the answer.</li>
 * <li><b>Pieces.</b> A dictation is cut into pieces: at each pause of {@value PieceRule#SENTENCE_PAUSE_MILLIS} ms
 *     or more once the open piece holds
 *     {@value PieceRule#MIN_PIECE_SECONDS} s (when speech resumes: the piece is exactly the speculated audio,
 *     whose transcription is kept, so the release only ever waits for the words since the last
 *     pause; a piece is also what Whisper saw in training, one utterance), or, with no pause for {@value PieceRule#MAX_PIECE_SECONDS} s, at the
 *     quietest 200 ms of its second half. Each piece is transcribed with the text of the pieces before
 *     it as the prompt ({@link Transcriber#transcribe(dev.dictum.whisper.decode.MelWindowSource,
 *     TranscribeOptions, ProgressListener, int[])}), so the release only waits for the open piece.</li>
 * <li><b>Live text.</b> While the user speaks, the open piece as it stands is transcribed for the
 *     partial-text listener (never part of the result): every 4 × the engine's last run, between
 *     {@value LiveTextPace#MIN_MILLIS} ms (a GPU: fresher text, and a longer draft for the release) and
 *     once a second (a slow CPU, whose runs would otherwise crowd out the pieces).</li>
 * </ul>
 * Exact by construction: {@link #finish()} returns the concatenated texts of {@link #pieces()}, each
 * transcribed from scratch in order with the same prompts (the tests compare byte for byte). Every run
 * over the open piece (the one at the release, a speculation, live text) checks the latest finished
 * transcription of that piece as a draft in one batched decoder pass: the
 * greedy decisions are the same rule, but the draft positions' logits come from the batched pass and
 * may differ in the last bits from single steps, so "byte for byte" holds wherever the top two logits
 * are not a near-tie (see {@link dev.dictum.whisper.decode.DecodingTask}). Work
 * that stops being wanted (a pause that speech ended, a partial overtaken by a pause, a cancel) is
 * dropped within one decoder step or encoder layer. {@link #feed} only appends under a short lock: it never waits
 * for the engine, so it can run on the capture thread.
 *
 * <p>The parts: {@link PieceCutter} (the fed audio and where it is cut, {@link PieceRule}),
 * {@link PieceResults} (the committed pieces' texts, their prompt, the joined result),
 * {@link PieceTranscriber} (one job's log-mel and transcription), {@link LiveTextPace}; this class
 * decides what runs next and hands the text over at the release.
 */
public final class DictationSession implements AutoCloseable {
    static final int RATE = PieceCutter.RATE;
    /** For A/B timing only: {@code -Ddictum.release.noDraft=true} runs the release without the live text's draft. */
    private static final boolean DRAFTS = !Boolean.getBoolean("dictum.release.noDraft");

    /** A stretch of the fed audio, in samples [start, end). */
    public record Range(int start, int end) {
        public double seconds() {
            return (end - start) / (double) RATE;
        }
    }

    /**
     * What the release waited for, for the log and the benchmark. The parts of the run that finished
     * after the release ("the final run"; all 0 when the text had been made at a pause) add up, with
     * the hand-off, to the time {@link #finish()} waited: wait + mel + encode + decode + host + hand-off.
     *
     * @param speculative   the final piece's text had been made at a pause before the release
     * @param pieces        pieces the dictation was cut into
     * @param encodeNanos   encoder time of the final run (0 when none)
     * @param decodeNanos   decoder time of that run (its feed calls: prompt, draft check, steps)
     * @param decodeSteps   decoder feed calls of that run (a draft checked in one pass is one)
     * @param draftChecked  tokens of the live text's draft the final run checked in one pass (0: none)
     * @param draftAccepted of those, how many greedy decoding chose too (decoder steps saved)
     * @param waitNanos     from {@link #finish()} to the final run's start (a run that stopped being
     *                      wanted finishes its current decoder step or encoder layer first), or to the
     *                      text when no run was needed
     * @param melNanos      the final run's log-mel of the piece
     * @param hostNanos     the rest of the final run on the session's thread: the transcription less
     *                      its encoder and decoder calls (window normalisation, logit filters, softmax)
     * @param handoffNanos  from the end of the final run to {@link #finish()} returning the text
     * @param busyAtFinish  what the session's thread was doing when {@link #finish()} was called:
     *                      "idle", "partial", "speculative" or "piece"
     */
    public record Release(boolean speculative, int pieces, long encodeNanos, long decodeNanos, int decodeSteps,
            int draftChecked, int draftAccepted, long waitNanos, long melNanos, long hostNanos, long handoffNanos,
            String busyAtFinish) {

        /** The parts of a release whose text came from {@code finalRun} (null: made at a pause, or no audio). */
        static Release of(boolean speculative, Ran finalRun, int pieces, long finishAt, String busyAtFinish) {
            if (speculative || finalRun == null) {
                return new Release(speculative, pieces, 0, 0, 0, 0, 0, System.nanoTime() - finishAt, 0, 0, 0,
                        busyAtFinish);
            }
            Timings t = finalRun.result().timings();
            long host = Math.max(0, finalRun.transcribeNanos() - t.encodeNanos() - t.decodeNanos());
            return new Release(false, pieces, t.encodeNanos(), t.decodeNanos(), t.decodeSteps(), t.draftChecked(),
                    t.draftAccepted(), Math.max(0, finalRun.startedAt() - finishAt), finalRun.melNanos(), host, 0,
                    busyAtFinish);
        }

        Release withHandoff(long nanos) {
            return new Release(speculative, pieces, encodeNanos, decodeNanos, decodeSteps, draftChecked,
                    draftAccepted, waitNanos, melNanos, hostNanos, nanos, busyAtFinish);
        }
    }

    /** The first window's tokens of the latest finished transcription of the open piece starting at {@code start}. */
    private record Draft(int start, int[] tokens) {
    }

    private record Done(Range range, TranscriptionResult result, long startedAt, long endedAt, long cpuNanos,
            long pauseAt) {
    }

    /**
     * The pass at a pause whose text a release used, for the log: it started {@code startedBeforeFinishNanos}
     * before {@link #finish()} was called and ran {@code ranNanos}; the release waited for it when it
     * ended after the call. The pass can only start once the trimmer's tail of quiet is full, so its
     * length against the user's last pause is what decides whether the text is ready at the release.
     * {@code cpuNanos}: the CPU time its threads had (-1: unknown); against {@code ranNanos} it says how
     * many cores the pass got, which other processes' load decides. {@code afterPauseNanos}: from the
     * pause's report to the pass's start (a live-text pass then running stops at its next encoder layer
     * or decoder step first).
     */
    public record SpeculationTiming(long startedBeforeFinishNanos, long ranNanos, long cpuNanos,
            long afterPauseNanos) {

        /** The cores the pass had on average (CPU time over wall time), or NaN when unknown. */
        public double coresHad() {
            return cpuNanos < 0 || ranNanos <= 0 ? Double.NaN : (double) cpuNanos / ranNanos;
        }
    }

    private final PieceTranscriber transcriber;
    private final Consumer<String> partial;
    private final Thread worker;
    private final Object lock = new Object();

    // guarded by lock
    private final PieceCutter cutter = new PieceCutter();
    private final PieceResults results;
    private Done speculated;
    private SpeculationTiming speculationUsed;
    private SessionJob running;
    private boolean finishing;
    private boolean cancelled;
    private long finishAt;
    private long pauseAt; // when the latest pause was first reported (System.nanoTime)
    private int partialFrom = -1;
    private long partialAt;
    /** Wall time of the last finished run, which paces the live text. */
    private long lastRunNanos = LiveTextPace.MAX_NANOS / 4;
    private TranscriptionResult result;
    private Release release;
    private RuntimeException failure;
    private Draft draft;
    /** What the session's thread was doing when finish() was called. */
    private String busyAtFinish = "idle";
    /** When the text was put together (System.nanoTime). */
    private long completedAt;
    /** The run at the release, when one was needed. */
    private Ran finalRun;

    /**
     * @param fallback gives a CPU model after a device failure (the failed run is redone there); null
     *                 where none can fail
     * @param partial  receives live text on the session's thread; null: no live text is made
     */
    DictationSession(WhisperInference model, TextCodec codec, TranscribeOptions options,
            Function<BackendFailure, WhisperInference> fallback, Consumer<String> partial) {
        this.transcriber = new PieceTranscriber(model, codec, options, fallback);
        this.results = new PieceResults(options);
        this.partial = partial;
        this.worker = Thread.ofPlatform().name("dictum-dictation").daemon().start(this::work);
    }

    /**
     * Appends 16 kHz mono samples in [-1, 1]. Never waits for the engine.
     *
     * @throws IllegalArgumentException on a NaN or infinite sample (nothing of this chunk is used)
     */
    public void feed(float[] samples, int offset, int count) {
        synchronized (lock) {
            for (int i = offset; i < offset + count; i++) {
                if (!Float.isFinite(samples[i])) {
                    throw new IllegalArgumentException("audio sample " + (cutter.length() + i - offset) + " is "
                            + samples[i]);
                }
            }
            if (finishing || cancelled) {
                throw new IllegalStateException("audio fed after the dictation ended");
            }
            if (cutter.append(samples, offset, count) == PieceCutter.Resumed.NOT_CUT) {
                speculated = null;
            }
            lock.notifyAll();
        }
    }

    public void feed(float[] samples) {
        feed(samples, 0, samples.length);
    }

    /**
     * The speaker has been quiet for {@code quietSeconds}: the audio fed so far followed by
     * {@code tail} is the whole dictation if nothing else is fed before {@link #finish()}. Starts
     * transcribing that audio; the call itself returns at once. Called again, with nothing fed
     * between, as the same pause goes on: a piece is cut at a pause (once speech resumes) only where
     * {@link PieceRule#endsPiece} says, so that a comma or an unvoiced consonant never splits a sentence.
     */
    public void pause(float[] tail, double quietSeconds) {
        synchronized (lock) {
            if (finishing || cancelled) {
                return;
            }
            PieceCutter.Pause before = cutter.pause();
            cutter.pause(tail, quietSeconds);
            if (before == null || before.fedAt() != cutter.pause().fedAt()) { // not the same pause reported again
                pauseAt = System.nanoTime();
            }
            lock.notifyAll();
        }
    }

    /** Ends the audio and waits for the text of the whole dictation. */
    public TranscriptionResult finish() {
        synchronized (lock) {
            if (!finishing) {
                finishing = true;
                finishAt = System.nanoTime();
                busyAtFinish = running == null ? "idle" : running.kind().name().toLowerCase(Locale.ROOT);
            }
            lock.notifyAll();
            while (result == null && failure == null && !cancelled) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    cancel();
                    throw new CancellationException("interrupted while waiting for the transcript");
                }
            }
            if (failure != null) {
                throw failure;
            }
            if (result == null) {
                throw new CancellationException("dictation cancelled");
            }
            if (release != null && release.handoffNanos() == 0) {
                long end = release.speculative() || finalRun == null ? completedAt : finalRun.endedAt();
                release = release.withHandoff(Math.max(1, System.nanoTime() - end));
            }
            return result;
        }
    }

    /** The pass at a pause whose text the last {@link #finish()} returned (null: none). */
    public SpeculationTiming speculationUsed() {
        synchronized (lock) {
            return speculationUsed;
        }
    }

    /** How the last {@link #finish()} got its text (null before). */
    public Release release() {
        synchronized (lock) {
            return release;
        }
    }

    /** The pieces the dictation is cut into so far (the open one not included until finished). */
    public List<Range> pieces() {
        synchronized (lock) {
            return List.copyOf(cutter.pieces());
        }
    }

    /** Seconds of audio fed so far. */
    public double secondsFed() {
        synchronized (lock) {
            return cutter.length() / (double) RATE;
        }
    }

    /** Drops the audio and stops any transcription within one decoder step or encoder layer; returns at once. */
    public void cancel() {
        synchronized (lock) {
            cancelled = true;
            lock.notifyAll();
        }
    }

    @Override
    public void close() {
        cancel();
    }

    /** For tests: waits until the session's thread has ended (after a cancel or finish). */
    boolean awaitStopped(long millis) throws InterruptedException {
        worker.join(millis);
        return !worker.isAlive();
    }

    // ---- the session's thread ----

    private void work() {
        try {
            while (true) {
                SessionJob job;
                synchronized (lock) {
                    while ((job = next()) == null) {
                        if (cancelled || result != null) {
                            return;
                        }
                        lock.wait(partial == null ? 0 : LiveTextPace.MIN_MILLIS / 2);
                    }
                    running = job;
                }
                Ran ran = null;
                SessionJob j = job;
                try {
                    ran = transcriber.run(job, () -> {
                        synchronized (lock) {
                            return wanted(j);
                        }
                    });
                } catch (CancellationException e) {
                    // preempted: no longer wanted
                }
                String live = null;
                synchronized (lock) {
                    running = null;
                    if (ran != null) {
                        store(job, ran);
                        if (job.kind() != Kind.PIECE && partial != null) {
                            live = results.liveText(ran.result());
                        }
                    }
                    lock.notifyAll();
                }
                if (live != null) {
                    try {
                        partial.accept(live);
                    } catch (RuntimeException e) {
                        // a view's failure must not end the dictation: live text is only a preview
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            synchronized (lock) {
                failure = e instanceof RuntimeException re ? re : new IllegalStateException("decoding failed: " + e, e);
                lock.notifyAll();
            }
        }
    }

    /** Under the lock: the next thing worth doing, or null to wait. */
    private SessionJob next() {
        if (cancelled || result != null) {
            return null;
        }
        // Committed pieces first, in order: each one's prompt is the text of those before it.
        List<Range> pieces = cutter.pieces();
        while (results.size() < pieces.size()) {
            Range r = pieces.get(results.size());
            if (speculated != null && speculated.range().equals(r)) {
                results.add(speculated.result());
                speculated = null;
                continue;
            }
            return job(Kind.PIECE, r, null);
        }
        if (finishing) {
            Range last = cutter.openPiece();
            if (last.start() == last.end()) {
                complete(false);
                return null;
            }
            if (speculated != null && speculated.range().equals(last) && cutter.pauseHeld()) {
                results.add(speculated.result());
                speculationUsed = new SpeculationTiming(finishAt - speculated.startedAt(),
                        speculated.endedAt() - speculated.startedAt(), speculated.cpuNanos(),
                        speculated.startedAt() - speculated.pauseAt());
                cutter.cut(last.end());
                complete(true);
                return null;
            }
            return job(Kind.PIECE, last, null);
        }
        Range paused = cutter.pausedPiece();
        if (paused != null) {
            if (speculated == null || !speculated.range().equals(paused)) {
                return job(Kind.SPECULATIVE, paused, cutter.pause().tail());
            }
            return null;
        }
        int length = cutter.length();
        if (partial != null && length - cutter.openStart() >= RATE && length != partialFrom
                && System.nanoTime() - partialAt >= LiveTextPace.every(lastRunNanos)) {
            partialFrom = length;
            return job(Kind.PARTIAL, cutter.openPiece(), null);
        }
        return null;
    }

    /** Under the lock: a job over {@code range} of the fed audio, {@code tail} appended where given. */
    private SessionJob job(Kind kind, Range range, float[] tail) {
        int fed = tail == null ? range.end() : range.end() - tail.length;
        return new SessionJob(kind, range, cutter.copy(range, tail), fed - range.start(), results.context(),
                results.language(), draftFor(range));
    }

    /**
     * Under the lock: the draft for a run over {@code range}, or null: the tokens of the
     * latest finished live text or speculation of the same open piece (the same start: the same prompt
     * and language), followed by eot (checked too: a draft whose decoding ended there ends the check).
     * Any draft gives the same text (DecodingTask checks every token); one from the same piece is
     * mostly right.
     */
    private int[] draftFor(Range range) {
        if (!DRAFTS || draft == null || draft.start() != range.start()) {
            return null;
        }
        int[] t = Arrays.copyOf(draft.tokens(), draft.tokens().length + 1);
        t[t.length - 1] = transcriber.model().vocabulary().specials().eot();
        return t;
    }

    /** Under the lock: whether {@code job} is still worth finishing. */
    private boolean wanted(SessionJob job) {
        if (cancelled) {
            return false;
        }
        return switch (job.kind()) {
            case PIECE -> true;
            case SPECULATIVE -> cutter.pieces().contains(job.range())
                    || job.range().equals(cutter.pausedPiece())
                    || (finishing && job.range().equals(cutter.openPiece()));
            case PARTIAL -> cutter.pause() == null && !finishing && results.size() == cutter.pieces().size();
        };
    }

    /** Under the lock: files a finished run where it belongs. */
    private void store(SessionJob job, Ran ran) {
        switch (job.kind()) {
            case PIECE -> {
                if (!cutter.pieces().contains(job.range())) { // the open piece, run at the release
                    cutter.cut(job.range().end());
                    finalRun = ran;
                }
                results.add(ran.result());
            }
            case SPECULATIVE -> speculated = new Done(job.range(), ran.result(), ran.startedAt(), ran.endedAt(), ran.cpuNanos(),
                    pauseAt);
            case PARTIAL -> partialAt = System.nanoTime();
        }
        lastRunNanos = ran.endedAt() - ran.startedAt();
        if (job.kind() != Kind.PIECE) {
            draft = new Draft(job.range().start(), ran.result().firstWindowTokens());
        }
        if (job.kind() != Kind.PARTIAL) {
            partialAt = System.nanoTime();
        }
    }

    /** Under the lock: the pieces' results as one transcription. */
    private void complete(boolean speculative) {
        result = results.joined(cutter.pieces());
        completedAt = System.nanoTime();
        release = Release.of(speculative, finalRun, cutter.pieces().size(), finishAt, busyAtFinish);
        lock.notifyAll();
    }
}
