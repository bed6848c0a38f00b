package dev.dictum.app.dictation;

/** Whether the user still holds modifier keys (a paste keystroke then would become another shortcut). */
public interface KeyboardState {

    boolean modifiersHeld();

    KeyboardState NONE = () -> false;
}
