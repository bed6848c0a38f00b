package dev.dictum.app.os;

import java.util.Map;
import java.util.Set;

/**
 * The platform's way to keep the app's hotkeys from the focused window: passive grabs on X11
 * ({@code platform.x11.X11Grabs}). On Windows the hook itself consumes them ({@link KeySwallower}).
 */
public interface KeyGrabs extends AutoCloseable {

    /** Nothing to grab with (no X display): the keys also reach the focused window. */
    KeyGrabs NONE = new KeyGrabs() {
        @Override
        public Map<Grab, String> hold(Set<Grab> grabs) {
            return Map.of();
        }

        @Override
        public void close() {
        }
    };

    /**
     * Holds exactly {@code grabs} from now on, releasing any other it held.
     *
     * @return the grabs it could not take, each with the reason (another program holds it, no such key)
     */
    Map<Grab, String> hold(Set<Grab> grabs);

    @Override
    void close();
}
