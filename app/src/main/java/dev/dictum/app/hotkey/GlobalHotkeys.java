package dev.dictum.app.hotkey;

import com.github.kwhat.jnativehook.GlobalScreen;
import com.github.kwhat.jnativehook.NativeHookException;
import com.github.kwhat.jnativehook.NativeInputEvent;
import com.github.kwhat.jnativehook.dispatcher.VoidDispatchService;
import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import com.github.kwhat.jnativehook.keyboard.NativeKeyListener;
import com.github.kwhat.jnativehook.mouse.NativeMouseEvent;
import com.github.kwhat.jnativehook.mouse.NativeMouseListener;
import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.hotkey.HotkeyTracker.Action;
import dev.dictum.app.hotkey.HotkeyTracker.Event;
import dev.dictum.app.os.Grab;
import dev.dictum.app.os.KeyGrabs;
import dev.dictum.app.settings.HotkeySettings;
import java.lang.reflect.Method;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global hotkeys through JNativeHook: raw events → {@link HotkeyTracker} → the mode machine →
 * the controller. Events are handled under this object's lock, as are the controller's state
 * changes, so the mode machine and the controller never disagree about whether a recording runs.
 *
 * <p>The app's keys do not reach the focused window ({@link GrabPlan}): on X11 through passive
 * grabs ({@link KeyGrabs}), re-planned whenever the bindings change or a recording starts or
 * ends; on Windows the hook consumes them ({@link KeySwallower}). A combination another program
 * holds is reported once through {@code problems} (a notice), and still works through the hook.
 */
