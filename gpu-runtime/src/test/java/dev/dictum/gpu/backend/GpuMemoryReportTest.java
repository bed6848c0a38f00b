package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.cpu.TestWeights;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22's accounting on a real device: every GpuMemory allocation is counted in its category, the
 * raw upload scratch goes at {@code weightsUploaded}, and the device's own figure sees what the ledger
 * holds. A backend of its own (the shared one's figures move with the other tests).
 */
class GpuMemoryReportTest {

    private static long held(MemoryReport r, MemoryCategory c) {
        return r.byCategory().get(c).current();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void categoriesSumAndTheUploadScratchIsFreedAfterTheWeights(String api) {
        try (GpuBackend be = new GpuBackend(Gpus.probe(api).driver(), 0)) {
            MemoryReport empty = be.memoryReport();
            long fixedStaging = held(empty, MemoryCategory.STAGING); // the staging ring
            assertThat(fixedStaging).isEqualTo(Staging.RING_BYTES);
            int rows = 1001;
            int cols = 777; // odd sizes
            be.upload(TestWeights.random(DType.F32, rows, cols, 5)); // converted on the device through the raw scratch
            MemoryReport loaded = be.memoryReport();
            // the weights' first chunk (WeightArena: packed, not one 2 MiB-rounded allocation each)
            assertThat(held(loaded, MemoryCategory.WEIGHTS)).isEqualTo(WeightArena.CHUNK).isGreaterThan(2L * rows * cols);
            be.upload(TestWeights.random(DType.F16, rows, cols, 6)); // the same chunk: nothing more from the device
            assertThat(held(be.memoryReport(), MemoryCategory.WEIGHTS)).isEqualTo(WeightArena.CHUNK);
            assertThat(held(loaded, MemoryCategory.STAGING)).isEqualTo(fixedStaging + 4L * rows * cols);
            be.weightsUploaded();
            assertThat(held(be.memoryReport(), MemoryCategory.STAGING)).isEqualTo(fixedStaging);
            long big = 64L << 20; // 256 MiB of self K/V: the device's figure must see it
            long before = be.memoryReport().deviceUsedNow();
            Buffer kv = be.allocate(big, MemoryCategory.SELF_KV);
            MemoryReport withKv = be.memoryReport();
            assertThat(held(withKv, MemoryCategory.SELF_KV)).isEqualTo(4 * big);
            assertThat(withKv.deviceUsedNow() - before).isGreaterThanOrEqualTo(4 * big);
            kv.close();
            MemoryReport after = be.memoryReport();
            assertThat(after.byCategory().get(MemoryCategory.SELF_KV)).isEqualTo(new MemoryReport.Bytes(0, 4 * big));
            long sum = after.byCategory().values().stream().mapToLong(MemoryReport.Bytes::current).sum();
            assertThat(after.total().current()).isEqualTo(sum);
            assertThat(after.total().peak()).isGreaterThanOrEqualTo(sum + 4 * big);
            assertThat(after.deviceUsedAtStart()).isPositive().isLessThanOrEqualTo(after.deviceUsedNow());
        }
    }

    /**
     * Issue 22 item 1: phases that never run at once ({@code Backend#allocateOverlaid}, the encoder's and the
     * decoders' activations) share one allocation: every phase laid out from its start, each buffer 256-byte
     * aligned, counted once at the largest phase's size. What one phase writes, the other reads at the same
     * place (the memory is one), and it is freed when the last buffer is closed.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void overlaidPhasesShareOneAllocationCountedOnce(String api) {
        try (GpuBackend be = new GpuBackend(Gpus.probe(api).driver(), 0)) {
            long[][] layouts = {{1000, 3000, 17}, {5000, 10}};
            Buffer[][] phases = be.allocateOverlaid(layouts, MemoryCategory.SHARED_SCRATCH);
            // phase 0: 4000 -> 4096, 12000 -> 12032, 68 -> 256 bytes (16 384); phase 1: 20 000 -> 20 224, 40 -> 256
            assertThat(held(be.memoryReport(), MemoryCategory.SHARED_SCRATCH)).isEqualTo(20_480);
            assertThat(phases[0][1].floats()).isEqualTo(3000);
            float[] values = new float[5000];
            for (int i = 0; i < values.length; i++) {
                values[i] = i + 0.5f;
            }
            be.upload(values, 0, phases[1][0], 0, values.length);
            float[] first = new float[1000];
            float[] second = new float[3000];
            be.download(phases[0][0], 0, first, 0, first.length);
            be.download(phases[0][1], 0, second, 0, second.length);
            assertThat(first).containsExactly(java.util.Arrays.copyOfRange(values, 0, 1000));
            assertThat(second).as("from byte 4096").containsExactly(java.util.Arrays.copyOfRange(values, 1024, 4024));
            for (Buffer[] phase : phases) {
                for (Buffer b : phase) {
                    b.close();
                }
            }
            assertThat(be.memoryReport().byCategory().get(MemoryCategory.SHARED_SCRATCH))
                    .isEqualTo(new MemoryReport.Bytes(0, 20_480));
        }
    }

    /**
     * Issue 22: a q8_0 file's matrices stay q8_0 on the device, so the ledger's weights are their q8_0 bytes
     * (34 per 32 values), not f16's: turbo's token table (51866 × 1280) takes its 70.5 MB (an allocation of
     * its own, larger than a chunk) instead of 132.8; a layer's matrices share a chunk. No raw upload
     * scratch (the blocks are copied as they are). The weight scratch appears with the first many-row
     * product (dequant + GEMM), as large as that matrix in f16, and the token table never goes there.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void q8_0WeightsAreCountedAtTheirQ8_0Bytes(String api) {
        try (GpuBackend be = new GpuBackend(Gpus.probe(api).driver(), 0)) {
            long staging = held(be.memoryReport(), MemoryCategory.STAGING);
            int vocab = 51866;
            int d = 1280;
            var table = TestWeights.random(DType.Q8_0, vocab, d, 7);
            long tableBytes = (long) vocab * d / 32 * 34;
            assertThat(table.data().byteSize()).isEqualTo(tableBytes).isEqualTo(70_537_760L);
            var tokens = be.upload(table);
            long placed = (tableBytes + WeightArena.ALIGN - 1) / WeightArena.ALIGN * WeightArena.ALIGN;
            assertThat(held(be.memoryReport(), MemoryCategory.WEIGHTS)).as("the token table as q8_0")
                    .isEqualTo(placed).isLessThan(2L * vocab * d);
            var up = be.upload(TestWeights.random(DType.Q8_0, 4 * d, d, 8)); // 6.96 MB as q8_0 (13.1 as f16)
            be.upload(TestWeights.random(DType.Q8_0, d, d, 9));
            be.upload(TestWeights.random(DType.Q8_0, d, 4 * d, 10));
            assertThat(held(be.memoryReport(), MemoryCategory.WEIGHTS)).as("one chunk for a layer's three matrices")
                    .isEqualTo(placed + WeightArena.CHUNK);
            assertThat(held(be.memoryReport(), MemoryCategory.STAGING)).as("no raw upload scratch").isEqualTo(staging);
            be.weightsUploaded();
            assertThat(held(be.memoryReport(), MemoryCategory.WEIGHT_SCRATCH)).isZero();
            int rows = 1500;
            try (Buffer x = be.allocate((long) rows * d); Buffer out = be.allocate((long) rows * 4 * d)) {
                be.linear(x, 0, rows, up, null, out, 0, dev.dictum.gpu.Epilogue.NONE);
                assertThat(held(be.memoryReport(), MemoryCategory.WEIGHT_SCRATCH)).as("the MLP matrix in f16")
                        .isEqualTo(2L * 4 * d * d);
                be.linear(x, 0, 20, tokens, null, out, 0, dev.dictum.gpu.Epilogue.NONE); // a draft's logits: in place
                be.synchronize();
                assertThat(held(be.memoryReport(), MemoryCategory.WEIGHT_SCRATCH)).as("the token table never")
                        .isEqualTo(2L * 4 * d * d);
            }
        }
    }

    /**
     * Issue 22: a large-v3 window's cross K/V as the model allocates them (per decoder layer the keys
     * transposed, rows padded to 1536, and the values; Backend#allocateHalf) take 2 bytes a value: 237 MiB
     * where f32 took the 474 MiB measured on an H200. An odd count is padded to a whole 4-byte word.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void crossKvIsCountedAtTwoBytesAValue(String api) {
        try (GpuBackend be = new GpuBackend(Gpus.probe(api).driver(), 0)) {
            int layers = 32;
            int n = 1280;
            int frames = 1500;
            int stride = 1536;
            long before = be.memoryReport().deviceUsedNow();
            java.util.List<Buffer> window = new java.util.ArrayList<>();
            for (int l = 0; l < layers; l++) {
                window.add(be.allocateHalf((long) n * stride, MemoryCategory.CROSS_KV));
                window.add(be.allocateHalf((long) frames * n, MemoryCategory.CROSS_KV));
            }
            long want = 2L * layers * ((long) n * stride + (long) frames * n);
            MemoryReport r = be.memoryReport();
            assertThat(held(r, MemoryCategory.CROSS_KV)).isEqualTo(want).isEqualTo(248_709_120L);
            assertThat(r.deviceUsedNow() - before).isGreaterThanOrEqualTo(want);
            window.forEach(Buffer::close);
            try (Buffer odd = be.allocateHalf(1001L * 777, MemoryCategory.CROSS_KV)) {
                assertThat(held(be.memoryReport(), MemoryCategory.CROSS_KV)).isEqualTo(2L * 1001 * 777 + 2);
            }
            assertThat(held(be.memoryReport(), MemoryCategory.CROSS_KV)).isZero();
        }
    }

    /**
     * Issue 22: a set of caches (Backend#allocateHalf with a count: a decoder's 32 layers of keys) takes
     * one device allocation, so the 2 MiB pages round once: large-v3's batch-1 keys, 1.09 MiB a layer,
     * took 2 MiB each one by one. Each buffer of the set is its own (an odd count of values, written and
     * read back per buffer), and the memory goes back with the last of the set, not before.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cuda", "hip"})
    void aSetOfCachesTakesOneAllocationAndGoesWithItsLastBuffer(String api) {
        try (GpuBackend be = new GpuBackend(Gpus.probe(api).driver(), 0)) {
            int layers = 32;
            long each = 448L * 1280; // large-v3's keys of one layer at batch 1
            long before = be.memoryReport().deviceUsedNow();
            Buffer[] set = be.allocateHalf(each, layers, MemoryCategory.SELF_KV);
            long grew = be.memoryReport().deviceUsedNow() - before;
            assertThat(held(be.memoryReport(), MemoryCategory.SELF_KV)).isEqualTo(2 * each * layers);
            assertThat(grew).as("one allocation: rounded up once to the 2 MiB page")
                    .isGreaterThanOrEqualTo(2 * each * layers).isLessThanOrEqualTo(2 * each * layers + (2 << 20));
            for (int l = 0; l < layers - 1; l++) {
                set[l].close();
            }
            assertThat(be.memoryReport().deviceUsedNow() - before).as("held while one of the set is open").isEqualTo(grew);
            set[layers - 1].close();
            assertThat(be.memoryReport().deviceUsedNow() - before).as("freed with the last").isLessThan(grew);
            assertThat(held(be.memoryReport(), MemoryCategory.SELF_KV)).isZero();

            int count = 1001; // odd: each buffer padded to a whole word, then to 256 bytes
            Buffer[] small = be.allocateHalf(count, 5, MemoryCategory.CROSS_KV);
            java.util.Random rnd = new java.util.Random(22);
            float[][] wrote = new float[small.length][count];
            try (Buffer src = be.allocate(count, MemoryCategory.OTHER)) {
                for (int i = 0; i < small.length; i++) {
                    for (int j = 0; j < count; j++) {
                        wrote[i][j] = Float.float16ToFloat(Float.floatToFloat16((float) rnd.nextGaussian()));
                    }
                    be.upload(wrote[i], 0, src, 0, count);
                    be.copy(src, 0, small[i], 0, count);
                }
            }
            for (int i = 0; i < small.length; i++) {
                assertThat(be.downloadHalf(small[i], count)).as("buffer %d of the set", i).containsExactly(wrote[i]);
                small[i].close();
            }
        }
    }
}
