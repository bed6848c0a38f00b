package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Backend;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.decode.DecodingOptions;
import dev.dictum.whisper.decode.DecodingResult;
import dev.dictum.whisper.decode.DecodingTask;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.format.detect.ModelFiles;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.KvDecoderState.Reorder;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.TestData;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Beam search reordered by index (issue 22 item 4) against the copy it replaced
 * ({@code DICTUM_BEAM_REORDER=copy}, the code before the change): on the CPU, whose attention reads the
 * same rows in the same order either way, beam-5 decoding of every sample of toy-en and toy-multi gives
 * the copy's logits bit for bit at every step, hence its tokens and text; a random script of reorders
 * (beams sharing a source, fewer and more beams), truncations and feeds does too; and the self K/V of a
 * beam-5 decoding is held once, not twice.
 */
class BeamReorderByIndexTest {

    /** A beam-5 decoder state of {@code model} reordered {@code how}, recording its feeds. */
    static RecordingDecoderState beams(WhisperModel model, Reorder how) {
        return new RecordingDecoderState(model.newDecoder(5, how));
    }

    /** The CPU backend, counting its attentionRows calls. */
    private static Backend counting(AtomicInteger rowCalls) {
        CpuBackend cpu = new CpuBackend();
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("attentionRows")) {
                        rowCalls.incrementAndGet();
                    }
                    try {
                        return m.invoke(cpu, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"toy-en, toy-en-samples", "toy-multi, toy-multi-samples"})
    void beamFiveGivesTheCopysLogitsBitForBitOnEverySample(String name, String samples) throws Exception {
        AtomicInteger rowCalls = new AtomicInteger();
        List<Path> wavs;
        try (var files = Files.list(TestData.data(samples))) {
            wavs = files.filter(f -> f.toString().endsWith(".wav")).sorted().toList();
        }
        assertThat(wavs).hasSizeGreaterThanOrEqualTo(6);
        int moved = 0;
        try (WhisperEngine e = WhisperEngine.load(TestData.model(name), counting(rowCalls))) {
            WhisperModel model = e.model();
            DecodingOptions beam = DecodingOptions.defaults().withBeamSize(5);
            for (Path wav : wavs) {
                float[] mel = new LogMel(model.dims().nMels()).window(TestData.wav16kMono(wav));
                for (DecodingOptions o : List.of(beam, beam.withWithoutTimestamps(true))) {
                    String what = wav.getFileName() + (o.withoutTimestamps() ? " without" : " with") + " timestamps";
                    try (EncodedAudio audio = model.encode(mel);
                            RecordingDecoderState copy = beams(model, Reorder.BY_COPY);
                            RecordingDecoderState index = beams(model, Reorder.BY_INDEX)) {
                        DecodingResult want = new DecodingTask(model, e.codec(), o).run(audio, copy, null);
                        int callsBefore = rowCalls.get();
                        DecodingResult got = new DecodingTask(model, e.codec(), o).run(audio, index, null);
                        assertThat(index.logits).as(what + ": feeds").hasSameSizeAs(copy.logits);
                        for (int f = 0; f < copy.logits.size(); f++) {
                            assertThat(Arrays.deepEquals(index.logits.get(f), copy.logits.get(f)))
                                    .as(what + ": the logits of feed " + f + " bit for bit").isTrue();
                        }
                        assertThat(got.tokens()).as(what).containsExactly(want.tokens());
                        assertThat(got.text()).as(what).isEqualTo(want.text());
                        assertThat(got.sumLogprob()).as(what).isEqualTo(want.sumLogprob());
                        assertThat(index.moves).as(what + ": reorders").isEqualTo(copy.moves);
                        if (index.moves > 0) {
                            assertThat(rowCalls.get()).as(what + ": attention through the row tables")
                                    .isGreaterThan(callsBefore);
                            moved++;
                        }
                    }
                }
            }
        }
        assertThat(moved).as("decodings whose beams were reordered").isGreaterThanOrEqualTo(wavs.size());
    }

