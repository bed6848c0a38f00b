package dev.dictum.app.os;

/** Which window has the keyboard focus, and giving it back. */
public interface FocusTracker {

    TargetWindow focused();

    /** Gives the focus back to {@code w} if another window took it; false when it is gone. */
    boolean refocus(TargetWindow w);

    /** For platforms (or tests) without a notion of windows. */
    FocusTracker NONE = new FocusTracker() {
        @Override
        public TargetWindow focused() {
            return TargetWindow.UNKNOWN;
        }

        @Override
        public boolean refocus(TargetWindow w) {
            return true;
        }
    };
}
