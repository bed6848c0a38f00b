package dev.dictum.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every sample layout the reader accepts, written and read back with known values. */
class WavRoundTripTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1}ch {2}Hz")
  @CsvSource({
    "PCM_16, 1, 16000", "PCM_16, 2, 44100", "PCM_16, 6, 8000", "PCM_16, 1, 48000",
    "FLOAT_32, 1, 16000", "FLOAT_32, 2, 22050", "FLOAT_32, 3, 32000"
  })
  void writerOutputReadsBackAsChannelMean(WavWriter.Format format, int channels, int rate) throws IOException {
    Random random = new Random(channels * 31L + rate);
    int frames = 2_345;
    float[] interleaved = new float[frames * channels];
    for (int i = 0; i < interleaved.length; i++) {
      // PCM_16 values on the int16 grid survive exactly; float values are arbitrary.
      interleaved[i] = format == WavWriter.Format.PCM_16
          ? (random.nextInt(65_536) - 32_768) / 32_768f
          : (float) random.nextGaussian() * 0.3f;
    }
    Path file = dir.resolve("rt.wav");
    WavWriter.write(file, interleaved, rate, channels, format);

    try (WavStream s = WavStream.open(file)) {
      WavInfo info = s.info();
      assertThat(info.sampleRate()).isEqualTo(rate);
      assertThat(info.channels()).isEqualTo(channels);
      assertThat(info.frameCount()).isEqualTo(frames);
      assertThat(info.encoding())
          .isEqualTo(format == WavWriter.Format.PCM_16 ? SampleEncoding.PCM_SIGNED_16 : SampleEncoding.FLOAT_32);
      assertThat(Wavs.readAll(s)).containsExactly(channelMeans(interleaved, channels));
    }
  }

  @Test
  void pcm16WriterClampsAndRounds() throws IOException {
    Path file = dir.resolve("clamp.wav");
    WavWriter.write(file, new float[] {1.5f, -2f, 0.25f, 1f / 65_536 * 1.2f, -1f}, 16_000, 1, WavWriter.Format.PCM_16);
    assertThat(Wavs.readAll(file))
        .containsExactly(32_767 / 32_768f, -1f, 0.25f, 1 / 32_768f, -1f);
  }

  @Test
  void writerStreamsAcrossCallsAndPatchesSizesOnClose() throws IOException {
    Path file = dir.resolve("stream.wav");
    try (WavWriter w = WavWriter.create(file, 8_000, 2, WavWriter.Format.FLOAT_32)) {
      w.write(new float[] {0.1f, 0.3f});
      w.write(new float[] {0.5f, 0.7f, -0.1f, -0.3f});
      assertThat(w.framesWritten()).isEqualTo(3);
    }
    // 12-byte RIFF header + 26-byte fmt + 12-byte fact + 8-byte data header + 3 stereo float frames.
    assertThat(Files.size(file)).isEqualTo(12 + 26 + 12 + 8 + 24);
    assertThat(Wavs.readAll(file))
        .containsExactly((float) ((0.1f + (double) 0.3f) / 2), (float) ((0.5f + (double) 0.7f) / 2),
            (float) ((-0.1f + (double) -0.3f) / 2));
  }

  @Test
  void unsigned8BitIsCentredOn128() throws IOException {
    byte[] wav = WavBytes.riff().fmt(1, 1, 8_000, 8).data(WavBytes.pcm8(0, 128, 255, 64)).build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().encoding()).isEqualTo(SampleEncoding.PCM_UNSIGNED_8);
      assertThat(Wavs.readAll(s)).containsExactly(-1f, 0f, 127 / 128f, -0.5f);
    }
  }

  @Test
  void signed24Bit() throws IOException {
    byte[] wav = WavBytes.riff().fmt(1, 1, 48_000, 24)
        .data(WavBytes.pcm24(-8_388_608, 8_388_607, 0, 4_194_304, -1)).build();
    assertThat(Wavs.readAll(wav))
        .containsExactly(-1f, (float) (8_388_607 / 8_388_608.0), 0f, 0.5f, (float) (-1 / 8_388_608.0));
  }

  @Test
  void signed32BitStereo() throws IOException {
    byte[] wav = WavBytes.riff().fmt(1, 2, 44_100, 32)
        .data(WavBytes.pcm32(Integer.MIN_VALUE, 0, 1 << 30, 1 << 29, -1 << 30, -1 << 30)).build();
    assertThat(Wavs.readAll(wav)).containsExactly(-0.5f, 0.375f, -0.5f);
  }

  @Test
  void float64() throws IOException {
    byte[] wav = WavBytes.riff().fmt(3, 1, 22_050, 64).data(WavBytes.float64(0.1, -0.75, 1e-9)).build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().encoding()).isEqualTo(SampleEncoding.FLOAT_64);
      assertThat(Wavs.readAll(s)).containsExactly(0.1f, -0.75f, 1e-9f);
    }
  }

  @Test
  void extensiblePcm24WithTwentyValidBits() throws IOException {
    // 20 valid bits live left-justified in the 24-bit container, so the same scale applies.
    byte[] wav = WavBytes.riff().fmtExtensible(1, 2, 96_000, 24, 20)
        .data(WavBytes.pcm24(0x100000, 0x300000, -0x800000, 0)).build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().bitsPerSample()).isEqualTo(20);
      assertThat(s.info().encoding()).isEqualTo(SampleEncoding.PCM_SIGNED_24);
      assertThat(Wavs.readAll(s)).containsExactly(0.25f, -0.5f);
    }
  }

  @Test
  void extensibleFloat32() throws IOException {
    byte[] wav = WavBytes.riff().fmtExtensible(3, 1, 16_000, 32, 32).data(WavBytes.float32(0.5f, -0.25f)).build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().encoding()).isEqualTo(SampleEncoding.FLOAT_32);
      assertThat(Wavs.readAll(s)).containsExactly(0.5f, -0.25f);
    }
  }

  @Test
  void extensiblePcm16SixChannels() throws IOException {
    byte[] wav = WavBytes.riff().fmtExtensible(1, 6, 48_000, 16, 16)
        .data(WavBytes.pcm16(600, 0, 0, 0, 0, 0, -6, -6, -6, -6, -6, -6)).build();
    assertThat(Wavs.readAll(wav)).containsExactly(100 / 32_768f, -6 / 32_768f);
  }

  @Test
  void twelveBitPcmInSixteenBitContainer() throws IOException {
    byte[] wav = WavBytes.riff().fmt(1, 1, 8_000, 2, 12).data(WavBytes.pcm16(0x7FF0, -0x8000)).build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().bitsPerSample()).isEqualTo(12);
      assertThat(Wavs.readAll(s)).containsExactly(0x7FF0 / 32_768f, -1f);
    }
  }

  @Test
  void skipsUnknownChunksIncludingOddSizedOnesWithPadByte() throws IOException {
    byte[] wav = WavBytes.riff()
        .chunk("JUNK", new byte[7])
        .fmt(1, 1, 16_000, 16)
        .chunk("LIST", "INFOISFT\u0005\u0000\u0000\u0000Lavf\u0000".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))
        .chunk("bext", new byte[3])
        .data(WavBytes.pcm16(1, 2, 3))
        .chunk("id3 ", new byte[5])
        .build();
    assertThat(Wavs.readAll(wav)).containsExactly(1 / 32_768f, 2 / 32_768f, 3 / 32_768f);
  }

  @Test
  void rf64TakesDataSizeFromDs64() throws IOException {
    byte[] ds64 = java.nio.ByteBuffer.allocate(28).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .putLong(0).putLong(4).putLong(2).putInt(0).array();
    byte[] wav = WavBytes.riff().riffId("RF64")
        .chunk("ds64", ds64)
        .fmt(1, 1, 16_000, 16)
        .chunkWithDeclaredSize("data", 0xFFFF_FFFFL, WavBytes.pcm16(100, 200, 300))
        .build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().frameCount()).isEqualTo(2);
      assertThat(Wavs.readAll(s)).containsExactly(100 / 32_768f, 200 / 32_768f);
    }
  }

  @Test
  void plainRiffWithUnknownDataSizeReadsToEnd() throws IOException {
    byte[] wav = WavBytes.riff().fmt(1, 1, 16_000, 16)
        .chunkWithDeclaredSize("data", 0xFFFF_FFFFL, WavBytes.pcm16(7, 8, 9)).build();
    try (WavStream s = Wavs.open(wav)) {
      assertThat(s.info().frameCount()).isEqualTo(-1);
      assertThat(Wavs.readAll(s)).containsExactly(7 / 32_768f, 8 / 32_768f, 9 / 32_768f);
    }
  }

  @Test
  void readsIntoOffsetsAndSmallBuffers() throws IOException {
    byte[] wav = WavBytes.riff().fmt(1, 1, 16_000, 16).data(WavBytes.pcm16(1, 2, 3, 4, 5)).build();
    try (WavStream s = Wavs.open(wav)) {
      float[] buf = new float[4];
      assertThat(s.read(buf, 1, 2)).isEqualTo(2);
      assertThat(s.read(buf, 3, 0)).isZero();
      assertThat(s.read(buf, 3, 1)).isEqualTo(1);
      assertThat(buf).containsExactly(0f, 1 / 32_768f, 2 / 32_768f, 3 / 32_768f);
      assertThat(s.read(buf)).isEqualTo(2);
      assertThat(s.read(buf)).isEqualTo(-1);
      assertThat(s.read(buf)).isEqualTo(-1);
      assertThat(s.framesRead()).isEqualTo(5);
    }
  }

  private static float[] channelMeans(float[] interleaved, int channels) {
    float[] mono = new float[interleaved.length / channels];
    for (int f = 0; f < mono.length; f++) {
      double sum = 0;
      for (int c = 0; c < channels; c++) {
        sum += interleaved[f * channels + c];
      }
      mono[f] = (float) (sum / channels);
    }
    return mono;
  }
}
