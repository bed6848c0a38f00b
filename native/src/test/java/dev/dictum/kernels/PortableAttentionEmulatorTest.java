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
import org.junit.jupiter.api.Test;

/**
 * attention.cu's portable body (the one every AMD target runs; issue 12) on the CPU, no GPU needed:
 * src/test/emu/attention_emu.cpp includes the kernel source under a small CUDA emulation
 * (cuda_emu.h: 128 threads per block, barriers, shuffles) and compares it with a float64 reference
 * at scaled-down Whisper shapes, head sizes 1..128, causal and unaligned rows. Built twice: as
 * gfx10 compiles it (4 queries per lane for head size 64) and as gfx1100 does (2 per lane). On a
 * CUDA device the same body runs as the test-only module attention_portable (GpuOpsTest).
 */
class PortableAttentionEmulatorTest {
    private static final Path EMU = Path.of("src/test/emu");
    private static final Path KERNELS = Path.of("src/kernels");

    @Test
    void thePortableBodyMatchesFloat64OnTheCpu() throws Exception {
        String cxx = compiler();
        assumeTrue(cxx != null, "skipped: no g++ with C++20 <barrier> (the emulated kernel needs it)");
        Path out = Files.createDirectories(Path.of("target/emu"));
        for (String[] variant : new String[][] {{"gfx10", null}, {"gfx1100", "hd64"}}) {
            Path exe = out.resolve("attention_emu_" + variant[0]);
            List<String> cmd = new ArrayList<>(List.of(cxx, "-std=c++20", "-O2", "-w", "-DDG_ATTENTION_PORTABLE"));
            if (variant[0].equals("gfx1100")) {
                cmd.add("-D__gfx1100__");
            }
            cmd.addAll(List.of("-include", EMU.resolve("cuda_emu.h").toString(), "-I" + EMU, "-I" + KERNELS, "-o",
                    exe.toString(), EMU.resolve("attention_emu.cpp").toString(), "-lpthread"));
            Result build = run(cmd);
            assertThat(build.exit()).as(variant[0] + " build:\n" + build.output()).isZero();
            List<String> go = new ArrayList<>(List.of(exe.toAbsolutePath().toString()));
            if (variant[1] != null) {
                go.add(variant[1]);
            }
            Result r = run(go);
            assertThat(r.output()).as(variant[0]).contains("0 failed").doesNotContain("FAIL");
            assertThat(r.exit()).as(variant[0] + ":\n" + r.output()).isZero();
        }
    }

    record Result(int exit, String output) {
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

    /**
     * Builds src/test/emu/{@code source} with g++, CUDA's headers (the emulation takes __half from them)
     * and -DDG_EMU_MMA into target/emu/{@code exe}, asserting that it compiles; skips the calling test
     * where g++ lacks C++20's {@code <barrier>} or the headers are missing.
     */
    static Path buildWithCudaHeaders(String source, String exe) throws IOException, InterruptedException {
        String cxx = compiler();
        assumeTrue(cxx != null, "skipped: no g++ with C++20 <barrier> (the emulated kernel needs it)");
        Path cudaInclude = Path.of(System.getenv().getOrDefault("CUDA_HOME", "/usr/local/cuda"), "include");
        assumeTrue(Files.exists(cudaInclude.resolve("cuda_fp16.h")),
                "skipped: no CUDA headers at " + cudaInclude + " (the emulation takes __half from them)");
        Path out = Files.createDirectories(Path.of("target/emu")).resolve(exe);
        Result build = run(List.of(cxx, "-std=c++20", "-O2", "-w", "-DDG_EMU_MMA", "-I" + cudaInclude, "-I" + EMU,
                "-I" + KERNELS, "-o", out.toString(), EMU.resolve(source).toString(), "-lpthread"));
        assertThat(build.exit()).as(source + " build:\n" + build.output()).isZero();
        return out.toAbsolutePath();
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
