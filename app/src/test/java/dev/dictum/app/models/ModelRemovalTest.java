package dev.dictum.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelRemovalTest {

    @TempDir
    Path dir;

    @Test
    void removesAGgmlFileAndAModelFolder() throws IOException {
        Path ggml = Files.write(dir.resolve("ggml-tiny.bin"), new byte[] {1});
        Path folder = Files.createDirectories(dir.resolve("whisper-tiny"));
        Files.writeString(folder.resolve("config.json"), "{}");
        ModelRemoval.remove(new DiscoveredModel("tiny", ggml, ModelFormat.GGML, DiscoveredModel.Source.MODELS_FOLDER, 1));
        ModelRemoval.remove(new DiscoveredModel("w", folder, ModelFormat.HUGGING_FACE, DiscoveredModel.Source.MODELS_FOLDER, 2));
        assertThat(ggml).doesNotExist();
        assertThat(folder).doesNotExist();
        assertThat(dir).exists();
    }

    @Test
    void aHubCacheModelIsItsWholeRepositoryFolderAndLinkedBlobsGoWithIt() throws IOException {
        Path repo = dir.resolve("models--openai--whisper-tiny");
        Path blob = Files.writeString(Files.createDirectories(repo.resolve("blobs")).resolve("abc"), "weights");
        Path snap = Files.createDirectories(repo.resolve("snapshots/rev1"));
        Files.createSymbolicLink(snap.resolve("model.safetensors"), blob);
        Path outside = Files.writeString(dir.resolve("keep.txt"), "not the model's");
        Files.createSymbolicLink(snap.resolve("link-out"), outside);
        DiscoveredModel m = new DiscoveredModel("openai/whisper-tiny", snap, ModelFormat.HUGGING_FACE,
                DiscoveredModel.Source.HUGGING_FACE_CACHE, 7);
        assertThat(ModelRemoval.target(m)).isEqualTo(repo);
        ModelRemoval.remove(m);
        assertThat(repo).doesNotExist();
        assertThat(outside).hasContent("not the model's");
    }

    @Test
    void refusesAPathThatIsNotACacheSnapshot() {
        DiscoveredModel m = new DiscoveredModel("x", dir.resolve("x"), ModelFormat.HUGGING_FACE,
                DiscoveredModel.Source.HUGGING_FACE_CACHE, 0);
        assertThatThrownBy(() -> ModelRemoval.target(m)).hasMessageContaining("not a snapshot");
    }
}
