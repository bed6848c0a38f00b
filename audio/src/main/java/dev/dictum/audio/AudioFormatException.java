package dev.dictum.audio;

/**
 * The bytes of an audio file cannot be decoded. The message is a single line meant for the user:
 * {@code "<source>: <problem>"}, e.g. {@code "memo.wav: unsupported codec µ-law (format tag 0x0007)"}.
 *
 * <p>Unchecked on purpose: a corrupt file is an input problem the UI reports, not something each
 * caller should wrap. Genuine I/O failures (disk, permissions) stay {@link java.io.IOException}.
 */
public final class AudioFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final String problem;

  public AudioFormatException(String source, String problem) {
    super(source + ": " + problem);
    this.source = source;
    this.problem = problem;
  }

  /** The file name (or stream description) the problem was found in. */
  public String source() {
    return source;
  }

  /** The problem alone, without the source prefix. */
  public String problem() {
    return problem;
  }
}
