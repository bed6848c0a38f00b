package dev.dictum.app.launch;

import com.github.kwhat.jnativehook.NativeHookException;
import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.MicrophoneCheck;
import dev.dictum.app.dictation.Notifier;
import dev.dictum.app.dictation.RecordingsFolder;
import dev.dictum.app.engine.BackendSurvey;
import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.engine.ModelChoice;
import dev.dictum.app.files.AppDirs;
import dev.dictum.app.files.OwnerOnly;
import dev.dictum.app.files.SingleInstance;
import dev.dictum.app.history.HistoryOpener;
import dev.dictum.app.hotkey.GlobalHotkeys;
import dev.dictum.app.hotkey.KeyboardWatch;
import dev.dictum.app.insert.ClipboardPaste;
import dev.dictum.app.insert.KeySender;
import dev.dictum.app.insert.TextInserter;
import dev.dictum.app.models.download.ModelDownloader;
import dev.dictum.app.os.Autostart;
import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.os.FocusTracker;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsFileWatch;
import dev.dictum.app.settings.SettingsStore;
import dev.dictum.app.sound.Playback;
import dev.dictum.app.sound.SoundCues;
import dev.dictum.app.ui.DesktopApp;
import dev.dictum.app.ui.DesktopWindows;
import dev.dictum.app.ui.ReadyLine;
import dev.dictum.audio.capture.InputDevices;
import dev.dictum.audio.capture.Microphone;
import dev.dictum.audio.capture.SourceWatch;
import java.awt.AWTException;
import java.awt.GraphicsEnvironment;
import java.awt.Toolkit;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root of {@code dictum app}: the one class that knows every package. It claims the
 * single instance, tightens the folders, picks the OS adapters ({@link OsIntegrations}), builds the
 * settings, microphone, engine, history, insertion, dictation controller, sounds and hotkeys, hands
 * them to the desktop ({@link DesktopApp}, {@link DesktopWindows}), runs until Quit and closes all
 * in order. Everything else receives what it uses.
 */
