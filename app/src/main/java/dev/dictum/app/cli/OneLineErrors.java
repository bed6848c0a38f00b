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

    /** The one line, with a leading path (as the engine's messages put it: "PATH: what is wrong") quoted the app's way. */
    static String describe(Throwable e) {
        return quotedPath(plain(e));
    }

    private static String plain(Throwable e) {
        if (e instanceof UncheckedIOException u) {
            return plain(u.getCause());
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

    /** "/m/x.bin: not a model" → "'/m/x.bin': not a model", as PathText writes paths everywhere. */
    static String quotedPath(String message) {
        int colon = message.indexOf(": ");
        while (colon > 0) {
            String head = message.substring(0, colon);
            try {
                java.nio.file.Path p = java.nio.file.Path.of(head);
                if (p.isAbsolute()) {
                    return dev.dictum.app.files.PathText.quoted(p) + message.substring(colon);
                }
            } catch (java.nio.file.InvalidPathException ex) {
                return message;
            }
            colon = message.indexOf(": ", colon + 2); // a Windows path's "C:" is not the end of the path
        }
        return message;
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    /** Commands with a --verbose flag. */
    interface Verbosity {
        boolean verbose();
    }
}
