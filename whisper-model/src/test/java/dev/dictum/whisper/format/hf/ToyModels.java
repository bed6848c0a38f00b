package dev.dictum.whisper.format.hf;

import java.nio.file.Path;

/** Paths of the test data. */
final class ToyModels {
    private ToyModels() {
    }

    static Path testdata() {
        return Path.of(System.getProperty("dictum.testdata", "testdata"));
    }

    static Path english() {
        return testdata().resolve("models/toy-en");
    }

    static Path multilingual() {
        return testdata().resolve("models/toy-multi");
    }
}
