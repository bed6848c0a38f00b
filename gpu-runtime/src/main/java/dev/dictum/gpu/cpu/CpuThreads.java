package dev.dictum.gpu.cpu;

/** Range-splitting over {@link ComputePool}: about four chunks a thread, for load balance. */
final class CpuThreads {
    /** A slice of work: items {@code [lo, hi)}. */
    interface RangeBody {
        void run(int lo, int hi);
    }

    private CpuThreads() {
    }

    static void forRange(int n, RangeBody body) {
        int chunks = Math.min(n, ComputePool.THREADS * 4);
        if (chunks <= 1) {
            body.run(0, n);
            return;
        }
        ComputePool.parallelFor(chunks, c -> body.run((int) ((long) n * c / chunks), (int) ((long) n * (c + 1) / chunks)));
    }
}
