package dev.dictum.whisper.session;

import dev.dictum.gpu.BackendFailure;
import dev.dictum.whisper.decode.ProgressListener;
import dev.dictum.whisper.decode.Segment;
import dev.dictum.whisper.decode.TextCodec;
import dev.dictum.whisper.decode.Timings;
import dev.dictum.whisper.decode.TranscribeOptions;
import dev.dictum.whisper.decode.Transcriber;
import dev.dictum.whisper.decode.TranscriptionResult;
import dev.dictum.whisper.model.WhisperInference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * <li><b>Pieces.</b> A dictation is cut into pieces: at each pause of {@value #CUT_PAUSE_MILLIS} ms
 *     or more once the open piece holds
 *     {@value #MIN_PIECE_SECONDS} s (when speech resumes: the piece is exactly the speculated audio,
 *     whose transcription is kept, so the release only ever waits for the words since the last
 *     pause; a piece is also what Whisper saw in training, one utterance), or, with no pause for {@value #MAX_PIECE_SECONDS} s, at the
 *     quietest 200 ms of its second half. Each piece is transcribed with the text of the pieces before
 *     it as the prompt ({@link Transcriber#transcribe(dev.dictum.whisper.decode.MelWindowSource,
 *     TranscribeOptions, ProgressListener, int[])}), so the release only waits for the open piece.</li>
 * <li><b>Live text.</b> While the user speaks, the open piece as it stands is transcribed for the
 *     partial-text listener (never part of the result): every 4 × the engine's last run, between
 *     {@value #PARTIAL_MIN_MILLIS} ms (a GPU: fresher text, and a longer draft for the release) and
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
 */
public final class DictationSession implements AutoCloseable {
    static final int RATE = 16000;
    static final int MIN_PIECE_SECONDS = 2;
    static final int MAX_PIECE_SECONDS = 28;
    static final int CUT_PAUSE_MILLIS = 650;
    private static final int QUIET_WINDOW = RATE / 5;
    private static final int QUIET_STEP = 160;
    static final int PARTIAL_MIN_MILLIS = 250;
    private static final long PARTIAL_MAX_NANOS = 1_000_000_000L;
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

        Release withHandoff(long nanos) {
            return new Release(speculative, pieces, encodeNanos, decodeNanos, decodeSteps, draftChecked,
                    draftAccepted, waitNanos, melNanos, hostNanos, nanos, busyAtFinish);
        }
    }

    private enum Kind { PIECE, SPECULATIVE, PARTIAL }

    /**
     * @param fed   samples of {@code audio} that were fed (the rest: a pause's announced tail)
     * @param draft the latest live text's or speculation's tokens of the same piece (same start, so the
     *              same prompt), checked in one decoder pass; else null. Every job over the open piece
     *              takes one: the run at the release, and the speculation at a pause (the answer of a
     *              release in quiet) and the live text, which then hold the engine for less time
     */
    private record Job(Kind kind, Range range, float[] audio, int fed, int[] context, String language, int[] draft) {
    }

    /** The first window's tokens of the latest finished transcription of the open piece starting at {@code start}. */
    private record Draft(int start, int[] tokens) {
    }

    /** Where the time of a finished run went (the session's thread). */
    private record Ran(TranscriptionResult result, long startedAt, long endedAt, long melNanos, long transcribeNanos) {
    }

    private record Done(Range range, TranscriptionResult result) {
    }

    private record Pause(int fedAt, float[] tail, double quietSeconds) {
        int end() {
            return fedAt + tail.length;
        }
    }

    private final TextCodec codec;
    private final int nMels;
    private final TranscribeOptions options;
    private final Function<BackendFailure, WhisperInference> fallback;
    private final Consumer<String> partial;
    private final Thread worker;
    private final Object lock = new Object();
    private volatile WhisperInference model;

    // guarded by lock
    private float[] audio = new float[RATE * 10];
    private int length;
    private int openStart;
    private final List<Range> pieces = new ArrayList<>();
    private final List<TranscriptionResult> results = new ArrayList<>();
    private Pause pause;
    private Done speculated;
    private Job running;
    private boolean finishing;
    private boolean cancelled;
    private long finishAt;
    private int partialFrom = -1;
    private long partialAt;
    /** Wall time of the last finished run, which paces the live text (guarded by lock). */
    private long lastRunNanos = PARTIAL_MAX_NANOS / 4;
    private TranscriptionResult result;
    private Release release;
    private RuntimeException failure;
    private Draft draft;
    /** What the session's thread was doing when finish() was called. */
    private String busyAtFinish = "idle";
    /** When the run at the release ended (System.nanoTime), for the hand-off. */
    private long finalEndedAt;
    /** When the text was put together (System.nanoTime). */
    private long completedAt;
    private Ran finalRun;
    // the session's thread only: the parts of the run in progress
    private long melNanos;
    /** The log-mel frames of the piece the last job was over, kept for the next job over it. */
    private PieceMel pieceMel;
    private long transcribeNanos;

    /**
     * @param fallback gives a CPU model after a device failure (the failed run is redone there); null
     *                 where none can fail
     * @param partial  receives live text on the session's thread; null: no live text is made
     */
    DictationSession(WhisperInference model, TextCodec codec, TranscribeOptions options,
            Function<BackendFailure, WhisperInference> fallback, Consumer<String> partial) {
        this.model = model;
        this.codec = codec;
        this.nMels = model.dims().nMels();
        this.options = options;
        this.fallback = fallback;
        this.partial = partial;
        this.worker = Thread.ofPlatform().name("dictum-dictation").daemon().start(this::work);
    }

    /**
     * Appends 16 kHz mono samples in [-1, 1]. Never waits for the engine.
     *
     * @throws IllegalArgumentException on a NaN or infinite sample (nothing of this chunk is used)
     */
    public void feed(float[] samples, int offset, int count) {
        for (int i = offset; i < offset + count; i++) {
            if (!Float.isFinite(samples[i])) {
                throw new IllegalArgumentException("audio sample " + (length + i - offset) + " is " + samples[i]);
            }
        }
        synchronized (lock) {
            if (finishing || cancelled) {
                throw new IllegalStateException("audio fed after the dictation ended");
            }
            if (length + count > audio.length) {
                audio = Arrays.copyOf(audio, Math.max(audio.length * 2, length + count));
            }
            System.arraycopy(samples, offset, audio, length, count);
            length += count;
            if (pause != null && length > pause.end()) {
                // Speech resumed: the pause's audio is now a place to cut, if what came is what it said.
                if (pauseHeld() && pause.end() - openStart >= MIN_PIECE_SECONDS * RATE
                        && pause.quietSeconds() * 1000 >= CUT_PAUSE_MILLIS) {
                    cut(pause.end());
                } else {
                    speculated = null;
                }
                pause = null;
            }
            if (length - openStart >= MAX_PIECE_SECONDS * RATE) {
                cut(quietest(openStart + MAX_PIECE_SECONDS * RATE / 2, openStart + MAX_PIECE_SECONDS * RATE));
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
     * between, as the same pause goes on: a piece is cut at a pause (once speech resumes) only when
     * it lasted {@value #CUT_PAUSE_MILLIS} ms, so that a comma or an unvoiced consonant never splits a
     * sentence.
     */
    public void pause(float[] tail, double quietSeconds) {
        synchronized (lock) {
            if (finishing || cancelled) {
                return;
            }
            if (pause != null && pause.fedAt() == length && Arrays.equals(pause.tail(), tail)) {
                pause = new Pause(length, pause.tail(), Math.max(pause.quietSeconds(), quietSeconds));
            } else {
                pause = new Pause(length, tail.clone(), quietSeconds);
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
                busyAtFinish = running == null ? "idle" : running.kind().name().toLowerCase(java.util.Locale.ROOT);
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
                long end = release.speculative() || finalEndedAt == 0 ? completedAt : finalEndedAt;
                release = release.withHandoff(Math.max(1, System.nanoTime() - end));
            }
            return result;
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
            return List.copyOf(pieces);
        }
    }

    /** Seconds of audio fed so far. */
    public double secondsFed() {
        synchronized (lock) {
            return length / (double) RATE;
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

    /** Under the lock: whether what was fed after the pause (as far as its tail) is the tail it announced. */
    private boolean pauseHeld() {
        return pause != null && length >= pause.end()
                && Arrays.equals(audio, pause.fedAt(), pause.end(), pause.tail(), 0, pause.tail().length);
    }

    private void cut(int at) {
        pieces.add(new Range(openStart, at));
        openStart = at;
        pause = null;
    }

    /** The middle of the quietest 200 ms (least energy) in [from, to), searched in 10 ms steps. */
    private int quietest(int from, int to) {
        int best = from + QUIET_WINDOW / 2;
        double bestEnergy = Double.MAX_VALUE;
        for (int s = from; s + QUIET_WINDOW <= to; s += QUIET_STEP) {
            double e = 0;
            for (int i = s; i < s + QUIET_WINDOW; i++) {
                e += (double) audio[i] * audio[i];
            }
            if (e < bestEnergy) {
                bestEnergy = e;
                best = s + QUIET_WINDOW / 2;
            }
        }
        return best;
    }

    // ---- the session's thread ----

    private void work() {
        try {
            while (true) {
                Job job;
                synchronized (lock) {
                    while ((job = next()) == null) {
                        if (cancelled || result != null) {
                            return;
                        }
                        lock.wait(partial == null ? 0 : PARTIAL_MIN_MILLIS / 2);
                    }
                    running = job;
                }
                long t0 = System.nanoTime();
                TranscriptionResult r = null;
                try {
                    r = run(job);
                } catch (CancellationException e) {
                    // preempted: no longer wanted
                }
                long t1 = System.nanoTime();
                synchronized (lock) {
                    running = null;
                    if (r != null) {
                        store(job, new Ran(r, t0, t1, melNanos, transcribeNanos));
                    }
                    lock.notifyAll();
                }
                if (r != null && job.kind() != Kind.PIECE && partial != null) {
                    try {
                        partial.accept(liveText(r));
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
    private Job next() {
        if (cancelled || result != null) {
            return null;
        }
        // Committed pieces first, in order: each one's prompt is the text of those before it.
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
            Range last = new Range(openStart, length);
            if (last.start() == last.end()) {
                complete(false);
                return null;
            }
            if (speculated != null && speculated.range().equals(last) && pauseHeld()) {
                results.add(speculated.result());
                pieces.add(last);
                openStart = length;
                complete(true);
                return null;
            }
            return job(Kind.PIECE, last, null);
        }
        if (pause != null) {
            Range r = new Range(openStart, pause.end());
            if (speculated == null || !speculated.range().equals(r)) {
                return job(Kind.SPECULATIVE, r, pause.tail());
            }
            return null;
        }
        if (partial != null && length - openStart >= RATE && length != partialFrom
                && System.nanoTime() - partialAt >= partialEvery(lastRunNanos)) {
            partialFrom = length;
            return job(Kind.PARTIAL, new Range(openStart, length), null);
        }
        return null;
    }

    /**
     * Nanoseconds between live-text runs: 4 × the last run (so the engine is free at least three
     * quarters of the time for the pieces and the release), within [{@value #PARTIAL_MIN_MILLIS} ms, 1 s].
     */
    static long partialEvery(long lastRunNanos) {
        return Math.clamp(4 * lastRunNanos, PARTIAL_MIN_MILLIS * 1_000_000L, PARTIAL_MAX_NANOS);
    }

    /** Under the lock: a job over {@code range} of the fed audio, {@code tail} appended where given. */
    private Job job(Kind kind, Range range, float[] tail) {
        int fed = tail == null ? range.end() : range.end() - tail.length;
        float[] a = Arrays.copyOfRange(audio, range.start(), range.end());
        if (tail != null) {
            System.arraycopy(tail, 0, a, fed - range.start(), tail.length);
        }
        String language = results.isEmpty() ? null : results.get(0).language();
        return new Job(kind, range, a, fed - range.start(), context(), language, draftFor(range));
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
        t[t.length - 1] = model.vocabulary().specials().eot();
        return t;
    }

    /**
     * Under the lock: the committed pieces' tokens since the last prompt reset, as one transcription
     * would carry them (reset after a window decoded above temperature 0.5, or always without
     * condition_on_previous_text).
     */
    private int[] context() {
        if (!options.conditionOnPreviousText()) {
            return new int[0];
        }
        List<Integer> tokens = new ArrayList<>();
        for (TranscriptionResult r : results) {
            for (Segment s : r.segments()) {
                for (int t : s.tokens()) {
                    tokens.add(t);
                }
                if (s.temperature() > 0.5) {
                    tokens.clear(); // OpenAI drops the prompt after a window decoded this hot
                }
            }
        }
        return tokens.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Under the lock: whether {@code job} is still worth finishing. */
    private boolean wanted(Job job) {
        if (cancelled) {
            return false;
        }
        return switch (job.kind()) {
            case PIECE -> true;
            case SPECULATIVE -> pieces.contains(job.range())
                    || (pause != null && job.range().equals(new Range(openStart, pause.end())))
                    || (finishing && job.range().equals(new Range(openStart, length)));
            case PARTIAL -> pause == null && !finishing && results.size() == pieces.size();
        };
    }

    private TranscriptionResult run(Job job) {
        long t0 = System.nanoTime();
        if (pieceMel == null || pieceMel.start != job.range().start()) {
            pieceMel = new PieceMel(nMels, job.range().start());
        }
        StreamingMelSource mel = pieceMel.source(job.audio(), job.fed());
        melNanos = System.nanoTime() - t0;
        TranscribeOptions o = job.language() == null || options.decoding().language() != null ? options
                : options.withDecoding(options.decoding().withLanguage(job.language()));
        while (true) {
            WhisperInference m = model;
            PreemptibleInference p = new PreemptibleInference(m, () -> {
                synchronized (lock) {
                    return wanted(job);
                }
            });
            try {
                long t1 = System.nanoTime();
                TranscriptionResult r = new Transcriber(p, codec).transcribe(mel, o, ProgressListener.NONE,
                        job.context(), job.draft());
                transcribeNanos = System.nanoTime() - t1;
                return r;
            } catch (BackendFailure e) {
                if (fallback == null) {
                    throw e;
                }
                model = fallback.apply(e);
                mel = pieceMel.source(job.audio(), job.fed());
            }
        }
    }

    /** Under the lock: files a finished run where it belongs. */
    private void store(Job job, Ran ran) {
        TranscriptionResult r = ran.result();
        switch (job.kind()) {
            case PIECE -> {
                if (!pieces.contains(job.range())) { // the open piece, run at the release
                    pieces.add(job.range());
                    openStart = job.range().end();
                    finalRun = ran;
                    finalEndedAt = ran.endedAt();
                }
                results.add(r);
            }
            case SPECULATIVE -> speculated = new Done(job.range(), r);
            case PARTIAL -> partialAt = System.nanoTime();
        }
        lastRunNanos = ran.endedAt() - ran.startedAt();
        if (job.kind() != Kind.PIECE) {
            draft = new Draft(job.range().start(), r.firstWindowTokens());
        }
        if (job.kind() != Kind.PARTIAL) {
            partialAt = System.nanoTime();
        }
    }

    /** Under the lock: the pieces' results as one transcription. */
    private void complete(boolean speculative) {
        StringBuilder text = new StringBuilder();
        List<Segment> segments = new ArrayList<>();
        long enc = 0;
        long dec = 0;
        int windows = 0;
        int steps = 0;
        for (int i = 0; i < results.size(); i++) {
            TranscriptionResult r = results.get(i);
            text.append(r.text());
            int offsetFrames = pieces.get(i).start() / 160;
            double offsetSeconds = pieces.get(i).start() / (double) RATE;
            for (Segment s : r.segments()) {
                segments.add(new Segment(segments.size(), s.seek() + offsetFrames, s.start() + offsetSeconds,
                        s.end() + offsetSeconds, s.text(), s.tokens(), s.tokenProbabilities(), s.avgLogprob(),
                        s.compressionRatio(), s.noSpeechProb(), s.temperature()));
            }
            enc += r.timings().encodeNanos();
            dec += r.timings().decodeNanos();
            windows += r.timings().encodedWindows();
            steps += r.timings().decodeSteps();
        }
        TranscriptionResult first = results.isEmpty() ? null : results.get(0);
        String language = first == null ? options.decoding().language() : first.language();
        result = new TranscriptionResult(text.toString(), List.copyOf(segments), language,
                first == null ? null : first.languageProbabilities(), new Timings(enc, windows, dec, steps));
        completedAt = System.nanoTime();
        release = releaseParts(speculative);
        lock.notifyAll();
    }

    /** Under the lock: how the release got its text ({@link Release}; the hand-off is added by finish()). */
    private Release releaseParts(boolean speculative) {
        Ran f = speculative ? null : finalRun;
        if (f == null) {
            return new Release(speculative, pieces.size(), 0, 0, 0, 0, 0, System.nanoTime() - finishAt, 0, 0, 0,
                    busyAtFinish);
        }
        Timings t = f.result().timings();
        long host = Math.max(0, f.transcribeNanos() - t.encodeNanos() - t.decodeNanos());
        return new Release(false, pieces.size(), t.encodeNanos(), t.decodeNanos(), t.decodeSteps(), t.draftChecked(),
                t.draftAccepted(), Math.max(0, f.startedAt() - finishAt), f.melNanos(), host, 0, busyAtFinish);
    }

    private String liveText(TranscriptionResult open) {
        StringBuilder b = new StringBuilder();
        synchronized (lock) {
            for (TranscriptionResult r : results) {
                b.append(r.text());
            }
        }
        return b.append(open.text()).toString().strip();
    }
}
