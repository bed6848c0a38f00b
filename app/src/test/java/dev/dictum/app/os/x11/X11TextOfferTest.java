package dev.dictum.app.os.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dictum.app.os.ClipboardChanges;
import dev.dictum.app.testing.Xclip;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Dictum's own CLIPBOARD owner, asked by a real X client (xclip) for each target it offers. Needs an
 * X display (the CI's Xvfb) and xclip; skipped without them.
 */
class X11TextOfferTest {
    private static final String TEXT = "Grüße aus Köln, 東京 – 10:30.";

    @Test
    void aProgramGetsTheTextInEveryTargetAndTheFirstReadIsReportedOnce() throws Exception {
        assumeTrue(X11Focus.available(), "skipped: no X display (DISPLAY is not set)");
        assumeTrue(Xclip.available(), "skipped: no xclip");
        try (X11TextOffer offer = X11TextOffer.open(ClipboardChanges.UNKNOWN)) {
            AtomicInteger reads = new AtomicInteger();
            assertThat(offer.offer(TEXT, reads::incrementAndGet)).isTrue();
            assertThat(new String(Xclip.read("TARGETS"), StandardCharsets.UTF_8)).contains("TARGETS", "UTF8_STRING", "STRING", "text/plain;charset=utf-8");
            assertThat(reads.get()).as("asking which targets there are is not reading the text").isZero();
            assertThat(Xclip.text()).isEqualTo(TEXT);
            assertThat(reads.get()).isEqualTo(1);
            assertThat(new String(Xclip.read("text/plain;charset=utf-8"), StandardCharsets.UTF_8)).isEqualTo(TEXT);
            // STRING is Latin-1 (ICCCM): what it cannot hold becomes '?'
            assertThat(new String(Xclip.read("STRING"), StandardCharsets.ISO_8859_1))
                    .isEqualTo("Grüße aus Köln, ?? ? 10:30.");
            assertThat(reads.get()).as("told once, however often the text is fetched").isEqualTo(1);
        }
    }

    @Test
    void anotherProgramsCopyEndsTheOfferAndOurOwnershipIsNotCountedAsACopy() throws Exception {
        assumeTrue(X11Focus.available(), "skipped: no X display (DISPLAY is not set)");
        assumeTrue(Xclip.available(), "skipped: no xclip");
        ClipboardChanges watch = X11ClipboardChanges.open();
        try (X11TextOffer offer = X11TextOffer.open(watch)) {
            long before = watch.generation();
            assertThat(offer.offer("first", () -> { })).isTrue();
            assertThat(offer.offer("second", () -> { })).isTrue();
            assertThat(Xclip.text()).isEqualTo("second");
            Thread.sleep(200); // the watch's events for our two offers have arrived by now
            if (before >= 0) {
                assertThat(watch.generation()).as("Dictum's own offers are not the user's copy").isEqualTo(before);
            }
            Process copy = Xclip.own("the user's");
            assertThat(Xclip.text()).isEqualTo("the user's");
            if (before >= 0) {
                for (int i = 0; i < 100 && watch.generation() == before; i++) {
                    Thread.sleep(20); // the watch's event arrives on its own thread
                }
                assertThat(watch.generation()).as("another program's copy counts").isGreaterThan(before);
            }
            copy.destroy();
            // Taken back at once, as the next paste does
            assertThat(offer.offer("third", () -> { })).isTrue();
            assertThat(Xclip.text()).isEqualTo("third");
        }
    }
}
