package dev.dictum.audio.capture;

/** Receives what the microphone records while a recording is attached. Called on the capture thread. */
public interface AudioSink {

  /** 16 kHz mono samples in [-1, 1]; the array is the sink's to keep. */
  void audio(float[] samples16k);

  /** The device stopped delivering (unplugged, failed): no more audio will come to this sink. */
  void deviceLost(String reason);
}
