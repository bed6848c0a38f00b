package dev.dictum.app.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Runs the CLI in-process, capturing what it prints and its exit code. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = DictumCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    static Path testdata() {
        return Path.of(System.getProperty("dictum.testdata"));
    }

    /** stderr's lines, for "exactly one line" checks. */
    String[] errLines() {
        return err.strip().isEmpty() ? new String[0] : err.strip().split("\\R");
    }
}
