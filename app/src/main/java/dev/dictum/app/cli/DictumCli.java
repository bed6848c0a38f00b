package dev.dictum.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dictum}: the command-line face of the engine. */
@Command(name = "dictum", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Local speech recognition with Whisper: dictate into any window (app), transcribe WAV files, benchmark the engine, check the GPU (doctor).",
        subcommands = {AppCommand.class, TranscribeCommand.class, BenchCommand.class, DoctorCommand.class,
            CommandLine.HelpCommand.class})
public final class DictumCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // Listed from the registered subcommands, so a new command is never missing here.
        String commands = String.join(", ", spec.subcommands().keySet().stream().filter(c -> !c.equals("help")).toList());
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (" + commands + ")");
    }

    /** Builds the command line with Dictum's error handling: one line per error, exit codes 1 and 2. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new DictumCli());
        // Every path the user gives is absolute from here on, so each message names files one way.
        cl.registerConverter(java.nio.file.Path.class, s -> java.nio.file.Path.of(s).toAbsolutePath().normalize());
        cl.setExecutionExceptionHandler(new OneLineErrors());
        cl.setParameterExceptionHandler(new OneLineErrors());
        return cl;
    }

    public static void main(String[] args) {
        int code;
        try {
            Integer fast = AppFastPath.run(args); // the desktop's plain start skips picocli (AOT cache)
            code = fast != null ? fast : commandLine().execute(args);
        } catch (Error e) {
            // picocli hands only Exceptions to the handler; an Error (out of memory) still gets one line.
            System.err.println("dictum: error: " + OneLineErrors.describe(e));
            code = OneLineErrors.INPUT_ERROR;
        }
        System.out.flush();
        System.exit(code);
    }
}
