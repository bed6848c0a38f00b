package dev.dictum.app.settings;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings group "General". A missing (null) value means the default, so a file written by an
 * older version, or a partial one, loads with defaults for what it lacks.
 *
 * @param startWithOs start Dictum when the user logs in
 * @param showIndicator show the always-on-top recording indicator
 * @param showNotices show short notices (no speech, errors) from the tray
 */
public record GeneralSettings(
        Boolean startWithOs,
        Boolean showIndicator,
        Boolean showNotices) {
    private static final Boolean D_STARTWITHOS = false;
    private static final Boolean D_SHOWINDICATOR = true;
    private static final Boolean D_SHOWNOTICES = true;

    public GeneralSettings {
        startWithOs = Checks.or(startWithOs, D_STARTWITHOS);
        showIndicator = Checks.or(showIndicator, D_SHOWINDICATOR);
        showNotices = Checks.or(showNotices, D_SHOWNOTICES);
    }

    public static GeneralSettings defaults() {
        return new GeneralSettings(D_STARTWITHOS, D_SHOWINDICATOR, D_SHOWNOTICES);
    }

    /** Every invalid value with the reason ("general.field"), empty when all are valid. */
    public List<SettingProblem> problems() {
        List<SettingProblem> out = new ArrayList<>();
        return out;
    }

    public GeneralSettings withStartWithOs(Boolean v) {
        return new GeneralSettings(v, showIndicator, showNotices);
    }

    public GeneralSettings withShowIndicator(Boolean v) {
        return new GeneralSettings(startWithOs, v, showNotices);
    }

    public GeneralSettings withShowNotices(Boolean v) {
        return new GeneralSettings(startWithOs, showIndicator, v);
    }
}
