package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.Buffer;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Backend.attentionRows on the CPU (issue 22 item 4): beams that read their keys and values through
 * row tables, against float64 on fresh random inputs, and bit for bit the strided attention over the
 * same rows gathered into each beam's own block — which is what makes beam search reordered by index
 * give the transcripts of beam search reordered by copy. Outputs poisoned (NaN) before each run.
 */
class CpuRowAttentionTest {
    private final CpuBackend be = new CpuBackend();
    private static long seed = System.nanoTime();

    private Buffer buffer(float[] x) {
        Buffer b = be.allocate(x.length);
        be.upload(x, 0, b, 0, x.length);
        return b;
    }

    private Buffer poisoned(int n) {
        float[] nan = new float[n];
        Arrays.fill(nan, Float.NaN);
        return buffer(nan);
    }

    private float[] download(Buffer b, int n) {
        float[] out = new float[n];
        be.download(b, 0, out, 0, n);
        return out;
    }

    @ParameterizedTest(name = "batch={0} queries={1} keys={2} heads={3} headDim={4} causal={5} kvPad={6}")
    @CsvSource({
        "5,1,448,6,64,true,0", // tiny's beam-5 step at the full text context
        "5,1,37,20,64,true,0", // large-v3's heads, a short history
        "5,3,12,6,64,true,0", // several tokens per beam after a reorder (the blocked path from 8 queries: below)
        "2,9,40,3,64,true,3", // the blocked path (9 queries), unaligned rows
        "3,2,130,3,17,false,1", // odd head size, not a vector multiple
        "2,1,65,2,128,true,0", // a head of 8 vectors at 512 bits
        "1,1,1,1,1,false,0"})
    void rowTablesAgainstFloat64AndTheGatheredRowsBitForBit(int batch, int queries, int keys, int heads,
            int headDim, boolean causal, int kvPad) {
        RowAttentionProblem p = new RowAttentionProblem(batch, queries, keys, heads, headDim, causal, kvPad, seed++);
        Buffer out = poisoned(p.outputFloats());
        be.attentionRows(buffer(p.q), p.qStride, batch, queries, buffer(p.k), buffer(p.v), p.kvStride,
                buffer(p.rowBits()), p.rowsStride, p.keys, heads, headDim, causal, out);
        float[] got = download(out, p.outputFloats());
        assertThat(RowAttentionProblem.relErr(got, p.reference())).isLessThanOrEqualTo(1e-5);

        Buffer strided = poisoned(p.outputFloats());
        be.attention(buffer(p.q), p.qStride, batch, queries, buffer(p.gather(p.k)), buffer(p.gather(p.v)), 0,
                p.gatheredStride(), p.kvStride, p.keys, heads, headDim, causal, strided);
        assertThat(Arrays.equals(got, download(strided, p.outputFloats())))
                .as("row tables and gathered rows give the same bits").isTrue();
    }

    @ParameterizedTest(name = "row {0}")
    @CsvSource({"-1", "1000000"})
    void aRowOutsideTheCacheIsRefused(int row) {
        RowAttentionProblem p = new RowAttentionProblem(2, 1, 10, 2, 16, true, 0, seed++);
        p.rows[p.rowsStride + 4] = row;
        assertThatThrownBy(() -> be.attentionRows(buffer(p.q), p.qStride, 2, 1, buffer(p.k), buffer(p.v), p.kvStride,
                buffer(p.rowBits()), p.rowsStride, p.keys, 2, 16, true, poisoned(p.outputFloats())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sequence 1 key 4 names row " + row);
    }
}
