package dev.dictum.gpu.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The CPU time a pass had ({@link ComputePool#cpuNanosWithCaller}) counts the work of every thread
 * that ran its tasks, the helpers' as well as the caller's, and no more than the threads could have
 * had: the app's log divides it by the pass's wall time to say how many cores the pass got (issue 23).
 */
class ComputePoolCpuTimeTest {

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    @Test
    void countsTheCpuTimeOfEveryThreadThatRanATask() {
        long spinPerTask = 15_000_000;
        AtomicLong tasksCpu = new AtomicLong();
        long wall0 = System.nanoTime();
        long before = ComputePool.cpuNanosWithCaller();
        ComputePool.parallelFor(8, i -> {
            long start = MX.getCurrentThreadCpuTime();
            long now;
            do {
                now = MX.getCurrentThreadCpuTime();
            } while (now - start < spinPerTask);
            tasksCpu.addAndGet(now - start);
        });
        long after = ComputePool.cpuNanosWithCaller();
        long wall = System.nanoTime() - wall0;

        assertThat(before).isPositive();
        assertThat(tasksCpu.get()).isGreaterThanOrEqualTo(8 * spinPerTask);
        assertThat(after - before).as("the tasks' own CPU time, whichever thread ran them")
                .isGreaterThanOrEqualTo(tasksCpu.get());
        assertThat(after - before).as("at most what %d threads could have had in the wall time", ComputePool.THREADS)
                .isLessThanOrEqualTo(ComputePool.THREADS * wall + 20_000_000L);
    }
}
