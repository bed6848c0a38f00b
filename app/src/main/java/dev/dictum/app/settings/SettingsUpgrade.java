package dev.dictum.app.settings;

/**
 * Moves the defaults that an older version of the settings file holds to today's defaults. Every
 * file Dictum writes holds every value, so a default that changes would otherwise stay at its old
 * value for everyone who ever saved a setting: the file's {@code version} tells a value the user
 * left alone (the old default, in a file older than the change) from one the user chose.
 */
final class SettingsUpgrade {
    /** Version 1's default pause between typed characters; issue 23 types a text in one go (0). */
    static final int V1_TYPING_DELAY_MILLIS = 12;
    /** Version 1's default wait before the paste keystroke; issue 23 found the owner set when setContents returns (0). */
    static final int V1_PASTE_DELAY_MILLIS = 40;

    private SettingsUpgrade() {
    }

    /**
     * @param fileVersion the file's {@code version}; a file without one was written by hand, and its
     *                    values are the user's own
     */
    static Settings upgrade(Settings read, int fileVersion) {
        if (fileVersion >= 2) {
            return read;
        }
        InsertionSettings now = InsertionSettings.defaults();
        InsertionSettings i = read.insertion();
        if (i.typingDelayMillis() == V1_TYPING_DELAY_MILLIS) {
            i = i.withTypingDelayMillis(now.typingDelayMillis());
        }
        if (i.pasteDelayMillis() == V1_PASTE_DELAY_MILLIS) {
            i = i.withPasteDelayMillis(now.pasteDelayMillis());
        }
        return read.with(i);
    }
}