    /**
     * Reorders that share and drop beams, batches that shrink and grow again, truncations (whose
     * positions must be written to each beam's own rows again) and feeds of one and several tokens,
     * in both ways on one window: the logits agree bit for bit at every feed.
     */
    @Test
    void aRandomScriptOfReordersAndTruncationsGivesTheCopysLogits() {
        Path file = TestData.model("toy-en").resolve("ggml-toy-en.bin");
        try (WhisperModel model = WhisperModel.load(ModelFiles.open(file), new CpuBackend(), () -> false)) {
            WhisperDims d = model.dims();
            int vocab = d.nVocab();
            for (long seed = 1; seed <= 3; seed++) {
                try (EncodedAudio audio = model.encode(GreedySteps.randomMel(d, seed));
                        DecoderState copy = model.newDecoder(5, Reorder.BY_COPY);
                        DecoderState index = model.newDecoder(5, Reorder.BY_INDEX)) {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    copy.reset(audio, 5);
                    index.reset(audio, 5);
                    int batch = 5;
                    int step = 0;
                    while (copy.length() < Math.min(160, d.nTextCtx() - 4)) {
                        int len = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(3) : 1;
                        int[][] tokens = new int[batch][len];
                        for (int[] row : tokens) {
                            for (int i = 0; i < len; i++) {
                                row[i] = rnd.nextInt(vocab);
                            }
                        }
                        float[][] want = new float[batch][vocab];
                        float[][] got = new float[batch][vocab];
                        copy.feed(tokens, want);
                        index.feed(tokens, got);
                        assertThat(Arrays.deepEquals(got, want)).as("seed " + seed + " feed " + step++).isTrue();
                        int r = rnd.nextInt(8);
                        if (r == 0 && copy.length() > 3) {
                            int to = copy.length() - 1 - rnd.nextInt(3);
                            copy.truncate(to);
                            index.truncate(to);
                        } else if (r < 6) {
                            int next = r == 1 ? 1 + rnd.nextInt(5) : batch; // now and then fewer or more beams
                            int[] sourceOf = new int[next];
                            for (int i = 0; i < next; i++) {
                                sourceOf[i] = rnd.nextInt(batch);
                            }
                            copy.reorder(sourceOf.clone());
                            index.reorder(sourceOf.clone());
                            batch = next;
                        }
                    }
                }
            }
        }
    }

    /** The figure: large-v3's beam-5 self K/V peaked at twice the caches; by index it is once. */
    @Test
    void theSelfKvOfBeamFiveIsHeldOnce() throws Exception {
        Path wav = TestData.data("toy-en-samples", "sample_01.wav");
        long[] peak = new long[2];
        for (Reorder how : Reorder.values()) {
            CpuBackend be = new CpuBackend();
            try (WhisperEngine e = WhisperEngine.load(TestData.model("toy-en"), be)) {
                WhisperModel model = e.model();
                WhisperDims d = model.dims();
                float[] mel = new LogMel(d.nMels()).window(TestData.wav16kMono(wav));
                try (EncodedAudio audio = model.encode(mel);
                        RecordingDecoderState state = beams(model, how)) {
                    new DecodingTask(model, e.codec(), DecodingOptions.defaults().withBeamSize(5)).run(audio, state,
                            null);
                    assertThat(state.moves).as(how + ": beams were reordered").isPositive();
                }
                peak[how.ordinal()] = be.memoryReport().byCategory().get(MemoryCategory.SELF_KV).peak();
                long oneSet = 4L * 2 * d.nTextLayer() * 5 * d.nTextCtx() * d.nTextState(); // keys and values
                assertThat(peak[how.ordinal()]).as(how + ": self K/V peak")
                        .isEqualTo(how == Reorder.BY_INDEX ? oneSet : 2 * oneSet);
            }
        }
    }
}
