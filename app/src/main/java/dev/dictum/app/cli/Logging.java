package dev.dictum.app.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** Quiet by default (warnings only, on stderr); --verbose shows the engine's debug log. */
final class Logging {
    private Logging() {
    }

    static void configure(boolean verbose) {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(verbose ? Level.DEBUG : Level.WARN);
        }
    }
}
