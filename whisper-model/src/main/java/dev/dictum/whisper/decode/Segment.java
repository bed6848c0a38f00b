package dev.dictum.whisper.decode;

/**
 * One transcribed segment (OpenAI's segment dict, without word timestamps).
 *
 * @param id                 index in the transcription
 * @param seek               the window's start, in mel frames
 * @param start              seconds
 * @param end                seconds
 * @param text               decoded text tokens, not stripped (it usually starts with a space)
 * @param tokens             the segment's tokens, timestamps included (empty when the text was cleared)
 * @param tokenProbabilities probability of each token when it was chosen
 * @param avgLogprob         of the window's decoding result
 * @param compressionRatio   of the window's decoding result
 * @param noSpeechProb       of the window's decoding result
 * @param temperature        of the window's decoding result
 */
public record Segment(
        int id,
        int seek,
        double start,
        double end,
        String text,
        int[] tokens,
        float[] tokenProbabilities,
        double avgLogprob,
        double compressionRatio,
        double noSpeechProb,
        double temperature) {
}
