package dev.dictum.app.models.catalog;

import java.util.Locale;

/**
 * Picks the model that fits the hardware for dictation, where the time from releasing the hotkey to the
 * text matters more than the last bit of accuracy.
 *
 * <p>With a GPU: large-v3-turbo (near large-v3's accuracy, four decoder layers) as f16 when the GPU has
 * room for it, as q8_0 when it is tighter, small below that. On the CPU, what Dictum's engine decodes in
 * about a second on that many cores: small (q8_0) from 12 cores, base from 6, tiny below. English
 * speakers get the {@code .en} model of a size, which is more accurate on English at the same cost.
 * Memory caps every choice: the model's working set must stay under half the machine's RAM.
 */
public final class ModelRecommender {

    /** The recommended variant and a sentence saying why, for the model manager and the first run. */
    public record Recommendation(CatalogModel model, CatalogVariant variant, String reason) {}

    private static final long GIB = 1L << 30;

    private final ModelCatalog catalog;

    public ModelRecommender(ModelCatalog catalog) {
        this.catalog = catalog;
    }

    /** The recommendation for {@code hardware}, preferring English-only models when {@code english}. */
    public Recommendation recommend(HardwareProfile hardware, boolean english) {
        if (hardware.gpuMemoryBytes().isPresent()) {
            long gpu = hardware.gpuMemoryBytes().getAsLong();
            String gpuText = String.format(Locale.ROOT, "%s with %.1f GiB",
                    hardware.gpuName() == null ? "the GPU" : hardware.gpuName(), gpu / (double) GIB);
            if (gpu >= 5 * GIB) {
                return pick("large-v3-turbo", "ggml", "f16", english, gpuText
                        + ": large-v3-turbo fits with room to spare, near large-v3 accuracy at a fraction of its decoding time");
            }
            if (gpu >= 2 * GIB) {
                return pick("large-v3-turbo", "ggml", "q8_0", english, gpuText
                        + ": large-v3-turbo quantised to 8 bits (834 MiB) fits; f16 would leave too little room");
            }
            return pick("small", "ggml", "f16", english, gpuText + ": small fits; larger models would not");
        }
        int cores = hardware.cpuCores();
        long ram = hardware.ramBytes();
        String cpuText = String.format(Locale.ROOT, "No GPU backend; %d CPU cores and %.0f GiB of memory", cores,
                ram / (double) GIB);
        if (cores >= 12 && ram >= 8 * GIB) {
            return pick("small", "ggml", "q8_0", english, cpuText + ": small (8-bit) transcribes a dictation in about a second");
        }
        if (cores >= 6 && ram >= 4 * GIB) {
            return pick("base", "ggml", "f16", english, cpuText + ": base keeps dictation under a second; small would be slower");
        }
        return pick("tiny", "ggml", "f16", english, cpuText + ": tiny keeps dictation quick; larger models would lag on this CPU");
    }

    /** True when the user's locale is English: the {@code .en} models are then the better pick. */
    public static boolean prefersEnglish(Locale locale) {
        return "en".equals(locale.getLanguage());
    }

    private Recommendation pick(String size, String format, String precision, boolean english, String reason) {
        String id = english && catalog.model(size + ".en").isPresent() ? size + ".en" : size;
        CatalogModel model = catalog.model(id)
                .orElseThrow(() -> new IllegalStateException("catalog has no model " + id));
        CatalogVariant variant = catalog.variant(id + "/" + format + "-" + precision)
                .orElseThrow(() -> new IllegalStateException("catalog has no variant " + id + "/" + format + "-" + precision));
        String languages = model.englishOnly() ? " (English-only version, more accurate on English)" : "";
        return new Recommendation(model, variant, reason + languages + ".");
    }
}
