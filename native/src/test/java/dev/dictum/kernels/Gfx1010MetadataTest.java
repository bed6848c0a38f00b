package dev.dictum.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The gfx1010 code objects as the RX 5700 XT's runtime (ROCm 6.2) will load them: code object v4,
 * wave32, and no scratch: a private segment or a dynamic stack means registers spilled to memory,
 * which the hot kernels must never do. Also writes the per-kernel resource table
 * (target/gfx1010-kernels.md) that docs/architecture.md carries.
 */
class Gfx1010MetadataTest {
    /** Kernels run per layer or per token; the load-time converters may not even matter. */
    private static final Set<String> HOT = Set.of("gemm_f16", "gemv_f16", "layer_norm_f32", "conv1d_gelu_f16",
            "attention_f32", "cross_attention_f32", "cross_attention_f32_hd64", "cross_attention_f16kv",
            "cross_attention_f16kv_hd64", "add_rows_f16", "embed_f16", "transpose_f32", "transpose_f32_to_f16",
            "kv_append_f32", "gemv1_f16", "gemv1_ln_f16", "gemv3_1_f16", "gemv1_pipe_f16", "attention_rows_f32",
            "attention_rows_f16kv", "kv_append_f16", "gemv3_1_f16kv",
            // issue 22: a q8_0 file's weights read as q8_0 blocks by the decoder's products and embedding
            "gemv_q8_0", "gemv3_q8_0", "gemv1_ln_q8_0", "gemv3_1_q8_0", "gemv3_1_q8_0kv", "embed_q8_0");
    private static final int ELFABIVERSION_AMDGPU_HSA_V4 = 2;

    /** Block size and dynamic LDS each kernel is launched with (ABI.md) at Whisper's shapes. */
    private record Launch(int block, long dynamicLds, String shape) {
    }

    private static final Map<String, Launch> LAUNCH = Map.ofEntries(
            // the larger of the two bodies' needs (ABI.md): the NVIDIA body's 21 504 bytes at headDim 64;
            // the portable (AMD) body itself uses 16 384
            Map.entry("attention_f32", new Launch(128, Math.max(4L * (80 * 64 + 256), 4L * 2 * 32 * 64), "headDim 64")),
            Map.entry("cross_attention_f32", new Launch(256, 4L * (1500 + 64 + 64 + 256), "1500 keys, one chunk")),
            // a large-v3 token on 40 CUs: 4 chunks of 375 keys; float4 partials of 4 x 128 floats
            Map.entry("cross_attention_f32_hd64",
                    new Launch(128, 4L * (375 + 64 + 64 + 4 * 128), "375-key chunk, headDim 64")),
            // the same launches with the cross K/V in f16 (issue 22): the shared memory is the same f32
            Map.entry("cross_attention_f16kv", new Launch(256, 4L * (1500 + 64 + 64 + 256), "1500 keys, one chunk")),
            Map.entry("cross_attention_f16kv_hd64",
                    new Launch(128, 4L * (375 + 64 + 64 + 4 * 128), "375-key chunk, headDim 64")),
            // a wave per row, LaunchGeometry.LAYER_NORM_BLOCK
            Map.entry("layer_norm_f32", new Launch(128, 0, null)),
            // the decoder step's fused one-row GEMVs: x normalised into 4·d bytes of LDS (large-v3's d)
            Map.entry("gemv1_f16", new Launch(128, 0, null)),
            Map.entry("gemv1_pipe_f16", new Launch(128, 0, null)),
            Map.entry("gemv1_ln_f16", new Launch(128, 8L * 1280, "LN prologue, d 1280")),
            Map.entry("gemv3_1_f16", new Launch(128, 8L * 1280, "LN prologue, d 1280")),
            // the same into the f16 self K/V caches (issue 22)
            Map.entry("gemv3_1_f16kv", new Launch(128, 8L * 1280, "LN prologue, d 1280")),
            // the same GEMVs over q8_0 blocks (issue 22: turbo's weights in 840 MiB)
            Map.entry("gemv_q8_0", new Launch(128, 0, null)),
            Map.entry("gemv3_q8_0", new Launch(128, 0, null)),
            Map.entry("gemv1_ln_q8_0", new Launch(128, 8L * 1280, "LN prologue, d 1280")),
            Map.entry("gemv3_1_q8_0", new Launch(128, 8L * 1280, "LN prologue, d 1280")),
            Map.entry("gemv3_1_q8_0kv", new Launch(128, 8L * 1280, "LN prologue, d 1280")),
            // beam search's self-attention through row tables: one tile of 128 keys per block, static LDS only
            Map.entry("attention_rows_f32", new Launch(128, 0, null)),
            // every decoder self-attention over the GPU's f16 caches (issue 22): the same launch
            Map.entry("attention_rows_f16kv", new Launch(128, 0, null)));

