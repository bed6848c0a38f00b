package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 item 3: when helpers keep coming late (the scheduler keeps them off their cores, other
 * processes being busy), calls run on the caller alone for a while, with the same results; on time
 * they never do.
 */
class ComputePoolLoadTest {

    @Test
    void jobsWithinATasksTimeNeverGoSoloAndMostlyLateOnesDoForAWhile() throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            ComputePool.noteLateness(2, 40_000, 30_000); // waited less than a task: on time
        }
        assertThat(ComputePool.solo()).isFalse();
        for (int i = 0; i < 12; i++) {
            ComputePool.noteLateness(2, 40_000, 3_000_000); // 3 ms after the caller's last 20 µs task
        }
        assertThat(ComputePool.solo()).isTrue();

        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        double[] out = new double[64];
        ComputePool.parallelFor(out.length, i -> {
            ran.add(Thread.currentThread());
            out[i] = Math.sqrt(i) * 3;
        });
        assertThat(ran).as("solo: the caller alone").containsExactly(Thread.currentThread());
        for (int i = 0; i < out.length; i++) {
            assertThat(out[i]).isEqualTo(Math.sqrt(i) * 3);
        }

        Thread.sleep(Long.getLong("dictum.cpu.soloMillis", 300) + 50);
        assertThat(ComputePool.solo()).as("the helpers are tried again").isFalse();
    }
}
