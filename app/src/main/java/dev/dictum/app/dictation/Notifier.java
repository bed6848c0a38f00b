package dev.dictum.app.dictation;

/** Short notices to the user (tray balloon, control window line). */
public interface Notifier {

    enum Kind { INFO, WARNING, ERROR }

    void notice(Kind kind, String message);
}
