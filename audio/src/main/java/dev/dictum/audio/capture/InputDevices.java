package dev.dictum.audio.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.DataLine;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.Mixer;
import javax.sound.sampled.TargetDataLine;

/**
 * The system's microphones through Java Sound: their names, and opening one by name (or the
 * default). A line is opened at 16 kHz mono when the device offers it (no resampling at all),
 * else at the first of 48, 44.1, 32, 22.05 kHz in mono or stereo that it accepts.
 */
public final class InputDevices {
  private static final float[] RATES = {16000f, 48000f, 44100f, 32000f, 22050f};
  /** About 40 ms of buffer at 16 kHz: small, so a read returns soon after the sound. */
  private static final int BUFFER_MILLIS = 40;

  private InputDevices() {
  }

  /** Names of the mixers that can record, as {@link #open} takes them. */
  public static List<String> names() {
    List<String> out = new ArrayList<>();
    for (Mixer.Info info : AudioSystem.getMixerInfo()) {
      Mixer m = AudioSystem.getMixer(info);
      if (m.getTargetLineInfo().length > 0 && m.isLineSupported(new DataLine.Info(TargetDataLine.class, null))) {
        out.add(info.getName());
      }
    }
    return out;
  }

  /**
   * Opens a recording line.
   *
   * @param name a name from {@link #names()}, or null/empty for the system default
   * @throws IOException when the device does not exist or cannot record (the message says which)
   */
  public static PcmLine open(String name) throws IOException {
    Mixer mixer = null;
    if (name != null && !name.isBlank()) {
      for (Mixer.Info info : AudioSystem.getMixerInfo()) {
        if (info.getName().equals(name)) {
          mixer = AudioSystem.getMixer(info);
        }
      }
      if (mixer == null) {
        throw new IOException("microphone '" + name + "' is not connected");
      }
    }
    LineUnavailableException last = null;
    for (float rate : RATES) {
      for (int channels = 1; channels <= 2; channels++) {
        AudioFormat f = new AudioFormat(rate, 16, channels, true, false);
        DataLine.Info info = new DataLine.Info(TargetDataLine.class, f);
        try {
          TargetDataLine line = mixer == null ? (TargetDataLine) AudioSystem.getLine(info)
              : (TargetDataLine) mixer.getLine(info);
          int frameBytes = 2 * channels;
          line.open(f, Math.max(frameBytes * 64, (int) (rate * BUFFER_MILLIS / 1000) * frameBytes));
          line.start();
          return new JavaSoundLine(line, (int) rate, channels, name == null || name.isBlank() ? "default" : name);
        } catch (LineUnavailableException e) {
          last = e;
        } catch (IllegalArgumentException e) {
          // this format is not supported by the device: try the next
        }
      }
    }
    throw new IOException((name == null || name.isBlank() ? "no microphone is available" : "microphone '" + name
        + "' cannot record") + (last == null ? "" : " (" + last.getMessage() + ")"));
  }

  private record JavaSoundLine(TargetDataLine line, int sampleRate, int channels, String name) implements PcmLine {
    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      if (!line.isOpen()) {
        return -1;
      }
      int n = line.read(buf, off, len - len % (2 * channels));
      if (n == 0 && !line.isOpen()) {
        return -1;
      }
      return n;
    }

    @Override
    public void close() {
      line.stop();
      line.close();
    }
  }
}
