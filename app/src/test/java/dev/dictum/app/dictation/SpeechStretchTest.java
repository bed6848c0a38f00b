package dev.dictum.app.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpeechStretchTest {
    static final float SPEECH = -25f;
    static final float QUIET = -70f;

    /** Feeds {@code millis} of one level in 20 ms readings from {@code t}; returns the last answer. */
    static boolean feed(SpeechStretch s, float db, long t, long millis) {
        boolean warn = false;
        for (long at = t; at < t + millis; at += 20) {
            warn = s.update(db, at);
        }
        return warn;
    }

    @Test
    void warnsOnlyAfter25SecondsOfSpeechWithoutAPause() {
        SpeechStretch s = new SpeechStretch(-50);
        assertThat(feed(s, SPEECH, 0, 25_000)).isFalse();
        assertThat(feed(s, SPEECH, 25_000, 200)).isTrue();
        // Short gaps between words are not pauses.
        assertThat(feed(s, QUIET, 25_200, 200)).isTrue();
        assertThat(feed(s, SPEECH, 25_400, 1000)).isTrue();
    }

    @Test
    void aPauseStartsANewStretch() {
        SpeechStretch s = new SpeechStretch(-50);
        feed(s, SPEECH, 0, 20_000);
        feed(s, QUIET, 20_000, SpeechStretch.PAUSE_MILLIS + 20);
        assertThat(feed(s, SPEECH, 21_000, 20_000)).isFalse();
        assertThat(feed(s, SPEECH, 41_000, 6_000)).isTrue();
    }

    @Test
    void backgroundNoiseBelowTheThresholdIsNotSpeech() {
        SpeechStretch s = new SpeechStretch(-50);
        assertThat(feed(s, -45f, 0, 60_000)).isFalse();
    }
}
