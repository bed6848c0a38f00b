package dev.dictum.app.settings;

/**
 * Why one setting's value is refused.
 *
 * @param field  "group.field" as in the JSON file, e.g. "hotkeys.dictate"
 * @param reason one line for the user, e.g. "unknown key 'Spce'"
 */
public record SettingProblem(String field, String reason) {
    @Override
    public String toString() {
        return field + ": " + reason;
    }
}
