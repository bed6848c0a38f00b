package dev.dictum.audio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes 16-bit PCM or 32-bit float WAV files, any channel count and rate, appending frames as
 * they come (so a recording can be saved while it runs). Sizes in the header are patched on
 * {@link #close()}; a file left by a crash still reads, because the reader takes a data chunk
 * running past the end of the file up to its last whole frame.
 */
public final class WavWriter implements AutoCloseable {

  /** The sample formats this writer produces. */
  public enum Format {
    /** Signed 16-bit integers; input is clamped to [-1, 1] and scaled by 32768. */
    PCM_16(FormatTags.PCM, 2),
    /** IEEE float, written as given. */
    FLOAT_32(FormatTags.IEEE_FLOAT, 4);

    final int tag;
    final int bytesPerSample;

    Format(int tag, int bytesPerSample) {
      this.tag = tag;
      this.bytesPerSample = bytesPerSample;
    }
  }

  private static final long MAX_DATA_BYTES = 0xFFFF_FFFFL - 64; // RIFF sizes are 32-bit
  private static final int BUFFER_BYTES = 64 * 1024;

  private final FileChannel channel;
  private final Format format;
  private final int channels;
  private final int headerBytes;
  private final int riffSizeAt;
  private final int factFramesAt; // -1 when there is no fact chunk
  private final int dataSizeAt;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  private long dataBytes;
  private boolean closed;

  private WavWriter(FileChannel channel, int sampleRate, int channels, Format format) throws IOException {
    this.channel = channel;
    this.format = format;
    this.channels = channels;
    boolean isFloat = format == Format.FLOAT_32;
    // Non-PCM formats need an 18-byte fmt (with cbSize) and a fact chunk, per the RIFF spec.
    int fmtSize = isFloat ? 18 : 16;
    ByteBuffer h = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    h.put(ascii("RIFF"));
    riffSizeAt = h.position();
    h.putInt(0).put(ascii("WAVE"));
    h.put(ascii("fmt ")).putInt(fmtSize);
    int blockAlign = channels * format.bytesPerSample;
    h.putShort((short) format.tag).putShort((short) channels).putInt(sampleRate)
        .putInt(sampleRate * blockAlign).putShort((short) blockAlign).putShort((short) (8 * format.bytesPerSample));
    if (isFloat) {
      h.putShort((short) 0);
      h.put(ascii("fact")).putInt(4);
      factFramesAt = h.position();
      h.putInt(0);
    } else {
      factFramesAt = -1;
    }
    h.put(ascii("data"));
    dataSizeAt = h.position();
    h.putInt(0);
    headerBytes = h.position();
    h.flip();
    writeFully(h, 0);
    patchSizes(); // a header with the empty sizes filled in, in case nothing else gets written
  }

  /** Creates (or truncates) {@code file} and writes the header. */
  public static WavWriter create(Path file, int sampleRate, int channels, Format format) throws IOException {
    if (sampleRate <= 0 || channels <= 0 || channels > 0xFFFF / format.bytesPerSample) {
      throw new IllegalArgumentException("bad WAV layout: " + sampleRate + " Hz, " + channels + " channels");
    }
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    try {
      return new WavWriter(ch, sampleRate, channels, format);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** Writes a whole file in one call. */
  public static void write(Path file, float[] interleaved, int sampleRate, int channels, Format format)
      throws IOException {
    try (WavWriter w = create(file, sampleRate, channels, format)) {
      w.write(interleaved);
    }
  }

  /** Appends interleaved frames; the length must be a whole number of frames. */
  public void write(float[] interleaved) throws IOException {
    write(interleaved, 0, interleaved.length);
  }

  public void write(float[] interleaved, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, interleaved.length);
    if (closed) {
      throw new IllegalStateException("writer is closed");
    }
    if (len % channels != 0) {
      throw new IllegalArgumentException(len + " samples is not a whole number of " + channels + "-channel frames");
    }
    if (dataBytes + (long) len * format.bytesPerSample > MAX_DATA_BYTES) {
      throw new IOException("WAV data would exceed the 4 GiB RIFF limit");
    }
    for (int i = off; i < off + len; i++) {
      float x = interleaved[i];
      if (!Float.isFinite(x)) {
        // Refuse rather than store: a NaN in a saved recording breaks every later reading of it.
        throw new IllegalArgumentException("non-finite sample " + x + " at index " + (i - off));
      }
      if (buffer.remaining() < format.bytesPerSample) {
        flush();
      }
      if (format == Format.PCM_16) {
        buffer.putShort(toPcm16(x));
      } else {
        buffer.putFloat(x);
      }
    }
    flush();
  }

  /** Frames written so far. */
  public long framesWritten() {
    return dataBytes / ((long) channels * format.bytesPerSample);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (channel) {
      patchSizes();
    }
  }

  static short toPcm16(float x) {
    long v = Math.round(x * 32_768.0);
    return (short) Math.clamp(v, Short.MIN_VALUE, Short.MAX_VALUE);
  }

  private void flush() throws IOException {
    buffer.flip();
    int n = buffer.remaining();
    writeFully(buffer, headerBytes + dataBytes);
    dataBytes += n;
    buffer.clear();
  }

  private void patchSizes() throws IOException {
    // Frames are 2 or 4 bytes per sample, so the data size is always even and needs no pad byte.
    putUint32(riffSizeAt, headerBytes - 8 + dataBytes);
    putUint32(dataSizeAt, dataBytes);
    if (factFramesAt >= 0) {
      putUint32(factFramesAt, framesWritten());
    }
  }

  private void putUint32(long at, long value) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) value).flip();
    writeFully(b, at);
  }

  private void writeFully(ByteBuffer b, long at) throws IOException {
    while (b.hasRemaining()) {
      at += channel.write(b, at);
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
