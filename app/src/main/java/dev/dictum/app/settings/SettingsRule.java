package dev.dictum.app.settings;

import java.util.List;
import java.util.ServiceLoader;

/**
 * A check of setting values whose meaning another package owns. The settings hold values (a hotkey
 * as text); the package that reads a value says when it is invalid ({@code hotkey.HotkeyRule}
 * parses hotkeys). Rules are found through {@link ServiceLoader} ({@code META-INF/services}), so
 * the settings import none of the packages that read them.
 */
public interface SettingsRule {

    /** The group whose values this rule checks (a problem resets that group). */
    SettingsGroup group();

    /** Every invalid value of {@link #group()} with the reason ("group.field"), empty when all are valid. */
    List<SettingProblem> problems(Settings settings);

    /** The rules on the class path, loaded once. */
    static List<SettingsRule> installed() {
        return Installed.RULES;
    }

    /** Holder: loads the rules at first use. */
    final class Installed {
        private static final List<SettingsRule> RULES = ServiceLoader.load(SettingsRule.class,
                SettingsRule.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();

        private Installed() {
        }
    }
}
