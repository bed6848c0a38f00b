package dev.dictum.app.engine;

import dev.dictum.app.dictation.Notifier;
import dev.dictum.app.files.PathText;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.ModelDiscovery;
import dev.dictum.app.models.ModelList;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Which model dictation uses: a choice (tray, settings window, {@code --model}) is loaded first and
 * written to the settings only once it works ({@link EngineManager.Listener#working}); one that fails
 * is un-chosen, and the previous model keeps serving or the remembered one is loaded again.
 */
public final class ModelChoice implements EngineManager.Listener {
    private final EngineManager engines;
    private final LiveSettings settings;
    private final Notifier notifier;
    private final Path defaultModelsFolder;
    private volatile String revertTo; // the model path before one typed into the settings window, until it loads
    private volatile boolean reverting; // failed() is putting a path back: not a new choice

    public ModelChoice(EngineManager engines, LiveSettings settings, Notifier notifier, Path defaultModelsFolder) {
        this.engines = engines;
        this.settings = settings;
        this.notifier = notifier;
        this.defaultModelsFolder = defaultModelsFolder;
    }

    /**
     * At start: loads {@code model} (the command line's, remembered once it works) or the remembered
     * one; the load runs behind the rest of start-up.
     *
     * @return whether a load started (else {@link #loadChosen} later says what to do)
     */
    public boolean loadAtStart(Path model, Settings s) {
        String chosen = s.models().modelPath();
        boolean loading = model != null || !chosen.isBlank() && Files.exists(Path.of(chosen));
        if (model != null) {
            load(model, s.advanced().backend());
        } else if (loading) {
            loadChosen(s);
        }
        return loading;
    }

    /** Loads the model the settings name, or says why there is none. */
    public void loadChosen(Settings s) {
        String path = s.models().modelPath();
        if (path.isBlank()) {
            notifier.notice(Notifier.Kind.INFO, "Choose a model: right-click the tray icon → Model");
            return;
        }
        Path p = Path.of(path);
        if (!Files.exists(p)) {
            notifier.notice(Notifier.Kind.ERROR, "The model " + PathText.quoted(path) + " is gone; choose another in the Model menu");
            return;
        }
        load(p, s.advanced().backend());
    }

    /** Loads a model without remembering it: the settings name it only once it works ({@link #working}). */
    public void load(Path p, String backend) {
        DiscoveredModel d = ModelDiscovery.describe(p, DiscoveredModel.Source.CONFIGURED);
        String name = d == null ? p.getFileName().toString() : d.name();
        engines.load(p, name, backend);
    }

    /** The models found (models folder, Hugging Face cache) joined with those in use or asked for. */
    public List<DiscoveredModel> list() {
        Settings s = settings.current();
        List<Path> folders = new ArrayList<>();
        folders.add(s.models().modelsFolder().isBlank() ? defaultModelsFolder : Path.of(s.models().modelsFolder()));
        List<DiscoveredModel> found = ModelDiscovery.discover(folders, ModelDiscovery.huggingFaceCache(System.getenv(),
                Path.of(System.getProperty("user.home"))));
        List<Path> inUse = new ArrayList<>();
        if (!s.models().modelPath().isBlank()) {
            inUse.add(Path.of(s.models().modelPath()));
        }
        inUse.add(engines.readyPath());
        inUse.add(engines.requested()); // a --model path or a file chosen from elsewhere
        return ModelList.of(found, inUse);
    }

    /** A settings change: a new model path or backend loads (a path that is loading or loaded already does not). */
    public void settingsChanged(Settings before, Settings after) {
        boolean backendChanged = !before.advanced().backend().equals(after.advanced().backend());
        boolean newPath = !before.models().modelPath().equals(after.models().modelPath())
                && !after.models().modelPath().equals(String.valueOf(engines.requested()));
        if (newPath && !reverting) {
            revertTo = before.models().modelPath(); // until the new one works
        }
        if (newPath || backendChanged) {
            loadChosen(after);
        }
    }

    @Override
    public void changed(EngineManager.State s) {
    }

    /** The chosen model does not fit the GPU: the user hears it, with the figures, and that the CPU runs it. */
    @Override
    public void cpuInstead(String why) {
        notifier.notice(Notifier.Kind.WARNING, why);
    }

    @Override
    public void working(Path path) {
        revertTo = null;
        if (!path.toString().equals(settings.current().models().modelPath())) {
            update(x -> x.with(x.models().withModelPath(path.toString())));
        }
    }

    /** One sentence with the model's name and the reason; a model chosen in the settings window is un-chosen. */
    @Override
    public void failed(String name, String why, String stillUsing) {
        Path working = engines.readyPath();
        Path failed = engines.requested();
        String current = settings.current().models().modelPath();
        // Nothing serves, and the remembered model is not the one that failed (a --model or tray choice at start).
        boolean fallBack = working == null && revertTo == null && !current.isBlank()
                && (failed == null || !current.equals(failed.toString()));
        notifier.notice(Notifier.Kind.ERROR, "Could not load " + name + ": " + why
                + (stillUsing != null ? "; still using " + stillUsing + "."
                : fallBack ? "; loading the last model that worked." : "; choose another model in the Model menu."));
        if (fallBack) {
            loadChosen(settings.current());
            return;
        }
        // A path saved by the settings window goes back to the model that works, or to what it was before.
        String back = working != null ? working.toString() : revertTo;
        revertTo = null;
        if (back != null && !back.equals(current)) {
            reverting = true;
            try {
                update(x -> x.with(x.models().withModelPath(back)));
            } finally {
                reverting = false;
            }
        }
    }

    private void update(UnaryOperator<Settings> change) {
        try {
            settings.update(change);
        } catch (RuntimeException e) {
            notifier.notice(Notifier.Kind.ERROR, "Setting not saved: " + e.getMessage());
        }
    }
}
