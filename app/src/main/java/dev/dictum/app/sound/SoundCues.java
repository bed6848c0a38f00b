package dev.dictum.app.sound;

import dev.dictum.app.settings.AudioSettings;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Supplier;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.SourceDataLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the cues on a thread and output line of their own, so that a cue never delays the
 * capture or the hotkey's handling: {@link #play} only queues (and drops a cue when two are
 * already waiting). The output line is opened at the first cue and kept open, as opening one
 * takes 50-300 ms on PulseAudio. A machine without an output device just stays quiet.
 */
public final class SoundCues implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SoundCues.class);
    private final Supplier<AudioSettings> settings;
    private final BlockingQueue<CueSound> queue = new ArrayBlockingQueue<>(2);
    private final Thread thread;
    private SourceDataLine line; // player thread only
    private boolean unavailable; // player thread only

    public SoundCues(Supplier<AudioSettings> settings) {
        this.settings = settings;
        this.thread = Thread.ofPlatform().name("dictum-sound-cues").daemon().start(this::run);
    }

    /** Queues the cue if cues are on; returns at once. */
    public void play(CueSound cue) {
        AudioSettings s = settings.get();
        if (s.soundCues() && s.soundVolume() > 0 && !queue.offer(cue)) {
            LOG.debug("sound cue {} dropped: two are waiting", cue);
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }

    private void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                CueSound cue = queue.take();
                byte[] pcm = cue.pcm(settings.get().soundVolume() / 100.0);
                SourceDataLine l = line();
                if (l != null) {
                    l.write(pcm, 0, pcm.length);
                }
            }
        } catch (InterruptedException e) {
            // closing
        } finally {
            if (line != null) {
                line.close();
            }
        }
    }

    private SourceDataLine line() {
        if (line == null && !unavailable) {
            try {
                AudioFormat f = new AudioFormat(CueSound.RATE, 16, 1, true, false);
                line = AudioSystem.getSourceDataLine(f);
                line.open(f, CueSound.RATE / 10 * 2);
                line.start();
            } catch (LineUnavailableException | IllegalArgumentException | SecurityException e) {
                unavailable = true; // no output device: cues stay off for this run
                LOG.info("no sound output for cues: {}", e.getMessage());
            }
        }
        return line;
    }
}