public final class DesktopLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopLauncher.class);
    private static final int SURVEY_WAIT_SECONDS = 15;

    private final AppDirs dirs;

    public DesktopLauncher(AppDirs dirs) {
        this.dirs = dirs;
    }

    /**
     * Runs the app until Quit; returns the exit code. Problems before the UI exists go to {@code err}.
     *
     * @param model a model to use and remember (the command line's --model), or null
     */
    public int run(boolean verbose, Path model, PrintWriter err) throws IOException, InterruptedException, AWTException {
        StartupProfile profile = new StartupProfile();
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
        profile.mark("lock and folders");
        Path log = AppLogging.configure(dirs.logs(), verbose);
        LOG.info("Dictum starting; settings {}, data {}, log {}", dirs.settingsFile(), dirs.data(), log);
        profile.mark("logging");
        SettingsStore store = new SettingsStore(dirs.settingsFile());
        SettingsStore.Loaded loaded = store.load();
        LiveSettings settings = new LiveSettings(store, loaded.settings());
        // --model is remembered only once it has loaded (EngineManager.Listener.working), like a tray choice.
        Settings s = settings.current();
        List<AutoCloseable> closeLast = new ArrayList<>();
        profile.mark("settings");

        DesktopApp app = DesktopApp.start(settings);
        profile.mark("swing and indicator");
        Notifier notifier = app.notifier();
        Microphone mic = new Microphone(InputDevices::open, s.audio().inputDevice(), SourceWatch::forPlatform);
        mic.onLevel(app::level);
        mic.onStatus(p -> {
            if (p != null) {
                notifier.notice(Notifier.Kind.WARNING, p);
            }
            app.refreshViews();
        });
        EngineManager engines = new EngineManager(() -> settings.current().transcription());
        ModelChoice models = new ModelChoice(engines, settings, notifier, dirs.models());
        engines.installedModels(models::list); // a model too large for the GPU's free memory names one that fits
        engines.addListener(app::engineChanged);
        engines.addListener(models);
        // The model loads behind the rest of start-up (a dictation that comes first waits for the load
        // only); its warm-up waits until the hotkey is live, so that it does not take the cores start-up
        // runs on. The tray, hotkey and microphone do not wait for it. Without a usable model, loadChosen
        // below says so once the tray or control window exists.
        engines.holdWarmUp();
        boolean loading = models.loadAtStart(model, s);
        profile.mark("microphone and model load started");
        // Opened after the hotkey is live; a dictation that ends first waits for it.
        HistoryOpener history = new HistoryOpener(dirs.historyDatabase(), why -> {
            LOG.warn("history unavailable: {}", why);
            notifier.notice(Notifier.Kind.WARNING, "History unavailable: " + why);
        });
        FocusTracker focus = OsIntegrations.focusTracker(closeLast);
        ClipboardChanges clipboardChanges = OsIntegrations.clipboardChanges();
        KeySender keys = KeySender.over(OsIntegrations.keystrokes(closeLast));
        ClipboardPaste clipboard = new ClipboardPaste(Toolkit.getDefaultToolkit().getSystemClipboard(), keys,
                clipboardChanges, OsIntegrations.textOffer(clipboardChanges, closeLast));
        TextInserter inserter = new TextInserter(clipboard, keys, OsIntegrations.typer(closeLast));
        KeyboardWatch keyboard = new KeyboardWatch();
        DictationController controller = new DictationController(new DictationController.Parts(settings::current, mic,
                engines, inserter, focus, keyboard, new RecordingsFolder(dirs.recordings()), history, notifier));
        controller.recoverInterruptedLater(); // a dictation the last run died in (kill -9, a driver crash)
        profile.mark("insertion and controller");
        SoundCues sounds = new SoundCues(() -> settings.current().audio());
        closeLast.add(sounds);
        DesktopWindows windows = new DesktopWindows(windowParts(app, settings, mic, controller, history, inserter));
        app.attach(new DesktopApp.Parts(dirs.recordings(), mic, engines, models, history, clipboard, controller, sounds,
                focus, windows));
        profile.mark("desktop parts");

        GlobalHotkeys hotkeys = new GlobalHotkeys(controller, s.hotkeys(), OsIntegrations.keyGrabs(), keyboard,
                problem -> notifier.notice(Notifier.Kind.WARNING, problem));
        boolean hotkeyLive = false;
        try {
            hotkeys.start();
            hotkeyLive = true;
        } catch (NativeHookException | UnsatisfiedLinkError e) {
            LOG.warn("global hotkeys unavailable: {}", e.getMessage());
            notifier.notice(Notifier.Kind.ERROR, "Global hotkeys unavailable: " + e.getMessage());
        }
        profile.mark("hotkey hook");
        settings.addListener((before, after) -> {
            if (!before.hotkeys().equals(after.hotkeys())) {
                hotkeys.apply(after.hotkeys());
            }
            if (!before.audio().inputDevice().equals(after.audio().inputDevice())) {
                mic.setDevice(after.audio().inputDevice());
            }
            models.settingsChanged(before, after);
            app.settingsChanged(before, after);
        });
        SettingsFileWatch.start(settings, why -> notifier.notice(Notifier.Kind.WARNING, why)); // edits from outside
        instance.onPoke(() -> notifier.notice(Notifier.Kind.INFO, app.hasTray()
                ? "Dictum is already running: its menu is on the tray icon"
                : "Dictum is already running: this is its window"));
        if (loaded.notice() != null) {
            app.settingsProblem(loaded.notice(), loaded.backup()); // its window opens once JavaFX is up
        }
        profile.mark("settings watch");
        LOG.info("Dictum running: hotkey {} ({})", s.hotkeys().dictate(), s.hotkeys().mode().label());
        LOG.info(profile.line());
        if (hotkeyLive) {
            System.out.println(ReadyLine.of(s.hotkeys(), engines.state())); // the terminal's one line
            System.out.flush();
        }
        afterHotkeyLive(app, engines, models, history, windows, loading ? null : s);
        app.awaitQuit();

        LOG.info("Dictum quitting");
        hotkeys.close();
        controller.close();
        app.closeViews();
        mic.close();
        windows.close();
        engines.close();
        history.close();
        for (AutoCloseable c : closeLast) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("closing {}: {}", c, e.getMessage());
            }
        }
        app.exitToolkit();
        try {
            instance.close();
        } catch (IOException e) {
            LOG.debug("lock: {}", e.getMessage());
        }
        return 0;
    }

    /**
     * What can follow the ready line (issue 24 item 6): the history opens, the tray icon (or the control
     * window) appears, JavaFX starts for the windows, the model's warm-up may begin, the backends are
     * surveyed for the first-run offer.
     *
     * @param noModel the settings, when no model is loading (the notice says what to do), else null
     */
    private static void afterHotkeyLive(DesktopApp app, EngineManager engines, ModelChoice models,
            HistoryOpener history, DesktopWindows windows, Settings noModel) throws AWTException {
        history.open();
        app.showViews(OsIntegrations::afterGtkStarted);
        engines.releaseWarmUp();
        CompletableFuture<Void> surveyed = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("dictum-backends").start(() -> {
            try {
                app.surveyed(BackendSurvey.run());
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
        if (noModel != null) {
            models.loadChosen(noModel); // no usable model: the notice says what to do, now that the tray shows it
        }
        LOG.info("start-up: tray and the rest after the hotkey done");
    }

    /** What the settings, models and history windows may do to the running app. */
    private DesktopWindows.Parts windowParts(DesktopApp app, LiveSettings settings, Microphone mic,
            DictationController controller, HistoryOpener history, TextInserter inserter) {
        Optional<Autostart> autostart = OsIntegrations.autostart();
        MicrophoneCheck check = new MicrophoneCheck(mic, controller);
        return new DesktopWindows.Parts(app, settings, dirs.models(), check::run, history,
                text -> inserter.insert(text, settings.current().insertion(), false), Playback::playWav,
                (wav, m, backend) -> EngineManager.transcribeFile(wav, m.path(), backend,
                        settings.current().transcription().language()),
                ModelDownloader::new, on -> {
                    if (autostart.isEmpty()) {
                        throw new IOException("starting with the system is not supported on this system");
                    }
                    if (on) {
                        autostart.get().enable(OsIntegrations.appCommand());
                    } else {
                        autostart.get().disable();
                    }
                });
    }
}
