package dev.dictum.gpu.cpu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * The one fixed set of daemon threads every CPU kernel shares (created once, sized to the cores).
 *
 * <p>{@link #parallelFor} publishes a job and hands out task indices from a shared counter; the
 * calling thread works too, so a call always finishes even when every helper is busy with another
 * caller's work (calls from several threads at once are safe and cannot deadlock; a helper that
 * misses a job only costs parallelism). Helpers are {@code cores - 1} so that caller + helpers =
 * cores. Which thread runs an index never changes the result: every task writes a disjoint part of
 * the output with a fixed summation order, so results are bit-identical run to run.
 *
 * <p>Why helpers spin before they sleep: a decoder step is some sixty small ops a few microseconds
 * apart; waking a parked thread for each costs tens of microseconds (measured: a third of the
 * step). So a helper that just finished work spins for {@link #SPIN_NANOS} watching for the next
 * job, as OpenMP's default wait policy does, and parks only when the engine has gone quiet.
 *
 * <p>Nested calls (a task body that itself calls a kernel) run inline on the current thread.
 *
 * <p>Under load from other processes (issue 23 item 3) a helper is often off its core when a job
 * comes: the caller, out of tasks, then waits for the helper's task until the scheduler runs it
 * again (milliseconds, on every one of a step's sixty ops), and a spinning helper takes time from
 * the caller. So the caller notes a job as late when, after its own last task, it waited far longer
 * than a task takes; when most recent jobs were late, calls run on the caller alone for
 * {@link #SOLO_NANOS} (the helpers park) and then try the helpers again. Idle, no job is late.
 */
public final class ComputePool {

    /** Threads that work on one call: the helpers plus the caller. */
    public static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    /** How long an idle helper keeps watching for work before it parks. */
    private static final long SPIN_NANOS = Long.getLong("dictum.cpu.spinMicros", 200) * 1000;

    private static final Helper[] HELPERS = new Helper[THREADS - 1];

    /** A job is late when the caller waited this much more than four of its own tasks took. */
    private static final long LATE_FLOOR_NANOS = 200_000;
    /** How long calls run on the caller alone once helpers were late. */
    private static final long SOLO_NANOS = Long.getLong("dictum.cpu.soloMillis", 300) * 1_000_000;
    /** The share of recent jobs that were late (moving average over about 16 jobs); racy by design. */
    private static volatile double lateShare;
    private static volatile long soloUntil = System.nanoTime();

    /** The latest job; helpers pick it up by comparing its sequence number with the last they ran. */
    private static volatile Job current;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** True while the current thread runs a task body: nested calls then go inline. */
    private static final ThreadLocal<boolean[]> IN_TASK = ThreadLocal.withInitial(() -> new boolean[1]);

    static {
        for (int i = 0; i < HELPERS.length; i++) {
            HELPERS[i] = new Helper();
            Thread t = new Thread(HELPERS[i], "dictum-cpu-compute-" + i);
            t.setDaemon(true);
            HELPERS[i].thread = t;
            t.start();
        }
    }

    private ComputePool() {
    }

    /** Runs {@code body.accept(i)} for every i in [0, tasks), spread over the pool; returns when all are done. */
    public static void parallelFor(int tasks, IntConsumer body) {
        if (tasks <= 0) {
            return;
        }
        boolean[] inTask = IN_TASK.get();
        if (tasks == 1 || HELPERS.length == 0 || inTask[0] || System.nanoTime() - soloUntil < 0) {
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
        Job job = new Job(tasks, body, SEQUENCE.incrementAndGet());
        current = job;
        for (Helper h : HELPERS) {
            if (h.parked) {
                LockSupport.unpark(h.thread);
            }
        }
        long start = System.nanoTime();
        int own = job.work();
        long worked = System.nanoTime();
        job.awaitDone();
        noteLateness(own, worked - start, System.nanoTime() - worked);
    }

    /** Counts the job as late when the wait after the caller's own tasks was far beyond a task's time. */
    static void noteLateness(int ownTasks, long workedNanos, long waitedNanos) {
        long perTask = ownTasks == 0 ? workedNanos : workedNanos / ownTasks;
        boolean late = waitedNanos > LATE_FLOOR_NANOS + 4 * perTask;
        double share = lateShare + ((late ? 1 : 0) - lateShare) / 16;
        if (share > 0.5) {
            soloUntil = System.nanoTime() + SOLO_NANOS;
            share = 0;
        }
        lateShare = share;
    }

    /**
     * The CPU time the calling thread and the helpers have had so far, in nanoseconds (-1 where the JVM
     * cannot tell). A pass's difference against its wall time says how much of the cores it got: under
     * load from other processes it is the run queue, not the engine, that stretches a pass (issue 23).
     */
    public static long cpuNanosWithCaller() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = mx.getCurrentThreadCpuTime();
        for (Helper h : HELPERS) {
            long t = mx.getThreadCpuTime(h.thread.threadId());
            if (sum < 0 || t < 0) {
                return -1;
            }
            sum += t;
        }
        return sum;
    }

    /** Whether calls run on the caller alone now, the helpers having been late (for tests and logs). */
    public static boolean solo() {
        return System.nanoTime() - soloUntil < 0;
    }

    /** A helper thread: runs each new job it sees, spins a while when idle, then parks. */
    private static final class Helper implements Runnable {
        Thread thread;
        volatile boolean parked;

        @Override
        public void run() {
            int seen = 0;
            long idleSince = System.nanoTime();
            while (true) {
                Job j = current;
                if (j != null && j.sequence != seen) {
                    seen = j.sequence;
                    j.work();
                    idleSince = System.nanoTime();
                    continue;
                }
                if (System.nanoTime() - idleSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                    continue;
                }
                parked = true;
                // Re-check after announcing: a job published before the flag was seen gets run now.
                Job again = current;
                if (again == null || again.sequence == seen) {
                    LockSupport.park(this);
                }
                parked = false;
                idleSince = System.nanoTime();
            }
        }
    }

    /** One call's shared state: the next index to hand out and how many have finished. */
    private static final class Job {
        final int tasks;
        final IntConsumer body;
        final int sequence;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        volatile Throwable failure;

        Job(int tasks, IntConsumer body, int sequence) {
            this.tasks = tasks;
            this.body = body;
            this.sequence = sequence;
        }

        /** Runs tasks until none is left to take; returns how many this thread ran. */
        int work() {
            boolean[] inTask = IN_TASK.get();
            boolean was = inTask[0];
            inTask[0] = true;
            int ran = 0;
            try {
                int i;
                while ((i = next.getAndIncrement()) < tasks) {
                    ran++;
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
            return ran;
        }

        void awaitDone() {
            // Spin first: the last task is usually a few microseconds from finishing.
            long start = System.nanoTime();
            while (done.get() < tasks && System.nanoTime() - start < SPIN_NANOS) {
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
