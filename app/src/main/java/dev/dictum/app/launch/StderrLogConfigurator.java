package dev.dictum.app.launch;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's start-up configuration, in code (found through {@code META-INF/services}): warnings and
 * errors to stderr as "LEVEL Logger: message" (the CLI's output is its transcript), the root level
 * from {@code -Ddictum.log.level} (WARN by default). It replaces a logback.xml, whose Joran parsing
 * loaded some 500 classes before the desktop app began (issue 24 item 6); the app then logs to its
 * file through {@link AppLogging}.
 */
public final class StderrLogConfigurator extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext ctx) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("%level %logger{0}: %msg%n");
        enc.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(ctx);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(enc);
        stderr.start();
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(System.getProperty("dictum.log.level"), Level.WARN));
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
