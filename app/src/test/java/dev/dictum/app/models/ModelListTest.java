package dev.dictum.app.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One model list for the tray, the settings window and the Models window: the --model path included. */
class ModelListTest {
    static final Path TOY = Path.of(System.getProperty("dictum.testdata"), "models", "toy-en", "ggml-toy-en.bin");

    @TempDir
    Path folder;

    @Test
    void aModelPassedWithDashDashModelIsListedOnceBesideTheDiscoveredOnes() throws IOException {
        Path copy = Files.copy(TOY, folder.resolve("ggml-tiny.en.bin"));
        List<DiscoveredModel> found = ModelDiscovery.discover(List.of(folder), folder.resolve("no-hub-cache"));
        assertThat(found).extracting(DiscoveredModel::path).containsExactly(copy);

        List<DiscoveredModel> all = ModelList.of(found, Arrays.asList(TOY, null, Path.of(""),
                folder.resolve("deleted.bin"), copy, TOY.getParent().resolve("./ggml-toy-en.bin")));

        assertThat(all).extracting(DiscoveredModel::path).containsExactly(copy, TOY);
        assertThat(all.get(1).source()).isEqualTo(DiscoveredModel.Source.CONFIGURED);
        assertThat(all.get(1).name()).contains("toy-en");
    }
}
