package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Audio". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param inputDevice the microphone by name; empty: the system default
 * @param minRecordingMillis shorter recordings are discarded as too short
 * @param trimSilence drop leading and trailing silence, and insert nothing when nobody spoke
 * @param speechThresholdDb a frame louder than this above the noise floor may be speech (dBFS floor)
 */
public record AudioSettings(
        String inputDevice,
        Integer minRecordingMillis,
        Boolean trimSilence,
        Double speechThresholdDb) {
    private static final String D_INPUTDEVICE = "";
    private static final Integer D_MINRECORDINGMILLIS = 300;
    private static final Boolean D_TRIMSILENCE = true;
    private static final Double D_SPEECHTHRESHOLDDB = -50.0;

    public AudioSettings {
        inputDevice = Checks.or(inputDevice, D_INPUTDEVICE);
        minRecordingMillis = Checks.or(minRecordingMillis, D_MINRECORDINGMILLIS);
        trimSilence = Checks.or(trimSilence, D_TRIMSILENCE);
        speechThresholdDb = Checks.or(speechThresholdDb, D_SPEECHTHRESHOLDDB);
    }

    public static AudioSettings defaults() {
        return new AudioSettings(D_INPUTDEVICE, D_MINRECORDINGMILLIS, D_TRIMSILENCE, D_SPEECHTHRESHOLDDB);
    }

    /** Every invalid value with the reason ("audio.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.range(out, "audio.minRecordingMillis", minRecordingMillis, 0, 5000, " ms");
        Checks.range(out, "audio.speechThresholdDb", speechThresholdDb, -90, -10, " dBFS");
        return out;
    }

    public AudioSettings withInputDevice(String v) {
        return new AudioSettings(v, minRecordingMillis, trimSilence, speechThresholdDb);
    }

    public AudioSettings withMinRecordingMillis(Integer v) {
        return new AudioSettings(inputDevice, v, trimSilence, speechThresholdDb);
    }

    public AudioSettings withTrimSilence(Boolean v) {
        return new AudioSettings(inputDevice, minRecordingMillis, v, speechThresholdDb);
    }

    public AudioSettings withSpeechThresholdDb(Double v) {
        return new AudioSettings(inputDevice, minRecordingMillis, trimSilence, v);
    }
}
