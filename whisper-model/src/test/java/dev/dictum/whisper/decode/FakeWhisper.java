package dev.dictum.whisper.decode;

import dev.dictum.whisper.format.GenerationConfig;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.model.WhisperInference;
import dev.dictum.whisper.tokenizer.LanguageCodes;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import dev.dictum.whisper.tokenizer.Vocabulary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A scripted stand-in for a Whisper model: the logits are a deterministic function of the audio
 * (the first value of the encoded window), the attempt (how many times a decoder was reset for a
 * decoding pass) and the tokens fed so far. Records every encode, reset, feed and reorder.
 */
final class FakeWhisper implements WhisperInference {

    /** Writes the logits for one sequence; they start at {@link #BASE} everywhere. */
    @FunctionalInterface
    interface Script {
        void logits(Context c, float[] out);
    }

    /** What the script sees. {@code history} is everything fed to the sequence, initial tokens included. */
    record Context(int audio, int attempt, int[] history, SpecialTokens sp) {

        /** The tokens after the last sot (the sot sequence and sampled tokens). */
        int[] afterSot() {
            for (int i = history.length - 1; i >= 0; i--) {
                if (history[i] == sp.sot()) {
                    return Arrays.copyOfRange(history, i + 1, history.length);
                }
            }
            return history.clone();
        }

        boolean atSot() {
            return history[history.length - 1] == sp.sot();
        }
    }

    /** Logit of every token the script leaves alone: e^-30 makes them negligible but not impossible. */
    static final float BASE = -30f;

    static final int[] NON_SPEECH = {1, 2, 3};

    private static final Vocabulary EN = vocabulary(51864);
    private static final Vocabulary MULTI = vocabulary(51866);

    final WhisperDims dims;
    final Vocabulary vocabulary;
    final SpecialTokens sp;
    final Script script;
    final List<float[]> encodedWindows = new ArrayList<>();
    /** Encoder positions of every encode, n_audio_ctx for a whole window. */
    final List<Integer> encodedPositions = new ArrayList<>();
    final List<String> log = new ArrayList<>();
    final List<int[][]> feeds = new ArrayList<>();
    final List<int[]> reorders = new ArrayList<>();
    final List<Integer> resetBatches = new ArrayList<>();
    int attempts = -1;
    /** feedAll calls (each also recorded in {@link #feeds} as one row). */
    int feedAlls;

    FakeWhisper(int nVocab, int nTextCtx, Script script) {
        this.dims = new WhisperDims(2, 1500, 4, 1, 1, nVocab, nTextCtx, 4, 1, 1);
        this.vocabulary = nVocab == 51864 ? EN : MULTI;
        this.sp = vocabulary.specials();
        this.script = script;
    }

    static FakeWhisper english(Script script) {
        return new FakeWhisper(51864, 448, script);
    }

    static FakeWhisper multilingual(Script script) {
        return new FakeWhisper(51866, 448, script);
    }

    private static Vocabulary vocabulary(int nVocab) {
        SpecialTokens sp = SpecialTokens.forVocabSize(nVocab);
        List<byte[]> tokens = new ArrayList<>(sp.eot());
        for (int i = 0; i < sp.eot(); i++) {
            tokens.add(new byte[] {(byte) i, (byte) (i >> 8), (byte) (i >> 16)});
        }
        return new Vocabulary(tokens, sp, LanguageCodes.first(sp.languageCount()));
    }

    @Override
    public WhisperDims dims() {
        return dims;
    }

    @Override
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public GenerationConfig generation() {
        return new GenerationConfig(NON_SPEECH, new int[] {220, sp.eot()}, 50);
    }

    @Override
    public EncodedAudio encode(float[] logMel) {
        return encode(logMel, dims.nAudioCtx());
    }

    @Override
    public EncodedAudio encode(float[] logMel, int positions) {
        encodedPositions.add(positions);
        encodedWindows.add(logMel.clone());
        int id = (int) logMel[0];
        return new FakeAudio(id);
    }

