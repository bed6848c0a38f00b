package dev.dictum.app.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelDiscoveryTest {
    @TempDir
    Path dir;

    @Test
    void findsGgmlFilesHfAndCt2FoldersAndTheHubCache() throws IOException {
        Path models = Files.createDirectories(dir.resolve("models"));
        Files.write(models.resolve("ggml-base.en-q5_1.bin"), new byte[] {0x6c, 0x6d, 0x67, 0x67, 1, 2});
        Files.write(models.resolve("ggml-fake.bin"), new byte[] {1, 2, 3, 4, 5}); // wrong magic: not a model
        Path hf = Files.createDirectories(models.resolve("sub/my-whisper"));
        Files.writeString(hf.resolve("config.json"), "{}");
        Files.write(hf.resolve("model.safetensors"), new byte[10]);
        Files.write(hf.resolve("ggml-my-whisper-q8_0.bin"), new byte[] {0x6c, 0x6d, 0x67, 0x67, 9}); // converted copy beside it
        Path ct2 = Files.createDirectories(models.resolve("faster-tiny"));
        Files.writeString(ct2.resolve("config.json"), "{}");
        Files.write(ct2.resolve("model.bin"), new byte[20]);
        Path cache = dir.resolve("hub");
        Path repo = Files.createDirectories(cache.resolve("models--openai--whisper-tiny"));
        Path snap = Files.createDirectories(repo.resolve("snapshots/abc123"));
        Files.createDirectories(repo.resolve("refs"));
        Files.writeString(repo.resolve("refs/main"), "abc123\n");
        Files.writeString(snap.resolve("config.json"), "{}");
        Files.write(snap.resolve("model.safetensors"), new byte[30]);
        Files.createDirectories(cache.resolve("models--someone--not-a-model/snapshots/x"));

        List<DiscoveredModel> found = ModelDiscovery.discover(List.of(models, dir.resolve("absent")), cache);
        assertThat(found).extracting(DiscoveredModel::name).containsExactly(
                "base.en q5_1 (whisper.cpp)", "faster-tiny (CTranslate2)", "my-whisper (Hugging Face)",
                "my-whisper q8_0 (whisper.cpp)", "openai/whisper-tiny (Hugging Face, Hugging Face cache)");
        assertThat(found.get(2).sizeBytes()).isEqualTo(10); // the weights, not the ggml copy beside them
        assertThat(found.get(4).path()).isEqualTo(snap);
        assertThat(found.get(4).sizeBytes()).isEqualTo(30);
        assertThat(found.get(0).format()).isEqualTo(ModelFormat.GGML);
    }

    @Test
    void readableNamesForWhisperCppFiles() {
        assertThat(ModelDiscovery.ggmlName("ggml-large-v3-turbo-q8_0.bin")).isEqualTo("large-v3-turbo q8_0");
        assertThat(ModelDiscovery.ggmlName("ggml-toy-en.bin")).isEqualTo("toy-en");
    }

    @Test
    void hubCacheLocationFollowsTheHubsVariables() {
        Path home = Path.of("/home/u");
        assertThat(ModelDiscovery.huggingFaceCache(Map.of(), home)).isEqualTo(Path.of("/home/u/.cache/huggingface/hub"));
        assertThat(ModelDiscovery.huggingFaceCache(Map.of("HF_HOME", "/hf"), home)).isEqualTo(Path.of("/hf/hub"));
        assertThat(ModelDiscovery.huggingFaceCache(Map.of("HF_HOME", "/hf", "HF_HUB_CACHE", "/c"), home))
                .isEqualTo(Path.of("/c"));
    }
}
