package dev.dictum.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken and unsupported files fail with one readable line that names the file and the problem. */
class WavErrorsTest {
  @TempDir Path dir;

  private static final byte[] TWO_SAMPLES = WavBytes.pcm16(1, 2);

  @Test
  void notRiff() {
    assertFails("OggS\0\0\0\0\0\0\0\0\0\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))
        .hasMessage("test.wav: not a WAV file (expected a RIFF header, found 'OggS')");
  }

  @Test
  void garbageStartIsPrintedSafely() {
    assertFails(new byte[] {0, 1, (byte) 0xFF, '\n', 9, 9, 9, 9, 9, 9, 9, 9})
        .hasMessageContaining("not a WAV file")
        .hasMessageContaining("\\x00\\x01\\xFF\\x0A")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void riffButNotWave() {
    assertFails(WavBytes.riff().form("AVI ").build())
        .hasMessage("test.wav: not a WAVE file (RIFF form type is 'AVI ')");
  }

  @Test
  void bigEndianRifx() {
    assertFails(WavBytes.riff().riffId("RIFX").build()).hasMessageContaining("big-endian (RIFX)");
  }

  @Test
  void emptyFile() {
    assertFails(new byte[0]).hasMessage("test.wav: file is empty");
  }

  @Test
  void truncatedRiffHeader() {
    assertFails(Arrays.copyOf(WavBytes.riff().build(), 7))
        .hasMessage("test.wav: truncated header: the file ends after 7 bytes");
  }

  @Test
  void truncatedFmtChunk() {
    byte[] full = WavBytes.riff().fmt(1, 1, 16_000, 16).data(TWO_SAMPLES).build();
    assertFails(Arrays.copyOf(full, 12 + 8 + 10)).hasMessage("test.wav: truncated header: the file ends inside the fmt chunk");
  }

  @Test
  void missingFmt() {
    assertFails(WavBytes.riff().chunk("LIST", new byte[4]).build()).hasMessage("test.wav: missing fmt chunk");
    assertFails(WavBytes.riff().data(TWO_SAMPLES).build()).hasMessageContaining("missing fmt chunk");
  }

  @Test
  void missingData() {
    assertFails(WavBytes.riff().fmt(1, 1, 16_000, 16).chunk("LIST", new byte[4]).build())
        .hasMessageStartingWith("test.wav: missing data chunk");
  }

  @Test
  void unknownChunkClaimingMoreBytesThanTheFileHasDoesNotHangOrAllocate() {
    byte[] wav = WavBytes.riff().fmt(1, 1, 16_000, 16).chunkWithDeclaredSize("LIST", 0xFFFF_FFF0L, new byte[10]).build();
    assertFails(wav).hasMessageStartingWith("test.wav: missing data chunk");
  }

  @Test
  void muLawNamesTheCodec() {
    assertFails(WavBytes.riff().fmt(7, 1, 8_000, 8).data(TWO_SAMPLES).build())
        .hasMessage("test.wav: unsupported codec µ-law (format tag 0x0007); only PCM and IEEE float WAV files can be read");
  }

  @Test
  void adpcmNamesTheCodec() {
    assertFails(WavBytes.riff().fmt(2, 1, 8_000, 256, 4).data(TWO_SAMPLES).build())
        .hasMessageContaining("Microsoft ADPCM (format tag 0x0002)");
    assertFails(WavBytes.riff().fmt(0x11, 1, 8_000, 256, 4).data(TWO_SAMPLES).build())
        .hasMessageContaining("IMA ADPCM (format tag 0x0011)");
  }

  @Test
  void unknownTagIsShownInHex() {
    assertFails(WavBytes.riff().fmt(0x1234, 1, 8_000, 16).data(TWO_SAMPLES).build())
        .hasMessageContaining("unsupported codec format tag 0x1234");
  }

  @Test
  void extensibleWithNonStandardSubformat() {
    byte[] fmt = WavBytes.riff().fmtExtensible(1, 1, 16_000, 16, 16).build();
    fmt[12 + 8 + 30] = 0x42; // corrupt the GUID tail
    byte[] wav = WavBytes.riff().raw(Arrays.copyOfRange(fmt, 12, fmt.length)).data(TWO_SAMPLES).build();
    assertFails(wav).hasMessageContaining("unsupported WAVE_FORMAT_EXTENSIBLE subformat 01000000000042");
  }

  @Test
  void sampleRateZero() {
    assertFails(WavBytes.riff().fmt(1, 1, 0, 16).data(TWO_SAMPLES).build()).hasMessage("test.wav: sample rate is 0 Hz");
  }

  @Test
  void sampleRateOutOfRange() {
    assertFails(WavBytes.riff().fmt(1, 1, 500, 16).data(TWO_SAMPLES).build())
        .hasMessage("test.wav: unsupported sample rate 500 Hz (expected 1000 to 384000 Hz)");
    assertFails(WavBytes.riff().fmt(1, 1, -1, 16).data(TWO_SAMPLES).build())
        .hasMessageContaining("unsupported sample rate 4294967295 Hz");
  }

  @Test
  void zeroChannels() {
    assertFails(WavBytes.riff().fmt(1, 0, 16_000, 2, 16).data(TWO_SAMPLES).build())
        .hasMessage("test.wav: fmt chunk declares zero channels");
  }

  @Test
  void inconsistentBlockAlign() {
    assertFails(WavBytes.riff().fmt(1, 2, 16_000, 2, 16).data(TWO_SAMPLES).build())
        .hasMessage("test.wav: block align 2 is inconsistent with 2 channel(s) of 16-bit samples (expected 4)");
  }

  @Test
  void unsupportedBitDepths() {
    assertFails(WavBytes.riff().fmt(3, 1, 16_000, 16).data(TWO_SAMPLES).build())
        .hasMessageContaining("unsupported float bit depth 16 (expected 32 or 64)");
    assertFails(WavBytes.riff().fmt(1, 1, 16_000, 8, 64).data(TWO_SAMPLES).build())
        .hasMessageContaining("unsupported PCM bit depth 64");
  }

  @Test
  void emptyDataChunk() {
    assertFails(WavBytes.riff().fmt(1, 1, 16_000, 16).data(new byte[0]).build())
        .hasMessage("test.wav: contains no audio samples (the data chunk is empty)");
  }

  @Test
  void dataChunkWithLessThanOneFrame() {
    byte[] wav = WavBytes.riff().fmt(1, 2, 16_000, 16).chunkWithDeclaredSize("data", 400, new byte[3]).build();
    assertFails(wav).hasMessageContaining("contains no audio samples");
  }

  @Test
  void nanSampleNamesFrameAndChannel() {
    byte[] wav = WavBytes.riff().fmt(3, 2, 16_000, 32).data(WavBytes.float32(0, 0, 0.5f, Float.NaN)).build();
    assertFails(wav).hasMessage("test.wav: NaN float sample at frame 1, channel 1");
  }

  @Test
  void infiniteSample() {
    byte[] wav = WavBytes.riff().fmt(3, 1, 16_000, 64)
        .data(WavBytes.float64(0, 0, 0, Double.NEGATIVE_INFINITY)).build();
    assertFails(wav).hasMessage("test.wav: infinite float sample at frame 3");
  }

  @Test
  void float64BeyondFloatRange() {
    byte[] wav = WavBytes.riff().fmt(3, 1, 16_000, 64).data(WavBytes.float64(1e300)).build();
    assertFails(wav).hasMessage("test.wav: float sample out of range at frame 0");
  }

  @Test
  void truncatedDataChunkYieldsTheWholeFramesPresent() throws IOException {
    // Declares 100 stereo frames, holds 3 and a half.
    byte[] wav = WavBytes.riff().fmt(1, 2, 16_000, 16)
        .chunkWithDeclaredSize("data", 400, WavBytes.pcm16(10, 20, 30, 40, 50, 60, 70)).build();
    assertThat(Wavs.readAll(wav)).containsExactly(15 / 32_768f, 35 / 32_768f, 55 / 32_768f);

    Path file = dir.resolve("cut.wav");
    Files.write(file, wav);
    try (WavStream s = WavStream.open(file)) {
      assertThat(s.info().frameCount()).as("clipped to the file").isEqualTo(3);
      assertThat(Wavs.readAll(s)).hasSize(3);
    }
  }

  @Test
  void fileErrorsNameTheFile() throws IOException {
    Path file = dir.resolve("meeting notes.wav");
    Files.write(file, WavBytes.riff().fmt(3, 1, 16_000, 32).data(WavBytes.float32(0.1f, Float.POSITIVE_INFINITY)).build());
    assertThatThrownBy(() -> AudioInput.readMono16k(file))
        .isInstanceOf(AudioFormatException.class)
        .hasMessage("meeting notes.wav: infinite float sample at frame 1");
    assertThatThrownBy(() -> WavStream.open(dir.resolve("absent.wav"))).isInstanceOf(IOException.class);
  }

  @Test
  void everyPrefixOfAValidFileFailsCleanlyOrReadsWholeFrames() throws IOException {
    byte[] full = WavBytes.riff().fmtExtensible(1, 2, 44_100, 24, 24).chunk("LIST", new byte[9])
        .data(WavBytes.pcm24(1, 2, 3, 4, 5, 6, 7, 8)).build();
    int headerBytes = full.length - 24;
    for (int cut = 0; cut < full.length; cut++) {
      byte[] prefix = Arrays.copyOf(full, cut);
      int wholeFrames = Math.max(0, cut - headerBytes) / 6;
      if (wholeFrames == 0) {
        assertFails(prefix);
      } else {
        assertThat(Wavs.readAll(prefix)).as("cut at %d", cut).hasSize(wholeFrames);
      }
    }
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertFails(byte[] wav) {
    return assertThatThrownBy(() -> Wavs.readAll(wav))
        .isInstanceOf(AudioFormatException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").startsWith("test.wav: "));
  }
}
