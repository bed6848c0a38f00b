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
 * @param soundCues short sounds when a recording starts, stops, is cancelled or fails
 * @param soundVolume their loudness, 0-100 percent
 */
public record AudioSettings(
        String inputDevice,
        Integer minRecordingMillis,
        Boolean trimSilence,
        Double speechThresholdDb,
        Boolean soundCues,
        Integer soundVolume) {
    private static final String D_INPUTDEVICE = "";
    private static final Integer D_MINRECORDINGMILLIS = 300;
    private static final Boolean D_TRIMSILENCE = true;
    private static final Double D_SPEECHTHRESHOLDDB = -50.0;
    private static final Boolean D_SOUNDCUES = true;
    private static final Integer D_SOUNDVOLUME = 40;

    public AudioSettings {
        inputDevice = Checks.or(inputDevice, D_INPUTDEVICE);
        minRecordingMillis = Checks.or(minRecordingMillis, D_MINRECORDINGMILLIS);
        trimSilence = Checks.or(trimSilence, D_TRIMSILENCE);
        speechThresholdDb = Checks.or(speechThresholdDb, D_SPEECHTHRESHOLDDB);
        soundCues = Checks.or(soundCues, D_SOUNDCUES);
        soundVolume = Checks.or(soundVolume, D_SOUNDVOLUME);
    }

    public static AudioSettings defaults() {
        return new AudioSettings(D_INPUTDEVICE, D_MINRECORDINGMILLIS, D_TRIMSILENCE, D_SPEECHTHRESHOLDDB, D_SOUNDCUES,
                D_SOUNDVOLUME);
    }

    /** Every invalid value with the reason ("audio.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.range(out, "audio.minRecordingMillis", minRecordingMillis, 0, 5000, " ms");
        Checks.range(out, "audio.speechThresholdDb", speechThresholdDb, -90, -10, " dBFS");
        Checks.range(out, "audio.soundVolume", soundVolume, 0, 100, " %");
        return out;
    }

    public AudioSettings withInputDevice(String v) {
        return new AudioSettings(v, minRecordingMillis, trimSilence, speechThresholdDb, soundCues, soundVolume);
    }

    public AudioSettings withMinRecordingMillis(Integer v) {
        return new AudioSettings(inputDevice, v, trimSilence, speechThresholdDb, soundCues, soundVolume);
    }

    public AudioSettings withTrimSilence(Boolean v) {
        return new AudioSettings(inputDevice, minRecordingMillis, v, speechThresholdDb, soundCues, soundVolume);
    }

    public AudioSettings withSpeechThresholdDb(Double v) {
        return new AudioSettings(inputDevice, minRecordingMillis, trimSilence, v, soundCues, soundVolume);
    }

    public AudioSettings withSoundCues(Boolean v) {
        return new AudioSettings(inputDevice, minRecordingMillis, trimSilence, speechThresholdDb, v, soundVolume);
    }

    public AudioSettings withSoundVolume(Integer v) {
        return new AudioSettings(inputDevice, minRecordingMillis, trimSilence, speechThresholdDb, soundCues, v);
    }
}
