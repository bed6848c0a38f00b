package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.DType;
import dev.dictum.gpu.Epilogue;
import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.LayerTurns;
import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.ResidentLayers;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.cpu.TestWeights;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22: layers whose weights take turns in two device slots ({@link GpuLayerTurns}) give every op of a
 * pass its own layer's weights. Six layers of an encoder block's two shapes (n x n and 4n x n, n = 1280, in
 * f16 or kept q8_0), different random values in each; every pass products each layer's matrices with a fresh
 * input, and every output must equal bit for bit the same product from the same weights uploaded resident
 * (the same kernels: any difference is a weight read from the wrong layer or before its copy landed). Passes
 * run back to back with nothing synchronised between them (a copy racing the kernels that still read the
 * slot would show), one stopped halfway and one without {@link LayerTurns#begin}. The device holds the
 * resident layers and two slots, not all six.
 */
class GpuLayerTurnsTest {
    private static final int LAYERS = 6;
    private static final int N = 1280;
    private static final int ROWS = 37;

    static Stream<Arguments> cases() {
        // The first case waits for each layer's products before the next enter: if it passes and the others
        // fail, the copies race the kernels; if it fails too, the slots hold wrong data.
        return Gpus.perApi(List.of(Arguments.of("F16", 3, true), Arguments.of("F16", 3, false),
                Arguments.of("F16", 6, false), Arguments.of("Q8_0", 4, false)));
    }

    private static HostTensor[][] layers(DType type) {
        HostTensor[][] l = new HostTensor[LAYERS][];
        for (int i = 0; i < LAYERS; i++) {
            l[i] = new HostTensor[] {TestWeights.random(type, N, N, 100 + 2 * i),
                TestWeights.random(type, 4 * N, N, 101 + 2 * i)};
        }
        return l;
    }

    @ParameterizedTest(name = "{0} {1}, {2} of 6 in turns, waiting after each layer: {3}")
    @MethodSource("cases")
    void everyPassReadsEachLayersOwnWeightsBitForBit(String api, String type, int inTurns, boolean waitEachLayer) {
        HostTensor[][] layers = layers(DType.valueOf(type));
        try (GpuBackend be = new GpuBackend(Gpus.probe(api).driver(), 0)) {
            LayerTurns resident = new ResidentLayers(be, layers);
            long before = be.memoryReport().byCategory().get(MemoryCategory.WEIGHTS).current();
            GpuLayerTurns turns = (GpuLayerTurns) be.uploadInTurns(layers, inTurns);
            long held = be.memoryReport().byCategory().get(MemoryCategory.WEIGHTS).current() - before;
            long layerBytes = GpuBackend.weightBytes(layers[0][0]) + GpuBackend.weightBytes(layers[0][1]);
            assertThat(turns.resident()).isEqualTo(LAYERS - inTurns);
            assertThat(turns.hostBytes()).isEqualTo(inTurns * layerBytes);
            // Weights go into 16 MiB chunks; the resident layers' first may fill the room left in the last
            // chunk of the copy uploaded above, so the growth is within a chunk of their bytes either way.
            assertThat(held).as("the resident layers (in 16 MiB chunks) and two slots")
                    .isBetween((LAYERS - inTurns + 2) * layerBytes - WeightArena.CHUNK,
                            (LAYERS - inTurns + 2) * layerBytes + WeightArena.CHUNK);

            int[] stopAfter = {LAYERS, LAYERS / 2, LAYERS, LAYERS, LAYERS};
            float[][] x = new float[stopAfter.length][];
            float[][][] want = new float[stopAfter.length][][];
            for (int pass = 0; pass < stopAfter.length; pass++) {
                x[pass] = TestWeights.activations(ROWS * N, 7 + pass);
                want[pass] = read(be, queue(be, resident, x[pass], LAYERS, false));
            }
            Buffer[][] got = new Buffer[stopAfter.length][];
            for (int pass = 0; pass < stopAfter.length; pass++) { // queued back to back: nothing waits
                if (pass != 3) {
                    turns.begin(); // pass 3 does without
                }
                got[pass] = queue(be, turns, x[pass], stopAfter[pass], waitEachLayer);
            }
            for (int pass = 0; pass < stopAfter.length; pass++) {
                float[][] g = read(be, got[pass]);
                for (int k = 0; k < g.length; k++) {
                    assertThat(Arrays.mismatch(g[k], want[pass][k])) // containsExactly: minutes to fail
                            .as("%s pass %d, layer %d, matrix %d: first element that differs (-1: none), "
                                    + "‖got−want‖/‖want‖ = %.3g", api, pass, k / 2, k % 2, Gpus.relErr(g[k],
                                            want[pass][k])).isEqualTo(-1);
                }
            }
        }
    }

    private static int rows(int matrix) {
        return matrix == 0 ? N : 4 * N;
    }

    /** The outputs of a pass, downloaded. */
    private static float[][] read(GpuBackend be, Buffer[] out) {
        float[][] r = new float[out.length][];
        for (int k = 0; k < out.length; k++) {
            r[k] = Gpus.read(be, out[k], (long) ROWS * rows(k % 2));
        }
        return r;
    }

    /**
     * Queues a pass's products: x through each layer's two matrices, into poisoned outputs. Nothing waits
     * unless {@code waitEachLayer}: then each layer's last output is read (the compute stream drained) before
     * the next layer enters.
     */
    private static Buffer[] queue(GpuBackend be, LayerTurns w, float[] x, int layers, boolean waitEachLayer) {
        Buffer in = be.allocate(x.length);
        be.upload(x, 0, in, 0, x.length);
        Buffer[] out = new Buffer[2 * layers];
        for (int i = 0; i < layers; i++) {
            w.enter(i);
            Weight[] m = w.weights(i);
            for (int j = 0; j < 2; j++) {
                out[2 * i + j] = Gpus.poisoned(be, (long) ROWS * rows(j));
                be.linear(in, 0, ROWS, m[j], null, out[2 * i + j], 0, Epilogue.NONE);
            }
            if (waitEachLayer) {
                Gpus.read(be, out[2 * i + 1], (long) ROWS * rows(1));
            }
        }
        return out;
    }

    @Test
    void fewerThanThreeLayersInTurnsIsRefused() {
        HostTensor[][] layers = layers(DType.F16);
        try (GpuBackend be = new GpuBackend(Gpus.probe("cuda").driver(), 0)) {
            assertThatThrownBy(() -> be.uploadInTurns(layers, 2)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("layers in turns must be 3..6, got 2");
        }
    }
}
