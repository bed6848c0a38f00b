package dev.dictum.whisper.format.ct2;

/** A decoder cross-attention head whose weights follow the audio, for word timestamps (config.json alignment_heads). */
public record AlignmentHead(int layer, int head) {
}
