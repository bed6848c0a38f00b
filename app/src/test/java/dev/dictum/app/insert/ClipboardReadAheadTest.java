package dev.dictum.app.insert;

import dev.dictum.app.os.ClipboardChanges;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.InsertionSettings;
import dev.dictum.app.settings.PasteKeystroke;
import java.awt.datatransfer.Clipboard;
import java.awt.datatransfer.DataFlavor;
import java.awt.datatransfer.Transferable;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 item 1: the clipboard a paste restores is read while the user speaks, and at the release
 * only when another program changed it. The owner here answers each format after 40 ms, as a busy
 * X11 owner does (every format a round trip); the target reads the text at the keystroke.
 * Also the insertion path's benchmark: release → paste keystroke with a fake target.
 */
class ClipboardReadAheadTest {
    static final DataFlavor HTML = ClipboardPasteTest.flavor("text/html;class=java.io.InputStream;charset=UTF-8");
    static final long FORMAT_MILLIS = 40;

    final Clipboard clipboard = new Clipboard("test");
    final AtomicInteger ownerReads = new AtomicInteger();
    final AtomicLong generation = new AtomicLong();
    final ClipboardChanges watch = generation::get;
    final List<String> targetSaw = new CopyOnWriteArrayList<>();
    final KeySender target = new KeySender() {
        @Override
        public void paste(PasteKeystroke k) {
            targetSaw.add(ClipboardPasteTest.text(clipboard.getContents(null)));
        }

        @Override
        public void enter() {
        }
    };
    final InsertionSettings settings = InsertionSettings.defaults().withRestoreDelayMillis(50);

    /** Another program copies {@code text} (plain and HTML), slow to answer; the watch sees the new owner. */
    void anotherProgramCopies(String text) {
        clipboard.setContents(new Transferable() {
            @Override
            public DataFlavor[] getTransferDataFlavors() {
                return new DataFlavor[] {DataFlavor.stringFlavor, HTML};
            }

            @Override
            public boolean isDataFlavorSupported(DataFlavor f) {
                return Arrays.asList(getTransferDataFlavors()).contains(f);
            }

            @Override
            public Object getTransferData(DataFlavor f) {
                sleep(FORMAT_MILLIS);
                ownerReads.incrementAndGet(); // counted once answered
                return f.equals(HTML) ? new ByteArrayInputStream(("<b>" + text + "</b>").getBytes(StandardCharsets.UTF_8))
                        : text;
            }
        }, null);
        generation.incrementAndGet();
    }

    @Test
    void readWhileSpeakingTheReleaseReadsNothingAndRestoresEveryFormat() throws Exception {
        anotherProgramCopies("copied before");
        ClipboardPaste paste = new ClipboardPaste(clipboard, target, watch);
        paste.prepare();
        awaitReads(2);
        for (int i = 0; i < 3; i++) {
            paste.paste("dictated " + i, settings, false);
        }
        assertThat(targetSaw).containsExactly("dictated 0", "dictated 1", "dictated 2");
        assertThat(ownerReads).as("both formats read once, before the first release").hasValue(2);
        assertRestored("copied before");
    }

    @Test
    void aCopyMadeWhileSpeakingIsReadAgainAtTheRelease() throws Exception {
        anotherProgramCopies("old");
        ClipboardPaste paste = new ClipboardPaste(clipboard, target, watch);
        paste.prepare();
        awaitReads(2);
        anotherProgramCopies("copied during the dictation");
        paste.paste("dictated", settings, false);
        assertThat(targetSaw).containsExactly("dictated");
        assertRestored("copied during the dictation");
        assertThat(ownerReads).hasValue(4);
    }

    @Test
    void clipboardOnlyIsNotUndoneByTheNextPaste() throws Exception {
        anotherProgramCopies("old");
        ClipboardPaste paste = new ClipboardPaste(clipboard, target, watch);
        paste.prepare();
        awaitReads(2);
        paste.copy("left for the user"); // Dictum's own change: the watch does not count it
        paste.paste("dictated", settings, false);
        assertThat(ClipboardPasteTest.text(clipboard.getContents(null))).isEqualTo("left for the user");
    }

    /**
     * The benchmark: release → paste keystroke over 20 pastes, clipboard read while speaking vs. at
     * the release (no watch, as before issue 23), with the slow owner above.
     */
    @Test
    void insertionPathBenchmark() throws Exception {
        anotherProgramCopies("copied before");
        long[] ahead = bench(new ClipboardPaste(clipboard, target, watch), true);
        long[] atRelease = bench(new ClipboardPaste(clipboard, target), false);
        System.out.printf("insertion path, fake target, owner answering each of 2 formats in %d ms: release ->"
                + " keystroke median %.2f ms / p95 %.2f ms read while speaking; %.2f / %.2f ms read at the release%n",
                FORMAT_MILLIS, ahead[10] / 1e6, ahead[18] / 1e6, atRelease[10] / 1e6, atRelease[18] / 1e6);
        assertThat(ahead[10]).as("median, read while speaking").isLessThan(TimeUnit.MILLISECONDS.toNanos(FORMAT_MILLIS));
        assertThat(atRelease[10]).as("median, read at the release").isGreaterThanOrEqualTo(
                TimeUnit.MILLISECONDS.toNanos(2 * FORMAT_MILLIS));
    }

    private long[] bench(ClipboardPaste paste, boolean prepare) throws Exception {
        long[] ns = new long[20];
        for (int i = 0; i < ns.length; i++) {
            anotherProgramCopies("copied " + i); // a new copy before each dictation
            if (prepare) {
                int before = ownerReads.get();
                paste.prepare(); // at the press
                awaitReads(before + 2);
            }
            long release = System.nanoTime();
            ns[i] = paste.paste("dictated " + i, settings, false) - release;
            assertRestored("copied " + i);
        }
        Arrays.sort(ns);
        return ns;
    }

    private void assertRestored(String text) throws Exception {
        Transferable after = clipboard.getContents(null);
        assertThat(ClipboardPasteTest.text(after)).isEqualTo(text);
        assertThat(new String(((InputStream) after.getTransferData(HTML)).readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("<b>" + text + "</b>");
    }

    private void awaitReads(int n) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ownerReads.get() < n && System.nanoTime() < until) {
            Thread.sleep(1);
        }
        assertThat(ownerReads.get()).isGreaterThanOrEqualTo(n);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
