package dev.dictum.app.testing;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/** Tests that turn on the app's file log ({@code AppLogging.configure}) turn it off again with this. */
public final class FileLog {
    private FileLog() {
    }

    /** Detaches and stops the root logger's file appender, so the test's folder can be deleted. */
    public static void stop() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
            var root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            var file = root.getAppender("FILE");
            if (file != null) {
                root.detachAppender(file);
                file.stop();
            }
        }
    }
}
