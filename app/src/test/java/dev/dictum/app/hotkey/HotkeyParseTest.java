package dev.dictum.app.hotkey;

import dev.dictum.app.os.Modifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.kwhat.jnativehook.keyboard.NativeKeyEvent;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HotkeyParseTest {
    @Test
    void parsesCombinationsInAnyCaseAndOrder() {
        Hotkey h = Hotkey.parse(" alt + CTRL+space ");
        assertThat(h.modifiers()).containsExactlyInAnyOrder(Modifier.CTRL, Modifier.ALT);
        assertThat(h.trigger()).isEqualTo(Input.key(NativeKeyEvent.VC_SPACE));
        assertThat(h).hasToString("Ctrl+Alt+Space");
        assertThat(Hotkey.parse("Ctrl+Alt+Space")).isEqualTo(h);
        assertThat(Hotkey.parse("Shift+PageUp").trigger()).isEqualTo(Input.key(NativeKeyEvent.VC_PAGE_UP));
        assertThat(Hotkey.parse("Esc")).isEqualTo(Hotkey.parse("Escape"));
        assertThat(Hotkey.parse("F9")).hasToString("F9");
    }

    @Test
    void modifierOnlyCombinationsAndWindowsNames() {
        Hotkey h = Hotkey.parse("Ctrl+Win");
        assertThat(h.modifierOnly()).isTrue();
        assertThat(h.modifiers()).isEqualTo(Set.of(Modifier.CTRL, Modifier.SUPER));
        assertThat(Hotkey.parse("control+super")).isEqualTo(h);
        assertThat(h).hasToString("Ctrl+Super");
    }

    @Test
    void mouseSideButtons() {
        assertThat(Hotkey.parse("Mouse4").trigger()).isEqualTo(Input.mouse(4));
        assertThat(Hotkey.parse("MouseBack")).isEqualTo(Hotkey.parse("mouse4"));
        assertThat(Hotkey.parse("Ctrl+Mouse5")).hasToString("Ctrl+Mouse5");
    }

    @Test
    void anySingleKeyIncludingF13ToF24AndOneSideOfAModifier() {
        assertThat(Hotkey.parse("F13").trigger()).isEqualTo(Input.key(NativeKeyEvent.VC_F13));
        assertThat(Hotkey.parse("f24")).hasToString("F24");
        assertThat(Hotkey.parse("Pause").modifiers()).isEmpty();
        Hotkey right = Hotkey.parse("RightCtrl");
        assertThat(right.modifiers()).isEmpty();
        assertThat(right.trigger()).isEqualTo(Input.key(0x0E1D));
        assertThat(right).hasToString("RightCtrl");
        assertThat(Hotkey.parse(right.toString())).isEqualTo(right);
        assertThat(Hotkey.parse("AltGr")).hasToString("RightAlt");
        assertThat(Hotkey.parse("Right Shift")).hasToString("RightShift");
        assertThat(Hotkey.parse("RightWin")).hasToString("RightSuper");
        assertThat(Hotkey.parse("Shift+RightCtrl")).hasToString("Shift+RightCtrl");
        assertThat(Hotkey.parse("Ctrl")).isEqualTo(new Hotkey(Set.of(Modifier.CTRL), null)); // still the modifier
        assertThat(Hotkey.problem("Ctrl+RightCtrl")).contains("RightCtrl is itself Ctrl");
    }

    @Test
    void badTextGivesTheReason() {
        assertThat(Hotkey.problem("Ctrl+Alt+Space")).isNull();
        assertThat(Hotkey.problem("Ctrl+Spcae")).isEqualTo("'Ctrl+Spcae': unknown key 'Spcae'");
        assertThat(Hotkey.problem("Ctrl++A")).contains("empty key name");
        assertThat(Hotkey.problem("Ctrl+Ctrl+A")).contains("Ctrl appears twice");
        assertThat(Hotkey.problem("A+B")).contains("only one key besides modifiers");
        assertThat(Hotkey.problem("Mouse1")).contains("every click");
        assertThat(Hotkey.problem("")).isEqualTo("empty hotkey");
        assertThatThrownBy(() -> Hotkey.parse("Hyper+X")).isInstanceOf(IllegalArgumentException.class);
    }
}
