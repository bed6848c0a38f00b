package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "Models". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param modelPath the model in use: a Hugging Face or CTranslate2 folder or a ggml file; empty: none chosen
 * @param modelsFolder where models are looked for and downloaded; empty: the data directory's models/
 */
public record ModelSettings(
        String modelPath,
        String modelsFolder) {
    private static final String D_MODELPATH = "";
    private static final String D_MODELSFOLDER = "";

    public ModelSettings {
        modelPath = Checks.or(modelPath, D_MODELPATH);
        modelsFolder = Checks.or(modelsFolder, D_MODELSFOLDER);
    }

    public static ModelSettings defaults() {
        return new ModelSettings(D_MODELPATH, D_MODELSFOLDER);
    }

    /** Every invalid value with the reason ("models.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        Checks.path(out, "models.modelPath", modelPath);
        Checks.path(out, "models.modelsFolder", modelsFolder);
        return out;
    }

    public ModelSettings withModelPath(String v) {
        return new ModelSettings(v, modelsFolder);
    }

    public ModelSettings withModelsFolder(String v) {
        return new ModelSettings(modelPath, v);
    }
}
