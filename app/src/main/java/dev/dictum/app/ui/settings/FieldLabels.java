package dev.dictum.app.ui.settings;

import java.util.Map;

/** What the settings window calls each field ("group.field"), and a line of help under some. */
final class FieldLabels {

    record Text(String label, String help) {}

    private static final Map<String, Text> TEXTS = Map.ofEntries(
            t("general.startWithOs", "Start Dictum when I log in", null),
            t("general.showIndicator", "Show the recording indicator", "A small window that never takes focus"),
            t("general.showNotices", "Show notices", "No speech heard, a failed transcription, a model loaded"),
            t("hotkeys.mode", "Mode", "Push-to-talk: hold. Toggle: press, speak, press. Hold or tap: both"),
            t("hotkeys.dictate", "Dictate", "Click the field, then press the combination (modifiers alone work too)"),
            t("hotkeys.cancel", "Cancel recording", "Only while recording"),
            t("hotkeys.stopAndEnter", "Stop and press Enter", null),
            t("hotkeys.pasteLast", "Paste last transcript", null),
            t("hotkeys.tapMillis", "Tap is shorter than", "Milliseconds; hold-or-tap mode only"),
            t("audio.inputDevice", "Input device", null),
            t("audio.minRecordingMillis", "Shortest recording kept", "Milliseconds; shorter ones are ignored"),
            t("audio.trimSilence", "Trim silence; insert nothing when nobody spoke", null),
            t("audio.speechThresholdDb", "Speech threshold", "dBFS above which a frame may be speech"),
            t("audio.soundCues", "Sound cues (start, stop, cancel, error)", null),
            t("audio.soundVolume", "Sound cue volume", "Percent, 0-100"),
            t("transcription.language", "Language", "auto detects it; a code (en, de, fr …) fixes it"),
            t("transcription.task", "Task", "Translate turns any language into English text"),
            t("transcription.beamSize", "Beam size", "1 is fastest; 5 is a little more accurate"),
            t("transcription.initialPrompt", "Prompt", "Text the model reads as if it came before what you say"),
            t("transcription.vocabulary", "Vocabulary", "Names and jargon the model should expect, one per line"
                    + " or separated by commas"),
            t("transcription.temperatureFallback", "Retry at higher temperature when decoding fails", null),
            t("transcription.conditionOnPreviousText", "Prompt each part of a long dictation with the text before it",
                    null),
            t("transcription.noSpeechThreshold", "No-speech threshold", "0 to 1; above it a window counts as silent"),
            t("transcription.audioCtx", "Encoder context", "full (default, most accurate), auto (faster for short"
                    + " dictations, less accurate with stock models) or 1-1500 positions"),
            t("insertion.method", "Insert with", "Type works where paste does not (some terminals, remote desktops)"),
            t("insertion.pasteKeystroke", "Paste keystroke", null),
            t("insertion.pasteDelayMillis", "Delay before pasting", "Milliseconds"),
            t("insertion.restoreDelayMillis", "Delay before restoring the clipboard", "Milliseconds"),
            t("insertion.enterAfter", "Press Enter after the text", null),
            t("insertion.leadingSpace", "Add a space after a finished sentence", null),
            t("insertion.typingDelayMillis", "Typing: pause between characters", "Milliseconds; 0 types the whole text"
                    + " at once, more for a window that drops keys that come fast"),
            t("insertion.replacements", "Replacements", "Applied to every transcript before it is inserted,"
                    + " top to bottom; the history keeps what was heard"),
            t("insertion.voiceCommands", "Voice commands", "Say \u201cnew line\u201d, \u201cnew paragraph\u201d or"
                    + " \u201ccomma\u201d for a line break, a blank line or a comma"),
            t("models.modelPath", "Model in use", null),
            t("models.modelsFolder", "Models folder", "Empty: Dictum's data folder"),
            t("storage.recordingsKept", "Recordings kept", "The most recent WAV files"),
            t("storage.historyEnabled", "Keep a history of transcripts", null),
            t("storage.logTranscripts", "Write transcripts into the log file", "Off keeps what you said out of logs"),
            t("advanced.backend", "Backend", null),
            t("advanced.rocmDirectory", "ROCm (HIP SDK) folder", "Windows: empty scans for the newest HIP SDK"));

    private FieldLabels() {
    }

    private static Map.Entry<String, Text> t(String key, String label, String help) {
        return Map.entry(key, new Text(label, help));
    }

    /** True when the table names the field (a test keeps every setting named). */
    static boolean listed(String key) {
        return TEXTS.containsKey(key);
    }

    /** The label and help of a field; a field not listed is named from its Java name ("tapMillis" → "Tap millis"). */
    static Text of(String key) {
        Text t = TEXTS.get(key);
        if (t != null) {
            return t;
        }
        String name = key.substring(key.indexOf('.') + 1);
        String words = name.replaceAll("([A-Z])", " $1").toLowerCase(java.util.Locale.ROOT);
        return new Text(Character.toUpperCase(words.charAt(0)) + words.substring(1), null);
    }
}
