package dev.dictum.whisper.tokenizer;

/**
 * The ids of Whisper's special tokens. They are laid out after the BPE ranks in a fixed order
 * (eot, sot, the language tokens, translate, transcribe, startoflm, startofprev, nospeech,
 * notimestamps, then 1501 timestamps of 0.02 s), so every id follows from the vocabulary size:
 * the timestamps end the vocabulary and there are {@code n_vocab - 51765 - 1} languages in a
 * multilingual model (99 up to large-v2, 100 in large-v3, which moved every id from translate on
 * by one). English-only models (51864) keep 99 language tokens they never use.
 */
public record SpecialTokens(
        int eot,
        int sot,
        int firstLanguage,
        int languageCount,
        int translate,
        int transcribe,
        int startOfLm,
        int startOfPrev,
        int noSpeech,
        int noTimestamps,
        int timestampBegin,
        int vocabSize) {

    /** Timestamp tokens: 0.00 s to 30.00 s in steps of 0.02 s. */
    public static final int TIMESTAMP_COUNT = 1501;

    /** Derives every id from the vocabulary size, as whisper.cpp and OpenAI's tokenizer do. */
    public static SpecialTokens forVocabSize(int nVocab) {
        boolean multilingual = nVocab >= 51865;
        int languages = multilingual ? nVocab - 51765 - 1 : 99;
        int timestampBegin = nVocab - TIMESTAMP_COUNT;
        int noTimestamps = timestampBegin - 1;
        int noSpeech = noTimestamps - 1;
        int startOfPrev = noSpeech - 1;
        int startOfLm = startOfPrev - 1;
        int transcribe = startOfLm - 1;
        int translate = transcribe - 1;
        int firstLanguage = translate - languages;
        int sot = firstLanguage - 1;
        int eot = sot - 1;
        return new SpecialTokens(eot, sot, firstLanguage, languages, translate, transcribe, startOfLm,
                startOfPrev, noSpeech, noTimestamps, timestampBegin, nVocab);
    }

    public boolean isMultilingual() {
        return vocabSize >= 51865;
    }

    public boolean isTimestamp(int id) {
        return id >= timestampBegin;
    }

    public boolean isLanguage(int id) {
        return id >= firstLanguage && id < firstLanguage + languageCount;
    }

    /** Ids below this are text (BPE) tokens. */
    public int firstSpecial() {
        return eot;
    }

    /** Seconds that a timestamp token stands for. */
    public double timestampSeconds(int id) {
        return (id - timestampBegin) * 0.02;
    }
}
