package dev.dictum.whisper.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.select.Backends;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.mel.LogMel;
import dev.dictum.whisper.model.DecoderState;
import dev.dictum.whisper.model.EncodedAudio;
import dev.dictum.whisper.model.ModelMemory;
import dev.dictum.whisper.model.WhisperModel;
import dev.dictum.whisper.session.EngineBenchmark;
import dev.dictum.whisper.session.WhisperEngine;
import dev.dictum.whisper.testutil.GgmlWriter;
import dev.dictum.whisper.testutil.RandomWhisper;
import dev.dictum.whisper.testutil.SafetensorsWriter;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, where large-v3's GPU memory goes: the device's own figure (total − free, cuMemGetInfo)
 * after each phase of one transcription-shaped run of a random large-v3 (f16 weights, 30 s of audio),
 * printed beside the ledger's categories, so that what the device holds beyond the ledger (the
 * context, code objects, local memory, graphs, the allocator's rounding) is attributed to the phase
 * that took it: context, opened (self-test), every module loaded, weights uploaded (with the upload's
 * transient staging peak), encoder run, greedy prompt, first greedy step (eager, then captured as a
 * graph), a replayed step, a beam-5 prompt, its first step (captured), a step after a reorder, and
 * after the decoders and the window are closed. A diagnostic first (its table goes to the log); its
 * assertions are the ledger's crisp figures: the self K/V of the greedy and the beam-5 state and one
 * window's cross K/V are exactly {@link ModelMemory}'s (f16: 2 bytes a value), and the device never
 * holds less than the ledger.
 */
class GpuMemoryPhasesTest {
    private static final long SEED = 20261127;
    private static final double MIB = 1 << 20;

    @TempDir
    Path tmp;

    /** One phase's line: device used, its change, the ledger's total and what the device holds beyond it. */
    private static final class Phases {
        private final GpuBackend gpu;
        private long lastDevice;
        private long lastLedger;

        /** The most the device held beyond {@code deviceUsedAtStart} at any phase, and the ledger's peak then. */
        private long grown;

        Phases(GpuBackend gpu) {
            this(gpu, "large-v3");
        }

        Phases(GpuBackend gpu, String model) {
            this.gpu = gpu;
            MemoryReport r = gpu.memoryReport();
            System.out.printf(Locale.ROOT, "%-34s %9s %9s %9s %9s %9s   %s%n", "phase (" + model + ", " + gpu.name() + ")",
                    "device", "Δdevice", "ledger", "Δledger", "beyond", "ledger by category now (MiB)");
            System.out.printf(Locale.ROOT, "%-34s %9.0f %9s %9s %9s %9s   (before the backend allocated anything)%n",
                    "context", r.deviceUsedAtStart() / MIB, "", "", "", "");
            lastDevice = r.deviceUsedAtStart();
        }

        MemoryReport phase(String what) {
            gpu.synchronize();
            MemoryReport r = gpu.memoryReport();
            long ledger = r.total().current();
            long beyond = r.deviceUsedNow() - r.deviceUsedAtStart() - ledger;
            StringBuilder cats = new StringBuilder();
            for (var e : r.byCategory().entrySet()) {
                if (e.getValue().current() > 0 || e.getValue().peak() > 0) {
                    cats.append(String.format(Locale.ROOT, "%s %.0f (peak %.0f); ", e.getKey(),
                            e.getValue().current() / MIB, e.getValue().peak() / MIB));
                }
            }
            System.out.printf(Locale.ROOT, "%-34s %9.0f %+9.0f %9.0f %+9.0f %9.0f   %s%n", what, r.deviceUsedNow() / MIB,
                    (r.deviceUsedNow() - lastDevice) / MIB, ledger / MIB, (ledger - lastLedger) / MIB, beyond / MIB,
                    cats);
            assertThat(r.deviceUsedNow() - r.deviceUsedAtStart()).as(what + ": the device holds the ledger at least")
                    .isGreaterThanOrEqualTo(ledger);
            lastDevice = r.deviceUsedNow();
            // between phases the ledger may have peaked higher (scratch freed again): count that peak with
            // what the device held beyond the ledger now
            grown = Math.max(grown, Math.max(r.deviceUsedNow() - r.deviceUsedAtStart(), r.total().peak() + beyond));
            lastLedger = ledger;
            return r;
        }
    }

