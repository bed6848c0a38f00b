package dev.dictum.app.ui.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.css.PseudoClass;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * A hotkey set by pressing it: focus the field (click or Tab), press the combination, release. Modifier
 * combinations alone (Ctrl+Super) are taken when every key is released without another key; the mouse's
 * side buttons give Mouse4/Mouse5. Tab and
 * Shift+Tab still move the focus, so the window stays keyboard-navigable; Backspace clears an optional one.
 */
final class HotkeyField extends TextField {

    private static final PseudoClass RECORDING = PseudoClass.getPseudoClass("recording");

    private final List<String> modifiers = new ArrayList<>();
    private final Consumer<String> onSet;
    private final boolean optional;
    private boolean keyTaken;

    HotkeyField(String value, boolean optional, Consumer<String> onSet) {
        super(value);
        this.optional = optional;
        this.onSet = onSet;
        setEditable(false);
        getStyleClass().add("hotkey-field");
        setPromptText(optional ? "None: press a combination" : "Press a combination");
        focusedProperty().addListener((o, was, is) -> {
            pseudoClassStateChanged(RECORDING, is);
            modifiers.clear(); // keys held while the focus moved in or out are not part of a combination
        });
        addEventFilter(KeyEvent.KEY_PRESSED, this::pressed);
        addEventFilter(KeyEvent.KEY_RELEASED, this::released);
        // The side buttons of a mouse (back, forward) make a hotkey too, with or without modifiers.
        addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> {
            String button = switch (e.getButton()) {
                case BACK -> "Mouse4";
                case FORWARD -> "Mouse5";
                default -> null;
            };
            if (button != null && isFocused()) {
                e.consume();
                List<String> parts = new ArrayList<>(modifiers);
                parts.add(button);
                keyTaken = true;
                set(String.join("+", parts));
            }
        });
    }

    private void pressed(KeyEvent e) {
        KeyCode code = e.getCode();
        if (code == KeyCode.TAB && !e.isControlDown() && !e.isAltDown()) {
            return; // focus traversal
        }
        e.consume();
        if ((code == KeyCode.BACK_SPACE || code == KeyCode.DELETE) && modifiers.isEmpty()) {
            if (optional) {
                set("");
            }
            return;
        }
        String mod = modifier(code);
        if (mod != null) {
            if (!modifiers.contains(mod)) {
                modifiers.add(mod);
                keyTaken = false;
                setText(String.join("+", modifiers) + "+…");
            }
            return;
        }
        List<String> parts = new ArrayList<>(modifiers);
        parts.add(code.getName());
        keyTaken = true;
        set(String.join("+", parts));
    }

    private void released(KeyEvent e) {
        if (e.getCode() == KeyCode.TAB) {
            return;
        }
        e.consume();
        String mod = modifier(e.getCode());
        if (mod == null) {
            return;
        }
        if (!keyTaken && modifiers.size() >= 2) {
            // Every modifier released without another key: the modifiers are the hotkey (Ctrl+Super).
            set(String.join("+", modifiers));
            keyTaken = true;
        }
        modifiers.remove(mod);
        if (modifiers.isEmpty() && !keyTaken) {
            onSet.accept(getText().endsWith("+…") ? getText().substring(0, getText().length() - 2) : getText());
        }
    }

    private void set(String text) {
        setText(text);
        onSet.accept(text);
    }

    private static String modifier(KeyCode c) {
        return switch (c) {
            case CONTROL -> "Ctrl";
            case ALT, ALT_GRAPH -> "Alt";
            case SHIFT -> "Shift";
            case WINDOWS, META, COMMAND -> "Super";
            default -> null;
        };
    }
}
