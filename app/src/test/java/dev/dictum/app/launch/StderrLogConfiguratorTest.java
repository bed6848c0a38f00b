package dev.dictum.app.launch;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;

/**
 * Logback's own start-up finds the configurator (no XML): WARN to stderr, or the level asked for
 * (without it, logback's fallback logs everything at DEBUG to an appender named "console").
 */
class StderrLogConfiguratorTest {
    @Test
    void logbackStartsWithWarningsToStderrOrTheLevelAskedFor() throws Exception {
        // Configured in code alone: an XML file would bring Joran's ~500 classes back to every start.
        assertThat(getClass().getClassLoader().getResource("logback.xml")).isNull();
        String before = System.getProperty("dictum.log.level");
        try {
            System.clearProperty("dictum.log.level");
            Logger root = configured().getLogger(Logger.ROOT_LOGGER_NAME);
            assertThat(root.getLevel()).isEqualTo(Level.WARN);
            ConsoleAppender<?> stderr = (ConsoleAppender<?>) root.getAppender("STDERR");
            assertThat(stderr.getTarget()).isEqualTo("System.err");
            assertThat(((PatternLayoutEncoder) stderr.getEncoder()).getPattern()).isEqualTo("%level %logger{0}: %msg%n");

            System.setProperty("dictum.log.level", "DEBUG");
            assertThat(configured().getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.DEBUG);
        } finally {
            if (before == null) {
                System.clearProperty("dictum.log.level");
            } else {
                System.setProperty("dictum.log.level", before);
            }
        }
    }

    /** A fresh context configured the way logback configures itself at the first logger. */
    private static LoggerContext configured() throws Exception {
        LoggerContext ctx = new LoggerContext();
        new ContextInitializer(ctx).autoConfig();
        return ctx;
    }
}
