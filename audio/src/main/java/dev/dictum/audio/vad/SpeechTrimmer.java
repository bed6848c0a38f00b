package dev.dictum.audio.vad;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Streams a recording through the {@link VoiceActivityDetector} and passes on only the part
 * worth transcribing: from {@value #PRE_ROLL_FRAMES} frames (30 ms each) before the first voiced frame to
 * {@value #TAIL_FRAMES} frames after the last, with the pauses in between kept up to
 * {@value #TAIL_FRAMES} + {@value #PRE_ROLL_FRAMES} frames (a longer one keeps its tail and the
 * pre-roll of what follows). Audio after a
 * voiced frame is held back until the next voiced frame (then passed on) or the end (then cut to
 * the tail), so the transcriber is fed while the user speaks and still never sees trailing silence.
 *
 * <p>{@link #heardSpeech()} is the first gate against "Thank you." after silence: a recording with
 * fewer than {@value #MIN_SPEECH_FRAMES} voiced frames (about 0.2 s) produces no text at all.
 */
public final class SpeechTrimmer {
  static final int PRE_ROLL_FRAMES = 10; // 300 ms: an initial "s" or "f" is unvoiced
  /**
   * 330 ms after the last voiced frame: a final "s", "t", "f" or "th" is unvoiced and must stay. The
   * least tail that keeps both every word and every sound: with toy-en and toy-multi every sample and
   * every unvoiced-ending clip gave the 390 ms tail's text down to 9 frames (TrimmerTailTest; 7 changed
   * two German clips), but the slow German "Chef" of toy-multi's sample_de_2 still sounds 11 frames
   * after its last voiced one (9 frames kept 94 % of the sample's energy, 11 kept 99.5 %:
   * VoiceActivityDetectorTest asks for 99 %). The shorter the tail, the sooner the final audio is known
   * at a pause ({@link #onPause}) and the more of a short last pause is left for its transcription.
   */
  public static final int TAIL_FRAMES = 11;
  static final int MIN_SPEECH_FRAMES = 7;

  private final VoiceActivityDetector vad;
  private final Consumer<float[]> out;
  private PauseListener onPause = (tail, quietSeconds) -> { };
  /**
   * Frames between two reports of the same pause: every frame, so that whoever decides on the length
   * of a pause (the session's piece rule) sees it to the frame.
   */
  static final int PAUSE_REPORT_FRAMES = 1;

  /** Told of a pause in the speech; see {@link #onPause}. */
  @FunctionalInterface
  public interface PauseListener {
    /**
     * @param tail         the audio {@link #finish()} would pass on now
     * @param quietSeconds how long the quiet after the last voiced frame has lasted
     */
    void paused(float[] tail, double quietSeconds);
  }
  private final float[] frame = new float[VoiceActivityDetector.FRAME];
  private int fill;
  private final ArrayDeque<float[]> held = new ArrayDeque<>();
  private boolean started;
  private int speechFrames;
  private int noiseFrames;
  private int frames;

  /** @param out receives the trimmed audio in order, on the caller's thread */
  public SpeechTrimmer(VoiceActivityDetector vad, Consumer<float[]> out) {
    this.vad = vad;
    this.out = out;
  }

  /**
   * Called (on the caller's thread) when the quiet after the last voiced frame has filled the tail,
   * and again every {@value #PAUSE_REPORT_FRAMES} frames while it lasts: with the audio
   * {@link #finish()} would pass on now. What was passed on so far plus that tail is then exactly
   * the trimmed recording if nothing voiced follows, which lets a transcription of it start before
   * the recording ends.
   */
  public void onPause(PauseListener listener) {
    this.onPause = listener;
  }

  public void push(float[] samples) {
    int i = 0;
    while (i < samples.length) {
      int n = Math.min(samples.length - i, frame.length - fill);
      System.arraycopy(samples, i, frame, fill, n);
      fill += n;
      i += n;
      if (fill == frame.length) {
        frame(frame.clone());
        fill = 0;
      }
    }
  }

  /** Ends the recording: passes on the tail after the last voiced frame. */
  public void finish() {
    if (fill > 0 && started) {
      held.addLast(java.util.Arrays.copyOf(frame, fill));
    }
    fill = 0;
    if (!started) {
      held.clear();
      return;
    }
    List<float[]> tail = new ArrayList<>();
    for (int k = 0; k < TAIL_FRAMES && !held.isEmpty(); k++) {
      tail.add(held.pollFirst());
    }
    held.clear();
    tail.forEach(out);
  }

  /** Whether enough voiced audio was heard to be worth transcribing. */
  public boolean heardSpeech() {
    return speechFrames >= MIN_SPEECH_FRAMES;
  }

  public int speechFrames() {
    return speechFrames;
  }

  public int noiseFrames() {
    return noiseFrames;
  }

  public int frames() {
    return frames;
  }

  private float[] tail() {
    float[] t = new float[TAIL_FRAMES * VoiceActivityDetector.FRAME];
    int at = 0;
    for (float[] f : held) {
      if (at == t.length) {
        break;
      }
      System.arraycopy(f, 0, t, at, f.length);
      at += f.length;
    }
    return t;
  }

  private void frame(float[] f) {
    frames++;
    FrameClass c = vad.classify(f, 0);
    if (c == FrameClass.NOISE) {
      noiseFrames++;
    }
    if (c != FrameClass.SPEECH) {
      held.addLast(f);
      if (!started && held.size() > PRE_ROLL_FRAMES) {
        held.pollFirst();
      }
      if (started && held.size() >= TAIL_FRAMES && (held.size() - TAIL_FRAMES) % PAUSE_REPORT_FRAMES == 0) {
        onPause.paused(tail(), held.size() * VoiceActivityDetector.FRAME / 16000.0);
      }
      return;
    }
    speechFrames++;
    if (started && held.size() > TAIL_FRAMES + PRE_ROLL_FRAMES) {
      // A long pause: its tail and the pre-roll of what follows, as if the recording had stopped and
      // started again; the quiet between is not passed on. Each part of a long dictation then reaches
      // the transcriber as a single dictation would (the session cuts pieces at these pauses).
      for (int k = 0; k < TAIL_FRAMES; k++) {
        out.accept(held.pollFirst());
      }
      while (held.size() > PRE_ROLL_FRAMES) {
        held.pollFirst();
      }
    }
    started = true;
    while (!held.isEmpty()) {
      out.accept(held.pollFirst());
    }
    out.accept(f);
  }
}
