package dev.dictum.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * What every subcommand has: picocli's view of it (usage errors, the output streams) and a
 * --verbose flag that {@link OneLineErrors} reads.
 */
abstract class SubCommand implements Callable<Integer>, OneLineErrors.Verbosity {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
}
