package dev.dictum.audio;

/** WAVE format tags: the ones we decode and readable names for common ones we refuse. */
final class FormatTags {
  static final int PCM = 0x0001;
  static final int IEEE_FLOAT = 0x0003;
  static final int EXTENSIBLE = 0xFFFE;

  private FormatTags() {}

  /** A human name for a format tag, so the error says "µ-law" rather than a bare number. */
  static String describe(int tag) {
    String name =
        switch (tag) {
          case 0x0000 -> "unknown (tag 0)";
          case 0x0002 -> "Microsoft ADPCM";
          case 0x0006 -> "A-law";
          case 0x0007 -> "µ-law";
          case 0x0011 -> "IMA ADPCM";
          case 0x0031 -> "GSM 6.10";
          case 0x0050 -> "MPEG";
          case 0x0055 -> "MP3";
          case 0x0161, 0x0162, 0x0163 -> "Windows Media Audio";
          case 0x00FF, 0x1610 -> "AAC";
          case 0x2000 -> "AC-3";
          case 0xF1AC -> "FLAC";
          case 0x6750, 0x6751, 0x674F -> "Ogg Vorbis";
          default -> null;
        };
    String hex = String.format("0x%04X", tag);
    return name == null ? "format tag " + hex : name + " (format tag " + hex + ")";
  }
}
