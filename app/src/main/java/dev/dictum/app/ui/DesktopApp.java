package dev.dictum.app.ui;

import com.formdev.flatlaf.FlatLightLaf;
import com.github.kwhat.jnativehook.NativeHookException;
import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.dictation.FocusTracker;
import dev.dictum.app.dictation.KeyboardState;
import dev.dictum.app.dictation.NoticeThrottle;
import dev.dictum.app.dictation.Notifier;
import dev.dictum.app.dictation.RecordingsFolder;
import dev.dictum.app.engine.BackendSurvey;
import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.hotkey.GlobalHotkeys;
import dev.dictum.app.sound.CueSound;
import dev.dictum.app.sound.SoundCues;
import dev.dictum.app.hotkey.KeyGrabs;
import dev.dictum.app.insert.ClipboardPaste;
import dev.dictum.app.insert.RobotKeys;
import dev.dictum.app.insert.TextInserter;
import dev.dictum.app.insert.UnicodeTyper;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.ModelDiscovery;
import dev.dictum.app.models.ModelList;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.platform.AppDirs;
import dev.dictum.app.platform.AppLogging;
import dev.dictum.app.platform.OwnerOnly;
import dev.dictum.app.platform.PathText;
import dev.dictum.app.platform.SingleInstance;
import dev.dictum.app.platform.windows.WindowsFocus;
import dev.dictum.app.platform.windows.WindowsTyper;
import dev.dictum.app.platform.x11.X11Focus;
import dev.dictum.app.platform.x11.X11Grabs;
import dev.dictum.app.platform.x11.X11Typer;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsFileWatch;
import dev.dictum.app.settings.SettingsStore;
import dev.dictum.app.tray.Tray;
import dev.dictum.app.tray.TrayStatus;
import dev.dictum.audio.capture.InputDevices;
import dev.dictum.audio.capture.Microphone;
import dev.dictum.audio.capture.SourceWatch;
import java.awt.Desktop;
import java.awt.GraphicsEnvironment;
import java.awt.Toolkit;
import java.awt.datatransfer.StringSelection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import dev.dictum.app.ui.kit.DesktopWindows;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desktop app: wires settings, microphone, engine, hotkeys, insertion, tray (or control
 * window) and indicator together, and runs until Quit. A JavaFX application with no main window;
 * the tray is AWT's, since JavaFX has none.
 */
