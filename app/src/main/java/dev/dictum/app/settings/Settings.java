package dev.dictum.app.settings;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every setting of the app, grouped as the settings window shows them. Immutable: a change is a
 * new {@code Settings} (the {@code with...} methods of each group, then {@link #with}), so the
 * hotkey, audio and UI threads always see one consistent snapshot. A null group means defaults.
 */
public record Settings(
        Integer version,
        GeneralSettings general,
        HotkeySettings hotkeys,
        AudioSettings audio,
        TranscriptionSettings transcription,
        InsertionSettings insertion,
        ModelSettings models,
        StorageSettings storage,
        AdvancedSettings advanced) {

    /**
     * The file format's version; a newer file's unknown fields are ignored, missing ones defaulted.
     * 2: the typing and paste delays' defaults became 0 ({@link SettingsUpgrade} moves a version 1
     * file's old defaults).
     */
    public static final int VERSION = 2;

    public Settings {
        version = VERSION;
        general = Checks.or(general, GeneralSettings.defaults());
        hotkeys = Checks.or(hotkeys, HotkeySettings.defaults());
        audio = Checks.or(audio, AudioSettings.defaults());
        transcription = Checks.or(transcription, TranscriptionSettings.defaults());
        insertion = Checks.or(insertion, InsertionSettings.defaults());
        models = Checks.or(models, ModelSettings.defaults());
        storage = Checks.or(storage, StorageSettings.defaults());
        advanced = Checks.or(advanced, AdvancedSettings.defaults());
    }

    public static Settings defaults() {
        return new Settings(VERSION, null, null, null, null, null, null, null, null);
    }

    /** Every invalid value in every group, with its reason. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        for (SettingsGroup g : SettingsGroup.values()) {
            out.addAll(problems(g));
        }
        return out;
    }

    /** The invalid values of one group: its own checks, then the {@link SettingsRule}s for it. */
    public List<SettingProblem> problems(SettingsGroup group) {
        List<SettingProblem> out = new ArrayList<>(ownProblems(group));
        for (SettingsRule r : SettingsRule.installed()) {
            if (r.group() == group) {
                out.addAll(r.problems(this));
            }
        }
        return out;
    }

    private List<SettingProblem> ownProblems(SettingsGroup group) {
        return switch (group) {
            case GENERAL -> general.problems();
            case HOTKEYS -> hotkeys.problems();
            case AUDIO -> audio.problems();
            case TRANSCRIPTION -> transcription.problems();
            case INSERTION -> insertion.problems();
            case MODELS -> models.problems();
            case STORAGE -> storage.problems();
            case ADVANCED -> advanced.problems();
        };
    }

    /**
     * Why the value of one field is invalid, if it is: {@code reason("transcription.beamSize")}.
     * A settings window calls this after building the candidate with a {@code with...} method.
     */
    public Optional<String> reason(String field) {
        return problems().stream().filter(p -> p.field().equals(field)).map(SettingProblem::reason).findFirst();
    }

    @JsonIgnore
    public boolean isValid() {
        return problems().isEmpty();
    }

    /** This with one group back at its defaults (the window's "reset to defaults"). */
    public Settings withDefaults(SettingsGroup group) {
        return switch (group) {
            case GENERAL -> with(GeneralSettings.defaults());
            case HOTKEYS -> with(HotkeySettings.defaults());
            case AUDIO -> with(AudioSettings.defaults());
            case TRANSCRIPTION -> with(TranscriptionSettings.defaults());
            case INSERTION -> with(InsertionSettings.defaults());
            case MODELS -> with(ModelSettings.defaults());
            case STORAGE -> with(StorageSettings.defaults());
            case ADVANCED -> with(AdvancedSettings.defaults());
        };
    }

    public Settings with(GeneralSettings g) {
        return new Settings(version, g, hotkeys, audio, transcription, insertion, models, storage, advanced);
    }

    public Settings with(HotkeySettings g) {
        return new Settings(version, general, g, audio, transcription, insertion, models, storage, advanced);
    }

    public Settings with(AudioSettings g) {
        return new Settings(version, general, hotkeys, g, transcription, insertion, models, storage, advanced);
    }

    public Settings with(TranscriptionSettings g) {
        return new Settings(version, general, hotkeys, audio, g, insertion, models, storage, advanced);
    }

    public Settings with(InsertionSettings g) {
        return new Settings(version, general, hotkeys, audio, transcription, g, models, storage, advanced);
    }

    public Settings with(ModelSettings g) {
        return new Settings(version, general, hotkeys, audio, transcription, insertion, g, storage, advanced);
    }

    public Settings with(StorageSettings g) {
        return new Settings(version, general, hotkeys, audio, transcription, insertion, models, g, advanced);
    }

    public Settings with(AdvancedSettings g) {
        return new Settings(version, general, hotkeys, audio, transcription, insertion, models, storage, g);
    }
}
