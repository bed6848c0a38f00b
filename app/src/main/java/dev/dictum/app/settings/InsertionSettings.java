package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Text insertion". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param method paste, type, or clipboard only
 * @param pasteKeystroke Ctrl+V, Ctrl+Shift+V or Shift+Insert
 * @param pasteDelayMillis extra wait between setting the clipboard and the paste keystroke, for a target that needs it
 *        (none by default: X11 and Windows have the new owner when the clipboard call returns)
 * @param restoreDelayMillis wait after the paste keystroke before the clipboard is restored
 * @param enterAfter press Enter after the text
 * @param leadingSpace a space first when the previous dictation into the same window ended a sentence
 * @param typingDelayMillis typing mode: pause between characters (0: the whole text in one go; more for a target
 *        that drops keys that come fast)
 * @param replacements user rules applied to the transcript before it is inserted, in order
 * @param voiceCommands "new line", "new paragraph" and "comma" spoken become a line break, a blank line and ","
 */
public record InsertionSettings(
        InsertionMethod method,
        PasteKeystroke pasteKeystroke,
        Integer pasteDelayMillis,
        Integer restoreDelayMillis,
        Boolean enterAfter,
        Boolean leadingSpace,
        Integer typingDelayMillis,
        java.util.List<Replacement> replacements,
        Boolean voiceCommands) {
    private static final InsertionMethod D_METHOD = InsertionMethod.PASTE;
    private static final PasteKeystroke D_PASTEKEYSTROKE = PasteKeystroke.CTRL_V;
    private static final Integer D_PASTEDELAYMILLIS = 0; // setContents returns once the platform has the new owner (issue 23)
    private static final Integer D_RESTOREDELAYMILLIS = 250;
    private static final Boolean D_ENTERAFTER = false;
    private static final Boolean D_LEADINGSPACE = true;
    private static final Integer D_TYPINGDELAYMILLIS = 0; // the whole text in one go (issue 23)
    private static final java.util.List<Replacement> D_REPLACEMENTS = java.util.List.of();
    private static final Boolean D_VOICECOMMANDS = true;
    /** More rules than anyone types by hand; a limit keeps a damaged file from slowing every dictation. */
    static final int MAX_REPLACEMENTS = 500;

    public InsertionSettings {
        method = Checks.or(method, D_METHOD);
        pasteKeystroke = Checks.or(pasteKeystroke, D_PASTEKEYSTROKE);
        pasteDelayMillis = Checks.or(pasteDelayMillis, D_PASTEDELAYMILLIS);
        restoreDelayMillis = Checks.or(restoreDelayMillis, D_RESTOREDELAYMILLIS);
        enterAfter = Checks.or(enterAfter, D_ENTERAFTER);
        leadingSpace = Checks.or(leadingSpace, D_LEADINGSPACE);
        typingDelayMillis = Checks.or(typingDelayMillis, D_TYPINGDELAYMILLIS);
        replacements = replacements == null ? D_REPLACEMENTS
                : java.util.List.copyOf(replacements.stream().filter(java.util.Objects::nonNull).toList());
        voiceCommands = Checks.or(voiceCommands, D_VOICECOMMANDS);
    }

    public static InsertionSettings defaults() {
        return new InsertionSettings(D_METHOD, D_PASTEKEYSTROKE, D_PASTEDELAYMILLIS, D_RESTOREDELAYMILLIS, D_ENTERAFTER, D_LEADINGSPACE, D_TYPINGDELAYMILLIS, D_REPLACEMENTS, D_VOICECOMMANDS);
    }

    /** Every invalid value with the reason ("insertion.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.range(out, "insertion.pasteDelayMillis", pasteDelayMillis, 0, 2000, " ms");
        Checks.range(out, "insertion.restoreDelayMillis", restoreDelayMillis, 0, 5000, " ms");
        Checks.range(out, "insertion.typingDelayMillis", typingDelayMillis, 0, 200, " ms");
        if (replacements.size() > MAX_REPLACEMENTS) {
            out.add(new SettingProblem("insertion.replacements", "at most " + MAX_REPLACEMENTS + " rules"));
        }
        return out;
    }

    public InsertionSettings withMethod(InsertionMethod v) {
        return new InsertionSettings(v, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis, replacements, voiceCommands);
    }

    public InsertionSettings withPasteKeystroke(PasteKeystroke v) {
        return new InsertionSettings(method, v, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis, replacements, voiceCommands);
    }

    public InsertionSettings withPasteDelayMillis(Integer v) {
        return new InsertionSettings(method, pasteKeystroke, v, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis, replacements, voiceCommands);
    }

    public InsertionSettings withRestoreDelayMillis(Integer v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, v, enterAfter, leadingSpace, typingDelayMillis, replacements, voiceCommands);
    }

    public InsertionSettings withEnterAfter(Boolean v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, v, leadingSpace, typingDelayMillis, replacements, voiceCommands);
    }

    public InsertionSettings withLeadingSpace(Boolean v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, v, typingDelayMillis, replacements, voiceCommands);
    }

    public InsertionSettings withReplacements(java.util.List<Replacement> v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis, v, voiceCommands);
    }

    public InsertionSettings withVoiceCommands(Boolean v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis, replacements, v);
    }

    public InsertionSettings withTypingDelayMillis(Integer v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, v, replacements, voiceCommands);
    }
}
