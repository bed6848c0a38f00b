package dev.dictum.app.tray;

import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.catalog.HardwareProfile;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.settings.Settings;
import java.util.List;
import java.util.Map;

/** What the tray menu and the control window show and do; the desktop app implements it. */
public interface AppActions {

    Settings settings();

    List<DiscoveredModel> models();

    List<String> inputDevices();

    /** Codes the loaded model knows (empty before one is loaded). */
    List<String> languages();

    /** Each backend name with null when it can run here, else why not. */
    Map<String, String> backends();

    /** This computer for the model recommendation: with the memory of the GPU the chosen backend runs on, once found. */
    HardwareProfile hardware();

    EngineManager.State engineState();

    DictationController.Status status();

    /** Why the microphone cannot record now ("No microphone: …"), or null when it can. */
    default String microphoneProblem() {
        return null;
    }

    /** What the tray icon, tooltip and every header say now (one decision, so they agree). */
    default TrayStatus trayStatus() {
        return TrayStatus.of(engineState(), status().state(), microphoneProblem());
    }

    /** The last transcript, or null. */
    String lastText();

    void chooseModel(DiscoveredModel m);

    void chooseBackend(String name);

    /** "" for the system default. */
    void chooseInputDevice(String name);

    void chooseLanguage(String code);

    void chooseMode(DictationMode mode);

    void chooseInsertion(InsertionMethod method);

    /** The menu is about to open: remember the window the user was in (the menu may take the focus). */
    void menuOpening();

    void copyLast();

    void pasteLast();

    void retry();

    void openRecordings();

    /** The settings window (issue 7). */
    default void openSettings() {
    }

    /** The model manager: download, choose, remove models (issue 7). */
    default void openModels() {
    }

    /** The history window (issue 7). */
    default void openHistory() {
    }

    void quit();
}
