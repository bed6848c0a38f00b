package dev.dictum.whisper.model;

import dev.dictum.whisper.format.WhisperDims;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** What the step-graph tests decode: a random window and greedy steps over it, logits kept. */
final class GreedySteps {
    private GreedySteps() {
    }

    /** A log-mel window of values in [-1, 1) from {@code seed}. */
    static float[] randomMel(WhisperDims d, long seed) {
        float[] mel = new float[d.nMels() * 2 * d.nAudioCtx()];
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < mel.length; i++) {
            mel[i] = (float) rnd.nextDouble(-1, 1);
        }
        return mel;
    }

    /** Logits of a two-token prompt, then of greedy steps (argmax fed back) to the end of the text context. */
    static List<float[]> logits(DecoderState dec, EncodedAudio audio, WhisperDims d) {
        List<float[]> out = new ArrayList<>();
        dec.reset(audio, 1);
        float[][] logits = new float[1][d.nVocab()];
        dec.feed(new int[][] {{50257, 50362}}, logits);
        out.add(logits[0].clone());
        while (dec.length() < d.nTextCtx()) {
            dec.feed(new int[][] {{ModelOracleTest.argmax(logits[0])}}, logits);
            out.add(logits[0].clone());
        }
        return out;
    }
}
