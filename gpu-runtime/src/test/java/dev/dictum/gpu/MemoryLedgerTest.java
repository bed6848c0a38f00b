package dev.dictum.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.cpu.CpuBackend;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The memory budget's arithmetic: current and peak per category, and the peak of the sum. */
class MemoryLedgerTest {

    @Test
    void randomAllocationsAndFreesSumPerCategoryAndPeakAtTheirHighestPoint() {
        MemoryCategory[] cats = MemoryCategory.values();
        SplittableRandom r = new SplittableRandom(22);
        MemoryLedger ledger = new MemoryLedger();
        long[] held = new long[cats.length];
        long[] peak = new long[cats.length];
        long totalPeak = 0;
        java.util.List<long[]> live = new java.util.ArrayList<>(); // {category, bytes}
        for (int i = 0; i < 2000; i++) {
            if (!live.isEmpty() && r.nextInt(3) == 0) {
                long[] a = live.remove(r.nextInt(live.size()));
                ledger.freed(cats[(int) a[0]], a[1]);
                held[(int) a[0]] -= a[1];
            } else {
                int c = r.nextInt(cats.length);
                long bytes = r.nextLong(1, 1L << 33); // past 4 GiB: no int arithmetic anywhere
                ledger.allocated(cats[c], bytes);
                live.add(new long[] {c, bytes});
                held[c] += bytes;
                peak[c] = Math.max(peak[c], held[c]);
            }
            totalPeak = Math.max(totalPeak, java.util.Arrays.stream(held).sum());
        }
        MemoryReport rep = ledger.report(7, 11, 13);
        for (MemoryCategory c : cats) {
            assertThat(rep.byCategory().get(c)).as(c.label())
                    .isEqualTo(new MemoryReport.Bytes(held[c.ordinal()], peak[c.ordinal()]));
        }
        assertThat(rep.total()).isEqualTo(new MemoryReport.Bytes(java.util.Arrays.stream(held).sum(), totalPeak));
        assertThat(rep.byCategory().keySet()).containsExactly(cats); // the enum's order, for tables
        assertThat(rep.deviceUsedAtStart()).isEqualTo(7);
        assertThat(rep.deviceUsedNow()).isEqualTo(11);
        assertThat(rep.deviceTotal()).isEqualTo(13);
        assertThat(rep.hasDeviceFigures()).isTrue();
    }

    @Test
    void freeingMoreThanIsHeldIsAnError() {
        MemoryLedger ledger = new MemoryLedger();
        ledger.allocated(MemoryCategory.SELF_KV, 100);
        assertThatThrownBy(() -> ledger.freed(MemoryCategory.SELF_KV, 101)).hasMessageContaining("self K/V");
        assertThatThrownBy(() -> ledger.freed(MemoryCategory.WEIGHTS, 1)).hasMessageContaining("weights");
        assertThatThrownBy(() -> ledger.allocated(MemoryCategory.WEIGHTS, -1)).hasMessageContaining("negative");
    }

    @Test
    void theCpuBackendCountsItsBuffersUntilClosedOnceAndHasNoDeviceFigures() {
        try (CpuBackend be = new CpuBackend()) {
            Buffer kv = be.allocate(1000, MemoryCategory.SELF_KV);
            Buffer other = be.allocate(10);
            assertThat(be.memoryReport().byCategory().get(MemoryCategory.SELF_KV).current()).isEqualTo(4000);
            assertThat(be.memoryReport().byCategory().get(MemoryCategory.OTHER).current()).isEqualTo(40);
            kv.close();
            kv.close(); // twice: counted off once
            MemoryReport rep = be.memoryReport();
            assertThat(rep.byCategory().get(MemoryCategory.SELF_KV)).isEqualTo(new MemoryReport.Bytes(0, 4000));
            assertThat(rep.total()).isEqualTo(new MemoryReport.Bytes(40, 4040));
            assertThat(rep.hasDeviceFigures()).isFalse();
            other.close();
        }
    }
}
