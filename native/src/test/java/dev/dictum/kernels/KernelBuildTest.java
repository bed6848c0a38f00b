package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packed kernels are complete and current: every kernel of the manifest is in every target's
 * code object, PTX and cubin; the manifest's source hashes are those of the sources in the tree.
 */
class KernelBuildTest {
    private static final int EM_AMDGPU = 224;
    private static final int EM_CUDA = 190;
    private static final Path SOURCES = Path.of("src/kernels");

    private final KernelResources res = new KernelResources();

    @Test
    void manifestNamesTheShippedTargetsAndEveryModule() throws IOException {
        assertThat(res.strings("amdTargets")).containsExactly("gfx1010", "gfx1012", "gfx1030", "gfx1100");
        assertThat(res.strings("cudaTargets")).containsExactly("sm_80", "sm_86", "sm_89", "sm_90");
        assertThat(res.strings("ptxArch")).containsExactly("compute_75");
        // the cubins' front end: sm_80 features (m16n8k16, cp.async) in the GEMM's fast body
        assertThat(res.strings("cubinPtxArch")).containsExactly("compute_80");
        assertThat(res.manifest.get("cudaVersion").asInt()).as("CUDA 13.x as the driver API counts it")
                .isBetween(13000, 13990);
        try (Stream<Path> s = Files.list(SOURCES)) {
            List<String> modules = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cu"))
                    .map(n -> n.substring(0, n.length() - 3)).sorted().toList();
            assertThat(res.modules().keySet()).containsExactlyInAnyOrderElementsOf(modules);
        }
        assertThat(res.modules().values().stream().mapToInt(List::size).sum()).isEqualTo(41); // issue 22: 3 of them f16 cross K/V, 1 beam rows, 3 f16 self K/V, 6 q8_0 weights
    }

    @Test
    void everyKernelIsInEveryAmdCodeObject() {
        for (String target : res.strings("amdTargets")) {
            for (Map.Entry<String, List<String>> m : res.modules().entrySet()) {
                String path = target + "/" + m.getKey() + ".hsaco";
                ElfImage elf = new ElfImage(path, KernelResources.bytes(path));
                assertThat(elf.machine).as(path).isEqualTo(EM_AMDGPU);
                assertThat(elf.functionSymbols()).as(path).containsAll(m.getValue());
                AmdgpuMetadata md = AmdgpuMetadata.of(elf);
                assertThat(md.target()).as(path).isEqualTo("amdgcn-amd-amdhsa--" + target);
                assertThat(md.kernels().stream().map(k -> (String) k.get(".name")))
                        .as(path).containsExactlyInAnyOrderElementsOf(m.getValue());
            }
        }
    }

    @Test
    void everyKernelIsInThePtxAndEveryCubin() {
        for (Map.Entry<String, List<String>> m : res.modules().entrySet()) {
            String ptxPath = "ptx/" + m.getKey() + ".ptx";
            String ptx = new String(KernelResources.bytes(ptxPath), StandardCharsets.US_ASCII);
            assertThat(ptx).as(ptxPath).contains(".target sm_75");
            for (String k : m.getValue()) {
                assertThat(ptx).as(ptxPath).containsPattern("\\.entry\\s+" + k + "\\(");
            }
            for (String target : res.strings("cudaTargets")) {
                String path = target + "/" + m.getKey() + ".cubin";
                ElfImage elf = new ElfImage(path, KernelResources.bytes(path));
                assertThat(elf.machine).as(path).isEqualTo(EM_CUDA);
                assertThat(elf.functionSymbols()).as(path).containsAll(m.getValue());
            }
        }
    }

    @Test
    void manifestHashesAreThoseOfTheSourcesInTheTree() throws Exception {
        List<Path> headers;
        try (Stream<Path> s = Files.list(SOURCES)) {
            // As build-kernels.sh (LC_ALL=C): the module, then *.h, then *.cuh, each in name order.
            List<Path> all = s.sorted().toList();
            headers = Stream.concat(all.stream().filter(p -> p.toString().endsWith(".h")),
                    all.stream().filter(p -> p.toString().endsWith(".cuh"))).toList();
        }
        for (var mod : res.manifest.get("modules")) {
            MessageDigest sha = sha256();
            sha.update(Files.readAllBytes(SOURCES.resolve(mod.get("source").asText())));
            for (Path h : headers) {
                sha.update(Files.readAllBytes(h));
            }
            assertThat(mod.get("sourceSha256").asText()).as(mod.get("name").asText())
                    .isEqualTo(HexFormat.of().formatHex(sha.digest()));
        }
    }

    /**
     * Seed 000: {@code #define __syncwarp(mask) __syncthreads()} corrupted every block reduction.
     * No kernel source may use or define __syncwarp (comments explaining why aside).
     */
    @Test
    void noSourceUsesOrDefinesSyncwarp() throws IOException {
        try (Stream<Path> s = Files.list(SOURCES)) {
            for (Path p : s.filter(f -> !f.toString().endsWith(".md")).toList()) {
                for (String line : Files.readAllLines(p)) {
                    String code = line.replaceAll("//.*", "");
                    assertThat(code).as(p + ": " + line).doesNotContain("__syncwarp");
                }
            }
        }
    }

    /**
     * ABI.md is the contract the backend launches against: every kernel of the manifest is declared
     * there with exactly the parameter list its source has.
     */
    @Test
    void abiDocumentDeclaresEveryKernelAsItsSourceDoes() throws IOException {
        String abi = Files.readString(SOURCES.resolve("ABI.md"));
        for (var mod : res.manifest.get("modules")) {
            String src = Files.readString(SOURCES.resolve(mod.get("source").asText()));
            for (var k : mod.get("kernels")) {
                String name = k.asText();
                assertThat(parameters(abi, name)).as(name + " in ABI.md vs " + mod.get("source").asText())
                        .isEqualTo(parameters(src, name));
            }
        }
    }

