package dev.dictum.whisper.decode;

/**
 * A finished hypothesis: its sampled tokens (from sample_begin up to, not including, the first
 * eot), their log-probabilities, and the cumulative log-probability including the eot step.
 */
record Candidate(int[] tokens, float[] tokenLogprobs, double sumLogprob) {

    /** Slices a full sequence [0, length) to [sampleBegin, first eot) as OpenAI's DecodingTask.run does. */
    static Candidate slice(int[] seq, float[] logprobs, int length, int sampleBegin, int eot, double sum) {
        int end = sampleBegin;
        while (end < length && seq[end] != eot) {
            end++;
        }
        return new Candidate(java.util.Arrays.copyOfRange(seq, sampleBegin, end),
                java.util.Arrays.copyOfRange(logprobs, sampleBegin, end), sum);
    }
}
