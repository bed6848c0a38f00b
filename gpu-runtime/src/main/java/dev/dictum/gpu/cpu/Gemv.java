package dev.dictum.gpu.cpu;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Few rows of A (the decoder: M = 1..~10 beams): memory-bound, so W is streamed from memory exactly
 * once, in its stored dtype, and nothing is packed. Each weight row is read from DRAM for the first
 * A row and from L1 for the others (a row is at most 20 KiB), so extra beams cost decode work, not
 * bandwidth. Parallel over contiguous ranges of output columns (weight rows), so each thread streams
 * its own part of the matrix front to back and the hardware prefetchers stay on it.
 */
final class Gemv {

    /** A constant layout: building one per call (withOrder) defeats C2's var-handle inlining. */
    private static final ValueLayout.OfFloat F32_LE = JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Gemv() {
    }

    static void run(float[] a, int aOff, int lda, int m, HostTensor w, float[] c, int cOff, int ldc, KernelEpilogue e) {
        int n = Math.toIntExact(w.rows());
        int k = Math.toIntExact(w.cols());
        DType t = w.dtype();
        long rowBytes = t.bytesFor(k);
        GemvKernel kernel = GemvKernel.of(t);
        MemorySegment seg = w.data();
        MemorySegment scales = w.rowScales();
        // ~8 tasks a thread balance uneven progress (other processes share these cores) while each task
        // still streams ≥ 64 KiB or so; tiny matrices run as one task.
        long bytes = rowBytes * n;
        int tasks = (int) Math.max(1, Math.min(8L * ComputePool.THREADS, bytes / (64 * 1024)));
        int rowsPerTask = (n + tasks - 1) / tasks;
        int taskCount = (n + rowsPerTask - 1) / rowsPerTask;
        ComputePool.parallelFor(taskCount, task -> {
            int r0 = task * rowsPerTask;
            int r1 = Math.min(n, r0 + rowsPerTask);
            for (int r = r0; r < r1; r++) {
                long off = r * rowBytes;
                float scale = scales == null ? 1f : scales.getAtIndex(F32_LE, r);
                for (int i = 0; i < m; i++) {
                    float dot = kernel.dot(seg, off, k, a, aOff + i * lda);
                    c[cOff + i * ldc + r] = e.apply(scales == null ? dot : dot * scale, i, r);
                }
            }
        });
    }
}
