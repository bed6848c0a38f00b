package dev.dictum.audio;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Builds WAV files byte by byte, for the layouts {@link WavWriter} cannot produce and for broken
 * files. Independent of the reader on purpose: it encodes the spec directly.
 */
final class WavBytes {
  private final ByteArrayOutputStream chunks = new ByteArrayOutputStream();
  private String riffId = "RIFF";
  private String form = "WAVE";

  static WavBytes riff() {
    return new WavBytes();
  }

  WavBytes riffId(String id) {
    riffId = id;
    return this;
  }

  WavBytes form(String f) {
    form = f;
    return this;
  }

  /** A plain 16-byte fmt chunk. */
  WavBytes fmt(int tag, int channels, int rate, int blockAlign, int bits) {
    return chunk("fmt ", le(16).putShort((short) tag).putShort((short) channels).putInt(rate)
        .putInt(rate * blockAlign).putShort((short) blockAlign).putShort((short) bits).array());
  }

  /** A consistent plain fmt chunk for the usual case. */
  WavBytes fmt(int tag, int channels, int rate, int bits) {
    return fmt(tag, channels, rate, channels * ((bits + 7) / 8), bits);
  }

  /** A 40-byte WAVE_FORMAT_EXTENSIBLE fmt chunk with a standard PCM (1) or float (3) subformat. */
  WavBytes fmtExtensible(int subTag, int channels, int rate, int containerBits, int validBits) {
    int blockAlign = channels * containerBits / 8;
    ByteBuffer b = le(40).putShort((short) 0xFFFE).putShort((short) channels).putInt(rate)
        .putInt(rate * blockAlign).putShort((short) blockAlign).putShort((short) containerBits)
        .putShort((short) 22).putShort((short) validBits).putInt(channels == 2 ? 3 : 4)
        .putInt(subTag).putShort((short) 0).putShort((short) 0x10)
        .put(new byte[] {(byte) 0x80, 0, 0, (byte) 0xAA, 0, 0x38, (byte) 0x9B, 0x71});
    return chunk("fmt ", b.array());
  }

  /** A chunk with its true size and, if odd, the pad byte. */
  WavBytes chunk(String id, byte[] body) {
    chunkWithDeclaredSize(id, body.length, body);
    if (body.length % 2 == 1) {
      chunks.write(0);
    }
    return this;
  }

  /** A chunk whose size field says {@code declared} whatever the body holds (for cut files). */
  WavBytes chunkWithDeclaredSize(String id, long declared, byte[] body) {
    chunks.writeBytes(id.getBytes(StandardCharsets.ISO_8859_1));
    chunks.writeBytes(le(4).putInt((int) declared).array());
    chunks.writeBytes(body);
    return this;
  }

  WavBytes data(byte[] body) {
    return chunk("data", body);
  }

  WavBytes raw(byte[] bytes) {
    chunks.writeBytes(bytes);
    return this;
  }

  byte[] build() {
    byte[] body = chunks.toByteArray();
    return le(12 + body.length).put(riffId.getBytes(StandardCharsets.ISO_8859_1)).putInt(4 + body.length)
        .put(form.getBytes(StandardCharsets.ISO_8859_1)).put(body).array();
  }

  static byte[] pcm8(int... unsigned) {
    byte[] b = new byte[unsigned.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) unsigned[i];
    }
    return b;
  }

  static byte[] pcm16(int... s) {
    ByteBuffer b = le(2 * s.length);
    for (int v : s) {
      b.putShort((short) v);
    }
    return b.array();
  }

  static byte[] pcm24(int... s) {
    ByteBuffer b = le(3 * s.length);
    for (int v : s) {
      b.put((byte) v).put((byte) (v >> 8)).put((byte) (v >> 16));
    }
    return b.array();
  }

  static byte[] pcm32(int... s) {
    ByteBuffer b = le(4 * s.length);
    for (int v : s) {
      b.putInt(v);
    }
    return b.array();
  }

  static byte[] float32(float... s) {
    ByteBuffer b = le(4 * s.length);
    for (float v : s) {
      b.putFloat(v);
    }
    return b.array();
  }

  static byte[] float64(double... s) {
    ByteBuffer b = le(8 * s.length);
    for (double v : s) {
      b.putDouble(v);
    }
    return b.array();
  }

  private static ByteBuffer le(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }
}
