package dev.dictum.app.os;

import java.io.IOException;
import java.util.List;

/**
 * "Start Dictum with the system": an XDG autostart entry on Linux, the Run key on Windows. The settings
 * window's toggle calls {@link #enable}/{@link #disable}; {@link #isEnabled} reads the system's truth, so
 * a user who removed the entry by hand sees the toggle off.
 */
public interface Autostart {

    boolean isEnabled() throws IOException;

    /** Registers {@code command} (program and arguments) to run at login. */
    void enable(List<String> command) throws IOException;

    void disable() throws IOException;
}
