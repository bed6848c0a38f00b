package dev.dictum.app.ui;

import dev.dictum.app.dictation.NoticeThrottle;
import dev.dictum.app.dictation.Notifier;
import dev.dictum.app.settings.LiveSettings;
import dev.dictum.app.sound.CueSound;
import dev.dictum.app.sound.SoundCues;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every notice is logged; the screen (the indicator, the control window) gets at most one a second,
 * repeats merged ({@link NoticeThrottle}); an error also plays the error cue.
 */
final class Notices implements Notifier {
    private static final Logger LOG = LoggerFactory.getLogger(Notices.class);

    private final LiveSettings settings;
    private final Indicator indicator;
    private final NoticeThrottle throttle = new NoticeThrottle(() -> System.nanoTime() / 1_000_000);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("dictum-notices").unstarted(r));
    private volatile SoundCues sounds;
    private volatile ControlWindow control;

    Notices(LiveSettings settings, Indicator indicator) {
        this.settings = settings;
        this.indicator = indicator;
    }

    /** The cues, once they exist (notices come before). */
    void sounds(SoundCues s) {
        sounds = s;
    }

    /** The control window, where there is no tray: it shows every notice. */
    void control(ControlWindow c) {
        control = c;
    }

    @Override
    public void notice(Kind kind, String message) {
        if (kind == Kind.ERROR && sounds != null) {
            sounds.play(CueSound.ERROR);
        }
        switch (kind) {
            case INFO -> LOG.info("notice: {}", message);
            case WARNING, ERROR -> LOG.warn("notice: {}", message);
        }
        if (!settings.current().general().showNotices() && kind != Kind.ERROR && control == null) {
            return;
        }
        NoticeThrottle.Shown now = throttle.offer(kind, message);
        if (now != null) {
            display(now);
        } else {
            long wait = Math.max(0, throttle.nextDueMillis() - System.nanoTime() / 1_000_000);
            timer.schedule(() -> {
                NoticeThrottle.Shown merged = throttle.due();
                if (merged != null) {
                    display(merged);
                }
            }, wait + 5, TimeUnit.MILLISECONDS);
        }
    }

    private void display(NoticeThrottle.Shown n) {
        boolean onIndicator = settings.current().general().showNotices() || n.kind() == Kind.ERROR;
        if (onIndicator) {
            indicator.notice(n.message(), n.kind() != Kind.INFO);
        }
        ControlWindow c = control;
        if (c != null) {
            c.notice(n.message());
        }
    }
}