public final class DesktopApp implements AppActions {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopApp.class);
    private static final int SURVEY_WAIT_SECONDS = 15;

    private final AppDirs dirs;
    private final CountDownLatch quit = new CountDownLatch(1);
    private LiveSettings settings;
    private Microphone mic;
    private EngineManager engines;
    private HistoryStore history;
    private DictationController controller;
    private GlobalHotkeys hotkeys;
    private SoundCues sounds;
    private final java.util.concurrent.atomic.AtomicBoolean recordingShown = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean taught = new java.util.concurrent.atomic.AtomicBoolean();
    private Indicator indicator;
    private Tray tray;
    private ControlWindow control;
    private ClipboardPaste clipboard;
    private FocusTracker focus = FocusTracker.NONE;
    private volatile dev.dictum.app.dictation.TargetWindow menuTarget;
    private volatile BackendSurvey survey = BackendSurvey.notYet();
    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private final DesktopWindows windows = new DesktopWindows();
    private volatile String revertTo; // the model path before one typed into the settings window, until it loads
    private volatile boolean reverting; // modelFailed is putting a path back: not a new choice
    private final NoticeThrottle throttle = new NoticeThrottle(() -> System.nanoTime() / 1_000_000);
    private final java.util.concurrent.ScheduledExecutorService noticeTimer =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                    r -> Thread.ofPlatform().daemon().name("dictum-notices").unstarted(r));

    public DesktopApp(AppDirs dirs) {
        this.dirs = dirs;
    }

    /**
     * Runs the app until Quit; returns the exit code. Problems before the UI exists go to {@code err}.
     *
     * @param model a model to use and remember (the command line's --model), or null
     */
    public int run(boolean verbose, Path model, PrintWriter err) throws IOException, InterruptedException, java.awt.AWTException {
        if (GraphicsEnvironment.isHeadless()) {
            err.println("dictum: error: the app needs a graphical desktop (DISPLAY is not set)");
            return 1;
        }
        SingleInstance instance = SingleInstance.acquire(dirs.data());
        if (instance == null) {
            SingleInstance.poke(dirs.data());
            err.println("dictum: Dictum is already running (look for its icon in the system tray)");
            return 1;
        }
        // What the user said is theirs alone: folders 0700, files 0600 (Linux), older files included.
        OwnerOnly.tighten(dirs.config());
        OwnerOnly.tighten(dirs.data());
        Path log = AppLogging.configure(dirs.logs(), verbose);
        LOG.info("Dictum starting; settings {}, data {}, log {}", dirs.settingsFile(), dirs.data(), log);
        SettingsStore store = new SettingsStore(dirs.settingsFile());
        SettingsStore.Loaded loaded = store.load();
        settings = new LiveSettings(store, loaded.settings());
        // --model is remembered only once it has loaded (EngineManager.Listener.working), like a tray choice.
        Settings s = settings.current();

        FlatLightLaf.setup();
        // JavaFX warns that it runs from the class path (as ./dictum starts it); that is intended here.
        java.util.logging.Logger.getLogger("javafx").setLevel(java.util.logging.Level.SEVERE);
        Platform.setImplicitExit(false);
        Platform.startup(() -> { });
        indicator = new Indicator();
        indicator.setEnabled(s.general().showIndicator());
        indicator.speechThreshold(s.audio().speechThresholdDb());

        mic = new Microphone(InputDevices::open, s.audio().inputDevice(), SourceWatch::forPlatform);
        mic.onLevel(db -> {
            indicator.level(db);
            windows.level(db);
        });
        mic.onStatus(p -> {
            if (p != null) {
                notifier().notice(Notifier.Kind.WARNING, p);
            }
            refreshViews();
        });
        engines = new EngineManager(() -> settings.current().transcription());
        engines.addListener(new EngineManager.Listener() {
            @Override
            public void changed(EngineManager.State st) {
                engineChanged(st);
            }

            @Override
            public void failed(String name, String why, String stillUsing) {
                modelFailed(name, why, stillUsing);
            }

            @Override
            public void working(Path path) {
                revertTo = null;
                if (!path.toString().equals(settings.current().models().modelPath())) {
                    update(x -> x.with(x.models().withModelPath(path.toString())));
                }
            }
        });
        // The model loads and warms up behind the rest of start-up (a dictation that comes first waits for the
        // load only: warm-up yields to it); the tray, hotkey and microphone do not wait for it. Without a
        // usable model, loadChosenModel below says so once the tray or control window exists.
        String chosen = s.models().modelPath();
        boolean loading = model != null || !chosen.isBlank() && Files.exists(Path.of(chosen));
        if (model != null) {
            loadModel(model, s.advanced().backend());
        } else if (loading) {
            loadChosenModel(s);
        }
        try {
            history = HistoryStore.open(dirs.historyDatabase());
        } catch (RuntimeException e) {
            LOG.warn("history unavailable: {}", e.getMessage());
            notifier().notice(Notifier.Kind.WARNING, "History unavailable: " + e.getMessage());
        }
        focus = focusTracker();
        clipboard = new ClipboardPaste(Toolkit.getDefaultToolkit().getSystemClipboard(), new RobotKeys());
        TextInserter inserter = new TextInserter(clipboard, new RobotKeys(), typer());
        controller = new DictationController(new DictationController.Parts(settings::current, mic, engines, inserter,
                focus, keyboard(), new RecordingsFolder(dirs.recordings()),
                history, notifier()));
        controller.recoverInterrupted(); // a dictation the last run died in (kill -9, a driver crash)
        sounds = new SoundCues(() -> settings.current().audio());
        closeLast.add(sounds);
        engines.addListener(st -> {
            if (st.phase() == EngineManager.Phase.READY) {
                teachOnFirstRun();
            }
        });
        controller.addListener(new DictationController.Listener() {
            @Override
            public void changed(DictationController.Status status) {
                switch (status.state()) {
                    case RECORDING -> {
                        if (recordingShown.compareAndSet(false, true)) {
                            sounds.play(CueSound.START);
                        }
                        indicator.recording(hint());
                    }
                    case TRANSCRIBING, INSERTING -> indicator.transcribing(engines.state().model());
                    case IDLE -> indicator.idle();
                }
                refreshViews();
            }

            @Override
            public void partial(String text) {
                indicator.partial(text);
            }

            @Override
            public void recordingEnded(DictationController.Ending how) {
                recordingShown.set(false);
                sounds.play(switch (how) {
                    case STOPPED -> CueSound.STOP;
                    case CANCELLED -> CueSound.CANCEL;
                    case LOST -> CueSound.ERROR;
                });
            }
        });

        if (Tray.supported()) {
            tray = new Tray(this);
        } else {
            LOG.info("no system tray here: showing the control window");
            control = new ControlWindow(this);
            control.show();
        }
        hotkeys = new GlobalHotkeys(controller, s.hotkeys(), keyGrabs(),
                problem -> notifier().notice(Notifier.Kind.WARNING, problem));
        boolean hotkeyLive = false;
        try {
            hotkeys.start();
            hotkeyLive = true;
        } catch (NativeHookException | UnsatisfiedLinkError e) {
            LOG.warn("global hotkeys unavailable: {}", e.getMessage());
            notifier().notice(Notifier.Kind.ERROR, "Global hotkeys unavailable: " + e.getMessage());
        }
        settings.addListener(this::applyChange);
        SettingsFileWatch.start(settings, why -> notifier().notice(Notifier.Kind.WARNING, why)); // edits from outside
        windows.attach(new DesktopWindows.Parts(this, settings, dirs, mic, history, inserter, controller));
        instance.onPoke(() -> notifier().notice(Notifier.Kind.INFO, tray != null
                ? "Dictum is already running: its menu is on the tray icon"
                : "Dictum is already running: this is its window"));
        CompletableFuture<Void> surveyed = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("dictum-backends").start(() -> {
            try {
                survey = BackendSurvey.run();
                refreshViews();
            } finally {
                surveyed.complete(null);
            }
        });
        // The first-run offer recommends by the GPU's memory, so it waits for the survey; not for a driver that hangs.
        surveyed.completeOnTimeout(null, SURVEY_WAIT_SECONDS, TimeUnit.SECONDS).thenRun(windows::offerModelIfNone)
                .exceptionally(e -> {
                    LOG.warn("first-run offer failed: {}", e.toString());
                    return null;
                });
        if (loaded.notice() != null) {
            notifier().notice(Notifier.Kind.WARNING, loaded.notice());
            Platform.runLater(() -> new SettingsProblemWindow(loaded.notice(), loaded.backup()).show());
        }
        if (!loading) {
            loadChosenModel(s); // no usable model: the notice says what to do, now that the tray shows it
        }
        refreshViews();
        LOG.info("Dictum running: hotkey {} ({})", s.hotkeys().dictate(), s.hotkeys().mode().label());
        if (hotkeyLive) {
            System.out.println(ReadyLine.of(s.hotkeys(), engines.state())); // the terminal's one line
            System.out.flush();
        }
        quit.await();
        shutdown(instance);
        return 0;
    }

    private void engineChanged(EngineManager.State st) {
        refreshViews();
        if (st.phase() == EngineManager.Phase.READY || st.phase() == EngineManager.Phase.FAILED) {
            windows.modelsChanged(); // a --model path or a file from elsewhere joins the lists
        }
        if (st.phase() == EngineManager.Phase.LOADING) {
            notifier().notice(Notifier.Kind.INFO, "Loading " + st.model() + ": it is ready in a few seconds");
        } else if (st.phase() == EngineManager.Phase.READY && st.detail() != null && !st.detail().startsWith("kept")) {
            notifier().notice(Notifier.Kind.INFO, "Ready: " + st.model() + " on " + st.backend().toUpperCase(Locale.ROOT));
        }
    }

    /** One sentence with the model's name and the reason; a model chosen in the settings window is un-chosen. */
    private void modelFailed(String name, String why, String stillUsing) {
        Path working = engines.readyPath();
        Path failed = engines.requested();
        String current = settings.current().models().modelPath();
        // Nothing serves, and the remembered model is not the one that failed (a --model or tray choice at start).
        boolean fallBack = working == null && revertTo == null && !current.isBlank()
                && (failed == null || !current.equals(failed.toString()));
        notifier().notice(Notifier.Kind.ERROR, "Could not load " + name + ": " + why
                + (stillUsing != null ? "; still using " + stillUsing + "."
                : fallBack ? "; loading the last model that worked." : "; choose another model in the Model menu."));
        if (fallBack) {
            loadChosenModel(settings.current());
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

    private void loadChosenModel(Settings s) {
        String path = s.models().modelPath();
        if (path.isBlank()) {
            notifier().notice(Notifier.Kind.INFO, "Choose a model: right-click the tray icon → Model");
            return;
        }
        Path p = Path.of(path);
        if (!Files.exists(p)) {
            notifier().notice(Notifier.Kind.ERROR, "The model " + PathText.quoted(path) + " is gone; choose another in the Model menu");
            return;
        }
        loadModel(p, s.advanced().backend());
    }

    /** Loads a model without remembering it: the settings name it only once it works (Listener.working). */
    private void loadModel(Path p, String backend) {
        DiscoveredModel d = ModelDiscovery.describe(p, DiscoveredModel.Source.CONFIGURED);
        String name = d == null ? p.getFileName().toString() : d.name();
        engines.load(p, name, backend);
    }

    private void applyChange(Settings before, Settings after) {
        if (!before.hotkeys().equals(after.hotkeys())) {
            hotkeys.apply(after.hotkeys());
        }
        if (!before.audio().inputDevice().equals(after.audio().inputDevice())) {
            mic.setDevice(after.audio().inputDevice());
        }
        boolean backendChanged = !before.advanced().backend().equals(after.advanced().backend());
        // A path that is loading or loaded already (a tray choice being remembered, a failed one reverted) is not reloaded.
        boolean newPath = !before.models().modelPath().equals(after.models().modelPath())
                && !after.models().modelPath().equals(String.valueOf(engines.requested()));
        if (newPath && !reverting) {
            revertTo = before.models().modelPath(); // until the new one works
        }
        if (newPath || backendChanged) {
            loadChosenModel(after);
        }
        if (!before.general().showIndicator().equals(after.general().showIndicator())) {
            indicator.setEnabled(after.general().showIndicator());
            indicator.speechThreshold(after.audio().speechThresholdDb());
        }
        refreshViews();
    }

    private String hint() {
        Settings s = settings.current();
        String stop = s.hotkeys().mode() == DictationMode.PUSH_TO_TALK ? "Release to insert"
                : "Press " + s.hotkeys().dictate() + " again to insert";
        return s.hotkeys().cancel().isBlank() ? stop : stop + " · " + s.hotkeys().cancel() + " cancels";
    }

    private void refreshViews() {
        if (tray != null) {
            DictationState st = controller == null ? DictationState.IDLE : controller.status().state();
            TrayStatus t = TrayStatus.of(engines.state(), st, mic.problem());
            tray.show(t.look(), t.tooltip());
        }
        if (control != null) {
            control.refresh();
        }
    }

    /** Every notice is logged; the screen gets at most one a second, repeats merged (NoticeThrottle). */
    private Notifier notifier() {
        return (kind, message) -> {
            if (kind == Notifier.Kind.ERROR && sounds != null) {
                sounds.play(CueSound.ERROR);
            }
            switch (kind) {
                case INFO -> LOG.info("notice: {}", message);
                case WARNING, ERROR -> LOG.warn("notice: {}", message);
            }
            if (settings != null && !settings.current().general().showNotices() && kind != Notifier.Kind.ERROR
                    && control == null) {
                return;
            }
            NoticeThrottle.Shown now = throttle.offer(kind, message);
            if (now != null) {
                display(now);
            } else {
                long wait = Math.max(0, throttle.nextDueMillis() - System.nanoTime() / 1_000_000);
                noticeTimer.schedule(() -> {
                    NoticeThrottle.Shown merged = throttle.due();
                    if (merged != null) {
                        display(merged);
                    }
                }, wait + 5, TimeUnit.MILLISECONDS);
            }
        };
    }

    private void display(NoticeThrottle.Shown n) {
        boolean onIndicator = settings == null || settings.current().general().showNotices()
                || n.kind() == Notifier.Kind.ERROR;
        if (onIndicator && indicator != null) {
            indicator.notice(n.message(), n.kind() != Notifier.Kind.INFO);
        }
        if (control != null) {
            control.notice(n.message());
        }
    }

    private FocusTracker focusTracker() {
        try {
            if (X11Focus.available()) {
                X11Focus f = new X11Focus();
                closeLast.add(f);
                return f;
            }
            if (WindowsFocus.available()) {
                return new WindowsFocus();
            }
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("focus tracking unavailable: {}", e.getMessage());
        }
        return FocusTracker.NONE;
    }

    /** A first run (nothing dictated yet): the indicator shows how to dictate, once per run. */
    private void teachOnFirstRun() {
        if (history == null || history.count() > 0 || !taught.compareAndSet(false, true)) {
            return;
        }
        Settings s = settings.current();
        String key = s.hotkeys().dictate();
        if (s.hotkeys().mode() == DictationMode.PUSH_TO_TALK) {
            indicator.teach("Hold " + key + " and speak", "Release it, and the text appears where your cursor is");
        } else {
            indicator.teach("Press " + key + " and speak", "Press it again, and the text appears where your cursor is");
        }
    }

    /** The hotkeys' view of the keyboard, once they exist (they are made after the controller). */
    private KeyboardState keyboard() {
        return new KeyboardState() {
            @Override
            public boolean modifiersHeld() {
                return hotkeys != null && hotkeys.modifiersHeld();
            }

            @Override
            public long lastEditMillis() {
                return hotkeys == null ? 0 : hotkeys.lastEditMillis();
            }
        };
    }

    /** X11 passive grabs, so that the app's hotkeys do not also reach the focused window; closed by the hotkeys. */
    private static KeyGrabs keyGrabs() {
        try {
            if (X11Grabs.available()) {
                return new X11Grabs();
            }
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("key grabs unavailable (the hotkeys also reach the focused window): {}", e.getMessage());
        }
        return KeyGrabs.NONE;
    }

    private UnicodeTyper typer() {
        try {
            if (X11Focus.available()) {
                X11Typer t = new X11Typer();
                closeLast.add(t);
                return t;
            }
            if (WindowsFocus.available()) {
                return new WindowsTyper();
            }
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            LOG.warn("typing unavailable (paste is used instead): {}", e.getMessage());
        }
        return null;
    }

    private void update(UnaryOperator<Settings> change) {
        try {
            settings.update(change);
        } catch (RuntimeException e) {
            notifier().notice(Notifier.Kind.ERROR, "Setting not saved: " + e.getMessage());
        }
    }

    private void shutdown(SingleInstance instance) {
        LOG.info("Dictum quitting");
        if (hotkeys != null) {
            hotkeys.close();
        }
        controller.close();
        if (tray != null) {
            tray.remove();
        }
        if (control != null) {
            control.close();
        }
        mic.close();
        windows.close();
        engines.close();
        if (history != null) {
            history.close();
        }
        for (AutoCloseable c : closeLast) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("closing {}: {}", c, e.getMessage());
            }
        }
        Platform.exit();
        try {
            instance.close();
        } catch (IOException e) {
            LOG.debug("lock: {}", e.getMessage());
        }
    }

    // ---- AppActions

    @Override
    public Settings settings() {
        return settings.current();
    }

    @Override
    public List<DiscoveredModel> models() {
        Settings s = settings.current();
        List<Path> folders = new ArrayList<>();
        folders.add(s.models().modelsFolder().isBlank() ? dirs.models() : Path.of(s.models().modelsFolder()));
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

    @Override
    public List<String> inputDevices() {
        return InputDevices.names();
    }

    @Override
    public List<String> languages() {
        return engines.languages();
    }

    @Override
    public Map<String, String> backends() {
        return survey.problems();
    }

    @Override
    public HardwareProfile hardware() {
        return survey.hardware(HardwareProfile.ofThisMachine(), settings.current().advanced().backend());
    }

    @Override
    public EngineManager.State engineState() {
        return engines.state();
    }

    @Override
    public String microphoneProblem() {
        return mic.problem();
    }

    @Override
    public DictationController.Status status() {
        return controller.status();
    }

    @Override
    public String lastText() {
        return controller.lastText();
    }

    @Override
    public void chooseModel(DiscoveredModel m) {
        loadModel(m.path(), settings.current().advanced().backend());
    }

    @Override
    public void chooseBackend(String name) {
        update(s -> s.with(s.advanced().withBackend(name)));
    }

    @Override
    public void chooseInputDevice(String name) {
        update(s -> s.with(s.audio().withInputDevice(name)));
    }

    @Override
    public void chooseLanguage(String code) {
        update(s -> s.with(s.transcription().withLanguage(code)));
    }

    @Override
    public void chooseMode(DictationMode mode) {
        update(s -> s.with(s.hotkeys().withMode(mode)));
    }

    @Override
    public void chooseInsertion(InsertionMethod method) {
        update(s -> s.with(s.insertion().withMethod(method)));
    }

    @Override
    public void copyLast() {
        String t = controller.lastText();
        if (t != null) {
            clipboard.copy(t);
            notifier().notice(Notifier.Kind.INFO, "Copied the last transcript");
        }
    }

    @Override
    public void menuOpening() {
        menuTarget = focus.focused();
    }

    @Override
    public void pasteLast() {
        controller.pasteLast(menuTarget);
    }

    @Override
    public void retry() {
        controller.retryFailed();
    }

    @Override
    public void openSettings() {
        windows.openSettings();
    }

    @Override
    public void openModels() {
        windows.openModels();
    }

    @Override
    public void openHistory() {
        windows.openHistory();
    }

    @Override
    public void openRecordings() {
        Path dir = dirs.recordings();
        try {
            Files.createDirectories(dir);
            if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.OPEN)) {
                Desktop.getDesktop().open(dir.toFile());
            } else {
                new ProcessBuilder("xdg-open", dir.toString()).start();
            }
        } catch (IOException | RuntimeException e) {
            notifier().notice(Notifier.Kind.WARNING, "Cannot open " + PathText.quoted(dir) + ": " + e.getMessage());
        }
    }

    @Override
    public void quit() {
        quit.countDown();
    }
}
