package dev.dictum.app.cli;

import picocli.CommandLine.Mixin;

/** A subcommand that loads a model on a backend ({@code transcribe}, {@code bench}): the shared options. */
abstract class ModelCommand extends SubCommand {

    @Mixin
    CommonOptions common = new CommonOptions();

    @Override
    public boolean verbose() {
        return common.verbose;
    }
}
