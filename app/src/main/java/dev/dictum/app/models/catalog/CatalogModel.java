package dev.dictum.app.models.catalog;

import dev.dictum.app.models.ModelFormat;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Optional;

/**
 * A Whisper model (tiny … large-v3-turbo, distil-large-v3) and the forms it can be downloaded in.
 *
 * @param englishOnly   true for the {@code .en} and distil models: no other language, no translation
 * @param languageCount how many languages it transcribes (99; 100 for the v3 family; 1 for English-only)
 * @param note          what a user should know beyond size and languages, or null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CatalogModel(String id, String name, int parametersMillions, boolean englishOnly, int languageCount,
                           String note, List<CatalogVariant> variants) {

    public CatalogModel {
        variants = List.copyOf(variants);
    }

    /** The variant of the given format and precision, if the catalog has it. */
    public Optional<CatalogVariant> variant(ModelFormat format, String precision) {
        return variants.stream().filter(v -> v.format() == format && v.precision().equals(precision)).findFirst();
    }

    /** "English" or "99 languages", as the model manager shows it. */
    public String languagesLabel() {
        return englishOnly ? "English" : languageCount + " languages";
    }
}