    private final KernelResources res = new KernelResources();

    @Test
    void codeObjectsAreV4Wave32WithoutScratch() {
        for (var m : res.modules().entrySet()) {
            String path = "gfx1010/" + m.getKey() + ".hsaco";
            ElfImage elf = new ElfImage(path, KernelResources.bytes(path));
            assertThat(elf.abiVersion()).as(path + " code object version").isEqualTo(ELFABIVERSION_AMDGPU_HSA_V4);
            AmdgpuMetadata md = AmdgpuMetadata.of(elf);
            assertThat(md.version()).as(path + " amdhsa.version (v4 = 1.1)").containsExactly(1L, 1L);
            assertThat(md.target()).as(path).isEqualTo("amdgcn-amd-amdhsa--gfx1010").doesNotContain("generic");
            assertWave32AndNoScratch(path, md, m.getValue());
        }
    }

    private static void assertWave32AndNoScratch(String path, AmdgpuMetadata md, List<String> kernels) {
        for (String k : kernels) {
            Map<String, Object> kd = md.kernel(k);
            String what = path + " " + k;
            assertThat(AmdgpuMetadata.number(kd, ".wavefront_size")).as(what + " wave size").isEqualTo(32);
            if (HOT.contains(k)) {
                assertThat(AmdgpuMetadata.number(kd, ".private_segment_fixed_size")).as(what + " scratch").isZero();
                assertThat(kd.get(".uses_dynamic_stack")).as(what + " dynamic stack").isNotEqualTo(Boolean.TRUE);
                assertThat(AmdgpuMetadata.number(kd, ".vgpr_spill_count")).as(what + " VGPR spills").isZero();
                assertThat(AmdgpuMetadata.number(kd, ".sgpr_spill_count")).as(what + " SGPR spills").isZero();
            }
        }
    }

    @Test
    void everyAmdTargetIsWave32WithoutScratchInTheHotKernels() {
        for (String target : res.strings("amdTargets")) {
            for (var m : res.modules().entrySet()) {
                String path = target + "/" + m.getKey() + ".hsaco";
                assertWave32AndNoScratch(path, AmdgpuMetadata.of(new ElfImage(path, KernelResources.bytes(path))),
                        m.getValue());
            }
        }
    }

    @Test
    void occupancyRuleMatchesLlvmForTheseRegisterCounts() {
        // LLVM's "; Occupancy:" for gfx1010 wave32 at 167, 60, 53, 24 VGPRs (hipcc -S of these kernels:
        // 167 is the portable attention body, 60 the one before it).
        assertThat(Rdna1Occupancy.byVgprs(167)).isEqualTo(6);
        assertThat(Rdna1Occupancy.byVgprs(60)).isEqualTo(16);
        assertThat(Rdna1Occupancy.byVgprs(53)).isEqualTo(18);
        assertThat(Rdna1Occupancy.byVgprs(24)).isEqualTo(20);
        assertThat(Rdna1Occupancy.byLds(29312, 128)).isEqualTo(4); // attention_f32 before issue 12's portable body
        assertThat(Rdna1Occupancy.byLds(21504, 128)).isEqualTo(6); // attention_f32 now
    }

