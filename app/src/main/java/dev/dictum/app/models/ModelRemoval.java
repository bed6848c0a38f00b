package dev.dictum.app.models;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Removes a model found on disk. A ggml file or a model folder is deleted as it is; a model in the
 * Hugging Face cache is its whole {@code models--org--name} repository folder (the snapshot's files
 * are links into that folder's blobs, shared between its revisions).
 */
public final class ModelRemoval {

    private ModelRemoval() {
    }

    /** What {@link #remove} deletes for {@code model}. */
    public static Path target(DiscoveredModel model) {
        if (model.source() == DiscoveredModel.Source.HUGGING_FACE_CACHE) {
            Path repo = model.path().getParent() == null ? null : model.path().getParent().getParent();
            if (repo == null || !repo.getFileName().toString().startsWith("models--")
                    || !model.path().getParent().getFileName().toString().equals("snapshots")) {
                throw new IllegalArgumentException(model.path() + " is not a snapshot of the Hugging Face cache");
            }
            return repo;
        }
        return model.path();
    }

    /** Deletes the model's files; links are removed, never followed. */
    public static void remove(DiscoveredModel model) throws IOException {
        Path target = target(model);
        if (!Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(target + " is already gone");
        }
        if (!Files.isDirectory(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(target);
            return;
        }
        try (Stream<Path> all = Files.walk(target)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
