package dev.dictum.whisper.format.detect;

import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WeightSource;
import dev.dictum.whisper.format.ct2.Ct2ModelDirectory;
import dev.dictum.whisper.format.ggml.GgmlModelFile;
import dev.dictum.whisper.format.hf.HfModelDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens whatever model a user points at, by looking at it rather than trusting its name: a
 * Hugging Face folder (config.json + safetensors), a CTranslate2 / faster-whisper folder
 * (model.bin), or a whisper.cpp ggml file (by its magic number).
 */
public final class ModelFiles {
    /** "ggml" as whisper.cpp writes it: the little-endian uint32 0x67676d6c. */
    private static final byte[] GGML_MAGIC = {0x6c, 0x6d, 0x67, 0x67};

    private ModelFiles() {
    }

    public static WeightSource open(Path path) {
        if (!Files.exists(path)) {
            throw new ModelFormatException(path + ": no such file or folder");
        }
        if (Files.isDirectory(path)) {
            return openFolder(path);
        }
        String name = path.getFileName().toString();
        if (hasGgmlMagic(path)) {
            return GgmlModelFile.open(path);
        }
        if (name.endsWith(".safetensors") || name.equals("config.json") || name.equals("model.bin")) {
            return openFolder(path.toAbsolutePath().getParent());
        }
        throw new ModelFormatException(path + ": not a Whisper model (expected a ggml .bin file, or a folder with"
                + " config.json and model.safetensors, or with model.bin)");
    }

    private static WeightSource openFolder(Path dir) {
        if (Files.isRegularFile(dir.resolve("model.bin"))) {
            return Ct2ModelDirectory.open(dir);
        }
        if (Files.isRegularFile(dir.resolve("config.json"))) {
            return HfModelDirectory.open(dir);
        }
        throw new ModelFormatException(dir + ": no Whisper model here (expected config.json and model.safetensors,"
                + " or model.bin)");
    }

    private static boolean hasGgmlMagic(Path file) {
        byte[] head = new byte[4];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, 4) < 4) {
                return false;
            }
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        return java.util.Arrays.equals(head, GGML_MAGIC);
    }
}
