package dev.dictum.gpu.cpu;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The one fixed pool of daemon threads every CPU kernel shares (created once, sized to the cores).
 *
 * <p>{@link #parallelFor} hands out task indices from a shared counter; the calling thread works
 * too, so a call always finishes even when every helper is busy with another caller's work (calls
 * from several threads at once are safe and cannot deadlock). Helpers are {@code cores - 1} so
 * that caller + helpers = cores: more would only time-slice the same cores and evict each other's
 * L1/L2-resident panels. Which thread runs an index never changes the result: every task writes a
 * disjoint part of the output with a fixed summation order, so results are bit-identical run to run.
 *
 * <p>Nested calls (a task body that itself calls a kernel) run inline on the current thread.
 */
public final class ComputePool {

    /** Threads that work on one call: the helpers plus the caller. */
    public static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    private static final ExecutorService HELPERS = THREADS == 1 ? null
            : Executors.newFixedThreadPool(THREADS - 1, r -> {
                Thread t = new Thread(r, "dictum-cpu-compute");
                t.setDaemon(true);
                return t;
            });

    /** True while the current thread runs a task body: nested calls then go inline. */
    private static final ThreadLocal<boolean[]> IN_TASK = ThreadLocal.withInitial(() -> new boolean[1]);

    private ComputePool() {
    }

    /** Runs {@code body.accept(i)} for every i in [0, tasks), spread over the pool; returns when all are done. */
    public static void parallelFor(int tasks, IntConsumer body) {
        if (tasks <= 0) {
            return;
        }
        boolean[] inTask = IN_TASK.get();
        if (tasks == 1 || HELPERS == null || inTask[0]) {
            boolean was = inTask[0];
            inTask[0] = true;
            try {
                for (int i = 0; i < tasks; i++) {
                    body.accept(i);
                }
            } finally {
                inTask[0] = was;
            }
            return;
        }
        Job job = new Job(tasks, body);
        int helpers = Math.min(tasks, THREADS) - 1;
        for (int h = 0; h < helpers; h++) {
            HELPERS.execute(job::work);
        }
        job.work();
        job.awaitDone();
    }

    /** One call's shared state: the next index to hand out and how many have finished. */
    private static final class Job {
        final int tasks;
        final IntConsumer body;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        volatile Throwable failure;

        Job(int tasks, IntConsumer body) {
            this.tasks = tasks;
            this.body = body;
        }

        void work() {
            boolean[] inTask = IN_TASK.get();
            boolean was = inTask[0];
            inTask[0] = true;
            try {
                int i;
                while ((i = next.getAndIncrement()) < tasks) {
                    try {
                        if (failure == null) {
                            body.accept(i);
                        }
                    } catch (Throwable t) {
                        failure = t;
                    } finally {
                        if (done.incrementAndGet() == tasks) {
                            synchronized (this) {
                                notifyAll();
                            }
                        }
                    }
                }
            } finally {
                inTask[0] = was;
            }
        }

        void awaitDone() {
            // Short spin first: the last task is usually a few microseconds from finishing.
            for (int spin = 0; spin < 2000 && done.get() < tasks; spin++) {
                Thread.onSpinWait();
            }
            if (done.get() < tasks) {
                boolean interrupted = false;
                synchronized (this) {
                    while (done.get() < tasks) {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            interrupted = true;
                        }
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            Throwable t = failure;
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error e) {
                throw e;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
        }
    }
}
