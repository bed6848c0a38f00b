package dev.dictum.audio;

import java.io.IOException;
import java.io.InputStream;

/**
 * Walks the RIFF chunks of a WAVE file up to the first byte of audio in the data chunk.
 *
 * <p>Size fields come from untrusted bytes, so they are only ever used to skip or to bound reads,
 * never to size an allocation: the largest buffer here is the 40 bytes of an extensible fmt chunk.
 */
final class WavHeaderParser {

  /** The parsed header; the stream it came from is positioned at the first audio byte. */
  record Header(WavInfo info, long dataBytes, long dataOffset) {
    /** {@code dataBytes} when the header leaves the size open (streamed recordings): read to EOF. */
    static final long UNKNOWN_SIZE = -1;
  }

  private static final int RIFF_HEADER_BYTES = 12;
  private static final int CHUNK_HEADER_BYTES = 8;
  private static final int FMT_MIN_BYTES = 16;
  private static final int FMT_EXTENSIBLE_BYTES = 40;
  private static final int DS64_MIN_BYTES = 16;
  private static final long UINT32_MAX = 0xFFFF_FFFFL;
  private static final int MIN_RATE = 1_000;
  private static final int MAX_RATE = 384_000;

  /** Bytes 4..15 of the KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT GUIDs, which differ only in the tag. */
  private static final byte[] SUBFORMAT_GUID_TAIL = {
    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, (byte) 0x80, 0x00, 0x00, (byte) 0xAA, 0x00, 0x38, (byte) 0x9B, 0x71
  };

  private final InputStream in;
  private final String source;
  private final byte[] scratch = new byte[FMT_EXTENSIBLE_BYTES];
  private final byte[] skipBuffer = new byte[4096];
  private long position;

  private WavHeaderParser(InputStream in, String source) {
    this.in = in;
    this.source = source;
  }

  static Header parse(InputStream in, String source) throws IOException {
    return new WavHeaderParser(in, source).parse();
  }

  private Header parse() throws IOException {
    int got = readUpTo(RIFF_HEADER_BYTES);
    if (got == 0) {
      throw fail("file is empty");
    }
    String riffId = got >= 4 ? fourCc(0) : "";
    if (riffId.equals("RIFX")) {
      throw fail("big-endian (RIFX) WAV files are not supported");
    }
    boolean rf64 = riffId.equals("RF64") || riffId.equals("BW64");
    if (!riffId.equals("RIFF") && !rf64) {
      throw fail("not a WAV file (expected a RIFF header" + (got >= 4 ? ", found '" + printable(riffId) + "')" : ")"));
    }
    if (got < RIFF_HEADER_BYTES) {
      throw fail("truncated header: the file ends after " + got + " bytes");
    }
    String form = fourCc(8);
    if (!form.equals("WAVE")) {
      throw fail("not a WAVE file (RIFF form type is '" + printable(form) + "')");
    }

    Fmt fmt = null;
    long ds64DataBytes = Header.UNKNOWN_SIZE;
    while (true) {
      got = readUpTo(CHUNK_HEADER_BYTES);
      if (got < CHUNK_HEADER_BYTES) {
        throw fail(fmt == null ? "missing fmt chunk" : "missing data chunk (file ends at byte " + position + ")");
      }
      String id = fourCc(0);
      long size = uint32(4);
      long pad = size & 1; // RIFF chunks are word-aligned; odd sizes are followed by a pad byte
      switch (id) {
        case "fmt " -> {
          fmt = readFmt(size);
          skip(pad);
        }
        case "ds64" -> {
          ds64DataBytes = readDs64(size);
          skip(pad);
        }
        case "data" -> {
          if (fmt == null) {
            throw fail("missing fmt chunk (the data chunk comes first)");
          }
          long dataBytes = size;
          if (size == UINT32_MAX) {
            // RF64 moves the real size to ds64; in plain RIFF, 0xFFFFFFFF is what live recorders write
            // before they know the length, so read to the end of the file.
            dataBytes = rf64 ? ds64DataBytes : Header.UNKNOWN_SIZE;
          }
          long frames = dataBytes < 0 ? -1 : dataBytes / fmt.encoding.bytesPerSample() / fmt.channels;
          WavInfo info = new WavInfo(fmt.sampleRate, fmt.channels, fmt.validBits, fmt.encoding, frames);
          return new Header(info, dataBytes, position);
        }
        default -> skip(size + pad);
      }
    }
  }

  private record Fmt(int sampleRate, int channels, int validBits, SampleEncoding encoding) {}

