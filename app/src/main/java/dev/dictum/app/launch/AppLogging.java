package dev.dictum.app.launch;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.util.FileSize;
import dev.dictum.app.files.OwnerOnly;
import java.nio.file.Path;
import java.util.Iterator;
import org.slf4j.LoggerFactory;

/**
 * The app's log: {@code logs/dictum.log} in the data directory (three files of 5 MB at most),
 * INFO and up; the terminal keeps showing only errors (warnings such as "auto: using the CPU" are
 * the log's: a healthy start prints one line, {@code ReadyLine}). Transcript text is never logged unless
 * the user turns on "log transcripts" (the controller decides, not the logger).
 */
public final class AppLogging {
    private AppLogging() {
    }

    public static Path configure(Path logDir, boolean verbose) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return null;
        }
        Path file = logDir.resolve("dictum.log");
        try {
            OwnerOnly.createFile(file); // what the user said may be logged (if they allow it): owner-only
        } catch (java.io.IOException e) {
            // Logback reports a log it cannot open on the terminal; the app runs without it
        }
        RollingFileAppender<ILoggingEvent> out = new RollingFileAppender<>();
        out.setContext(ctx);
        out.setName("FILE");
        out.setFile(file.toString());
        // After a rollover Logback opens a fresh dictum.log with the umask's mode; make it owner-only first.
        FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy() {
            @Override
            public void rollover() throws ch.qos.logback.core.rolling.RolloverFailure {
                super.rollover();
                try {
                    OwnerOnly.createFile(file);
                } catch (java.io.IOException e) {
                    addWarn("cannot make " + file + " owner-only: " + e.getMessage());
                }
            }
        };
        rolling.setContext(ctx);
        rolling.setParent(out);
        rolling.setFileNamePattern(logDir.resolve("dictum.%i.log").toString());
        rolling.setMinIndex(1);
        rolling.setMaxIndex(3);
        rolling.start();
        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(ctx);
        trigger.setMaxFileSize(FileSize.valueOf("5MB"));
        trigger.start();
        out.setRollingPolicy(rolling);
        out.setTriggeringPolicy(trigger);
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger{0}: %msg%n");
        enc.start();
        out.setEncoder(enc);
        out.start();
        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            Appender<ILoggingEvent> a = it.next();
            a.addFilter(new Filter<>() {
                @Override
                public FilterReply decide(ILoggingEvent e) {
                    return verbose || e.getLevel().isGreaterOrEqual(Level.ERROR) ? FilterReply.NEUTRAL : FilterReply.DENY;
                }
            });
        }
        root.addAppender(out);
        root.setLevel(verbose ? Level.DEBUG : Level.INFO);
        return file;
    }
}
