package dev.dictum.app.settings;

import dev.dictum.whisper.decode.EncoderContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Transcription". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param language a Whisper language code (en, de, ...) or auto
 * @param task transcribe, or translate to English
 * @param beamSize 1: greedy decoding; more: beam search with that many beams
 * @param initialPrompt text the model is conditioned on (names, custom vocabulary)
 * @param temperatureFallback retry a window at higher temperatures when decoding fails
 * @param noSpeechThreshold a window whose no-speech probability is above this is silent
 * @param vocabulary names and jargon the model should expect, separated by commas or new lines
 * @param conditionOnPreviousText prompt each piece of a long dictation with the text before it
 *        (OpenAI's condition_on_previous_text). Off by default, as whisper.cpp (no_context): a
 *        piece then depends only on its own audio and the user's prompt, so one misheard piece
 *        cannot derail the next, and models trained without prompts stay exact
 * @param audioCtx encoder context for dictations up to 30 s: full (Whisper's 30-second window, the
 *        default), auto (the speech length, faster, less accurate with stock models) or a number of
 *        encoder positions 1..1500 (whisper.cpp's audio_ctx); see docs/benchmarks.md
 */
public record TranscriptionSettings(
        String language,
        TranscriptionTask task,
        Integer beamSize,
        String initialPrompt,
        Boolean temperatureFallback,
        Double noSpeechThreshold,
        String vocabulary,
        Boolean conditionOnPreviousText,
        String audioCtx) {
    private static final String D_LANGUAGE = "auto";
    private static final TranscriptionTask D_TASK = TranscriptionTask.TRANSCRIBE;
    private static final Integer D_BEAMSIZE = 1;
    private static final String D_INITIALPROMPT = "";
    private static final Boolean D_TEMPERATUREFALLBACK = true;
    private static final Double D_NOSPEECHTHRESHOLD = 0.6;
    private static final String D_VOCABULARY = "";
    private static final Boolean D_CONDITIONONPREVIOUSTEXT = false;
    private static final String D_AUDIOCTX = "full";

    public TranscriptionSettings {
        language = Checks.or(language, D_LANGUAGE);
        task = Checks.or(task, D_TASK);
        beamSize = Checks.or(beamSize, D_BEAMSIZE);
        initialPrompt = Checks.or(initialPrompt, D_INITIALPROMPT);
        temperatureFallback = Checks.or(temperatureFallback, D_TEMPERATUREFALLBACK);
        noSpeechThreshold = Checks.or(noSpeechThreshold, D_NOSPEECHTHRESHOLD);
        vocabulary = Checks.or(vocabulary, D_VOCABULARY);
        conditionOnPreviousText = Checks.or(conditionOnPreviousText, D_CONDITIONONPREVIOUSTEXT);
        audioCtx = Checks.or(audioCtx, D_AUDIOCTX);
    }

    public static TranscriptionSettings defaults() {
        return new TranscriptionSettings(D_LANGUAGE, D_TASK, D_BEAMSIZE, D_INITIALPROMPT, D_TEMPERATUREFALLBACK, D_NOSPEECHTHRESHOLD, D_VOCABULARY,
                D_CONDITIONONPREVIOUSTEXT, D_AUDIOCTX);
    }

    /** Every invalid value with the reason ("transcription.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        if (!language.equals("auto") && !language.matches("[a-z]{2,3}")) {
            out.add(new SettingProblem("transcription.language", "'" + language
                    + "' is not a language code (en, de, fr, ...) or auto"));
        }
        Checks.range(out, "transcription.beamSize", beamSize, 1, 16, "");
        if (initialPrompt.length() > 2000) {
            out.add(new SettingProblem("transcription.initialPrompt", "longer than 2000 characters"));
        }
        Checks.range(out, "transcription.noSpeechThreshold", noSpeechThreshold, 0, 1, "");
        if (vocabulary.length() > 2000) {
            out.add(new SettingProblem("transcription.vocabulary", "longer than 2000 characters"));
        }
        try {
            EncoderContext.parse(audioCtx);
        } catch (IllegalArgumentException e) {
            out.add(new SettingProblem("transcription.audioCtx", e.getMessage()));
        }
        return out;
    }

    /** The vocabulary's terms: split at commas and line breaks, trimmed, empty ones and repeats dropped. */
    public List<String> vocabularyTerms() {
        return java.util.Arrays.stream(vocabulary.split("[,\\n\\r]+")).map(String::strip)
                .filter(t -> !t.isEmpty()).distinct().toList();
    }

    /**
     * What the decoder is primed with (Whisper's initial prompt): the prompt text, then the
     * vocabulary as a comma-separated list ending in a full stop, the way such words would appear in
     * text the model saw before this audio; null when both are empty.
     */
    public String decoderPrompt() {
        List<String> terms = vocabularyTerms();
        String words = terms.isEmpty() ? "" : String.join(", ", terms) + ".";
        String prompt = (initialPrompt.strip() + " " + words).strip();
        return prompt.isEmpty() ? null : prompt;
    }

    public TranscriptionSettings withVocabulary(String v) {
        return new TranscriptionSettings(language, task, beamSize, initialPrompt, temperatureFallback, noSpeechThreshold, v,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withLanguage(String v) {
        return new TranscriptionSettings(v, task, beamSize, initialPrompt, temperatureFallback, noSpeechThreshold, vocabulary,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withTask(TranscriptionTask v) {
        return new TranscriptionSettings(language, v, beamSize, initialPrompt, temperatureFallback, noSpeechThreshold, vocabulary,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withBeamSize(Integer v) {
        return new TranscriptionSettings(language, task, v, initialPrompt, temperatureFallback, noSpeechThreshold, vocabulary,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withInitialPrompt(String v) {
        return new TranscriptionSettings(language, task, beamSize, v, temperatureFallback, noSpeechThreshold, vocabulary,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withTemperatureFallback(Boolean v) {
        return new TranscriptionSettings(language, task, beamSize, initialPrompt, v, noSpeechThreshold, vocabulary,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withNoSpeechThreshold(Double v) {
        return new TranscriptionSettings(language, task, beamSize, initialPrompt, temperatureFallback, v, vocabulary,
                conditionOnPreviousText, audioCtx);
    }

    public TranscriptionSettings withConditionOnPreviousText(Boolean v) {
        return new TranscriptionSettings(language, task, beamSize, initialPrompt, temperatureFallback, noSpeechThreshold,
                vocabulary, v, audioCtx);
    }

    public TranscriptionSettings withAudioCtx(String v) {
        return new TranscriptionSettings(language, task, beamSize, initialPrompt, temperatureFallback, noSpeechThreshold,
                vocabulary, conditionOnPreviousText, v);
    }

    /** The encoder context asked for; full when the value is invalid (problems() reports it). */
    public EncoderContext encoderContext() {
        try {
            return EncoderContext.parse(audioCtx);
        } catch (IllegalArgumentException e) {
            return EncoderContext.FULL;
        }
    }
}
