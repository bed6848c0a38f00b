package dev.dictum.audio.vad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.audio.AudioInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class VoiceActivityDetectorTest {

  static Stream<Path> speech() throws IOException {
    Path root = Path.of(System.getProperty("dictum.testdata"), "data");
    return Stream.concat(Files.list(root.resolve("toy-en-samples")), Files.list(root.resolve("toy-multi-samples")))
        .filter(p -> p.toString().endsWith(".wav")).sorted();
  }

  @ParameterizedTest
  @MethodSource("speech")
  void everySampleIsSpeechAndKeepsItsWordsWhileSilenceAroundIsTrimmed(Path wav) throws IOException {
    float[] voice = AudioInput.readMono16k(wav);
    float[] padded = new float[voice.length + 32000];
    System.arraycopy(voice, 0, padded, 16000, voice.length); // 1 s of silence each side
    addHiss(padded, -70, 1);
    Trimmed t = trim(padded);
    assertThat(t.trimmer.heardSpeech()).isTrue();
    assertThat(t.samples.length).isLessThan(padded.length - 16000); // most of the 2 s of silence went
    // Everything loud in the original survives: the trimmed audio holds at least the voice's energy.
    assertThat(energy(t.samples)).isGreaterThan(0.99 * energy(voice));
  }

  @Test
  void silenceAndQuietHissAreSilence() {
    VoiceActivityDetector vad = new VoiceActivityDetector(-50);
    float[] zeros = new float[VoiceActivityDetector.FRAME];
    assertThat(vad.classify(zeros, 0)).isEqualTo(FrameClass.SILENCE);
    float[] hiss = new float[16000 * 3];
    addHiss(hiss, -60, 2);
    Trimmed t = trim(hiss);
    assertThat(t.trimmer.heardSpeech()).isFalse();
    assertThat(t.trimmer.noiseFrames()).isZero();
    assertThat(t.samples).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("noiseLevels")
  void loudWhitePinkAndBrownNoiseAreNoiseNotSpeech(int dbfs) {
    for (String colour : List.of("white", "pink", "brown")) {
      float[] noise = colouredNoise(colour, 16000 * 4, dbfs, 3 + dbfs);
      Trimmed t = trim(noise);
      assertThat(t.trimmer.heardSpeech()).as(colour + " at " + dbfs + " dBFS").isFalse();
      assertThat(t.trimmer.noiseFrames()).as(colour).isGreaterThan(t.trimmer.frames() / 2);
      assertThat(t.samples).as(colour).isEmpty();
    }
  }

  static Stream<Integer> noiseLevels() {
    return Stream.of(-40, -25, -12);
  }

  @Test
  void speechInsideNoiseIsStillSpeech() throws IOException {
    float[] voice = AudioInput.readMono16k(speech().findFirst().orElseThrow());
    float[] mixed = colouredNoise("pink", voice.length, -45, 9);
    for (int i = 0; i < voice.length; i++) {
      mixed[i] += voice[i];
    }
    assertThat(trim(mixed).trimmer.heardSpeech()).isTrue();
  }

  private record Trimmed(SpeechTrimmer trimmer, float[] samples) {
  }

  private static Trimmed trim(float[] audio) {
    List<float[]> parts = new ArrayList<>();
    SpeechTrimmer tr = new SpeechTrimmer(new VoiceActivityDetector(-50), parts::add);
    for (int i = 0; i < audio.length; i += 1000) { // odd chunk sizes, as the microphone delivers
      tr.push(java.util.Arrays.copyOfRange(audio, i, Math.min(audio.length, i + 1000)));
    }
    tr.finish();
    int n = parts.stream().mapToInt(p -> p.length).sum();
    float[] all = new float[n];
    int k = 0;
    for (float[] p : parts) {
      System.arraycopy(p, 0, all, k, p.length);
      k += p.length;
    }
    return new Trimmed(tr, all);
  }

  private static double energy(float[] x) {
    double s = 0;
    for (float v : x) {
      s += v * v;
    }
    return s;
  }

  private static void addHiss(float[] x, double dbfs, long seed) {
    Random r = new Random(seed);
    double a = Math.pow(10, dbfs / 20);
    for (int i = 0; i < x.length; i++) {
      x[i] += (float) (r.nextGaussian() * a);
    }
  }

  /** White, pink (Voss-style 1/f by summed octave random walks) or brown (integrated) noise at an RMS level. */
  static float[] colouredNoise(String colour, int n, double dbfs, long seed) {
    Random r = new Random(seed);
    double[] y = new double[n];
    double[] octaves = new double[12];
    double brown = 0;
    for (int i = 0; i < n; i++) {
      double w = r.nextGaussian();
      switch (colour) {
        case "white" -> y[i] = w;
        case "brown" -> {
          brown = 0.995 * brown + w;
          y[i] = brown;
        }
        default -> {
          for (int o = 0; o < octaves.length; o++) {
            if ((i & ((1 << o) - 1)) == 0) {
              octaves[o] = r.nextGaussian();
            }
          }
          double s = w;
          for (double v : octaves) {
            s += v;
          }
          y[i] = s;
        }
      }
    }
    double sum = 0;
    for (double v : y) {
      sum += v * v;
    }
    double scale = Math.pow(10, dbfs / 20) / Math.sqrt(sum / n);
    float[] out = new float[n];
    for (int i = 0; i < n; i++) {
      out[i] = (float) (y[i] * scale);
    }
    return out;
  }
}
