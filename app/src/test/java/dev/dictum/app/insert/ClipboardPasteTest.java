package dev.dictum.app.insert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.settings.InsertionSettings;
import dev.dictum.app.settings.PasteKeystroke;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.DataFlavor;
import java.awt.datatransfer.StringSelection;
import java.awt.datatransfer.Transferable;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Paste on an in-memory clipboard (java.awt.datatransfer needs no display), keystrokes recorded. */
class ClipboardPasteTest {
    static final DataFlavor HTML = flavor("text/html;class=java.io.InputStream;charset=UTF-8");
    static final DataFlavor APP = flavor("application/x-dictum-test;class=java.io.InputStream");

    final Clipboard clipboard = new Clipboard("test");
    final List<String> events = new ArrayList<>();
    final KeySender keys = new KeySender() {
        @Override
        public void paste(PasteKeystroke k) {
            events.add(k + " while clipboard=" + text(clipboard.getContents(null)));
        }

        @Override
        public void enter() {
            events.add("ENTER");
        }
    };

    /**
     * Stop-and-Enter: an X11 target reads the selection some round trips after the keystroke; the
     * Enter must come after that read, or the newline lands before the text (seen end to end once the
     * paste delay went to 0).
     */
    @Test
    void enterComesAfterTheTargetHasReadTheText() throws Exception {
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        KeySender lateReader = new KeySender() {
            @Override
            public void paste(PasteKeystroke k) {
                Transferable offered = clipboard.getContents(null);
                Thread.ofPlatform().start(() -> { // the target's selection request, a little later
                    try {
                        Thread.sleep(60);
                        order.add("READ " + offered.getTransferData(DataFlavor.stringFlavor));
                    } catch (Exception e) {
                        order.add("READ failed: " + e);
                    }
                });
            }

            @Override
            public void enter() {
                order.add("ENTER");
            }
        };
        InsertionSettings s = InsertionSettings.defaults().withPasteDelayMillis(0).withRestoreDelayMillis(1000);
        new ClipboardPaste(clipboard, lateReader).paste("right now.", s, true);
        assertThat(order).containsExactly("READ right now.", "ENTER");
    }

    /** What a word processor offers after a copy: plain text, HTML and a private format. */
    static Transferable richContents() {
        return new Transferable() {
            @Override
            public DataFlavor[] getTransferDataFlavors() {
                return new DataFlavor[] {DataFlavor.stringFlavor, HTML, APP};
            }

            @Override
            public boolean isDataFlavorSupported(DataFlavor f) {
                return List.of(getTransferDataFlavors()).contains(f);
            }

            @Override
            public Object getTransferData(DataFlavor f) {
                if (f.equals(DataFlavor.stringFlavor)) {
                    return "Grüße";
                }
                if (f.equals(HTML)) {
                    return new ByteArrayInputStream("<b>Grüße</b>".getBytes(StandardCharsets.UTF_8));
                }
                return new ByteArrayInputStream(new byte[] {1, 2, 3, (byte) 0xff});
            }
        };
    }

