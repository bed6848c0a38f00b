package dev.dictum.app.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every engine command takes. */
final class CommonOptions {
    @Option(names = {"-m", "--model"}, required = true, paramLabel = "PATH",
            description = "Whisper model: a Hugging Face folder, a whisper.cpp ggml .bin file, or a CTranslate2 folder.")
    Path model;

    @Option(names = "--backend", defaultValue = "cpu", paramLabel = "B",
            description = "Where to run: cpu (default), auto (a GPU that passes its self-test, else the CPU), cuda, hip.")
    String backend;

    @Option(names = {"-v", "--verbose"}, description = "Log what the engine does, and show stack traces on errors.")
    boolean verbose;
}
