package dev.dictum.app.dictation;

/**
 * What the engine made of one recording.
 *
 * @param text         stripped text ("" when nothing was said)
 * @param language     the language used or detected
 * @param noSpeech     the engine's own gate: every window was judged silent (no_speech_prob above
 *                     the threshold), so the text is not to be trusted even when not empty
 * @param encodeMillis encoder time
 * @param decodeMillis decoder time
 * @param speculative  the text had been made at a pause before the release (nothing was left to do)
 */
public record Transcript(String text, String language, boolean noSpeech, long encodeMillis, long decodeMillis,
        boolean speculative) {

    public Transcript(String text, String language, boolean noSpeech, long encodeMillis, long decodeMillis) {
        this(text, language, noSpeech, encodeMillis, decodeMillis, false);
    }
}
