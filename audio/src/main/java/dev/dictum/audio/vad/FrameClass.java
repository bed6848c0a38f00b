package dev.dictum.audio.vad;

/** What one 30 ms frame holds. */
public enum FrameClass {
  /** Quieter than the speech threshold. */
  SILENCE,
  /** Loud enough, but not voiced: hiss, fan, traffic, keyboard (and unvoiced consonants). */
  NOISE,
  /** Loud and voiced (a pitch between 50 and 500 Hz): a vowel or voiced consonant. */
  SPEECH
}
