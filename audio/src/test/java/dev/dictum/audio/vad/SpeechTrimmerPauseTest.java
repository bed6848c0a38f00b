package dev.dictum.audio.vad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.audio.AudioInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pause report the release-to-text speculation rests on (issue 13): at any release inside a
 * pause that has been reported, what the trimmer passed on plus the reported tail is exactly what
 * it passes on in all.
 */
class SpeechTrimmerPauseTest {

  @Test
  void passedOnPlusTheReportedTailIsTheWholeTrimmedRecordingAtAnyReleaseInThePause() throws Exception {
    float[] voice = AudioInput.readMono16k(Path.of(System.getProperty("dictum.testdata"), "data",
        "toy-en-samples", "sample_03.wav"));
    float[] rec = new float[8000 + voice.length + 32000];
    System.arraycopy(voice, 0, rec, 8000, voice.length);
    for (int release = 8000 + voice.length; release <= rec.length; release += 1111) {
      List<float[]> out = new ArrayList<>();
      float[][] reported = new float[1][];
      int[] passedAtReport = new int[1];
      double[] quiet = new double[1];
      SpeechTrimmer t = new SpeechTrimmer(new VoiceActivityDetector(-50), out::add);
      t.onPause((tail, seconds) -> {
        reported[0] = tail;
        passedAtReport[0] = length(out);
        quiet[0] = seconds;
      });
      t.push(java.util.Arrays.copyOf(rec, release));
      int passed = length(out);
      t.finish();
      if (reported[0] != null && passed == passedAtReport[0]) {
        float[] all = concat(out);
        float[] predicted = concat(List.of(java.util.Arrays.copyOf(all, passed), reported[0]));
        assertThat(all).as("release at %d", release).isEqualTo(predicted);
        assertThat(quiet[0]).isGreaterThanOrEqualTo(SpeechTrimmer.TAIL_FRAMES * 0.03 - 1e-9);
      }
    }
  }

  private static int length(List<float[]> parts) {
    return parts.stream().mapToInt(p -> p.length).sum();
  }

  private static float[] concat(List<float[]> parts) {
    float[] all = new float[length(parts)];
    int at = 0;
    for (float[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    return all;
  }
}