    @Test
    void everyFlavourIsRestoredAfterThePasteAndTheTextWasThereDuringIt() throws Exception {
        clipboard.setContents(richContents(), null);
        InsertionSettings s = InsertionSettings.defaults().withPasteKeystroke(PasteKeystroke.CTRL_SHIFT_V)
                .withPasteDelayMillis(1).withRestoreDelayMillis(1);
        new ClipboardPaste(clipboard, keys).paste("L'hôtel à Lyon coûte", s, true);
        assertThat(events).containsExactly("CTRL_SHIFT_V while clipboard=L'hôtel à Lyon coûte", "ENTER");
        Transferable after = clipboard.getContents(null);
        assertThat(after.getTransferDataFlavors()).containsExactly(DataFlavor.stringFlavor, HTML, APP);
        assertThat(text(after)).isEqualTo("Grüße");
        assertThat(new String(((InputStream) after.getTransferData(HTML)).readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("<b>Grüße</b>");
        // Streams are handed out fresh each time: a second reader gets the whole content again.
        assertThat(((InputStream) after.getTransferData(APP)).readAllBytes()).containsExactly(1, 2, 3, 0xff);
        assertThat(((InputStream) after.getTransferData(APP)).readAllBytes()).containsExactly(1, 2, 3, 0xff);
    }

    @Test
    void anEmptyClipboardIsEmptyAgainAfterwards() throws Exception {
        new ClipboardPaste(clipboard, keys).paste("text", InsertionSettings.defaults().withRestoreDelayMillis(0), false);
        assertThat(clipboard.getContents(null).getTransferDataFlavors()).isEmpty();
    }

    @Test
    void aFlavourThatFailsToReadDoesNotStopTheOthers() {
        Transferable t = new StringSelection("plain") {
            @Override
            public DataFlavor[] getTransferDataFlavors() {
                return new DataFlavor[] {APP, DataFlavor.stringFlavor};
            }

            @Override
            public Object getTransferData(DataFlavor f) throws java.awt.datatransfer.UnsupportedFlavorException,
                    java.io.IOException {
                if (f.equals(APP)) {
                    throw new java.io.IOException("owner went away");
                }
                return super.getTransferData(f);
            }
        };
        SavedClipboard saved = SavedClipboard.of(t);
        assertThat(saved.flavors()).containsExactly(DataFlavor.stringFlavor);
    }

    @Test
    void eachFormatIsReadOnceWhateverTheNumberOfRepresentations() throws Exception {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        DataFlavor[] many = {flavor("text/plain;class=java.io.Reader"), DataFlavor.stringFlavor,
            flavor("text/plain;class=java.io.InputStream;charset=UTF-8"), flavor("text/plain;class=java.nio.CharBuffer"),
            flavor("text/html;class=java.lang.String"), HTML};
        Transferable t = new Transferable() {
            @Override
            public DataFlavor[] getTransferDataFlavors() {
                return many;
            }

            @Override
            public boolean isDataFlavorSupported(DataFlavor f) {
                return true;
            }

            @Override
            public Object getTransferData(DataFlavor f) {
                reads.incrementAndGet();
                if (f.equals(DataFlavor.stringFlavor)) {
                    return "text";
                }
                return new ByteArrayInputStream("<i>text</i>".getBytes(StandardCharsets.UTF_8));
            }
        };
        SavedClipboard saved = SavedClipboard.of(t);
        assertThat(saved.flavors()).containsExactly(DataFlavor.stringFlavor, HTML);
        assertThat(reads.get()).isEqualTo(2);
    }

    @Test
    void clipboardOnlyLeavesTheText() throws Exception {
        clipboard.setContents(new StringSelection("old"), null);
        new ClipboardPaste(clipboard, keys).copy("new text");
        assertThat(text(clipboard.getContents(null))).isEqualTo("new text");
        assertThat(events).isEmpty();
    }

    static String text(Transferable t) {
        try {
            return (String) t.getTransferData(DataFlavor.stringFlavor);
        } catch (Exception e) {
            return "<" + e.getClass().getSimpleName() + ">";
        }
    }

    static DataFlavor flavor(String mime) {
        try {
            return new DataFlavor(mime);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theClipboardIsRestoredOnceTheTargetReadTheTextNotAfterTheWholeRestoreDelay() throws Exception {
        clipboard.setContents(richContents(), null);
        InsertionSettings s = InsertionSettings.defaults().withPasteDelayMillis(1).withRestoreDelayMillis(3000);
        long t0 = System.nanoTime();
        new ClipboardPaste(clipboard, keys).paste("read at once", s, false); // keys reads the clipboard
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(events).containsExactly("CTRL_V while clipboard=read at once");
        assertThat(ms).as("bounded by the read, not the 3 s restore delay").isLessThan(1000);
        assertThat(text(clipboard.getContents(null))).isEqualTo("Grüße");
    }

    @Test
    void aTargetThatNeverReadsIsWaitedForAtMostTheRestoreDelay() throws Exception {
        clipboard.setContents(richContents(), null);
        KeySender deaf = new KeySender() {
            @Override
            public void paste(PasteKeystroke k) {
            }

            @Override
            public void enter() {
            }
        };
        InsertionSettings s = InsertionSettings.defaults().withPasteDelayMillis(1).withRestoreDelayMillis(200);
        long t0 = System.nanoTime();
        new ClipboardPaste(clipboard, deaf).paste("nobody reads this", s, false);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).isBetween(190L, 2000L);
        assertThat(text(clipboard.getContents(null))).isEqualTo("Grüße");
    }

    /**
     * Where the platform offers the text its own way (X11: Dictum's selection owner), the toolkit does
     * not set it; the restore still waits for the target's read, then comes back through the toolkit
     * with every format.
     */
    @Test
    void textOfferedThePlatformsWayIsRestoredThroughTheToolkitAfterTheRead() throws Exception {
        clipboard.setContents(richContents(), null);
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        dev.dictum.app.os.TextOffer platform = (text, onRead) -> {
            order.add("OFFER " + text);
            clipboard.setContents(new StringSelection(text), null); // X11: the selection is taken from the toolkit
            Thread.ofPlatform().start(() -> { // the target's request, some round trips after the keystroke
                try {
                    Thread.sleep(80);
                } catch (InterruptedException e) {
                    return;
                }
                order.add("READ while clipboard=" + text(clipboard.getContents(null)));
                onRead.run();
            });
            return true;
        };
        KeySender k = new KeySender() {
            @Override
            public void paste(PasteKeystroke p) {
                order.add("KEY");
            }

            @Override
            public void enter() {
                order.add("ENTER");
            }
        };
        InsertionSettings s = InsertionSettings.defaults().withPasteDelayMillis(0).withRestoreDelayMillis(3000);
        long t0 = System.nanoTime();
        new ClipboardPaste(clipboard, k, ClipboardChanges.UNKNOWN, platform).paste("offered", s, true);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(order).containsExactly("OFFER offered", "KEY", "READ while clipboard=offered", "ENTER");
        assertThat(ms).as("restored after the read, not after the 3 s restore delay").isLessThan(1500);
        Transferable after = clipboard.getContents(null);
        assertThat(after.getTransferDataFlavors()).containsExactly(DataFlavor.stringFlavor, HTML, APP);
    }

    @Test
    void anOfferThePlatformRefusesGoesThroughTheToolkit() throws Exception {
        clipboard.setContents(richContents(), null);
        List<String> offered = new ArrayList<>();
        dev.dictum.app.os.TextOffer refusing = (text, onRead) -> {
            offered.add(text);
            return false;
        };
        InsertionSettings s = InsertionSettings.defaults().withPasteDelayMillis(0).withRestoreDelayMillis(1000);
        new ClipboardPaste(clipboard, keys, ClipboardChanges.UNKNOWN, refusing).paste("too long for one request", s,
                false);
        assertThat(offered).containsExactly("too long for one request");
        assertThat(events).containsExactly("CTRL_V while clipboard=too long for one request");
        assertThat(text(clipboard.getContents(null))).isEqualTo("Grüße");
    }
}
