package dev.dictum.whisper.format;

import java.nio.file.Path;

/** Placeholder until the CTranslate2 reader lands: says so clearly instead of failing oddly. */
final class Ct2Models {
    private Ct2Models() {
    }

    static WeightSource open(Path dir) {
        throw new ModelFormatException(dir + ": CTranslate2 models are not supported yet");
    }
}
