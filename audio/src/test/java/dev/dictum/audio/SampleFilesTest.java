package dev.dictum.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The team's shared 16 kHz recordings decode to exactly int16 / 32768, as Whisper's loader does. */
class SampleFilesTest {

  static Stream<Path> samples() throws IOException {
    Path dir = Path.of(System.getProperty("dictum.testdata"), "data", "toy-en-samples");
    return Files.list(dir).filter(p -> p.toString().endsWith(".wav")).sorted();
  }

  @ParameterizedTest
  @MethodSource("samples")
  void decodesLikeTheJdkDecoder(Path wav) throws IOException, UnsupportedAudioFileException {
    short[] reference = jdkDecode(wav);

    float[] ours;
    try (WavStream s = WavStream.open(wav)) {
      assertThat(s.info()).isEqualTo(new WavInfo(16_000, 1, 16, SampleEncoding.PCM_SIGNED_16, reference.length));
      ours = Wavs.readAll(s);
    }
    float[] expected = new float[reference.length];
    for (int i = 0; i < reference.length; i++) {
      expected[i] = reference[i] / 32_768f;
    }
    assertThat(Arrays.equals(ours, expected)).as("equal to int16 / 32768").isTrue();
    // 16 kHz input passes the 16 kHz facade untouched, bit for bit.
    assertThat(Arrays.equals(AudioInput.readMono16k(wav), ours)).as("16 kHz facade is bit-exact").isTrue();
  }

  @ParameterizedTest
  @MethodSource("samples")
  void durationMatchesTheFixtureMetadata(Path wav) throws IOException {
    String meta = Files.readString(wav.resolveSibling("meta.json"));
    String name = wav.getFileName().toString();
    int at = meta.indexOf("\"seconds\"", meta.indexOf(name));
    double seconds = Double.parseDouble(meta.substring(meta.indexOf(':', at) + 1, meta.indexOf('}', at)).trim());
    try (WavStream s = WavStream.open(wav)) {
      assertThat(s.info().durationSeconds()).isCloseTo(seconds, org.assertj.core.data.Offset.offset(0.001));
    }
  }

  private static short[] jdkDecode(Path wav) throws IOException, UnsupportedAudioFileException {
    try (AudioInputStream in = AudioSystem.getAudioInputStream(wav.toFile())) {
      assertThat(in.getFormat().getSampleSizeInBits()).isEqualTo(16);
      assertThat(in.getFormat().isBigEndian()).isFalse();
      byte[] bytes = in.readAllBytes();
      short[] s = new short[bytes.length / 2];
      ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(s);
      return s;
    }
  }
}
