package dev.dictum.app.models.catalog;

import dev.dictum.app.models.ModelFormat;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * One downloadable form of a model: a format, a precision, the hub repository and its files.
 *
 * @param id        unique in the catalog, e.g. {@code tiny.en/ggml-q8_0}
 * @param install   the name it is installed under in the models folder: the ggml file's name, or the
 *                  folder's name for multi-file formats
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CatalogVariant(String id, ModelFormat format, String precision, String repo, String revision,
                             String install, List<CatalogFile> files) {

    public CatalogVariant {
        if (install == null || install.isBlank() || install.contains("/") || install.contains("\\")
                || install.startsWith(".")) {
            throw new IllegalArgumentException("variant " + id + ": install name must be a plain name: " + install);
        }
        files = List.copyOf(files);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("variant " + id + " lists no files");
        }
        if (format == ModelFormat.GGML && files.size() != 1) {
            throw new IllegalArgumentException("variant " + id + ": a ggml model is exactly one file");
        }
    }

    /** True when the model is one file placed directly in the models folder (ggml). */
    public boolean singleFile() {
        return format == ModelFormat.GGML;
    }

    /** The approximate download size of the files the model needs. */
    public long approxBytes() {
        return files.stream().filter(f -> !f.optional()).mapToLong(CatalogFile::approxBytes).sum();
    }

    /** A short human label, e.g. "whisper.cpp ggml, q8_0". */
    public String label() {
        return format.label() + ", " + precision;
    }
}
