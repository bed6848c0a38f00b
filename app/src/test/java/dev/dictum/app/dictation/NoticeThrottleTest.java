package dev.dictum.app.dictation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NoticeThrottleTest {
    final AtomicLong now = new AtomicLong(10_000);
    final NoticeThrottle t = new NoticeThrottle(now::get);
    final List<String> shown = new ArrayList<>();

    void offer(Notifier.Kind kind, String message) {
        NoticeThrottle.Shown s = t.offer(kind, message);
        if (s != null) {
            shown.add(s.message());
        }
    }

    void tick(long millis) {
        now.addAndGet(millis);
        NoticeThrottle.Shown s = t.due();
        if (s != null) {
            shown.add(s.message());
        }
    }

    @Test
    void thirtyNoticesInThreeSecondsShowAtMostOneASecondMergedWithACount() {
        for (int i = 0; i < 30; i++) {
            offer(Notifier.Kind.INFO, "Too short: hold the hotkey while you speak");
            tick(100);
        }
        tick(1000);
        assertThat(shown).hasSizeLessThanOrEqualTo(4)
                .first().isEqualTo("Too short: hold the hotkey while you speak");
        assertThat(shown.get(1)).isEqualTo("Too short: hold the hotkey while you speak (\u00d710)");
        assertThat(shown.getLast()).endsWith(")");
    }

    @Test
    void aLoneNoticeIsShownAtOnceAndDifferentOnesAreSummedUpMostSevereFirst() {
        offer(Notifier.Kind.INFO, "Loading toy-en");
        assertThat(shown).containsExactly("Loading toy-en");
        now.addAndGet(200);
        offer(Notifier.Kind.INFO, "Recording cancelled");
        offer(Notifier.Kind.ERROR, "No microphone");
        offer(Notifier.Kind.INFO, "Recording cancelled");
        assertThat(t.nextDueMillis()).isEqualTo(11_000);
        tick(300);
        assertThat(shown).hasSize(1);
        tick(500);
        assertThat(shown).containsExactly("Loading toy-en", "No microphone \u2026 and 1 more");
        tick(5000);
        offer(Notifier.Kind.WARNING, "Later");
        assertThat(shown).endsWith("Later");
        assertThat(t.nextDueMillis()).isEqualTo(-1);
    }
}