    @Test
    void largeV3PhaseByPhase() {
        GpuBackend gpu = cuda();
        WhisperDims dims = RandomWhisper.LARGE_V3;
        ModelMemory estimate = ModelMemory.onGpu(dims);
        Path model = SafetensorsWriter.writeModel(tmp.resolve("large-v3"), dims, SEED, DType.F16);
        Phases p = new Phases(gpu);
        MemoryReport opened = p.phase("opened (self-test run)");
        gpu.loadAllModules();
        p.phase("every module loaded");
        try (WhisperEngine e = WhisperEngine.load(model, gpu)) {
            MemoryReport loaded = p.phase("weights uploaded");
            System.out.printf(Locale.ROOT, "  upload staging peak (raw scratch, freed after the upload): %.0f MiB%n",
                    loaded.byCategory().get(MemoryCategory.STAGING).peak() / MIB);
            Decoded run = encodeAndDecode(e.model(), p, false);
            assertThat(run.encoded().byCategory().get(MemoryCategory.CROSS_KV).current()).as("one window's cross K/V")
                    .isEqualTo(estimate.crossKv());
            assertThat(run.stepped().byCategory().get(MemoryCategory.SELF_KV).current())
                    .as("the greedy and the beam-5 state's self K/V, f16").isEqualTo(estimate.selfKv());
            assertSharedOnce(run.stepped(), opened, estimate);
            e.model().releaseScratch();
            p.phase("scratch released");
        }
    }

    /** What the device may take while decoding beyond the ledger's self K/V and step values (MiB). */
    private static final long DECODING_ALLOWANCE_MIB = 24;
    /** What the device may hold beyond the ledger at the peak: modules, graphs, rounding (MiB). */
    private static final long BEYOND_MIB = 40;

    /** At most the 256-byte alignment of every buffer of the shared region (24 of the decoders', 9 of the encoder's). */
    private static final long REGION_ALIGNMENT = 33 * 256;

    /**
     * Issue 22 item 1, after an encode and greedy and beam-5 decoding: the region the encoder and the decoders
     * share was held once, at the estimate's size (the decoders' layout with the encoder's over it and its tail), and the decoders hold no
     * activations of their own beyond the estimate's step values and row tables (the backend's own
     * cross-attention partials, allocated when it opened, aside).
     */
    private static void assertSharedOnce(MemoryReport now, MemoryReport opened, ModelMemory estimate) {
        assertThat(now.byCategory().get(MemoryCategory.SHARED_SCRATCH).peak()).as("the shared region, once")
                .isBetween(estimate.sharedScratch(), estimate.sharedScratch() + REGION_ALIGNMENT);
        long backendOwn = opened.byCategory().get(MemoryCategory.DECODER_SCRATCH).current();
        assertThat(now.byCategory().get(MemoryCategory.DECODER_SCRATCH).peak() - backendOwn)
                .as("the decoders' own scratch").isLessThanOrEqualTo(estimate.decoderScratch());
    }

    /** An H200's CUDA context with the stack limit at 0 (docs/gpu-runs: 263 MiB), which issue 22's 1.8 GB includes. */
    private static final long H200_CONTEXT = 263L << 20;

