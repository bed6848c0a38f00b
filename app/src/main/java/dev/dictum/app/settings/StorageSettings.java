package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Privacy and storage". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param recordingsKept how many recent recordings are kept as WAV files
 * @param historyEnabled keep transcripts in the history
 * @param logTranscripts write transcript text into the log file
 */
public record StorageSettings(
        Integer recordingsKept,
        Boolean historyEnabled,
        Boolean logTranscripts) {
    private static final Integer D_RECORDINGSKEPT = 50;
    private static final Boolean D_HISTORYENABLED = true;
    private static final Boolean D_LOGTRANSCRIPTS = false;

    public StorageSettings {
        recordingsKept = Checks.or(recordingsKept, D_RECORDINGSKEPT);
        historyEnabled = Checks.or(historyEnabled, D_HISTORYENABLED);
        logTranscripts = Checks.or(logTranscripts, D_LOGTRANSCRIPTS);
    }

    public static StorageSettings defaults() {
        return new StorageSettings(D_RECORDINGSKEPT, D_HISTORYENABLED, D_LOGTRANSCRIPTS);
    }

    /** Every invalid value with the reason ("storage.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.range(out, "storage.recordingsKept", recordingsKept, 0, 100000, "");
        return out;
    }

    public StorageSettings withRecordingsKept(Integer v) {
        return new StorageSettings(v, historyEnabled, logTranscripts);
    }

    public StorageSettings withHistoryEnabled(Boolean v) {
        return new StorageSettings(recordingsKept, v, logTranscripts);
    }

    public StorageSettings withLogTranscripts(Boolean v) {
        return new StorageSettings(recordingsKept, historyEnabled, v);
    }
}
