package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Text insertion". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param method paste, type, or clipboard only
 * @param pasteKeystroke Ctrl+V, Ctrl+Shift+V or Shift+Insert
 * @param pasteDelayMillis wait between setting the clipboard and the paste keystroke
 * @param restoreDelayMillis wait after the paste keystroke before the clipboard is restored
 * @param enterAfter press Enter after the text
 * @param leadingSpace a space first when the previous dictation into the same window ended a sentence
 * @param typingDelayMillis typing mode: pause between characters
 */
public record InsertionSettings(
        InsertionMethod method,
        PasteKeystroke pasteKeystroke,
        Integer pasteDelayMillis,
        Integer restoreDelayMillis,
        Boolean enterAfter,
        Boolean leadingSpace,
        Integer typingDelayMillis) {
    private static final InsertionMethod D_METHOD = InsertionMethod.PASTE;
    private static final PasteKeystroke D_PASTEKEYSTROKE = PasteKeystroke.CTRL_V;
    private static final Integer D_PASTEDELAYMILLIS = 40;
    private static final Integer D_RESTOREDELAYMILLIS = 250;
    private static final Boolean D_ENTERAFTER = false;
    private static final Boolean D_LEADINGSPACE = true;
    private static final Integer D_TYPINGDELAYMILLIS = 12;

    public InsertionSettings {
        method = Checks.or(method, D_METHOD);
        pasteKeystroke = Checks.or(pasteKeystroke, D_PASTEKEYSTROKE);
        pasteDelayMillis = Checks.or(pasteDelayMillis, D_PASTEDELAYMILLIS);
        restoreDelayMillis = Checks.or(restoreDelayMillis, D_RESTOREDELAYMILLIS);
        enterAfter = Checks.or(enterAfter, D_ENTERAFTER);
        leadingSpace = Checks.or(leadingSpace, D_LEADINGSPACE);
        typingDelayMillis = Checks.or(typingDelayMillis, D_TYPINGDELAYMILLIS);
    }

    public static InsertionSettings defaults() {
        return new InsertionSettings(D_METHOD, D_PASTEKEYSTROKE, D_PASTEDELAYMILLIS, D_RESTOREDELAYMILLIS, D_ENTERAFTER, D_LEADINGSPACE, D_TYPINGDELAYMILLIS);
    }

    /** Every invalid value with the reason ("insertion.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.range(out, "insertion.pasteDelayMillis", pasteDelayMillis, 0, 2000, " ms");
        Checks.range(out, "insertion.restoreDelayMillis", restoreDelayMillis, 0, 5000, " ms");
        Checks.range(out, "insertion.typingDelayMillis", typingDelayMillis, 0, 200, " ms");
        return out;
    }

    public InsertionSettings withMethod(InsertionMethod v) {
        return new InsertionSettings(v, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis);
    }

    public InsertionSettings withPasteKeystroke(PasteKeystroke v) {
        return new InsertionSettings(method, v, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis);
    }

    public InsertionSettings withPasteDelayMillis(Integer v) {
        return new InsertionSettings(method, pasteKeystroke, v, restoreDelayMillis, enterAfter, leadingSpace, typingDelayMillis);
    }

    public InsertionSettings withRestoreDelayMillis(Integer v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, v, enterAfter, leadingSpace, typingDelayMillis);
    }

    public InsertionSettings withEnterAfter(Boolean v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, v, leadingSpace, typingDelayMillis);
    }

    public InsertionSettings withLeadingSpace(Boolean v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, v, typingDelayMillis);
    }

    public InsertionSettings withTypingDelayMillis(Integer v) {
        return new InsertionSettings(method, pasteKeystroke, pasteDelayMillis, restoreDelayMillis, enterAfter, leadingSpace, v);
    }
}
