package dev.dictum.app.models.download;

import dev.dictum.app.models.catalog.CatalogVariant;
import java.nio.file.Path;
import java.util.Map;

/**
 * A model that finished downloading, passed verification and was moved into the models folder.
 *
 * @param path         the ggml file, or the model's folder
 * @param verification how each file was checked, by its path in the repository
 */
public record InstalledModel(CatalogVariant variant, Path path, Map<String, Verification> verification) {

    public InstalledModel {
        verification = Map.copyOf(verification);
    }

    /** The weakest check any file of the model got: what the model manager reports for the model. */
    public Verification weakest() {
        return verification.values().stream().max(Enum::compareTo).orElse(Verification.SIZE_ONLY);
    }
}
