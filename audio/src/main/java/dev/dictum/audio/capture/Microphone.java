package dev.dictum.audio.capture;

import dev.dictum.audio.StreamingResampler;
import java.io.IOException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The microphone, kept open while the app runs, read on its own thread, converted to 16 kHz mono
 * float, with a level meter and a short pre-buffer.
 *
 * <p>Why the line stays open: opening a capture line takes 50–300 ms on PulseAudio and Windows,
 * and the first read of a fresh line can block for over a second until the server delivers,
 * which would cut off the first word. With the line open and the last {@value #PRE_ROLL_MILLIS}
 * ms always in memory, a recording starts at the hotkey press with no delay at all, and even
 * includes the syllable spoken together with the press. The pre-buffer is only RAM, overwritten
 * continuously; nothing is kept or written unless a recording is attached.
 *
 * <p>When the device fails or disappears, an attached recording is told ({@link AudioSink#deviceLost})
 * and keeps what it has; the microphone tries to reopen the device every second, so plugging it
 * back in (or another default appearing) restores capture without a restart. A device can also
 * go without the line failing: PulseAudio moves the stream to another source (often a speaker's
 * monitor) when the microphone is removed, and a disconnected or muted device may deliver exact
 * digital zeros, which no working microphone does for seconds. Both count as lost during a
 * recording ({@link SourceWatch} asks the sound server; zeros are counted here). While no
 * recording runs, a stream left on another source than the default is reopened, so the next
 * dictation records from the new default.
 */
public final class Microphone implements AudioSource, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Microphone.class);
  public static final int PRE_ROLL_MILLIS = 200;
  private static final int READ_MILLIS = 20;
  /** A line that delivers nothing for this long while open is treated as lost. */
  private static final long STALL_MILLIS = 1500;
  /** This much exact digital silence during a recording means the device is gone or muted. */
  static final int ZEROS_LOST_MILLIS = 4000;

  private final LineOpener opener;
  private final Thread thread;
  private final float[] ring = new float[16 * PRE_ROLL_MILLIS];
  private int ringFill;
  private int ringPos;
  private volatile boolean running = true;
  private volatile String deviceName;
  private volatile boolean reopen;
  private volatile String problem;
  private volatile String activeName;
  private volatile Consumer<Float> levelListener = l -> { };
  private volatile Consumer<String> statusListener = s -> { };
  private volatile String lastName = "the microphone";
  private volatile String moved; // why the stream is no longer on its source, set by the watch
  private final Supplier<SourceWatch> watchFactory;
  private volatile SourceWatch watch = SourceWatch.NONE;
  private AudioSink sink; // guarded by this
  private String source; // guarded by this: the sound server's source of the open line, when known
  private boolean lineOpen; // guarded by this

  /** Starts capturing from the named device (null or empty: the default), with no sound server to ask. */
  public Microphone(LineOpener opener, String deviceName) {
    this(opener, deviceName, () -> SourceWatch.NONE);
  }

  /**
   * Starts capturing from the named device (null or empty: the default).
   *
   * @param watch made on the capture thread (asking the sound server takes a few milliseconds)
   */
  public Microphone(LineOpener opener, String deviceName, Supplier<SourceWatch> watch) {
    this.opener = opener;
    this.deviceName = deviceName;
    this.watchFactory = watch;
    this.thread = Thread.ofPlatform().name("dictum-mic").daemon().start(this::run);
  }

  /** Level in dBFS of each chunk read (about every 20 ms), on the capture thread. */
  public void onLevel(Consumer<Float> l) {
    levelListener = l;
  }

  /** Capture problems and recoveries as one line (null: working), on the capture thread. */
  public void onStatus(Consumer<String> l) {
    statusListener = l;
  }

  /** Switches to another device; the next chunks come from it. */
  public void setDevice(String name) {
    deviceName = name;
    reopen = true;
  }

  /** Why there is no audio right now, or null when capture works. */
  @Override
  public String problem() {
    return problem;
  }

  /** The device in use, or null before one opened. */
  public String activeDevice() {
    return activeName;
  }

  /** The sound server's source name when known (what the user picked in the sound settings), else the line's. */
  @Override
  public String deviceName() {
    return lastName;
  }

  /**
   * Sends the pre-buffer and then every chunk to {@code s}, until {@link #detach}.
   *
   * @return false when no device is open (nothing will be sent; {@link #problem()} says why)
   */
  @Override
  public synchronized boolean attach(AudioSink s) {
    if (problem != null && activeName == null) {
      return false;
    }
    float[] pre = new float[ringFill];
    int start = (ringPos - ringFill + ring.length) % ring.length;
    for (int i = 0; i < ringFill; i++) {
      pre[i] = ring[(start + i) % ring.length];
    }
    sink = s;
    if (pre.length > 0) {
      s.audio(pre);
    }
    return true;
  }

  /** Stops sending to the attached sink; returns once no chunk is being delivered to it. */
  @Override
  public synchronized void detach() {
    sink = null;
  }

  @Override
  public void close() {
    running = false;
    watch.close();
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    watch = watchFactory.get();
    watch.start(this::sourcesChanged);
    while (running) {
      PcmLine line;
      try {
        line = opener.open(deviceName);
      } catch (IOException | RuntimeException e) {
        setProblem("No microphone: " + e.getMessage());
        sleep(1000);
        continue;
      }
      reopen = false;
      moved = null;
      String src = watch.streamSource();
      synchronized (this) {
        source = src;
        lineOpen = true;
      }
      activeName = line.name();
      lastName = src != null ? src : line.name();
      setProblem(null);
      LOG.info("recording from {}{} at {} Hz, {} channel(s)", line.name(), src == null ? "" : " (source " + src + ")",
          line.sampleRate(), line.channels());
      String lost = capture(line);
      synchronized (this) {
        lineOpen = false;
      }
      line.close();
      activeName = null;
      if (lost != null) {
        LOG.warn("microphone lost: {}", lost);
        AudioSink s;
        synchronized (this) {
          s = sink;
          sink = null;
          ringFill = 0;
        }
        if (s != null) {
          s.deviceLost(lost);
        }
        setProblem("Microphone lost: " + lost);
        sleep(1000);
      }
    }
  }

  /** Reads until the line fails (returns why) or the device changes or the microphone closes (null). */
  private String capture(PcmLine line) {
    int channels = line.channels();
    int frameBytes = 2 * channels;
    byte[] buf = new byte[Math.max(frameBytes, line.sampleRate() * READ_MILLIS / 1000 * frameBytes)];
    float[] mono = new float[buf.length / frameBytes];
    StreamingResampler resampler = new StreamingResampler(line.sampleRate(), 16000);
    long lastData = System.nanoTime();
    int zeros = 0;
    // A reopen asked for (a new default source, another device) waits while a recording is attached:
    // closing the line mid-recording would drop the audio in between and insert the wrong text. It
    // was asked for while idle, but the line's read can block past the moment a recording attaches.
    while (running && !(reopen && !attached())) {
      if (moved != null) {
        return moved;
      }
      int n;
      try {
        n = line.read(buf, 0, buf.length);
      } catch (IOException | RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      }
      if (n < 0) {
        return "the device stopped delivering audio";
      }
      if (n == 0) {
        if ((System.nanoTime() - lastData) / 1_000_000 > STALL_MILLIS) {
          return "no audio for " + STALL_MILLIS + " ms";
        }
        sleep(5);
        continue;
      }
      lastData = System.nanoTime();
      int frames = n / frameBytes;
      for (int f = 0; f < frames; f++) {
        float sum = 0;
        for (int c = 0; c < channels; c++) {
          int i = f * frameBytes + 2 * c;
          sum += (short) ((buf[i] & 0xff) | (buf[i + 1] << 8)) / 32768f;
        }
        mono[f] = sum / channels;
      }
      float[] out = resampler.process(mono, 0, frames);
      zeros = attached() ? countZeros(zeros, out) : 0;
      if (zeros >= 16 * ZEROS_LOST_MILLIS) {
        return "only digital silence for " + ZEROS_LOST_MILLIS / 1000 + " s: disconnected or muted";
      }
      if (out.length > 0) {
        deliver(out);
        levelListener.accept(Levels.dbfs(out, 0, out.length));
      }
    }
    return null;
  }

  /** The run of exact zeros so far, continued by {@code chunk} (any other sample ends it). */
  static int countZeros(int run, float[] chunk) {
    for (float v : chunk) {
      run = v == 0f ? run + 1 : 0;
    }
    return run;
  }

  private synchronized boolean attached() {
    return sink != null;
  }

  /**
   * The sound server changed its sources or streams (on the watch's thread). During a recording a
   * stream that left its source ends the recording as lost; otherwise a stream that is not on the
   * default source is reopened so that the next recording uses the new default.
   */
  private void sourcesChanged() {
    String now = watch.streamSource();
    if (now == null) {
      // Not known (pactl slow under load or between two of its lists, the stream not listed yet): no
      // evidence of a move. Acting on it reopened the line at random moments, and a press during the
      // reopen lost its first second of speech (the e2e unplug run's flake). A source that really
      // vanishes fails the line or delivers zeros, and those end a recording by themselves.
      LOG.debug("the sound server did not say which source the stream reads; nothing changed");
      return;
    }
    synchronized (this) {
      if (!lineOpen || source == null) {
        return;
      }
      if (sink != null) {
        if (!source.equals(now)) {
          moved = "the sound server moved the recording from '" + source + "' to '" + now + "'";
        }
        return;
      }
    }
    String def = watch.defaultSource();
    synchronized (this) {
      if (def != null && !def.equals(now) && sink == null) {
        LOG.info("the default source is now {}: reopening (the stream is on {})", def, now);
        reopen = true;
      } else if (!now.equals(source)) {
        LOG.info("recording from {} (source {}): the sound server moved the stream", activeName, now);
        source = now;
        lastName = now;
      }
    }
  }

  private synchronized void deliver(float[] chunk) {
    for (float v : chunk) {
      ring[ringPos] = v;
      ringPos = (ringPos + 1) % ring.length;
    }
    ringFill = Math.min(ring.length, ringFill + chunk.length);
    if (sink != null) {
      sink.audio(chunk);
    }
  }

  private void setProblem(String p) {
    boolean changed = p == null ? problem != null : !p.equals(problem);
    problem = p;
    if (changed) {
      statusListener.accept(p);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
