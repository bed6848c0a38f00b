package dev.dictum.app.text;

import dev.dictum.app.settings.InsertionSettings;
import dev.dictum.app.settings.Replacement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text after the engine: the user's replacements in their order, then the built-in voice
 * commands ("new line", "new paragraph", "comma") unless switched off. The dictation loop applies
 * this to the final transcript only; the history keeps the engine's text beside the result.
 */
public final class TextRules {
    /** Letters and digits of any script: what a "whole word" must not touch on either side. */
    private static final String NOT_WORD_BEFORE = "(?<![\\p{L}\\p{N}_])";
    private static final String NOT_WORD_AFTER = "(?![\\p{L}\\p{N}_])";
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

    /**
     * A spoken command, the punctuation Whisper puts around it and the spaces beside it. Punctuation
     * before the command is kept ("Dear Anna, new paragraph." → "Dear Anna,\n\n"); after it, dropped.
     */
    private static final List<Command> COMMANDS = List.of(
            new Command(Pattern.compile("[ \\t]*" + NOT_WORD_BEFORE + "new paragraph" + NOT_WORD_AFTER
                    + "[.,;:!?]?[ \\t]*", FLAGS), "\n\n"),
            new Command(Pattern.compile("[ \\t]*" + NOT_WORD_BEFORE + "new line" + NOT_WORD_AFTER
                    + "[.,;:!?]?[ \\t]*", FLAGS), "\n"),
            new Command(Pattern.compile("[ \\t]*,?[ \\t]*" + NOT_WORD_BEFORE + "comma" + NOT_WORD_AFTER
                    + "[.,]?", FLAGS), ","));

    private record Command(Pattern spoken, String written) {
    }

    private TextRules() {
    }

    /** {@code text} with the user's replacements and (when on) the voice commands applied. */
    public static String apply(InsertionSettings s, String text) {
        String out = text;
        for (Replacement r : s.replacements()) {
            out = replace(out, r);
        }
        if (s.voiceCommands()) {
            for (Command c : COMMANDS) {
                out = c.spoken().matcher(out).replaceAll(Matcher.quoteReplacement(c.written()));
            }
        }
        return out;
    }

    static String replace(String text, Replacement r) {
        if (r.from().isEmpty()) {
            return text;
        }
        if (!r.wholeWord()) {
            return text.replace(r.from(), r.to());
        }
        Pattern p = Pattern.compile(NOT_WORD_BEFORE + Pattern.quote(r.from()) + NOT_WORD_AFTER, FLAGS);
        return p.matcher(text).replaceAll(Matcher.quoteReplacement(r.to()));
    }
}
