package dev.dictum.audio.capture;

/**
 * Which source the sound server feeds the capture stream from, for sound servers that can move
 * a stream without the stream noticing: PulseAudio (and PipeWire's Pulse server) move a
 * recording to another source, often a speaker's monitor, when its microphone is removed. The
 * line then keeps delivering, so only the server can say that it is no longer the microphone.
 */
public interface SourceWatch extends AutoCloseable {

  /** No sound server to ask (Windows, plain ALSA, tests): the line itself is all there is. */
  SourceWatch NONE = new SourceWatch() {
    @Override
    public void start(Runnable onChange) {
    }

    @Override
    public String streamSource() {
      return null;
    }

    @Override
    public String defaultSource() {
      return null;
    }

    @Override
    public void close() {
    }
  };

  /** The watch for this platform: PulseAudio's when {@code pactl} reaches a server, else {@link #NONE}. */
  static SourceWatch forPlatform() {
    return PulseSourceWatch.available() ? new PulseSourceWatch() : NONE;
  }

  /** Calls {@code onChange} (on the watch's thread) after the server's sources or streams changed. */
  void start(Runnable onChange);

  /** The name of the source this process's capture stream reads from now, or null when unknown. */
  String streamSource();

  /** The server's default source, or null when unknown. */
  String defaultSource();

  @Override
  void close();
}
