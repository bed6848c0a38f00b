package dev.dictum.app.models.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Whisper models Dictum offers to download, read from the {@code whisper-models.json} resource.
 * The resource says which hashes are known in advance and how the rest are verified ({@link #hashPolicy()}).
 */
public final class ModelCatalog {

    static final String RESOURCE = "whisper-models.json";

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Document(int schema, String source, String hashes, String sizes, List<CatalogModel> models) {}

    private final Document doc;

    private ModelCatalog(Document doc) {
        this.doc = doc;
        Set<String> ids = new HashSet<>();
        Set<String> installs = new HashSet<>();
        for (CatalogModel m : doc.models()) {
            for (CatalogVariant v : m.variants()) {
                if (!ids.add(v.id())) {
                    throw new IllegalStateException("catalog lists variant " + v.id() + " twice");
                }
                if (!installs.add(v.install())) {
                    throw new IllegalStateException("catalog installs two variants as " + v.install());
                }
            }
        }
    }

    /** The catalog shipped with Dictum. */
    public static ModelCatalog builtIn() {
        try (InputStream in = ModelCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("model catalog resource " + RESOURCE + " is missing from the build");
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("model catalog resource " + RESOURCE + " is unreadable", e);
        }
    }

    /** Reads a catalog document (the same JSON layout as the built-in one). */
    public static ModelCatalog read(InputStream json) throws IOException {
        ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);
        Document doc = mapper.readValue(json, Document.class);
        if (doc.schema() != 1) {
            throw new IOException("model catalog schema " + doc.schema() + " is not supported (expected 1)");
        }
        return new ModelCatalog(doc);
    }

    public List<CatalogModel> models() {
        return doc.models();
    }

    /** The model with this id ("tiny.en", "large-v3-turbo"). */
    public Optional<CatalogModel> model(String id) {
        return doc.models().stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /** The variant with this id ("tiny.en/ggml-q8_0"). */
    public Optional<CatalogVariant> variant(String variantId) {
        return doc.models().stream().flatMap(m -> m.variants().stream())
                .filter(v -> v.id().equals(variantId)).findFirst();
    }

    /** The model a variant belongs to. */
    public CatalogModel modelOf(CatalogVariant variant) {
        return doc.models().stream().filter(m -> m.variants().contains(variant)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("variant " + variant.id() + " is not in this catalog"));
    }

    /** The catalog's own statement of which hashes it knows and how the others are checked. */
    public String hashPolicy() {
        return doc.hashes();
    }

    /** The URL template downloads use: {@code https://huggingface.co/{repo}/resolve/{revision}/{path}}. */
    public String sourceTemplate() {
        return doc.source();
    }
}
