package dev.dictum.app.ui;

import com.formdev.flatlaf.FlatLightLaf;
import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.dictation.Notifier;
import dev.dictum.app.engine.BackendSurvey;
import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.engine.ModelChoice;
import dev.dictum.app.files.PathText;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.insert.ClipboardPaste;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.os.TargetWindow;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.sound.CueSound;
import dev.dictum.app.sound.SoundCues;
import dev.dictum.app.tray.AppActions;
import dev.dictum.app.tray.Tray;
import dev.dictum.app.tray.TrayStatus;
import dev.dictum.audio.capture.InputDevices;
import dev.dictum.audio.capture.Microphone;
import java.awt.AWTException;
import java.awt.Desktop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desktop the user sees: the tray (or the control window where there is none), the indicator
 * and the notices, over the parts the composition root ({@code launch.DesktopLauncher}) built. It
 * implements the tray's actions and shows the state of the dictation, the engine and the microphone.
 * A JavaFX application with no main window; the tray is AWT's, since JavaFX has none.
 */
public final class DesktopApp implements AppActions {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopApp.class);

    /**
     * The running app's parts this desktop shows and acts on.
     *
     * @param recordings the folder "Open recordings" opens
     * @param history    the history, waiting while it opens; null when it could not be opened
     */
    public record Parts(Path recordings, Microphone mic, EngineManager engines, ModelChoice models,
                        Supplier<HistoryStore> history, ClipboardPaste clipboard, DictationController controller,
                        SoundCues sounds, FocusTracker focus, DesktopWindows windows) {}

    private final LiveSettings settings;
    private final Indicator indicator;
    private final Notices notices;
    private final CountDownLatch quit = new CountDownLatch(1);
    private final AtomicBoolean recordingShown = new AtomicBoolean();
    private final AtomicBoolean taught = new AtomicBoolean();
    private volatile Parts parts;
    private volatile Tray tray;
    private volatile ControlWindow control;
    private volatile TargetWindow menuTarget;
    private volatile BackendSurvey survey = BackendSurvey.notYet();

    private DesktopApp(LiveSettings settings) {
        this.settings = settings;
        Settings s = settings.current();
        indicator = new Indicator();
        indicator.setEnabled(s.general().showIndicator());
        notices = new Notices(settings, indicator);
    }

    /**
     * Starts Swing with FlatLaf and makes the indicator's window (not shown). The tray and JavaFX come
     * after the hotkey is live ({@link #showViews}).
     */
    public static DesktopApp start(LiveSettings settings) {
        FlatLightLaf.setup();
        return new DesktopApp(settings);
    }

    /** Where every part of the app sends its notices. */
    public Notifier notifier() {
        return notices;
    }

    /** Connects the parts and follows the controller and the engine (before the hotkey is live: a dictation may come at once). */
    public void attach(Parts p) {
        parts = p;
        notices.sounds(p.sounds());
        p.engines().addListener(st -> {
            if (st.phase() == EngineManager.Phase.READY) {
                teachOnFirstRun();
            }
        });
        p.controller().addListener(new DictationController.Listener() {
            @Override
            public void changed(DictationController.Status status) {
                switch (status.state()) {
                    case RECORDING -> {
                        if (recordingShown.compareAndSet(false, true)) {
                            p.sounds().play(CueSound.START);
                        }
                        indicator.recording(hint());
                    }
                    case TRANSCRIBING, INSERTING -> indicator.transcribing(p.engines().state().model());
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
                p.sounds().play(switch (how) {
                    case STOPPED -> CueSound.STOP;
                    case CANCELLED -> CueSound.CANCEL;
                    case LOST -> CueSound.ERROR;
                });
            }
        });
    }

    /**
     * After the hotkey is live (issue 24 item 6): starts JavaFX on a thread of its own for the windows
     * (those asked for meanwhile open once it is up) and shows the tray icon, or the control window where
     * there is no tray.
     *
     * @param fxUp runs on the FX thread once JavaFX is up, before any window
     */
    public void showViews(Runnable fxUp) throws AWTException {
        FxToolkit.start(fxUp, why -> notices.notice(Notifier.Kind.ERROR, "Dictum's windows are unavailable: " + why));
        if (Tray.supported()) {
            tray = new Tray(this);
        } else {
            LOG.info("no system tray here: showing the control window");
            ControlWindow c = new ControlWindow(this);
            notices.control(c);
            control = c;
            c.show();
        }
        refreshViews();
    }

    /** Whether the tray icon is up (else the control window is shown). */
    public boolean hasTray() {
        return tray != null;
    }

    /** The microphone's level in dBFS, from the capture thread. */
    public void level(float dbfs) {
        Parts p = parts;
        indicator.level(dbfs, p != null && p.controller().longSpeech());
        if (p != null) {
            p.windows().level(dbfs);
        }
    }

    /** The backends were each opened once: the tray's reasons and the hardware for the recommendation. */
    public void surveyed(BackendSurvey s) {
        survey = s;
        refreshViews();
    }

    /** The settings file could not be used as it was: says so, and shows why and where the backup is. */
    public void settingsProblem(String notice, Path backup) {
        notices.notice(Notifier.Kind.WARNING, notice);
        FxToolkit.later(() -> new SettingsProblemWindow(notice, backup).show());
    }

    /** The engine's state changed: the views follow, and a load says so. */
    public void engineChanged(EngineManager.State st) {
        refreshViews();
        Parts p = parts;
        if (p != null && (st.phase() == EngineManager.Phase.READY || st.phase() == EngineManager.Phase.FAILED)) {
            p.windows().modelsChanged(); // a --model path or a file from elsewhere joins the lists
        }
        if (st.phase() == EngineManager.Phase.LOADING) {
            notices.notice(Notifier.Kind.INFO, "Loading " + st.model() + ": it is ready in a few seconds");
        } else if (st.phase() == EngineManager.Phase.READY && st.detail() != null && !st.detail().startsWith("kept")) {
            notices.notice(Notifier.Kind.INFO, "Ready: " + st.model() + " on " + st.backend().toUpperCase(Locale.ROOT));
        }
    }

    /** A settings change the desktop shows (the indicator), after the parts have taken theirs. */
    public void settingsChanged(Settings before, Settings after) {
        if (!before.general().showIndicator().equals(after.general().showIndicator())) {
            indicator.setEnabled(after.general().showIndicator());
        }
        refreshViews();
    }

    /** Returns when the user chose Quit. */
    public void awaitQuit() throws InterruptedException {
        quit.await();
    }

    /** Removes the tray icon or closes the control window. */
    public void closeViews() {
        Tray t = tray;
        if (t != null) {
            t.remove();
        }
        ControlWindow c = control;
        if (c != null) {
            c.close();
        }
    }

    /** Ends JavaFX, when it started. */
    public void exitToolkit() {
        FxToolkit.exit();
    }

    public void refreshViews() {
        Parts p = parts;
        Tray tr = tray;
        if (tr != null && p != null) {
            DictationState st = p.controller().status().state();
            TrayStatus t = TrayStatus.of(p.engines().state(), st, p.mic().problem());
            tr.show(t.look(), t.tooltip());
        }
        ControlWindow c = control;
        if (c != null) {
            c.refresh();
        }
    }

    private String hint() {
        Settings s = settings.current();
        String stop = s.hotkeys().mode() == DictationMode.PUSH_TO_TALK ? "Release to insert"
                : "Press " + s.hotkeys().dictate() + " again to insert";
        return s.hotkeys().cancel().isBlank() ? stop : stop + " · " + s.hotkeys().cancel() + " cancels";
    }

    /** A first run (nothing dictated yet): the indicator shows how to dictate, once per run. */
    private void teachOnFirstRun() {
        HistoryStore history = parts.history().get();
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

    private void update(UnaryOperator<Settings> change) {
        try {
            settings.update(change);
        } catch (RuntimeException e) {
            notices.notice(Notifier.Kind.ERROR, "Setting not saved: " + e.getMessage());
        }
    }

    // ---- AppActions

    @Override
    public Settings settings() {
        return settings.current();
    }

    @Override
    public List<DiscoveredModel> models() {
        return parts.models().list();
    }

    @Override
    public List<String> inputDevices() {
        return InputDevices.names();
    }

    @Override
    public List<String> languages() {
        return parts.engines().languages();
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
        return parts.engines().state();
    }

    @Override
    public String microphoneProblem() {
        return parts.mic().problem();
    }

    @Override
    public DictationController.Status status() {
        return parts.controller().status();
    }

    @Override
    public String lastText() {
        return parts.controller().lastText();
    }

    @Override
    public void chooseModel(DiscoveredModel m) {
        parts.models().load(m.path(), settings.current().advanced().backend());
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
        String t = parts.controller().lastText();
        if (t != null) {
            parts.clipboard().copy(t);
            notices.notice(Notifier.Kind.INFO, "Copied the last transcript");
        }
    }

    @Override
    public void menuOpening() {
        menuTarget = parts.focus().focused();
    }

    @Override
    public void pasteLast() {
        parts.controller().pasteLast(menuTarget);
    }

    @Override
    public void retry() {
        parts.controller().retryFailed();
    }

    @Override
    public void openSettings() {
        parts.windows().openSettings();
    }

    @Override
    public void openModels() {
        parts.windows().openModels();
    }

    @Override
    public void openHistory() {
        parts.windows().openHistory();
    }

    @Override
    public void openRecordings() {
        Path dir = parts.recordings();
        try {
            Files.createDirectories(dir);
            if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.OPEN)) {
                Desktop.getDesktop().open(dir.toFile());
            } else {
                new ProcessBuilder("xdg-open", dir.toString()).start();
            }
        } catch (IOException | RuntimeException e) {
            notices.notice(Notifier.Kind.WARNING, "Cannot open " + PathText.quoted(dir) + ": " + e.getMessage());
        }
    }

    @Override
    public void quit() {
        quit.countDown();
    }
}