  private Fmt readFmt(long size) throws IOException {
    if (size < FMT_MIN_BYTES) {
      throw fail("fmt chunk too short (" + size + " bytes, need at least " + FMT_MIN_BYTES + ")");
    }
    int want = (int) Math.min(size, FMT_EXTENSIBLE_BYTES);
    if (readUpTo(want) < want) {
      throw fail("truncated header: the file ends inside the fmt chunk");
    }
    skip(size - want);

    int tag = uint16(0);
    int channels = uint16(2);
    long rate = uint32(4);
    int blockAlign = uint16(12);
    int bits = uint16(14);
    int validBits = bits;
    boolean extensible = tag == FormatTags.EXTENSIBLE;
    if (extensible) {
      if (size < FMT_EXTENSIBLE_BYTES) {
        throw fail("WAVE_FORMAT_EXTENSIBLE fmt chunk too short (" + size + " bytes, need " + FMT_EXTENSIBLE_BYTES + ")");
      }
      if (!subformatIsStandard()) {
        throw fail("unsupported WAVE_FORMAT_EXTENSIBLE subformat " + guid(24));
      }
      tag = uint16(24);
      int declaredValid = uint16(18);
      if (declaredValid > bits) {
        throw fail("valid bits per sample (" + declaredValid + ") exceed the container size (" + bits + ")");
      }
      if (declaredValid != 0) {
        validBits = declaredValid;
      }
    }

    if (tag != FormatTags.PCM && tag != FormatTags.IEEE_FLOAT) {
      throw fail("unsupported codec " + FormatTags.describe(tag) + "; only PCM and IEEE float WAV files can be read");
    }
    if (channels == 0) {
      throw fail("fmt chunk declares zero channels");
    }
    if (rate == 0) {
      throw fail("sample rate is 0 Hz");
    }
    if (rate < MIN_RATE || rate > MAX_RATE) {
      throw fail("unsupported sample rate " + rate + " Hz (expected " + MIN_RATE + " to " + MAX_RATE + " Hz)");
    }
    SampleEncoding encoding = encodingFor(tag, bits, extensible);
    int expectedAlign = channels * encoding.bytesPerSample();
    if (blockAlign != expectedAlign) {
      throw fail("block align " + blockAlign + " is inconsistent with " + channels + " channel(s) of "
          + bits + "-bit samples (expected " + expectedAlign + ")");
    }
    return new Fmt((int) rate, channels, validBits, encoding);
  }

  private SampleEncoding encodingFor(int tag, int bits, boolean extensible) {
    if (tag == FormatTags.IEEE_FLOAT) {
      return switch (bits) {
        case 32 -> SampleEncoding.FLOAT_32;
        case 64 -> SampleEncoding.FLOAT_64;
        default -> throw fail("unsupported float bit depth " + bits + " (expected 32 or 64)");
      };
    }
    // Plain PCM may declare e.g. 12 bits in a 2-byte container; extensible declares the container.
    if (bits == 0 || bits > 32 || (extensible && bits % 8 != 0)) {
      throw fail("unsupported PCM bit depth " + bits + " (expected 8, 16, 24 or 32)");
    }
    return switch ((bits + 7) / 8) {
      case 1 -> SampleEncoding.PCM_UNSIGNED_8;
      case 2 -> SampleEncoding.PCM_SIGNED_16;
      case 3 -> SampleEncoding.PCM_SIGNED_24;
      default -> SampleEncoding.PCM_SIGNED_32;
    };
  }

  private long readDs64(long size) throws IOException {
    if (size < DS64_MIN_BYTES) {
      throw fail("ds64 chunk too short (" + size + " bytes)");
    }
    if (readUpTo(DS64_MIN_BYTES) < DS64_MIN_BYTES) {
      throw fail("truncated header: the file ends inside the ds64 chunk");
    }
    skip(size - DS64_MIN_BYTES);
    long dataBytes = int64(8);
    return dataBytes < 0 ? Header.UNKNOWN_SIZE : dataBytes;
  }

  private boolean subformatIsStandard() {
    for (int i = 0; i < SUBFORMAT_GUID_TAIL.length; i++) {
      if (scratch[26 + i] != SUBFORMAT_GUID_TAIL[i]) {
        return false;
      }
    }
    return true;
  }

  private String guid(int at) {
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      hex.append(String.format("%02X", scratch[at + i]));
    }
    return hex.toString();
  }

  /** Reads up to {@code n} bytes into the scratch buffer; fewer only at end of stream. */
  private int readUpTo(int n) throws IOException {
    int got = in.readNBytes(scratch, 0, n);
    position += got;
    return got;
  }

  /** Skips {@code n} bytes or to end of stream; the next read then reports the truncation. */
  private void skip(long n) throws IOException {
    while (n > 0) {
      long skipped = in.skip(n);
      if (skipped <= 0) {
        // skip() may legitimately return 0 before EOF; a read tells the two apart.
        skipped = in.read(skipBuffer, 0, (int) Math.min(n, skipBuffer.length));
        if (skipped < 0) {
          return;
        }
      }
      n -= skipped;
      position += skipped;
    }
  }

  private int uint16(int at) {
    return (scratch[at] & 0xFF) | (scratch[at + 1] & 0xFF) << 8;
  }

  private long uint32(int at) {
    return uint16(at) | (long) uint16(at + 2) << 16;
  }

  private long int64(int at) {
    return uint32(at) | uint32(at + 4) << 32;
  }

  private String fourCc(int at) {
    char[] c = new char[4];
    for (int i = 0; i < 4; i++) {
      c[i] = (char) (scratch[at + i] & 0xFF);
    }
    return new String(c);
  }

  /** Keeps error messages on one printable line whatever garbage the file starts with. */
  private static String printable(String id) {
    StringBuilder out = new StringBuilder();
    for (char c : id.toCharArray()) {
      out.append(c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\x%02X", (int) c));
    }
    return out.toString();
  }

  private AudioFormatException fail(String problem) {
    return new AudioFormatException(source, problem);
  }
}
