package dev.dictum.audio.capture;

/** Where recordings get their audio: the {@link Microphone}, or a stand-in in tests. */
public interface AudioSource {

  /** Starts sending audio (the pre-buffer first) to the sink; false when no device is open. */
  boolean attach(AudioSink sink);

  /** Stops sending to the attached sink. */
  void detach();

  /** Why there is no audio, or null. */
  String problem();

  /** The microphone's name as the user knows it, for notices ("vmic", "USB Microphone"). */
  default String deviceName() {
    return "the microphone";
  }
}
