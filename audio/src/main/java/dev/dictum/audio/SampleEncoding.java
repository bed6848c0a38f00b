package dev.dictum.audio;

/** How one sample of one channel is stored in a WAV data chunk. */
public enum SampleEncoding {
  /** 8-bit PCM; WAV stores 8-bit samples unsigned, centred on 128. */
  PCM_UNSIGNED_8(1),
  PCM_SIGNED_16(2),
  PCM_SIGNED_24(3),
  PCM_SIGNED_32(4),
  FLOAT_32(4),
  FLOAT_64(8);

  private final int bytesPerSample;

  SampleEncoding(int bytesPerSample) {
    this.bytesPerSample = bytesPerSample;
  }

  /** Size of the sample container in bytes (valid bits may be fewer, left-justified). */
  public int bytesPerSample() {
    return bytesPerSample;
  }

  public boolean isFloat() {
    return this == FLOAT_32 || this == FLOAT_64;
  }
}
