package dev.dictum.app.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Where launch → hotkey live went, as one log line at the ready line (issue 24 item 6): each phase of
 * {@link DesktopLauncher#run}'s start in wall milliseconds and in the main thread's CPU milliseconds,
 * and the whole process's CPU time. On a shared 2-core machine the wall figures move with the load;
 * the CPU figures barely do, so they are the ones to compare between builds (the main thread's CPU is
 * the part no other thread can take over; the process's, halved, is the least wall time two idle
 * cores need). CPU times come from {@code /proc} (Linux, 10 ms ticks); elsewhere only wall times.
 */
final class StartupProfile {
    private static final Path THREAD_STAT = Path.of("/proc/thread-self/stat");
    private static final Path PROCESS_STAT = Path.of("/proc/self/stat");
    /** {@code sysconf(_SC_CLK_TCK)} on every Linux Dictum runs on. */
    private static final long MILLIS_PER_TICK = 10;

    private record Phase(String name, long wallMillis, long cpuMillis) {
    }

    private final long jvmStartMillis;
    private final List<Phase> phases = new ArrayList<>();
    private long lastWall;
    private long lastCpu;

    /** Starts the clock: the first phase ("jvm") is the JVM's own start up to this call. */
    StartupProfile() {
        long now = System.currentTimeMillis();
        jvmStartMillis = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(now);
        lastWall = now;
        lastCpu = ticks(THREAD_STAT);
        // The process started with ./dictum's script (exec keeps the pid): its work is in this phase too.
        phases.add(new Phase("launcher and JVM", now - jvmStartMillis, lastCpu));
    }

    /** Ends the phase that ran since the previous mark. */
    void mark(String phase) {
        long now = System.currentTimeMillis();
        long cpu = ticks(THREAD_STAT);
        phases.add(new Phase(phase, now - lastWall, cpu < 0 || lastCpu < 0 ? -1 : cpu - lastCpu));
        lastWall = now;
        lastCpu = cpu;
    }

    /**
     * "start-up: hotkey live 1480 ms after the JVM started; wall ms (main thread CPU ms): jvm 240 (…),
     * logging 60 (50), …; process CPU 1900 ms".
     */
    String line() {
        StringBuilder b = new StringBuilder("start-up: hotkey live ").append(lastWall - jvmStartMillis)
                .append(" ms after the JVM started; wall ms (main thread CPU ms):");
        String sep = " ";
        for (Phase p : phases) {
            b.append(sep).append(p.name()).append(' ').append(p.wallMillis());
            if (p.cpuMillis() >= 0) {
                b.append(" (").append(p.cpuMillis()).append(')');
            }
            sep = ", ";
        }
        long process = ticks(PROCESS_STAT);
        if (process >= 0) {
            b.append("; process CPU ").append(process).append(" ms (").append(busiestThreads(6)).append(')');
        }
        return b.toString();
    }

    /**
     * "java 620, C2 CompilerThre 410, …": the {@code n} threads that took the most CPU so far, from
     * {@code /proc/self/task} (Linux's names: 15 characters; the main thread is "java").
     */
    static String busiestThreads(int n) {
        record Busy(String name, long millis) {
        }
        List<Busy> all = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    all.add(new Busy(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpuMillis(stat)));
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return "threads unknown";
        }
        all.sort((x, y) -> Long.compare(y.millis(), x.millis()));
        StringBuilder b = new StringBuilder();
        for (Busy t : all.subList(0, Math.min(n, all.size()))) {
            b.append(b.isEmpty() ? "" : ", ").append(t.name()).append(' ').append(t.millis());
        }
        return b.toString();
    }

    /** utime + stime of a {@code stat} file in milliseconds, or -1 where there is none (not Linux). */
    static long ticks(Path stat) {
        try {
            return cpuMillis(Files.readString(stat));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Fields 14 and 15 (utime, stime) of a {@code stat} line; the name in field 2 may hold spaces and parentheses. */
    static long cpuMillis(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // f[0] is field 3 (state): utime is field 14, stime field 15.
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * MILLIS_PER_TICK;
    }
}
