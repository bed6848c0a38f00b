package dev.dictum.app.dictation;

import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.settings.Settings;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a dictation is kept once it ended: its WAV in the recordings folder and its row in the
 * history, either of which may be unavailable (a full disk, history off or unopenable) without the
 * dictation loop failing; the folder is pruned as the settings say.
 */
final class DictationArchive {
    private static final Logger LOG = LoggerFactory.getLogger(DictationArchive.class);
    private final DictationController.Parts p;

    DictationArchive(DictationController.Parts p) {
        this.p = p;
    }

    /**
     * Saves the recording's WAV; null (with a notice) when it cannot be written, e.g. on a full disk.
     *
     * @param textInserted the transcript reached the window (the notice says so: nothing was lost)
     */
    Path save(Recording r, boolean textInserted) {
        try {
            return p.recordings().save(r.samples(), r.startedAt);
        } catch (IOException e) {
            // The crash journal goes before the history row is written: on a full disk its bytes are
            // what the row needs (and a dictation that ended is no interrupted one to recover).
            r.dropJournal();
            LOG.warn("recording not saved: {}", e.getMessage());
            p.notifier().notice(Notifier.Kind.WARNING, "The recording was not saved (" + RecordingsFolder.reason(e)
                    + (textInserted ? "); the text is still inserted." : ")."));
            return null;
        }
    }

    /** Adds the dictation's history row (noting a WAV that could not be saved); the row as given when there is no history. */
    HistoryEntry record(Settings s, HistoryEntry given) {
        if (!s.storage().historyEnabled()) {
            return given;
        }
        HistoryStore history = p.history().get(); // waits for a history still opening at start
        if (history == null) {
            return given;
        }
        // Every recording is saved before this; no WAV means it could not be (disk full): the row says so.
        HistoryEntry e = given.wavPath() == null && given.error() == null ? given.withNote("audio not saved") : given;
        try {
            return history.add(e);
        } catch (RuntimeException ex) {
            LOG.warn("history not written: {}", ex.getMessage());
            return e;
        }
    }

    /** Prunes the recordings folder as the settings say, keeping {@code justSaved} or the failed one Retry offers. */
    void prune(Settings s, Path justSaved, HistoryEntry lastFailed) {
        p.recordings().prune(Math.max(s.storage().recordingsKept(), 0),
                lastFailed == null ? justSaved : lastFailed.wavPath());
    }
}