    /**
     * Issue 22's target: large-v3-turbo from a q8_0 ggml file (random weights, quantised as whisper.cpp does)
     * peaks at ≤ 1.8 GB of device memory, context included: its matrices stay q8_0 on the device. The same
     * phases as large-v3's (30 s of audio, greedy and beam 5); the weights' ledger figure is the q8_0 one
     * (827 MiB of tensors, ~883 MiB of chunks), and the most the device held beyond the backend's start at
     * any phase (or the ledger's peak plus what the device held beyond it), plus an H200's context, is
     * within 1.8 GB. The context is added, not read: other tests' backends in this JVM share it and hold
     * memory of their own, so the device's figure at the start is not this model's.
     *
     * <p>Issue 22 item 1 (the encoder's and the decoders' activations in one region): the greedy state is also
     * given a dictation's longest work, a 224-token prompt with a 32-position draft checked in one pass, and
     * the bounds are the estimate's: from the encoder run to the last decoding phase the device grows by no
     * more than the self K/V, the decoders' own step values and tables and {@value #DECODING_ALLOWANCE_MIB}
     * MiB (the K/V sets' page rounding, small allocations, graphs), where a scratch of each state's own took
     * ~19 MiB more for that draft alone; and the most it held is within the fit check's estimate for the file
     * (58.5 MiB below the estimate before the sharing), the arena's packing and {@value #BEYOND_MIB} MiB
     * beyond the ledger (modules, graphs, rounding).
     */
    @Test
    void largeV3TurboInQ8_0PeaksWithin1point8Gb() {
        GpuBackend gpu = cuda();
        WhisperDims dims = RandomWhisper.LARGE_V3_TURBO;
        Path model = GgmlWriter.write(tmp.resolve("turbo-q8_0.bin"), dims, SEED, GgmlWriter.Type.Q8_0).file();
        ModelMemory estimate;
        try (var source = dev.dictum.whisper.format.detect.ModelFiles.open(model)) {
            estimate = ModelMemory.onGpu(source);
        }
        try (gpu) {
            Phases p = new Phases(gpu, "large-v3-turbo q8_0");
            MemoryReport opened = gpu.memoryReport();
            gpu.loadAllModules();
            p.phase("every module loaded");
            try (WhisperEngine e = WhisperEngine.load(model, gpu)) {
                MemoryReport loaded = p.phase("weights uploaded");
                long weights = loaded.byCategory().get(MemoryCategory.WEIGHTS).current();
                long packing = weights - estimate.weights(); // the arena's chunks beyond the tensors
                assertThat(weights / MIB).as("q8_0 weights, not f16's 1583 MiB of chunks").isBetween(827.0, 900.0);
                Decoded run = encodeAndDecode(e.model(), p, true);
                assertThat(run.encoded().byCategory().get(MemoryCategory.WEIGHT_SCRATCH).current())
                        .as("the weight scratch: the MLP's matrix in f16").isEqualTo(2L * 4 * 1280 * 1280);
                assertSharedOnce(run.stepped(), opened, estimate);
                long selfKv = run.stepped().byCategory().get(MemoryCategory.SELF_KV).current();
                assertThat(selfKv).isEqualTo(estimate.selfKv());
                assertThat(run.stepped().deviceUsedNow() - run.encoded().deviceUsedNow())
                        .as("the device's growth while decoding: self K/V, step values, tables, graphs")
                        .isLessThanOrEqualTo(selfKv + estimate.decoderScratch() + (DECODING_ALLOWANCE_MIB << 20));
                long bound = estimate.total() + packing + (BEYOND_MIB << 20);
                System.out.printf(Locale.ROOT, "large-v3-turbo q8_0: the fit check's estimate %.1f MiB + packing %.1f + %d"
                        + " = %.1f MiB; at most %.1f held%n", estimate.total() / MIB, packing / MIB, BEYOND_MIB,
                        bound / MIB, p.grown / MIB);
                assertThat(p.grown).as("the most held beyond the backend's start, within the estimate").isLessThanOrEqualTo(bound);
            }
            long peak = p.grown + H200_CONTEXT;
            System.out.printf(Locale.ROOT, "large-v3-turbo q8_0: at most %.0f MiB beyond the backend's start, + %.0f MiB "
                    + "of context = %.3f GB (target 1.8)%n", p.grown / MIB, H200_CONTEXT / MIB, peak / 1e9);
            assertThat(peak).as("device peak with the context, bytes").isLessThanOrEqualTo(1_800_000_000L);
        }
    }

    /**
     * The driver's rounding of one allocation, measured: 32 buffers each of sizes the model allocates
     * (large-v3's 1280 × 1280 and 1280 × 5120 f16 matrices — one allocation each before WeightArena —, a
     * greedy state's f16 cache layer, a 1 MiB one), the device's figure per buffer printed beside the
     * buffer's size. The figure is never below the size (the ledger's bytes are on the device).
     */
    @Test
    void theDeviceFigurePerAllocation() {
        GpuBackend gpu = cuda();
        try (gpu) {
            long[] floats = {1280L * 1280 / 2, 1280L * 5120 / 2, 448L * 1280 / 2, 1L << 18};
            String[] what = {"1280x1280 f16", "1280x5120 f16", "448x1280 f16 (greedy K or V)", "1 MiB"};
            for (int i = 0; i < floats.length; i++) {
                java.util.List<dev.dictum.gpu.Buffer> held = new java.util.ArrayList<>();
                gpu.synchronize();
                long before = gpu.memoryReport().deviceUsedNow();
                for (int j = 0; j < 32; j++) {
                    held.add(gpu.allocate(floats[i], MemoryCategory.OTHER));
                }
                long per = (gpu.memoryReport().deviceUsedNow() - before) / 32;
                System.out.printf(Locale.ROOT, "allocation of %s (%.3f MiB): the device's figure grows %.3f MiB each%n",
                        what[i], 4 * floats[i] / MIB, per / MIB);
                assertThat(per).as(what[i]).isGreaterThanOrEqualTo(4 * floats[i]);
                held.forEach(dev.dictum.gpu.Buffer::close);
            }
        }
    }