public final class GlobalHotkeys implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GlobalHotkeys.class);

    private static final boolean WINDOWS = System.getProperty("os.name", "").startsWith("Windows");

    private final DictationController controller;
    private final KeyGrabs grabs;
    private final Consumer<String> problems;
    private final KeySwallower swallower = new KeySwallower();
    private final Set<Grab> reported = new HashSet<>(); // guarded by this
    /** Held while the grabs are asked of the server; taken before this object's lock, never inside it. */
    private final Object grabbing = new Object();
    private Map<Action, Hotkey> bindings; // guarded by this
    private boolean grabbedForRecording; // guarded by this
    private final KeyboardWatch keyboard;
    private HotkeyTracker tracker; // guarded by this
    private TriggerModeMachine machine; // guarded by this
    private final NativeKeyListener keys = new NativeKeyListener() {
        @Override
        public void nativeKeyPressed(NativeKeyEvent e) {
            pressed(e, Input.key(e.getKeyCode()));
        }

        @Override
        public void nativeKeyReleased(NativeKeyEvent e) {
            released(e, Input.key(e.getKeyCode()));
        }
    };
    private final NativeMouseListener mouse = new NativeMouseListener() {
        @Override
        public void nativeMousePressed(NativeMouseEvent e) {
            pressed(e, Input.mouse(e.getButton()));
        }

        @Override
        public void nativeMouseReleased(NativeMouseEvent e) {
            released(e, Input.mouse(e.getButton()));
        }
    };

    /** Hotkeys that only listen (tests, platforms without grabs). */
    public GlobalHotkeys(DictationController controller, HotkeySettings settings) {
        this(controller, settings, KeyGrabs.NONE, p -> { });
    }

    /**
     * @param grabs    keeps the app's combinations from the focused window (X11), or {@link KeyGrabs#NONE}
     * @param problems told, once per combination, when another program holds one
     */
    public GlobalHotkeys(DictationController controller, HotkeySettings settings, KeyGrabs grabs,
            Consumer<String> problems) {
        this(controller, settings, grabs, new KeyboardWatch(), problems);
    }

    /**
     * @param grabs    keeps the app's combinations from the focused window (X11), or {@link KeyGrabs#NONE}
     * @param keyboard told what the hook sees of the keyboard (the controller reads it)
     * @param problems told, once per combination, when another program holds one
     */
    public GlobalHotkeys(DictationController controller, HotkeySettings settings, KeyGrabs grabs,
            KeyboardWatch keyboard, Consumer<String> problems) {
        this.controller = controller;
        this.keyboard = keyboard;
        keyboard.connect(() -> tracker().shortcutKeysHeld());
        this.grabs = grabs;
        this.problems = problems;
        apply(settings);
        controller.addListener(status -> {
            synchronized (this) {
                if (status.state() != DictationState.RECORDING && !controller.recording()) {
                    machine.recordingEnded(); // ended without the hotkey: device lost, Esc, refused
                }
            }
            regrab();
        });
    }

    /**
     * Starts listening.
     *
     * @throws NativeHookException when the hook cannot be installed (no X RECORD extension, Wayland-only)
     */
    public void start() throws NativeHookException {
        java.util.logging.Logger.getLogger(GlobalScreen.class.getPackage().getName()).setLevel(Level.WARNING);
        java.util.logging.Logger.getLogger(GlobalScreen.class.getPackage().getName()).setUseParentHandlers(false);
        if (WINDOWS) {
            // Listeners must run on the hook's own thread for a consumed event to stay consumed.
            GlobalScreen.setEventDispatcher(new VoidDispatchService());
        }
        GlobalScreen.registerNativeHook();
        GlobalScreen.addNativeKeyListener(keys);
        GlobalScreen.addNativeMouseListener(mouse);
    }

    /** New bindings or mode (from the settings); takes effect at once. */
    public void apply(HotkeySettings s) {
        Map<Action, Hotkey> b = bindings(s);
        synchronized (this) {
            tracker = new HotkeyTracker(b);
            bindings = b;
            machine = new TriggerModeMachine(s.mode(), s.tapMillis());
            grabbedForRecording = !controller.recording(); // forces the grabs to be re-planned
            if (controller.recording()) {
                machine.assumeRecording(); // an ongoing recording stays stoppable by the next press
            }
        }
        regrab();
        LOG.info("hotkeys: dictate {} ({}), cancel {}, stop and Enter {}, paste last {}", b.get(Action.DICTATE),
                s.mode(), s.cancel(), s.stopAndEnter(), s.pasteLast());
    }

    @Override
    public void close() {
        grabs.close();
        GlobalScreen.removeNativeKeyListener(keys);
        GlobalScreen.removeNativeMouseListener(mouse);
        try {
            GlobalScreen.unregisterNativeHook();
        } catch (NativeHookException e) {
            LOG.debug("unregistering the hook: {}", e.getMessage());
        }
    }

    private synchronized HotkeyTracker tracker() {
        return tracker;
    }

    /**
     * Holds what {@link GrabPlan} says for the bindings and whether a recording runs now. Called without
     * this object's lock, which it takes only to read the plan: the grabs are X round trips (3-10 ms at a
     * release on Xvfb, session 15), and while they ran under the lock the hook's thread waited for it
     * with the hotkey's other key-up events, which the paste waits for ("modifiers up after 10.7 ms").
     * {@link #grabbing} keeps two plans from reaching the server out of order.
     */
    private void regrab() {
        synchronized (grabbing) {
            Set<Grab> plan;
            synchronized (this) {
                boolean recording = controller.recording();
                if (bindings == null || recording == grabbedForRecording) {
                    return;
                }
                grabbedForRecording = recording;
                plan = GrabPlan.grabs(bindings, recording);
            }
            try {
                grabs.hold(plan).forEach((g, why) -> {
                    LOG.warn("cannot keep {} from other windows: {}", g, why);
                    boolean first;
                    synchronized (this) {
                        first = reported.add(g);
                    }
                    if (first) {
                        problems.accept(g.exact() + " also reaches other windows: " + why
                                + " (choose another hotkey in Settings)");
                    }
                });
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("key grabs failed: {}", e.toString()); // the hotkeys still work, only unguarded
            }
        }
    }

    private void pressed(NativeInputEvent e, Input input) {
        boolean recording = controller.recording();
        HotkeyTracker t = tracker();
        List<Event> fired = t.onPress(input);
        if (WINDOWS && swallower.onPress(input, fired, recording)) {
            consume(e);
        }
        if (fired.isEmpty() && input.modifier() == null && !t.isTrigger(input)) {
            keyboard.edited(); // typing, Backspace, a click: the field may have changed
        }
        handle(fired);
    }

    private void released(NativeInputEvent e, Input input) {
        List<Event> fired = tracker().onRelease(input);
        keyboard.released();
        if (WINDOWS && swallower.onRelease(input)) {
            consume(e);
        }
        handle(fired);
    }

    /**
     * Marks the event consumed, so the Windows hook returns 1 and no window gets it. JNativeHook
     * 2.2 has no public call for this: its documented way is its private {@code setReserved(0x01)}.
     */
    private static void consume(NativeInputEvent e) {
        try {
            Method m = NativeInputEvent.class.getDeclaredMethod("setReserved", short.class);
            m.setAccessible(true);
            m.invoke(e, (short) 0x01);
        } catch (ReflectiveOperationException | RuntimeException ex) {
            LOG.debug("cannot consume the event: {}", ex.toString());
        }
    }

    private synchronized void handle(List<Event> events) {
        long now = System.currentTimeMillis();
        for (Event e : events) {
            try {
                switch (e.action()) {
                    case DICTATE -> run(e.pressed() ? machine.onPress(now) : machine.onRelease(now, e.interrupted()));
                    case CANCEL -> {
                        if (e.pressed() && controller.cancel()) {
                            machine.recordingEnded();
                        }
                    }
                    case STOP_AND_ENTER -> {
                        if (e.pressed() && controller.recording()) {
                            controller.stop(true);
                            machine.recordingEnded();
                        }
                    }
                    case PASTE_LAST -> {
                        if (e.pressed() && !controller.recording()) {
                            controller.pasteLast();
                        }
                    }
                }
            } catch (RuntimeException ex) {
                LOG.error("hotkey {} failed", e, ex); // never let an exception kill the hook's thread
                machine.recordingEnded();
            }
        }
    }

    private void run(TriggerModeMachine.Command c) {
        switch (c) {
            case START -> {
                long t0 = System.nanoTime();
                if (!controller.start()) {
                    machine.recordingEnded();
                } else {
                    LOG.info("recording started {} ms after the hotkey event (with the 200 ms before it)",
                            String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e6));
                }
            }
            case STOP -> controller.stop(false);
            case CANCEL -> controller.cancel();
            case NONE -> { }
        }
    }

    /** The combination of each action that has one. */
    static Map<Action, Hotkey> bindings(HotkeySettings s) {
        Map<Action, Hotkey> b = new EnumMap<>(Action.class);
        b.put(Action.DICTATE, Hotkey.parse(s.dictate()));
        putIfSet(b, Action.CANCEL, s.cancel());
        putIfSet(b, Action.STOP_AND_ENTER, s.stopAndEnter());
        putIfSet(b, Action.PASTE_LAST, s.pasteLast());
        return b;
    }

    private static void putIfSet(Map<Action, Hotkey> b, Action a, String text) {
        if (!text.isBlank()) {
            b.put(a, Hotkey.parse(text));
        }
    }
}
