package dev.dictum.app.cli;

import dev.dictum.whisper.decode.EncoderContext;
import picocli.CommandLine;

/** {@code --audio-ctx full|auto|N}, shared by transcribe and bench: a bad value is a one-line usage error. */
final class AudioCtxOption {
    private AudioCtxOption() {
    }

    static EncoderContext parse(CommandLine.Model.CommandSpec spec, String value) {
        try {
            return EncoderContext.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--audio-ctx: " + e.getMessage());
        }
    }
}
