package dev.dictum.app.models.catalog;

import dev.dictum.app.models.ModelFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ModelCatalogTest {

    final ModelCatalog catalog = ModelCatalog.builtIn();
    final ModelRecommender recommender = new ModelRecommender(catalog);
    static final long GIB = 1L << 30;

    @Test
    void listsEveryModelUsersAskForInEveryFormatDictumReads() {
        assertThat(catalog.models()).extracting(CatalogModel::id).containsExactly("tiny", "tiny.en", "base", "base.en",
                "small", "small.en", "medium", "medium.en", "large-v2", "large-v3", "large-v3-turbo", "distil-large-v3");
        for (CatalogModel m : catalog.models()) {
            assertThat(m.variants()).extracting(CatalogVariant::format).as(m.id())
                    .contains(ModelFormat.GGML, ModelFormat.HUGGING_FACE, ModelFormat.CTRANSLATE2);
            assertThat(m.languageCount()).isEqualTo(m.englishOnly() ? 1 : m.id().startsWith("large-v3") ? 100 : 99);
            for (CatalogVariant v : m.variants()) {
                assertThat(v.approxBytes()).as(v.id()).isGreaterThan(10L << 20);
            }
        }
        assertThat(catalog.variant("large-v3-turbo/ggml-q5_0")).isPresent();
        assertThat(catalog.variant("tiny.en/ggml-q8_0")).isPresent();
    }

    @Test
    void multiFileFormatsListWhatTheReadersNeed() {
        CatalogVariant hf = catalog.variant("large-v3/hf-f16").orElseThrow();
        assertThat(hf.files().stream().filter(f -> !f.optional()).map(CatalogFile::path))
                .contains("config.json", "model.safetensors", "generation_config.json");
        CatalogVariant ct2 = catalog.variant("tiny/ct2-f16").orElseThrow();
        assertThat(ct2.files().stream().filter(f -> !f.optional()).map(CatalogFile::path))
                .containsExactlyInAnyOrder("config.json", "model.bin", "tokenizer.json");
        assertThat(ct2.install()).isEqualTo("faster-whisper-tiny");
    }

    @Test
    void publishedSha1sAreAttachedToTheGgmlFilesWhisperCppLists() {
        CatalogFile tiny = catalog.variant("tiny/ggml-f16").orElseThrow().files().getFirst();
        assertThat(tiny.path()).isEqualTo("ggml-tiny.bin");
        assertThat(tiny.sha1()).isEqualTo("bd577a113a864445d4c299885e0cb97d4ba92b5f");
        long withSha1 = catalog.models().stream().flatMap(m -> m.variants().stream())
                .flatMap(v -> v.files().stream()).filter(f -> f.sha1() != null).count();
        assertThat(withSha1).isEqualTo(14);
        assertThat(catalog.hashPolicy()).contains("No SHA-256 is listed").contains("X-Linked-Etag");
    }

    @Test
    void refusesPathsThatEscapeTheModelFolder() {
        String json = """
                {"schema":1,"models":[{"id":"x","name":"X","variants":[{"id":"x/g","format":"GGML","precision":"f16",
                 "repo":"a/b","revision":"main","install":"ggml-x.bin","files":[{"path":"../ggml-x.bin","approxBytes":1}]}]}]}
                """;
        assertThatThrownBy(() -> ModelCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))))
                .hasMessageContaining("relative and plain");
    }

    @Test
    void aRoomyGpuGetsLargeV3TurboInF16() {
        var r = recommender.recommend(new HardwareProfile(8, 32 * GIB, java.util.OptionalLong.empty(), null)
                .withGpu("Radeon RX 5700", 8 * GIB), true);
        assertThat(r.variant().id()).isEqualTo("large-v3-turbo/ggml-f16");
        assertThat(r.reason()).contains("Radeon RX 5700 with 8.0 GiB");
    }

    @Test
    void aSmallGpuGetsTheQuantisedTurboOrSmall() {
        HardwareProfile cpu = new HardwareProfile(8, 16 * GIB, java.util.OptionalLong.empty(), null);
        assertThat(recommender.recommend(cpu.withGpu("GPU", 4 * GIB), false).variant().id())
                .isEqualTo("large-v3-turbo/ggml-q8_0");
        assertThat(recommender.recommend(cpu.withGpu("GPU", GIB), false).variant().id()).isEqualTo("small/ggml-f16");
        assertThat(recommender.recommend(cpu.withGpu("GPU", GIB), true).variant().id()).isEqualTo("small.en/ggml-f16");
    }

    @Test
    void onTheCpuTheChoiceFollowsCoresAndMemory() {
        List<String> picks = List.of(
                recommender.recommend(new HardwareProfile(2, 24 * GIB, java.util.OptionalLong.empty(), null), true).variant().id(),
                recommender.recommend(new HardwareProfile(8, 16 * GIB, java.util.OptionalLong.empty(), null), false).variant().id(),
                recommender.recommend(new HardwareProfile(16, 32 * GIB, java.util.OptionalLong.empty(), null), true).variant().id(),
                recommender.recommend(new HardwareProfile(16, 4 * GIB, java.util.OptionalLong.empty(), null), true).variant().id());
        assertThat(picks).containsExactly("tiny.en/ggml-f16", "base/ggml-f16", "small.en/ggml-q8_0", "base.en/ggml-f16");
        assertThat(ModelRecommender.prefersEnglish(Locale.UK)).isTrue();
        assertThat(ModelRecommender.prefersEnglish(Locale.GERMANY)).isFalse();
    }

    @Test
    void thisMachineIsDescribed() {
        HardwareProfile here = HardwareProfile.ofThisMachine();
        assertThat(here.cpuCores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(here.ramBytes()).isPositive();
        assertThat(recommender.recommend(here, true).reason()).contains("CPU cores");
    }
}