    /** The reports of the phases the tests assert on: the encoder's, and the last beam-5 step's. */
    private record Decoded(MemoryReport encoded, MemoryReport stepped) {
    }

    /**
     * The phases of one transcription-shaped run of m, each recorded by p: the encoder over 30 s of audio, the
     * greedy and the beam-5 decoder state allocated, a greedy prompt and two steps (the first captured as a
     * graph, the second replayed), with {@code longest} a dictation's longest work on the greedy state (a
     * 224-token prompt with a 32-position draft checked in one pass, then a prompt and a replayed step again),
     * a beam-5 prompt, its first step (captured) and a step after a reorder; then the decoders and the window
     * closed.
     */
    private static Decoded encodeAndDecode(WhisperModel m, Phases p, boolean longest) {
        WhisperDims dims = m.dims();
        SpecialTokens s = m.vocabulary().specials();
        int[] prompt = {s.sot(), s.firstLanguage(), s.transcribe(), s.noTimestamps()};
        float[][] one = new float[1][dims.nVocab()];
        float[][] five = new float[5][dims.nVocab()];
        MemoryReport encoded;
        MemoryReport stepped;
        try (EncodedAudio enc = m.encode(new LogMel(dims.nMels()).window(EngineBenchmark.syntheticAudio(30)))) {
            encoded = p.phase("encoder run");
            try (DecoderState greedy = m.newDecoder(1); DecoderState beams = m.newDecoder(5)) {
                p.phase("decoder states allocated (1 + 5)");
                greedy.reset(enc, 1);
                greedy.feed(new int[][] {prompt}, one);
                p.phase("greedy prompt (4 tokens)");
                greedy.feed(new int[][] {{s.noTimestamps() + 1}}, one);
                p.phase("first greedy step (+ graph capture)");
                greedy.feed(new int[][] {{s.noTimestamps() + 2}}, one);
                p.phase("second greedy step (replay)");
                if (longest) {
                    int[] tokens = new int[224 + 32]; // previous text as the prompt, then a draft to check
                    for (int i = 0; i < tokens.length; i++) {
                        tokens[i] = i < prompt.length ? prompt[i] : s.noTimestamps() + 1 + i;
                    }
                    greedy.reset(enc, 1);
                    greedy.feedAll(tokens, 224, new float[32][dims.nVocab()]);
                    p.phase("224-token prompt + 32-token draft");
                    greedy.reset(enc, 1);
                    greedy.feed(new int[][] {prompt}, one);
                    greedy.feed(new int[][] {{s.noTimestamps() + 1}}, one);
                    p.phase("greedy step again (replay)");
                }
                beams.reset(enc, 5);
                beams.feed(new int[][] {prompt, prompt, prompt, prompt, prompt}, five);
                p.phase("beam-5 prompt");
                beams.feed(tokens(5, s.noTimestamps() + 3), five);
                p.phase("first beam-5 step (+ graph capture)");
                beams.reorder(new int[] {0, 0, 1, 1, 2});
                beams.feed(tokens(5, s.noTimestamps() + 4), five);
                stepped = p.phase("beam-5 step after a reorder");
            }
        }
        p.phase("decoders and window closed");
        return new Decoded(encoded, stepped);
    }

    /** The CUDA backend, or the test is skipped ("skipped: no GPU"). */
    private static GpuBackend cuda() {
        try {
            return Backends.openGpu("cuda");
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "skipped: no GPU (" + e.getMessage() + ")");
            throw e;
        }
    }

    private static int[][] tokens(int rows, int token) {
        int[][] t = new int[rows][];
        for (int b = 0; b < rows; b++) {
            t[b] = new int[] {token + b};
        }
        return t;
    }
}
