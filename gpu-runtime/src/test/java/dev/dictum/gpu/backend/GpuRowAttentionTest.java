package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.Gpus.poisoned;
import static dev.dictum.gpu.backend.Gpus.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.cpu.RowAttentionProblem;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * attention_rows_f32 (Backend.attentionRows: beam search's self-attention through per-beam row
 * tables, issue 22 item 4) on the GPU against float64 and the CPU backend, on fresh random inputs at
 * every Whisper size's beam-5 step (5 beams, 64-wide heads, up to the full 448-token text context) and
 * at odd sizes (head sizes 1..128, unaligned rows, several queries per beam), with the beams' rows
 * shared as after reorders; outputs poisoned with NaN and followed by sentinels; a second launch gives
 * the same bits.
 */
class GpuRowAttentionTest {
    private static final CpuBackend CPU = new CpuBackend();
    private static long seed = System.nanoTime();

    static Stream<Arguments> cases() {
        return Gpus.perApi(List.of(
            // batch, queries, keys, heads, headDim, causal, kvPad
            Arguments.of(5, 1, 448, 20, 64, true, 0), // large-v3 / turbo: a beam step at the full context
            Arguments.of(5, 1, 224, 20, 64, true, 0),
            Arguments.of(5, 1, 448, 16, 64, true, 0), // medium
            Arguments.of(5, 1, 300, 12, 64, true, 0), // small
            Arguments.of(5, 1, 100, 8, 64, true, 0), // base
            Arguments.of(5, 1, 37, 6, 64, true, 0), // tiny, a short history
            Arguments.of(5, 3, 7, 20, 64, true, 0), // several tokens per beam
            Arguments.of(3, 2, 130, 3, 17, false, 1), // odd head size, unaligned rows
            Arguments.of(2, 1, 200, 2, 24, true, 0),
            Arguments.of(2, 3, 65, 1, 96, true, 3),
            Arguments.of(1, 1, 129, 2, 128, false, 4), // the largest head size
            Arguments.of(1, 1, 1, 1, 1, false, 0)));
    }

    @ParameterizedTest(name = "{0} batch={1} queries={2} keys={3} heads={4} headDim={5} causal={6} kvPad={7}")
    @MethodSource("cases")
    void rowTablesAgainstFloat64AndTheCpu(String api, int batch, int queries, int keys, int heads, int headDim,
            boolean causal, int kvPad) {
        GpuBackend gpu = Gpus.backend(api);
        RowAttentionProblem p = new RowAttentionProblem(batch, queries, keys, heads, headDim, causal, kvPad, seed++);
        int outLen = p.outputFloats();
        float[] cpu = new float[outLen];
        try (Buffer cq = upload(CPU, p.q); Buffer ck = upload(CPU, p.k); Buffer cv = upload(CPU, p.v);
                Buffer cr = upload(CPU, p.rowBits()); Buffer co = CPU.allocate(outLen)) {
            CPU.attentionRows(cq, p.qStride, batch, queries, ck, cv, p.kvStride, cr, p.rowsStride, p.keys, heads,
                    headDim, causal, co);
            CPU.download(co, 0, cpu, 0, outLen);
        }
        try (Buffer gq = upload(gpu, p.q); Buffer gk = upload(gpu, p.k); Buffer gv = upload(gpu, p.v);
                Buffer gr = upload(gpu, p.rowBits()); Buffer go = poisoned(gpu, outLen)) {
            gpu.attentionRows(gq, p.qStride, batch, queries, gk, gv, p.kvStride, gr, p.rowsStride, p.keys, heads,
                    headDim, causal, go);
            float[] first = read(gpu, go, outLen);
            assertThat(RowAttentionProblem.relErr(first, p.reference())).as("against float64")
                    .isLessThanOrEqualTo(1e-5);
            assertThat(Gpus.relErr(first, cpu)).as("against the CPU").isLessThanOrEqualTo(1e-5);
            gpu.fill(go, 0, outLen, Float.NaN);
            gpu.attentionRows(gq, p.qStride, batch, queries, gk, gv, p.kvStride, gr, p.rowsStride, p.keys, heads,
                    headDim, causal, go);
            assertThat(Arrays.equals(read(gpu, go, outLen), first)).as("a second launch, the same bits").isTrue();
        }
    }

    private static Buffer upload(dev.dictum.gpu.Backend be, float[] x) {
        Buffer b = be.allocate(x.length);
        be.upload(x, 0, b, 0, x.length);
        return b;
    }
}
