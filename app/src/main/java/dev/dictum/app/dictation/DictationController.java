package dev.dictum.app.dictation;

import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.KeyboardState;
import dev.dictum.app.os.TargetWindow;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.text.TextRules;
import dev.dictum.audio.AudioInput;
import dev.dictum.audio.capture.AudioSource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dictation loop: Idle → Recording → Transcribing → Inserting → Idle, with Cancel. Hotkeys
 * call {@link #start}, {@link #stop} and {@link #cancel}; the views listen to {@link Status}.
 * No UI types here: it runs in tests with stand-ins for the microphone, engine and window.
 *
 * <p>One recording at a time; while one transcribes the next may already record. Recordings are
 * transcribed in order on one worker thread, so texts arrive in the order they were spoken. Every
 * recording ends in exactly one way, each with a notice or a history entry: discarded as too
 * short, cancelled, empty (no speech), failed (WAV kept, retry offered) or inserted.
 */
public final class DictationController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DictationController.class);
    private static final long MODIFIER_WAIT_MILLIS = 1500;
    private static final long LATE_ENGINE_WAIT_MILLIS = 120_000;

    /**
     * @param state          what the loop does now
     * @param retryAvailable a failed recording can be transcribed again
     */
    public record Status(DictationState state, boolean retryAvailable) {
    }

    public interface Listener {
        void changed(Status status);

        /**
         * Live, provisional text of the recording in progress (the release-to-text session's
         * partial result, re-made up to four times a second while the user speaks): for the indicator
         * only, never inserted. An empty string when a recording starts or ends.
         */
        default void partial(String text) {
        }

        /** A recording ended (for the sound cues): released or stopped, cancelled, or its microphone lost. */
        default void recordingEnded(Ending how) {
        }
    }

    /** How a recording ended, as {@link Listener#recordingEnded} tells it. */
    public enum Ending { STOPPED, CANCELLED, LOST }

    /**
     * Everything the loop talks to. {@code history} gives the history, waiting while it opens (at start it
     * opens after the hotkey is live), or null when it cannot be opened.
     */
    public record Parts(Supplier<Settings> settings, AudioSource audio, SpeechEngine.Source engines, TextOutput output,
            FocusTracker focus, KeyboardState keyboard, RecordingsFolder recordings, Supplier<HistoryStore> history,
            Notifier notifier) {
    }

    private final Parts p;
    private final DictationArchive archive;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().name("dictum-transcribe").daemon().unstarted(r));
    private final ListenerDispatch listeners = new ListenerDispatch();
    private Recording recording; // guarded by this
    private int queued; // guarded by this
    private boolean inserting; // guarded by this
    private Status published = new Status(DictationState.IDLE, false);
    private volatile String lastText;
    private volatile LeadingSpace.Previous lastInsertion;
    private volatile HistoryEntry lastFailed;

    public DictationController(Parts parts) {
        this.p = parts;
        this.archive = new DictationArchive(parts);
    }

    /** Listeners are told on a thread of their own, in order ({@link ListenerDispatch}). */
    public void addListener(Listener l) {
        listeners.add(l);
    }

    public Status status() {
        synchronized (this) {
            return published;
        }
    }

    /**
     * Starts recording into the window that has focus now.
     *
     * @return false when it did not start (already recording, no model, no microphone), with a notice
     */
    public boolean start() {
        synchronized (this) {
            if (recording != null) {
                return false;
            }
        }
        SpeechEngine engine = p.engines().ready();
        String why = p.engines().unavailableReason();
        if (engine == null && (why == null || !why.startsWith("Loading"))) {
            p.notifier().notice(Notifier.Kind.WARNING, why == null ? "No model is loaded" : why);
            return false;
        }
        TargetWindow target = p.focus().focused();
        Settings s = p.settings().get();
        // Live text reaches the views only while its recording is the one in progress.
        Recording[] self = new Recording[1];
        java.util.function.Consumer<String> live = text -> {
            synchronized (this) {
                if (recording == null || recording != self[0]) {
                    return;
                }
            }
            partial(text);
        };
        Recording r = new Recording(Instant.now(), System.nanoTime(), target,
                engine == null ? null : engine.start(live), s.audio().speechThresholdDb().floatValue(),
                s.audio().trimSilence(), this::deviceLost);
        self[0] = r;
        r.journal = CaptureJournal.openOrNull(p.recordings().dir(), r.startedAt); // before attach: the pre-roll too
        synchronized (this) {
            if (recording != null) {
                r.cancel();
                r.dropJournal();
                return false;
            }
            if (!p.audio().attach(r)) {
                r.cancel();
                r.dropJournal();
                String problem = p.audio().problem();
                p.notifier().notice(Notifier.Kind.ERROR, problem == null ? "No microphone" : problem);
                return false;
            }
            r.markPreRoll();
            recording = r;
        }
        p.output().prepare(s.insertion()); // the clipboard to restore is read while the user speaks
        LOG.info("recording started");
        partial("");
        publish();
        return true;
    }

    /** Whether the recording in progress has run so long without a pause that the indicator should warn. */
    public boolean longSpeech() {
        Recording r;
        synchronized (this) {
            r = recording;
        }
        return r != null && r.longSpeech();
    }

    /** Ends the recording and transcribes it; {@code enterAfter} presses Enter after the text. */
    public void stop(boolean enterAfter) {
        Recording r;
        synchronized (this) {
            r = recording;
            if (r == null) {
                return;
            }
            recording = null;
            p.audio().detach();
            r.stopNanos = System.nanoTime();
            r.enterAfter = enterAfter;
            queued++;
        }
        ended(Ending.STOPPED);
        partial("");
        publish();
        worker.execute(() -> {
            try {
                complete(r);
            } catch (RuntimeException e) {
                LOG.error("dictation failed unexpectedly", e);
                p.notifier().notice(Notifier.Kind.ERROR, "Dictation failed: " + e.getMessage());
            } finally {
                r.dropJournal();
                synchronized (this) {
                    queued--;
                }
                publish();
            }
        });
    }

    /**
     * Cancels the recording in progress: nothing is transcribed or inserted. What was recorded is
     * kept (WAV + a "cancelled" history row, to transcribe again from the history) unless it is
     * too short to matter.
     */
    public boolean cancel() {
        Recording r = end();
        if (r == null) {
            return false;
        }
        LOG.info("recording cancelled");
        ended(Ending.CANCELLED);
        p.notifier().notice(Notifier.Kind.INFO, "Recording cancelled: nothing inserted");
        keepUnused(r, HistoryStatus.CANCELLED, null);
        return true;
    }

    /** Takes the recording in progress off the microphone and stops its session; null when none. */
    private Recording end() {
        Recording r;
        synchronized (this) {
            r = recording;
            if (r == null) {
                return null;
            }
            recording = null;
            p.audio().detach();
            r.stopNanos = System.nanoTime();
        }
        r.cancel();
        partial("");
        publish();
        return r;
    }

    /** Saves an ended recording that will not be inserted (cancelled, microphone lost), on the worker. */
    private void keepUnused(Recording r, HistoryStatus status, String error) {
        synchronized (this) {
            queued++;
        }
        publish();
        worker.execute(() -> {
            try {
                Settings s = p.settings().get();
                if (r.heldMillis() < s.audio().minRecordingMillis()) {
                    return; // a slip of the finger: nothing worth keeping
                }
                Path wav = null;
                try {
                    wav = p.recordings().save(r.samples(), r.startedAt);
                } catch (IOException e) {
                    LOG.warn("recording not saved: {}", e.getMessage());
                }
                HistoryEntry kept = archive.record(s, new HistoryEntry(0, r.startedAt, Math.round(r.seconds() * 1000), "",
                        null, modelName(), backendName(), -1, -1, -1, -1, wav, status, error));
                if (status == HistoryStatus.FAILED && wav != null) {
                    lastFailed = kept; // the tray's Retry transcribes it
                }
                archive.prune(s, wav, lastFailed);
            } finally {
                r.dropJournal();
                synchronized (this) {
                    queued--;
                }
                publish();
            }
        });
    }

    /**
     * At start: recordings that a previous run could not finish (the process died mid-dictation) go
     * into History as failed, marked "interrupted", and the newest is offered for Retry.
     *
     * @return how many were found
     */
    public int recoverInterrupted() {
        return recover(InterruptedRecordings.find(p.recordings()));
    }

    /**
     * {@link #recoverInterrupted} for the start of the app, without holding it up: the journals are
     * listed now, before the hotkey is live (so none of this run's can be among them), and recovered on
     * the worker, which may wait for the history to open.
     */
    public void recoverInterruptedLater() {
        List<Path> journals = InterruptedRecordings.find(p.recordings());
        if (!journals.isEmpty()) {
            worker.execute(() -> recover(journals));
        }
    }

    private int recover(List<Path> journals) {
        Settings s = p.settings().get();
        List<InterruptedRecordings.Found> found = InterruptedRecordings.recover(p.recordings(), journals);
        for (InterruptedRecordings.Found f : found) {
            lastFailed = archive.record(s, new HistoryEntry(0, f.startedAt(), f.durationMillis(), "", null, null, null, -1, -1,
                    -1, -1, f.wav(), HistoryStatus.FAILED, InterruptedRecordings.NOTE));
        }
        if (!found.isEmpty()) {
            publish();
            p.notifier().notice(Notifier.Kind.WARNING, "A dictation was interrupted when Dictum stopped; the recording"
                    + " is kept in History; choose Retry in the tray.");
        }
        return found.size();
    }

    public boolean recording() {
        synchronized (this) {
            return recording != null;
        }
    }

    /** The last transcript inserted in this run, or null. */
    public String lastText() {
        return lastText;
    }

    /** Inserts the last transcript again into the window that has focus now (the paste-last hotkey). */
    public void pasteLast() {
        pasteLast(null);
    }

    /** Inserts the last transcript again into {@code target} (null: the focused window), e.g. from the tray menu. */
    public void pasteLast(TargetWindow target) {
        worker.execute(() -> {
            String text = lastText;
            HistoryStore history = text == null ? p.history().get() : null;
            if (history != null) {
                text = history.lastWithText().map(HistoryEntry::text).orElse(null);
            }
            if (text == null) {
                p.notifier().notice(Notifier.Kind.INFO, "Nothing dictated yet");
                return;
            }
            insert(text, target == null ? p.focus().focused() : target, false);
        });
    }

    /** Transcribes the last failed recording again and inserts it into the window that has focus now. */
    public void retryFailed() {
        HistoryEntry failed = lastFailed;
        if (failed == null || failed.wavPath() == null) {
            p.notifier().notice(Notifier.Kind.INFO, "No failed dictation to retry");
            return;
        }
        synchronized (this) {
            queued++;
        }
        publish();
        worker.execute(() -> {
            try {
                retry(failed);
            } finally {
                synchronized (this) {
                    queued--;
                }
                publish();
            }
        });
    }

    @Override
    public void close() {
        cancel();
        worker.shutdown();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        listeners.close(); // after the worker: its last changes are still told
    }

    /**
     * The microphone went away or changed under the recording (unplugged, the sound server moved
     * the stream to another source): what follows is not the user's voice from the microphone
     * they started with, so nothing is inserted. The audio so far is kept (WAV + history row) to
     * transcribe again, and the notice names the microphone.
     */
    private void deviceLost(Recording r) {
        synchronized (this) {
            if (recording != r) {
                return;
            }
        }
        if (end() != r) {
            return;
        }
        ended(Ending.LOST);
        String mic = p.audio().deviceName();
        LOG.warn("recording stopped: microphone {} lost ({})", mic, r.lostReason);
        // Short enough for the indicator's two lines; the reason is in the log and the history row.
        p.notifier().notice(Notifier.Kind.WARNING, "Microphone \"" + mic + "\" lost: nothing inserted; the recording"
                + " is kept in History");
        keepUnused(r, HistoryStatus.FAILED, "microphone lost: " + r.lostReason);
    }

    /** Runs on the worker: the end of one recording, exactly one outcome. */
    private void complete(Recording r) {
        Settings s = p.settings().get();
        r.close();
        long heldMillis = r.heldMillis();
        if (heldMillis < s.audio().minRecordingMillis()) {
            r.cancel();
            LOG.info("recording discarded: too short ({} ms)", heldMillis);
            p.notifier().notice(Notifier.Kind.INFO, "Too short: hold the hotkey while you speak");
            return;
        }
        long durationMillis = Math.round(r.seconds() * 1000);
        if (s.audio().trimSilence() && !r.heardSpeech()) {
            r.cancel();
            Path wav = archive.save(r, false);
            LOG.info("no speech in {} ms of audio: nothing inserted", durationMillis);
            archive.record(s, new HistoryEntry(0, r.startedAt, durationMillis, "", null, modelName(), backendName(), -1, -1,
                    -1, -1, wav, HistoryStatus.EMPTY, null));
            p.notifier().notice(Notifier.Kind.INFO, "No speech heard: nothing inserted");
            archive.prune(s, wav, lastFailed);
            return;
        }
        long t0 = System.nanoTime();
        SpeechEngine engine = null;
        Transcript t;
        try {
            if (!r.hasSession()) {
                engine = p.engines().await(LATE_ENGINE_WAIT_MILLIS);
                if (engine == null) {
                    throw new IllegalStateException(String.valueOf(p.engines().unavailableReason()));
                }
            } else {
                engine = p.engines().ready();
            }
            t = r.session(engine).finish();
        } catch (RuntimeException | InterruptedException e) {
            r.cancel();
            Path wav = archive.save(r, false);
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            LOG.warn("transcription failed: {}", why, e);
            HistoryEntry failed = archive.record(s, new HistoryEntry(0, r.startedAt, durationMillis, "", null, modelName(),
                    backendName(), -1, (System.nanoTime() - t0) / 1_000_000, -1, -1, wav, HistoryStatus.FAILED, why));
            lastFailed = failed;
            archive.prune(s, wav, lastFailed);
            publish();
            p.notifier().notice(Notifier.Kind.ERROR, "Transcription failed (" + why + "). The recording is kept"
                    + (wav == null ? "" : " as " + wav.getFileName()) + "; choose Retry in the tray.");
            return;
        }
        long transcribeMillis = (System.nanoTime() - t0) / 1_000_000;
        if (t.noSpeech() || t.text().isBlank()) {
            Path wav = archive.save(r, false);
            LOG.info("the model heard no speech in {} ms of audio: nothing inserted", durationMillis);
            archive.record(s, new HistoryEntry(0, r.startedAt, durationMillis, "", t.language(), modelName(), backendName(), -1,
                    transcribeMillis, t.encodeMillis(), t.decodeMillis(), wav, HistoryStatus.EMPTY, null));
            p.notifier().notice(Notifier.Kind.INFO, "No speech heard: nothing inserted");
            archive.prune(s, wav, lastFailed);
            return;
        }
        String text = withLeadingSpace(s, TextRules.apply(s.insertion(), t.text()), r.target);
        long delivered = insert(text, r.target, r.enterAfter);
        long releaseToText = delivered < 0 ? -1 : (delivered - r.stopNanos) / 1_000_000;
        // The WAV is written after the text is in the window: it is not on the path the user waits on.
        Path wav = archive.save(r, delivered >= 0);
        LOG.info("dictation: {} ms of audio, release-to-text {} ms (engine {} ms after release, {}, asked {} ms after"
                + " the release, encode {} ms, decode {} ms){}", durationMillis, releaseToText, transcribeMillis,
                t.speculative() ? "made at a pause" : "transcribed at release", ms(t0 - r.stopNanos), t.encodeMillis(),
                t.decodeMillis(), s.storage().logTranscripts() ? ": " + text : "");
        archive.record(s, new HistoryEntry(0, r.startedAt, durationMillis, text, t.language(), modelName(), backendName(),
                releaseToText, transcribeMillis, t.encodeMillis(), t.decodeMillis(), wav, HistoryStatus.OK, null)
                .withRawText(t.text()));
        archive.prune(s, wav, lastFailed);
    }

    private void retry(HistoryEntry failed) {
        try {
            SpeechEngine engine = p.engines().await(LATE_ENGINE_WAIT_MILLIS);
            if (engine == null) {
                p.notifier().notice(Notifier.Kind.ERROR, "Cannot retry: " + p.engines().unavailableReason());
                return;
            }
            float[] audio = AudioInput.readMono16k(failed.wavPath());
            long t0 = System.nanoTime();
            Dictation session = engine.start();
            session.feed(audio);
            Transcript t = session.finish();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            boolean empty = t.noSpeech() || t.text().isBlank();
            HistoryEntry done = new HistoryEntry(failed.id(), failed.time(), failed.durationMillis(),
                    empty ? "" : t.text(), t.language(), engine.modelName(), engine.backendName(), -1, ms,
                    t.encodeMillis(), t.decodeMillis(), failed.wavPath(),
                    empty ? HistoryStatus.EMPTY : HistoryStatus.OK, null);
            HistoryStore history = failed.id() > 0 && p.settings().get().storage().historyEnabled() ? p.history().get() : null;
            if (history != null) {
                history.update(done);
            }
            lastFailed = null;
            if (empty) {
                p.notifier().notice(Notifier.Kind.INFO, "No speech heard in the retried recording");
            } else {
                insertQuietly(TextRules.apply(p.settings().get().insertion(), t.text()), false);
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            p.notifier().notice(Notifier.Kind.ERROR, "Retry failed (" + e.getMessage() + "); the recording is kept");
        }
    }

    /** Inserts into {@code target} once the user has let go of the modifiers; -1 when it failed. */
    private long insert(String text, TargetWindow target, boolean enterAfter) {
        synchronized (this) {
            inserting = true;
        }
        publish();
        try {
            long t0 = System.nanoTime();
            p.keyboard().awaitShortcutKeysReleased(MODIFIER_WAIT_MILLIS); // ends on the key-release event
            long t1 = System.nanoTime();
            if (!p.focus().refocus(target)) {
                LOG.info("the window that had focus at the start is gone; inserting into the focused one");
            }
            long t2 = System.nanoTime();
            Settings s = p.settings().get();
            long at = p.output().insert(text, s.insertion(), enterAfter || s.insertion().enterAfter());
            LOG.info("hand-off: modifiers up after {} ms, refocus {} ms, {} {} ms", ms(t1 - t0), ms(t2 - t1),
                    s.insertion().method().name().toLowerCase(Locale.ROOT), ms(at - t2));
            lastText = text;
            lastInsertion = new LeadingSpace.Previous(text, target, System.currentTimeMillis());
            return at;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            lastText = text;
            LOG.warn("insertion failed: {}", e.getMessage());
            p.notifier().notice(Notifier.Kind.ERROR, "The text could not be inserted (" + e.getMessage()
                    + "); use Paste last transcript");
            return -1;
        } finally {
            synchronized (this) {
                inserting = false;
            }
            publish();
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private void insertQuietly(String text, boolean enter) {
        insert(text, p.focus().focused(), enter);
    }

    /** A space first when the previous dictation into the same window ended a sentence ({@link LeadingSpace}). */
    private String withLeadingSpace(Settings s, String text, TargetWindow target) {
        if (s.insertion().leadingSpace() && LeadingSpace.needed(lastInsertion, target, System.currentTimeMillis(),
                p.keyboard().lastEditMillis())) {
            return " " + text;
        }
        return text;
    }

    private String modelName() {
        SpeechEngine e = p.engines().ready();
        return e == null ? null : e.modelName();
    }

    private String backendName() {
        SpeechEngine e = p.engines().ready();
        return e == null ? null : e.backendName().toLowerCase(Locale.ROOT);
    }

    private void ended(Ending how) {
        listeners.ended(how);
    }

    private void partial(String text) {
        listeners.partial(text);
    }

    private void publish() {
        synchronized (this) {
            DictationState st = recording != null ? DictationState.RECORDING
                    : inserting ? DictationState.INSERTING
                    : queued > 0 ? DictationState.TRANSCRIBING : DictationState.IDLE;
            Status now = new Status(st, lastFailed != null);
            if (now.equals(published)) {
                return;
            }
            published = now;
            listeners.changed(now); // queued under the lock: the listeners see the states in the order they were made
        }
    }
}
