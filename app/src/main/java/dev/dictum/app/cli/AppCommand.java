package dev.dictum.app.cli;

import dev.dictum.app.files.AppDirs;
import dev.dictum.app.launch.DesktopLauncher;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dictum app}: the desktop app (tray, global hotkey, text into the focused window). */
@Command(name = "app", mixinStandardHelpOptions = true,
        description = {"Start the desktop dictation app: a tray icon, a global push-to-talk hotkey (default"
                + " Ctrl+Alt+Space), the text typed into the window that has focus.",
                "Settings: ~/.config/dictum/settings.json (%%APPDATA%%\\Dictum on Windows); recordings, history and"
                + " the log: ~/.local/share/dictum."})
final class AppCommand extends SubCommand {

    @Option(names = {"-v", "--verbose"}, description = "Log debug detail to the log file and the terminal.")
    boolean verbose;

    @Option(names = {"-m", "--model"}, paramLabel = "PATH",
            description = "Use this model (and remember it): a ggml .bin file, a Hugging Face or CTranslate2 folder."
                    + " Without it, the model chosen last in the tray's Model menu.")
    Path model;

    @Override
    public boolean verbose() {
        return verbose;
    }

    @Override
    public Integer call() throws Exception {
        if (model != null && !Files.exists(model)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "no such model: " + model);
        }
        return new DesktopLauncher(AppDirs.forCurrentUser()).run(verbose, model == null ? null : model.toAbsolutePath(),
                spec.commandLine().getErr());
    }
}
