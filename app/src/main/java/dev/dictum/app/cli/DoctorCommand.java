package dev.dictum.app.cli;

import dev.dictum.gpu.select.Backends;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.gpu.backend.SelfTest;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.KernelImages;
import dev.dictum.gpu.discovery.GpuRuntimes;
import dev.dictum.gpu.discovery.RuntimeProbe;
import dev.dictum.gpu.discovery.ScanInputs;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code dictum doctor}: where Dictum looked for GPU runtimes, what it found, each device, which
 * code objects load, a self-test against the CPU, and which backend {@code auto} would use. Every
 * failure is a reason on one line, never a stack trace.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Check the GPU runtimes (HIP, CUDA), devices and kernels, and say which backend is used.")
final class DoctorCommand extends SubCommand {

    @CommandLine.Option(names = {"-v", "--verbose"}, description = "Show the engine's debug log.")
    boolean verbose;

    @Override
    public boolean verbose() {
        return verbose;
    }

    @Override
    public Integer call() {
        Logging.configure(verbose);
        PrintWriter out = spec.commandLine().getOut();
        out.println("Dictum doctor");
        out.println("kernels: " + kernels());
        List<String> usable = new ArrayList<>();
        List<String> unusable = new ArrayList<>();
        for (String api : List.of("hip", "cuda")) {
            out.println();
            out.println(api.equals("hip") ? "HIP (AMD ROCm)" : "CUDA (NVIDIA driver API)");
            RuntimeProbe p;
            try {
                p = GpuRuntimes.probe(api, ScanInputs.current(null));
            } catch (RuntimeException | LinkageError e) {
                out.println("  unavailable: " + OneLineErrors.describe(e));
                unusable.add(api + ": " + e.getMessage());
                continue;
            }
            p.scanned().forEach(s -> out.println("  scanned: " + s));
            p.notes().forEach(s -> out.println("  note: " + s));
            if (p.library() != null) {
                out.println("  library: " + p.library());
            }
            if (p.version() != null) {
                out.println("  version: " + p.version());
                String older = api.equals("hip") ? olderRocm(p) : null;
                if (older != null) {
                    out.println("  note: " + older);
                }
            }
            for (DeviceProps d : p.devices()) {
                out.printf(Locale.ROOT, "  device %d: %s, arch %s, %.1f GiB, wave size %d, %d compute units%n",
                        d.ordinal(), d.name(), d.archFull(), d.totalMemory() / (double) (1L << 30), d.warpSize(),
                        d.multiprocessors());
            }
            if (!p.usable()) {
                out.println("  unavailable: " + p.error());
                unusable.add(api + ": " + p.error() + (p.library() != null ? " [" + p.library() + "]" : ""));
                continue;
            }
            String verdict = check(p, out);
            if (verdict == null) {
                usable.add(api);
            } else {
                unusable.add(api + ": " + verdict);
            }
        }
        HotkeyReport.print(out);
        out.println();
        if (usable.isEmpty()) {
            out.println("backend: no GPU runtime was usable, so the CPU is used: " + new CpuBackend().name());
            unusable.forEach(u -> out.println("  why: " + u));
        } else {
            // The same order Backends.open("auto") tries.
            String chosen = Backends.AUTO_ORDER.stream().filter(usable::contains).findFirst().orElseThrow();
            out.println("backend: auto uses " + chosen + " (passed its self-test); usable: "
                    + String.join(", ", usable));
        }
        out.flush();
        return 0;
    }

    /**
     * A ROCm 5 runtime (Debian 12 ships 5.2 as libamdhip64-5) is not an error in the install: it is
     * simply older than the ROCm 6 interface Dictum's HIP path is written against. Says so in those
     * words, so "version 5.2" does not read as a wrong download of 6.2. Null for ROCm 6 and later.
     */
    static String olderRocm(RuntimeProbe p) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(p.version());
        if (!m.find() || Integer.parseInt(m.group(1)) >= 6) {
            return null;
        }
        String lib = String.valueOf(p.library());
        String whose = lib.startsWith("/usr/lib/") ? "Debian's ROCm " : "ROCm ";
        return whose + m.group(1) + "." + m.group(2) + " runtime found; Dictum's HIP path targets ROCm 6.x"
                + " (Windows HIP SDK 6.2)" + (p.usable() ? "" : " \u2014 CPU is used");
    }

    /** Loads every module on device 0 and runs the self-test; null when all is well, else why not. */
    private static String check(RuntimeProbe p, PrintWriter out) {
        try (GpuBackend b = new GpuBackend(p.driver(), 0)) {
            try {
                b.loadAllModules();
            } finally {
                out.println("  code objects loaded: " + String.join(" ", b.loadedImages()));
            }
            StringBuilder regs = new StringBuilder();
            b.kernelRegisters().forEach((k, n) -> regs.append(regs.isEmpty() ? "" : ", ").append(k).append(' ')
                    .append(n));
            out.println("  registers per thread: " + regs);
            SelfTest.Result r = SelfTest.run(b);
            out.println("  self-test: " + r.describe());
            return r.passed() ? null : "self-test failed: " + r.describe();
        } catch (RuntimeException | LinkageError e) {
            out.println("  unavailable: " + OneLineErrors.describe(e));
            return OneLineErrors.describe(e);
        }
    }

    private static String kernels() {
        try {
            KernelImages k = KernelImages.load();
            return "targets " + String.join(" ", k.targets()) + "; NVIDIA images built with CUDA "
                    + k.cudaBuildVersion() / 1000 + "." + k.cudaBuildVersion() % 1000 / 10;
        } catch (RuntimeException e) {
            return "none packed (" + OneLineErrors.describe(e) + ")";
        }
    }
}
