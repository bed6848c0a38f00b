package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Hotkeys". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param mode push-to-talk, toggle or hold-or-tap
 * @param dictate the dictation hotkey (held, toggled or tapped as the mode says)
 * @param cancel discards the recording in progress (only while recording); empty: none
 * @param stopAndEnter stops the recording and presses Enter after the text; empty: none
 * @param pasteLast inserts the last transcript again; empty: none
 * @param tapMillis hold-or-tap: a press shorter than this is a tap
 */
public record HotkeySettings(
        DictationMode mode,
        String dictate,
        String cancel,
        String stopAndEnter,
        String pasteLast,
        Integer tapMillis) {
    private static final DictationMode D_MODE = DictationMode.PUSH_TO_TALK;
    private static final String D_DICTATE = "Ctrl+Alt+Space";
    private static final String D_CANCEL = "Escape";
    private static final String D_STOPANDENTER = "Ctrl+Alt+Enter";
    private static final String D_PASTELAST = "Ctrl+Alt+V";
    private static final Integer D_TAPMILLIS = 300;

    public HotkeySettings {
        mode = Checks.or(mode, D_MODE);
        dictate = Checks.or(dictate, D_DICTATE);
        cancel = Checks.or(cancel, D_CANCEL);
        stopAndEnter = Checks.or(stopAndEnter, D_STOPANDENTER);
        pasteLast = Checks.or(pasteLast, D_PASTELAST);
        tapMillis = Checks.or(tapMillis, D_TAPMILLIS);
    }

    public static HotkeySettings defaults() {
        return new HotkeySettings(D_MODE, D_DICTATE, D_CANCEL, D_STOPANDENTER, D_PASTELAST, D_TAPMILLIS);
    }

    /**
     * The invalid values this group can tell by itself (the tap time), with the reason
     * ("hotkeys.field"). Whether a text is a hotkey is {@code hotkey.HotkeyRule}'s to say;
     * {@link Settings#problems()} asks both.
     */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.range(out, "hotkeys.tapMillis", tapMillis, 100, 2000, " ms");
        return out;
    }

    public HotkeySettings withMode(DictationMode v) {
        return new HotkeySettings(v, dictate, cancel, stopAndEnter, pasteLast, tapMillis);
    }

    public HotkeySettings withDictate(String v) {
        return new HotkeySettings(mode, v, cancel, stopAndEnter, pasteLast, tapMillis);
    }

    public HotkeySettings withCancel(String v) {
        return new HotkeySettings(mode, dictate, v, stopAndEnter, pasteLast, tapMillis);
    }

    public HotkeySettings withStopAndEnter(String v) {
        return new HotkeySettings(mode, dictate, cancel, v, pasteLast, tapMillis);
    }

    public HotkeySettings withPasteLast(String v) {
        return new HotkeySettings(mode, dictate, cancel, stopAndEnter, v, tapMillis);
    }

    public HotkeySettings withTapMillis(Integer v) {
        return new HotkeySettings(mode, dictate, cancel, stopAndEnter, pasteLast, v);
    }
}
