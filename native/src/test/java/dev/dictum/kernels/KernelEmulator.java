package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The emulator tests' one way to build and run a kernel's CPU emulation (src/test/emu): g++ with a
 * C++20 {@code <barrier>} (one std::thread per GPU thread), the kernel sources on the include path,
 * and the program's verdict ("0 failed", exit status 0). A machine without g++ (or, for the tensor-core
 * emulations, without CUDA's headers) skips the test.
 */
final class KernelEmulator {
    static final Path EMU = Path.of("src/test/emu");
    static final Path KERNELS = Path.of("src/kernels");

    private KernelEmulator() {
    }

    record Result(int exit, String output) {
    }

    /** g++, or the test is skipped. */
    static String requireCompiler() throws InterruptedException {
        String cxx = compiler();
        assumeTrue(cxx != null, "skipped: no g++ with C++20 <barrier> (the emulated kernel needs it)");
        return cxx;
    }

    /** CUDA's include directory (for __half), or the test is skipped. */
    static Path requireCudaHeaders() {
        Path cudaInclude = Path.of(System.getenv().getOrDefault("CUDA_HOME", "/usr/local/cuda"), "include");
        assumeTrue(Files.exists(cudaInclude.resolve("cuda_fp16.h")),
                "skipped: no CUDA headers at " + cudaInclude + " (the emulation takes __half from them)");
        return cudaInclude;
    }

    /**
     * Compiles {@code source} (in src/test/emu) with {@code flags} into target/emu/{@code exe}, runs it
     * with {@code args} and asserts that it built, printed "0 failed" and no "FAIL", and exited with 0.
     */
    static void buildAndCheck(String label, String cxx, List<String> flags, String source, String exe,
            String... args) throws IOException, InterruptedException {
        check(label, build(label, cxx, flags, source, exe), args);
    }

    /** Compiles {@code source} (in src/test/emu) with {@code flags} into target/emu/{@code exe}. */
    static Path build(String label, String cxx, List<String> flags, String source, String exe)
            throws IOException, InterruptedException {
        Path binary = Files.createDirectories(Path.of("target/emu")).resolve(exe);
        List<String> cmd = new ArrayList<>(List.of(cxx, "-std=c++20", "-O2", "-w"));
        cmd.addAll(flags);
        cmd.addAll(List.of("-I" + EMU, "-I" + KERNELS, "-o", binary.toString(), EMU.resolve(source).toString(),
                "-lpthread"));
        Result build = run(cmd);
        assertThat(build.exit()).as(label + " build:\n" + build.output()).isZero();
        return binary.toAbsolutePath();
    }

    /** Runs a built emulation with {@code args}: "0 failed", no "FAIL", exit status 0; returns its output. */
    static String check(String label, Path binary, String... args) throws IOException, InterruptedException {
        List<String> go = new ArrayList<>(List.of(binary.toString()));
        go.addAll(List.of(args));
        Result r = run(go);
        assertThat(r.output()).as(label).contains("0 failed").doesNotContain("FAIL");
        assertThat(r.exit()).as(label + ":\n" + r.output()).isZero();
        return r.output();
    }

    static Result run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return new Result(-1, text + "\n(timed out)");
        }
        return new Result(p.exitValue(), text);
    }

    /** g++ if it compiles a C++20 {@code <barrier>}, else null. */
    static String compiler() throws InterruptedException {
        try {
            Path probe = Files.createTempFile("barrier", ".cpp");
            Files.writeString(probe, "#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n");
            Result r = run(List.of("g++", "-std=c++20", "-fsyntax-only", probe.toString()));
            Files.delete(probe);
            return r.exit() == 0 ? "g++" : null;
        } catch (IOException e) {
            return null; // no g++ on the PATH
        }
    }
}
