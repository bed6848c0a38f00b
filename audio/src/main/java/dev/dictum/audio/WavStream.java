package dev.dictum.audio;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a WAV file as mono float frames, chunk by chunk, in bounded memory whatever its length.
 *
 * <p>Bad bytes raise {@link AudioFormatException}; real I/O failures raise {@link IOException}. A data
 * chunk cut short (a recording interrupted before its header was patched) yields every whole frame
 * present; a trailing partial frame is dropped.
 */
public final class WavStream implements AutoCloseable {
  /** Upper bound on bytes read per call, so memory does not depend on the caller's buffer size. */
  private static final int MAX_BYTES_PER_READ = 64 * 1024;

  private final InputStream in;
  private final String source;
  private final WavInfo info;
  private final FrameDecoder decoder;
  private final int blockAlign;
  private long remainingBytes;
  private long framesRead;
  private byte[] bytes = new byte[0];
  private boolean ended;

  private WavStream(InputStream in, String source, WavInfo info, long dataBytes) {
    this.in = in;
    this.source = source;
    this.info = info;
    this.blockAlign = info.blockAlign();
    this.decoder = new FrameDecoder(info.encoding(), info.channels(), source);
    this.remainingBytes = dataBytes < 0 ? Long.MAX_VALUE : dataBytes;
    if (info.frameCount() == 0) {
      throw new AudioFormatException(source, "contains no audio samples (the data chunk is empty)");
    }
  }

  /** Opens a WAV file; errors name the file by its file name. */
  public static WavStream open(Path file) throws IOException {
    String source = String.valueOf(file.getFileName());
    long fileSize = Files.size(file);
    InputStream in = new BufferedInputStream(Files.newInputStream(file));
    try {
      WavHeaderParser.Header header = WavHeaderParser.parse(in, source);
      // The file length is trustworthy where the header is not: clip the frame count to it.
      WavInfo declared = header.info();
      long framesOnDisk = Math.max(0, fileSize - header.dataOffset()) / declared.blockAlign();
      long frames = declared.frameCount() < 0 ? framesOnDisk : Math.min(declared.frameCount(), framesOnDisk);
      WavInfo info = new WavInfo(declared.sampleRate(), declared.channels(), declared.bitsPerSample(),
          declared.encoding(), frames);
      return new WavStream(in, source, info, header.dataBytes());
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * Reads a WAV from a stream (which this object then owns and closes).
   *
   * @param sourceName how error messages name the input, e.g. a file name
   */
  public static WavStream open(InputStream in, String sourceName) throws IOException {
    InputStream buffered = in instanceof BufferedInputStream ? in : new BufferedInputStream(in);
    try {
      WavHeaderParser.Header header = WavHeaderParser.parse(buffered, sourceName);
      return new WavStream(buffered, sourceName, header.info(), header.dataBytes());
    } catch (IOException | RuntimeException e) {
      buffered.close();
      throw e;
    }
  }

  public WavInfo info() {
    return info;
  }

  /** Name used in error messages. */
  public String source() {
    return source;
  }

  /** Frames delivered so far. */
  public long framesRead() {
    return framesRead;
  }

  /** Fills {@code monoBuf} with up to its length of frames; returns frames read, or -1 at the end. */
  public int read(float[] monoBuf) throws IOException {
    return read(monoBuf, 0, monoBuf.length);
  }

  /** Reads up to {@code len} mono frames into {@code monoBuf[off..]}; returns frames read, or -1 at the end. */
  public int read(float[] monoBuf, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, monoBuf.length);
    if (len == 0) {
      return 0;
    }
    if (ended) {
      return -1;
    }
    int frames = (int) Math.min(Math.min(len, Math.max(1, MAX_BYTES_PER_READ / blockAlign)), remainingBytes / blockAlign);
    int wanted = frames * blockAlign;
    if (bytes.length < wanted) {
      bytes = new byte[wanted];
    }
    int got = wanted == 0 ? 0 : in.readNBytes(bytes, 0, wanted);
    remainingBytes -= got;
    int whole = got / blockAlign;
    if (got < wanted || whole == 0) {
      ended = true;
    }
    if (whole == 0) {
      if (framesRead == 0) {
        throw new AudioFormatException(source, "contains no audio samples (the data chunk holds no whole frame)");
      }
      return -1;
    }
    decoder.decode(bytes, whole, monoBuf, off, framesRead);
    framesRead += whole;
    return whole;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
