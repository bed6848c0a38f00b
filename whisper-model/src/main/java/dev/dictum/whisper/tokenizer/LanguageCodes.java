package dev.dictum.whisper.tokenizer;

import java.util.List;

/**
 * Whisper's language codes in token order (OpenAI's tokenizer.LANGUAGES). Formats that do not name
 * their language tokens (whisper.cpp's ggml stores only the BPE tokens) take the first
 * {@code count} of these, as whisper.cpp does; Hugging Face and CTranslate2 files name them.
 */
public final class LanguageCodes {
    private static final List<String> ALL = List.of(
            "en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id",
            "hi", "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg",
            "lt", "la", "mi", "ml", "cy", "sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br",
            "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw", "gl", "mr", "pa", "si", "km", "sn", "yo", "so",
            "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk", "nn", "mt",
            "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue");

    private LanguageCodes() {
    }

    /** The first {@code count} codes (99 for models up to large-v2, 100 for large-v3). */
    public static List<String> first(int count) {
        if (count < 0 || count > ALL.size()) {
            throw new IllegalArgumentException("Whisper knows " + ALL.size() + " languages, not " + count);
        }
        return ALL.subList(0, count);
    }
}
