package dev.dictum.gpu.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * WeightArena without a GPU (issue 22): weights packed first-fit into 16 MiB chunks, each 256-byte
 * aligned and never overlapping another, a weight larger than a chunk in an allocation of its own, and
 * every allocation freed at close. Allocations here are {address, bytes} pairs at made-up addresses.
 */
class WeightArenaTest {
    private static final long MIB = 1L << 20;

    private final List<long[]> live = new ArrayList<>();
    private long next = 1L << 40;

    private WeightArena<long[]> arena() {
        return new WeightArena<>(bytes -> {
            long[] b = {next, bytes};
            next += bytes + (64L << 20); // far apart: an overlap between allocations would show
            live.add(b);
            return b;
        }, b -> b[0], b -> b[1], live::remove);
    }

    @Test
    void largeV3sLayerPacksWithoutOverlapAndTheSmallOnesFillTheGaps() {
        long d = 1280;
        long[] layer = {2 * d, 2 * d, 2 * d * d, 2 * d, 2 * d * d, 2 * d * d, 2 * d, 2 * d * d, 2 * d, 2 * d, 2 * d,
            8 * d * d, 8 * d, 8 * d * d, 2 * d}; // an encoder layer's tensors in file order (f16 bytes)
        List<long[]> placed = new ArrayList<>();
        long weightBytes = 0;
        try (WeightArena<long[]> a = arena()) {
            for (int l = 0; l < 32; l++) {
                for (long size : layer) {
                    long at = a.place(size);
                    assertThat(at % WeightArena.ALIGN).as("aligned").isZero();
                    placed.add(new long[] {at, size});
                    weightBytes += size;
                }
            }
            placed.sort((x, y) -> Long.compare(x[0], y[0]));
            for (int i = 1; i < placed.size(); i++) {
                assertThat(placed.get(i)[0]).as("weight %d starts after the one before it ends", i)
                        .isGreaterThanOrEqualTo(placed.get(i - 1)[0] + placed.get(i - 1)[1]);
            }
            for (long[] p : placed) { // inside one allocation
                assertThat(live.stream().anyMatch(b -> p[0] >= b[0] && p[0] + p[1] <= b[0] + b[1])).isTrue();
            }
            // 32 layers of 31.6 MiB: within 4 % of the weights (one allocation each, 2 MiB-rounded: +21 %)
            assertThat(a.allocatedBytes()).isEqualTo(live.size() * WeightArena.CHUNK)
                    .isBetween(weightBytes, weightBytes * 104 / 100);
        }
        assertThat(live).as("every chunk freed at close").isEmpty();
    }

    @Test
    void aWeightLargerThanAChunkGetsItsOwnAllocation() {
        try (WeightArena<long[]> a = arena()) {
            long table = 51866L * 1280 * 2; // large-v3's token table: 127 MiB
            a.place(3 * MIB);
            long at = a.place(table);
            assertThat(live).hasSize(2);
            assertThat(live.get(1)[1]).isEqualTo((table + 255) / 256 * 256);
            assertThat(at).isEqualTo(live.get(1)[0]);
            long small = a.place(1000); // first fit: the first chunk's room
            assertThat(small).isEqualTo(live.get(0)[0] + 3 * MIB);
            assertThat(live).hasSize(2);
        }
        assertThat(live).isEmpty();
    }
}