    @Override
    public DecoderState newDecoder(int maxBatch) {
        return new State(maxBatch);
    }

    @Override
    public void close() {
    }

    record FakeAudio(int id) implements EncodedAudio {
        @Override
        public float[] toHost() {
            return new float[] {id};
        }

        @Override
        public void close() {
        }
    }

    /** Per-reset record of what was fed: the batch and each row's full history at the end. */
    final List<List<int[]>> histories = new ArrayList<>();

    final class State implements DecoderState {
        private final int maxBatch;
        private List<int[]> rows = new ArrayList<>();
        private int audio;
        private int length;

        State(int maxBatch) {
            this.maxBatch = maxBatch;
        }

        @Override
        public void reset(EncodedAudio a, int batch) {
            if (batch > maxBatch) {
                throw new IllegalArgumentException("batch " + batch + " > " + maxBatch);
            }
            audio = ((FakeAudio) a).id();
            attempts++;
            resetBatches.add(batch);
            rows = new ArrayList<>();
            for (int b = 0; b < batch; b++) {
                rows.add(new int[0]);
            }
            length = 0;
            histories.add(rows);
            log.add("reset " + batch);
        }

        @Override
        public void feed(int[][] tokens, float[][] logits) {
            if (tokens.length != rows.size()) {
                throw new IllegalArgumentException(tokens.length + " rows fed to a batch of " + rows.size());
            }
            feeds.add(Arrays.stream(tokens).map(int[]::clone).toArray(int[][]::new));
            log.add("feed " + Arrays.deepToString(tokens));
            for (int b = 0; b < tokens.length; b++) {
                int[] old = rows.get(b);
                int[] h = Arrays.copyOf(old, old.length + tokens[b].length);
                System.arraycopy(tokens[b], 0, h, old.length, tokens[b].length);
                rows.set(b, h);
                if (h.length > dims.nTextCtx()) {
                    throw new IllegalStateException("fed past n_text_ctx: " + h.length);
                }
                Arrays.fill(logits[b], BASE);
                script.logits(new Context(audio, attempts, h, sp), logits[b]);
            }
            length += tokens[0].length;
        }

        @Override
        public void feedAll(int[] tokens, int from, float[][] logits) {
            if (rows.size() != 1) {
                throw new IllegalStateException("feedAll with a batch of " + rows.size());
            }
            feeds.add(new int[][] {tokens.clone()});
            feedAlls++;
            log.add("feedAll " + Arrays.toString(tokens) + " from " + from);
            int[] old = rows.get(0);
            for (int i = 0; i < tokens.length; i++) {
                int[] h = Arrays.copyOf(old, old.length + i + 1);
                System.arraycopy(tokens, 0, h, old.length, i + 1);
                if (h.length > dims.nTextCtx()) {
                    throw new IllegalStateException("fed past n_text_ctx: " + h.length);
                }
                if (i >= from) {
                    Arrays.fill(logits[i - from], BASE);
                    script.logits(new Context(audio, attempts, h, sp), logits[i - from]);
                }
            }
            int[] h = Arrays.copyOf(old, old.length + tokens.length);
            System.arraycopy(tokens, 0, h, old.length, tokens.length);
            rows.set(0, h);
            length += tokens.length;
        }

        @Override
        public void truncate(int to) {
            if (to < 0 || to > length) {
                throw new IllegalArgumentException("truncate " + length + " to " + to);
            }
            log.add("truncate " + to);
            rows.replaceAll(r -> Arrays.copyOf(r, to));
            length = to;
        }

        @Override
        public void reorder(int[] sourceOf) {
            reorders.add(sourceOf.clone());
            log.add("reorder " + Arrays.toString(sourceOf));
            List<int[]> next = new ArrayList<>();
            for (int s : sourceOf) {
                next.add(rows.get(s));
            }
            rows.clear();
            rows.addAll(next);
        }

        @Override
        public int batch() {
            return rows.size();
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public void close() {
        }
    }
}