    /**
     * Issue 12: on NVIDIA the encoder's GEMM (and the conv stem that shares its tile) and the
     * attention run on the tensor cores: their PTX issues f16 mmas with f32 accumulation.
     */
    @Test
    void nvidiaGemmAndAttentionUseTensorCores() {
        for (String m : List.of("gemm", "conv1d_gelu", "attention")) {
            String ptx = new String(KernelResources.bytes("ptx/" + m + ".ptx"), StandardCharsets.US_ASCII);
            assertThat(ptx).as(m).contains("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
        }
        String gemm = new String(KernelResources.bytes("ptx/gemm.ptx"), StandardCharsets.US_ASCII);
        assertThat(gemm).contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16");
    }

    /**
     * Issue 12: attention's sm_80 body (m16n8k16 mmas, V fragments by ldmatrix.trans) is compiled only
     * into the cubins (from the compute_80 PTX); the shipped compute_75 PTX, which the driver JIT-compiles
     * for GPUs without a cubin (sm_75 among them, which has no m16n8k16), must keep the sm_75 body alone.
     */
    @Test
    void theShippedPtxKeepsAttentionsSm75Body() {
        String ptx = new String(KernelResources.bytes("ptx/attention.ptx"), StandardCharsets.US_ASCII);
        assertThat(ptx).contains(".target sm_75").contains("mma.sync.aligned.m16n8k8")
                .doesNotContain("m16n8k16").doesNotContain(".trans");
    }

    /**
     * The test-only modules (manifest "testModules"): the portable attention and GEMM bodies (gemm_f16
     * and conv1d_gelu_f16 share the GEMM's), built for NVIDIA so that GpuOpsTest's "cuda-portable" cases
     * and the bundle's HIP stand-in run the AMD bodies' code on a CUDA device. Each must be the f32
     * body (no tensor-core mma in its kernel), with every kernel of its source, for the PTX and every
     * cubin target.
     */
    @Test
    void thePortableBodiesAreBuiltForNvidiaToo() {
        var tms = res.manifest.get("testModules");
        assertThat(tms).hasSize(3);
        String[][] want = {{"attention_portable", "DG_ATTENTION_PORTABLE", "attention_f32"},
            {"gemm_portable", "DG_GEMM_PORTABLE", "gemm_f16"},
            {"conv1d_gelu_portable", "DG_GEMM_PORTABLE", "conv1d_gelu_f16"}};
        for (int i = 0; i < want.length; i++) {
            var tm = tms.get(i);
            String name = want[i][0];
            assertThat(tm.get("name").asText()).isEqualTo(name);
            assertThat(tm.get("define").asText()).isEqualTo(want[i][1]);
            assertThat(tm.get("kernels").get(0).asText()).isEqualTo(want[i][2]);
            String ptx = new String(KernelResources.bytes("ptx/" + name + ".ptx"), StandardCharsets.US_ASCII);
            String entry = entryText(ptx, want[i][2]);
            assertThat(entry).as(name).contains("fma.rn.f32").doesNotContain("mma.sync");
            for (String t : res.strings("cudaTargets")) {
                assertThat(KernelResources.bytes(t + "/" + name + ".cubin")).as(t).isNotEmpty();
            }
        }
        String attention = new String(KernelResources.bytes("ptx/attention_portable.ptx"), StandardCharsets.US_ASCII);
        assertThat(entryText(attention, "attention_f32")).contains("shfl.sync.bfly");
    }

    /** The PTX of one entry: from its {@code .entry} line to the next entry (or the end). */
    private static String entryText(String ptx, String kernel) {
        int from = ptx.indexOf(".entry " + kernel + "(");
        assertThat(from).as(kernel + " in the PTX").isNotNegative();
        int to = ptx.indexOf(".entry ", from + 1);
        return ptx.substring(from, to < 0 ? ptx.length() : to);
    }

    /** A kernel with a body per vendor ({@code #if}) is declared with one parameter list in both. */
    @Test
    void everyDeclarationOfAKernelHasTheSameParameters() throws IOException {
        for (var mod : res.manifest.get("modules")) {
            String src = Files.readString(SOURCES.resolve(mod.get("source").asText()));
            for (var k : mod.get("kernels")) {
                var m = Pattern.compile("extern \"C\"\\s+__global__\\s+void\\s+(?:__launch_bounds__\\([^)]*\\)\\s+)?"
                        + k.asText() + "\\s*\\(([^)]*)\\)").matcher(src);
                String first = null;
                while (m.find()) {
                    String params = m.group(1).replaceAll("\\s+", " ").trim();
                    if (first == null) {
                        first = params;
                    }
                    assertThat(params).as(k.asText()).isEqualTo(first);
                }
                assertThat(first).as(k.asText()).isNotNull();
            }
        }
    }

    /** The parameter list of {@code extern "C" __global__ void [__launch_bounds__(..)] name(...)}, spaces normalised. */
    private static String parameters(String text, String kernel) {
        var m = Pattern.compile("extern \"C\"\\s+__global__\\s+void\\s+(?:__launch_bounds__\\([^)]*\\)\\s+)?"
                + kernel + "\\s*\\(([^)]*)\\)").matcher(text);
        assertThat(m.find()).as("declaration of " + kernel).isTrue();
        return m.group(1).replaceAll("\\s+", " ").replace("( ", "(").trim();
    }

    private static MessageDigest sha256() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256");
    }
}
