package dev.dictum.app.hotkey;

import com.github.kwhat.jnativehook.GlobalScreen;
import com.github.kwhat.jnativehook.NativeHookException;
import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import com.github.kwhat.jnativehook.keyboard.NativeKeyListener;
import com.github.kwhat.jnativehook.mouse.NativeMouseEvent;
import com.github.kwhat.jnativehook.mouse.NativeMouseListener;
import dev.dictum.app.dictation.DictationController;
import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.dictation.KeyboardState;
import dev.dictum.app.hotkey.HotkeyTracker.Action;
import dev.dictum.app.hotkey.HotkeyTracker.Event;
import dev.dictum.app.settings.HotkeySettings;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global hotkeys through JNativeHook: raw events → {@link HotkeyTracker} → the mode machine →
 * the controller. Events are handled under this object's lock, as are the controller's state
 * changes, so the mode machine and the controller never disagree about whether a recording runs.
 * The hook only listens; it never swallows keys (Escape still reaches the focused window).
 */
public final class GlobalHotkeys implements KeyboardState, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GlobalHotkeys.class);

    private final DictationController controller;
    private HotkeyTracker tracker; // guarded by this
    private TriggerModeMachine machine; // guarded by this
    private final NativeKeyListener keys = new NativeKeyListener() {
        @Override
        public void nativeKeyPressed(NativeKeyEvent e) {
            handle(tracker().onPress(Input.key(e.getKeyCode())));
        }

        @Override
        public void nativeKeyReleased(NativeKeyEvent e) {
            handle(tracker().onRelease(Input.key(e.getKeyCode())));
        }
    };
    private final NativeMouseListener mouse = new NativeMouseListener() {
        @Override
        public void nativeMousePressed(NativeMouseEvent e) {
            handle(tracker().onPress(Input.mouse(e.getButton())));
        }

        @Override
        public void nativeMouseReleased(NativeMouseEvent e) {
            handle(tracker().onRelease(Input.mouse(e.getButton())));
        }
    };

    public GlobalHotkeys(DictationController controller, HotkeySettings settings) {
        this.controller = controller;
        apply(settings);
        controller.addListener(status -> {
            synchronized (this) {
                if (status.state() != DictationState.RECORDING && !controller.recording()) {
                    machine.recordingEnded(); // ended without the hotkey: device lost, Esc, refused
                }
            }
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
        GlobalScreen.registerNativeHook();
        GlobalScreen.addNativeKeyListener(keys);
        GlobalScreen.addNativeMouseListener(mouse);
    }

    /** New bindings or mode (from the settings); takes effect at once. */
    public synchronized void apply(HotkeySettings s) {
        Map<Action, Hotkey> b = new EnumMap<>(Action.class);
        b.put(Action.DICTATE, Hotkey.parse(s.dictate()));
        putIfSet(b, Action.CANCEL, s.cancel());
        putIfSet(b, Action.STOP_AND_ENTER, s.stopAndEnter());
        putIfSet(b, Action.PASTE_LAST, s.pasteLast());
        tracker = new HotkeyTracker(b);
        machine = new TriggerModeMachine(s.mode(), s.tapMillis());
        if (controller.recording()) {
            machine.assumeRecording(); // an ongoing recording stays stoppable by the next press
        }
        LOG.info("hotkeys: dictate {} ({}), cancel {}, stop and Enter {}, paste last {}", b.get(Action.DICTATE),
                s.mode(), s.cancel(), s.stopAndEnter(), s.pasteLast());
    }

    @Override
    public boolean modifiersHeld() {
        return tracker().modifiersHeld();
    }

    @Override
    public void close() {
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

    private static void putIfSet(Map<Action, Hotkey> b, Action a, String text) {
        if (!text.isBlank()) {
            b.put(a, Hotkey.parse(text));
        }
    }
}
