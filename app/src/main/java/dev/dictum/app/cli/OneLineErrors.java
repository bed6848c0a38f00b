package dev.dictum.app.cli;

import dev.dictum.audio.AudioFormatException;
import dev.dictum.whisper.format.ModelFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;

/**
 * Turns every failure into one line on stderr and an exit code: 2 for a wrong command line, 1 for
 * input that cannot be used (a model or audio file) or anything else that went wrong. A stack
 * trace is printed only with {@code --verbose}; an unexpected exception still gets one clear line.
 */
final class OneLineErrors implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    static final int INPUT_ERROR = 1;
    static final int USAGE_ERROR = 2;

    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        cl.getErr().println("dictum: " + e.getMessage());
        cl.getErr().println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
        cl.getErr().flush();
        return USAGE_ERROR;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        cl.getErr().println("dictum: error: " + describe(e));
        Object cmd = cl.getCommand();
        if (cmd instanceof Verbosity v && v.verbose()) {
            e.printStackTrace(cl.getErr());
        }
        cl.getErr().flush();
        return INPUT_ERROR;
    }

    static String describe(Throwable e) {
        if (e instanceof UncheckedIOException u) {
            return describe(u.getCause());
        }
        if (e instanceof NoSuchFileException n) {
            return n.getFile() + ": no such file";
        }
        if (e instanceof AccessDeniedException a) {
            return a.getFile() + ": permission denied";
        }
        if (e instanceof ModelFormatException || e instanceof AudioFormatException
                || e instanceof IllegalArgumentException || e instanceof IOException
                || e instanceof dev.dictum.gpu.BackendFailure) {
            return oneLine(e.getMessage() == null ? e.toString() : e.getMessage());
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory (the model may be too large for this machine)";
        }
        return "unexpected " + e.getClass().getSimpleName() + ": " + oneLine(String.valueOf(e.getMessage()))
                + " (run with --verbose for details)";
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    /** Commands with a --verbose flag. */
    interface Verbosity {
        boolean verbose();
    }
}
