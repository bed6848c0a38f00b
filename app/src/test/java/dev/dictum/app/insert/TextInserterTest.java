package dev.dictum.app.insert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.os.UnicodeTyper;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.settings.InsertionSettings;
import dev.dictum.app.settings.PasteKeystroke;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.DataFlavor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Type mode's way out: a text the typer refuses (nothing sent) is pasted, the old clipboard restored. */
class TextInserterTest {
    final Clipboard clipboard = new Clipboard("test");
    final List<String> events = new ArrayList<>();
    final KeySender keys = new KeySender() {
        @Override
        public void paste(PasteKeystroke k) {
            try {
                events.add("PASTE " + clipboard.getData(DataFlavor.stringFlavor));
            } catch (Exception e) {
                events.add("PASTE unreadable: " + e);
            }
        }

        @Override
        public void enter() {
            events.add("ENTER");
        }
    };

    @Test
    void aTextTheTyperRefusesIsPastedAndTheClipboardRestored() throws Exception {
        clipboard.setContents(new java.awt.datatransfer.StringSelection("the user's own"), null);
        UnicodeTyper refusing = (text, delay) -> {
            throw new UnicodeTyper.CannotTypeException("the text has 40 characters the keyboard layout lacks");
        };
        InsertionSettings s = InsertionSettings.defaults().withMethod(InsertionMethod.TYPE).withRestoreDelayMillis(0);
        new TextInserter(new ClipboardPaste(clipboard, keys), keys, refusing).insert("一二三四五六七八九十。", s, true);
        assertThat(events).containsExactly("PASTE 一二三四五六七八九十。", "ENTER");
        assertThat(clipboard.getData(DataFlavor.stringFlavor)).isEqualTo("the user's own");
    }

    @Test
    void aTextTheTyperTakesIsTypedWithoutTouchingTheClipboard() throws Exception {
        clipboard.setContents(new java.awt.datatransfer.StringSelection("the user's own"), null);
        List<String> typed = new ArrayList<>();
        UnicodeTyper typer = (text, delay) -> typed.add(text);
        InsertionSettings s = InsertionSettings.defaults().withMethod(InsertionMethod.TYPE);
        new TextInserter(new ClipboardPaste(clipboard, keys), keys, typer).insert("Grüße.", s, false);
        assertThat(typed).containsExactly("Grüße.");
        assertThat(events).isEmpty();
        assertThat(clipboard.getData(DataFlavor.stringFlavor)).isEqualTo("the user's own");
    }
}