    /**
     * Issue 12 item 5: the paper model found attention_f32's AMD body far from its limit (29 KiB of LDS
     * per 4-wave block: 4 waves per SIMD). The portable body must keep at least 6 on gfx1010.
     */
    @Test
    void attentionRunsAtLeastSixWavesPerSimdOnGfx1010() {
        AmdgpuMetadata md = AmdgpuMetadata.of(new ElfImage("gfx1010/attention.hsaco",
                KernelResources.bytes("gfx1010/attention.hsaco")));
        Map<String, Object> kd = md.kernel("attention_f32");
        Launch l = LAUNCH.get("attention_f32");
        long lds = AmdgpuMetadata.number(kd, ".group_segment_fixed_size") + l.dynamicLds();
        assertThat(Rdna1Occupancy.wavesPerSimd(AmdgpuMetadata.number(kd, ".vgpr_count"), lds, l.block()))
                .isGreaterThanOrEqualTo(6);
    }

    /**
     * Issue 22 item 2: gemm_f16 and conv1d_gelu_f16 on gfx1010 are the portable 128 × 128 body
     * (gemm_tile_portable_8x8.cuh: 8 × 8 outputs per lane, 1 byte of LDS per FMA): its two LDS buffers of
     * x and w, each 17 rows (16-wide slice and the row read ahead) of 132 floats, no scratch (the HOT
     * check) and at least 6 waves per SIMD (LDS allows 6: three 35 KiB blocks per WGP; the VGPRs 7).
     * scripts/gfx1010_paper_model.py takes its GEMM efficiency from these figures.
     */
    @Test
    void theGemmBodyIsThe128TileAtSixWavesPerSimd() {
        for (String[] mk : new String[][] {{"gemm", "gemm_f16"}, {"conv1d_gelu", "conv1d_gelu_f16"}}) {
            String path = "gfx1010/" + mk[0] + ".hsaco";
            Map<String, Object> kd = AmdgpuMetadata.of(new ElfImage(path, KernelResources.bytes(path))).kernel(mk[1]);
            long lds = AmdgpuMetadata.number(kd, ".group_segment_fixed_size");
            long vgprs = AmdgpuMetadata.number(kd, ".vgpr_count");
            assertThat(lds).as(mk[1] + " LDS").isEqualTo(2L * 2 * 17 * 132 * 4);
            assertThat(vgprs).as(mk[1] + " VGPRs (64 accumulators, 32 operands, 16 staging)").isBetween(108L, 144L);
            assertThat(Rdna1Occupancy.wavesPerSimd(vgprs, lds, 256)).as(mk[1] + " waves per SIMD")
                    .isGreaterThanOrEqualTo(6);
        }
    }

    @Test
    void writesTheResourceTable() throws IOException {
        StringBuilder t = new StringBuilder();
        t.append("| kernel | VGPRs | SGPRs | LDS bytes (static + dynamic) | block | waves/SIMD |\n");
        t.append("|---|---:|---:|---:|---:|---:|\n");
        for (var m : res.modules().entrySet()) {
            String path = "gfx1010/" + m.getKey() + ".hsaco";
            AmdgpuMetadata md = AmdgpuMetadata.of(new ElfImage(path, KernelResources.bytes(path)));
            for (String k : m.getValue()) {
                Map<String, Object> kd = md.kernel(k);
                long vgprs = AmdgpuMetadata.number(kd, ".vgpr_count");
                long sgprs = AmdgpuMetadata.number(kd, ".sgpr_count");
                long lds = AmdgpuMetadata.number(kd, ".group_segment_fixed_size");
                Launch l = LAUNCH.getOrDefault(k, new Launch(256, 0, null));
                String ldsText = l.dynamicLds() == 0 ? Long.toString(lds)
                        : lds + " + " + l.dynamicLds() + " (" + l.shape() + ")";
                int waves = Rdna1Occupancy.wavesPerSimd(vgprs, lds + l.dynamicLds(), l.block());
                assertThat(waves).as(k + " waves per SIMD").isPositive();
                t.append("| `").append(k).append("` | ").append(vgprs).append(" | ").append(sgprs).append(" | ")
                        .append(ldsText).append(" | ").append(l.block()).append(" | ").append(waves).append(" |\n");
            }
        }
        Path out = Path.of("target/gfx1010-kernels.md");
        Files.writeString(out, t);
        System.out.print(t);
        assertThat(List.of(t.toString().split("\n"))).hasSize(2 + 41);
    }
}
