package dev.dictum.whisper.mel;

/**
 * Raw log-mel frames addressed by absolute frame index, in a ring buffer that grows only when
 * needed. A caller transcribing a long recording calls {@link #discardBefore(int)} with its current
 * seek, so memory stays at about one window (3000 frames) plus whatever the producer is ahead,
 * however long the recording is (2 hours of audio would otherwise be 720,000 frames).
 *
 * <p>Not thread-safe: one producer and its consumer on one thread, or external locking.
 */
public final class MelFrameQueue implements MelFrameSink {

    private static final int INITIAL_CAPACITY_FRAMES = MelConstants.WINDOW_FRAMES + 64;

    private final int nMels;
    private float[] ring;
    private int capacity;
    /** Oldest frame still held (inclusive) and one past the newest. */
    private int firstFrame;
    private int endFrame;

    public MelFrameQueue(int nMels) {
        this(nMels, INITIAL_CAPACITY_FRAMES);
    }

    public MelFrameQueue(int nMels, int initialCapacityFrames) {
        if (nMels < 1 || initialCapacityFrames < 1) {
            throw new IllegalArgumentException("nMels and capacity must be positive");
        }
        this.nMels = nMels;
        this.capacity = initialCapacityFrames;
        this.ring = new float[capacity * nMels];
    }

    public int nMels() {
        return nMels;
    }

    /** The oldest frame still held. */
    public int firstFrame() {
        return firstFrame;
    }

    /** One past the newest frame received, i.e. the number of frames produced so far. */
    public int endFrame() {
        return endFrame;
    }

    /** Frames held now. */
    public int size() {
        return endFrame - firstFrame;
    }

    /** Frames that fit before the buffer has to grow (for memory checks). */
    public int capacityFrames() {
        return capacity;
    }

    @Override
    public void acceptFrame(int frameIndex, float[] rawLogMel) {
        if (frameIndex != endFrame) {
            throw new IllegalArgumentException("expected frame " + endFrame + ", got " + frameIndex);
        }
        if (size() == capacity) {
            grow();
        }
        System.arraycopy(rawLogMel, 0, ring, slot(frameIndex), nMels);
        endFrame++;
    }

    /** Forgets every frame before {@code frame} (typically the decoder's seek). */
    public void discardBefore(int frame) {
        firstFrame = Math.max(firstFrame, Math.min(frame, endFrame));
    }

    /** Raw log-mel of bin {@code mel} in frame {@code frame}, which must be held. */
    public float get(int frame, int mel) {
        checkHeld(frame);
        return ring[slot(frame) + mel];
    }

    /** Copies frame {@code frame}'s nMels raw values into {@code dst[offset..]}. */
    public void copyFrame(int frame, float[] dst, int offset) {
        checkHeld(frame);
        System.arraycopy(ring, slot(frame), dst, offset, nMels);
    }

    /** Direct access for the normaliser: the ring array and a held frame's start in it. */
    float[] ring() {
        return ring;
    }

    int slot(int frame) {
        return (frame % capacity) * nMels;
    }

    private void checkHeld(int frame) {
        if (frame < firstFrame || frame >= endFrame) {
            throw new IndexOutOfBoundsException(
                    "frame " + frame + " not held; held [" + firstFrame + ", " + endFrame + ")");
        }
    }

    private void grow() {
        int newCapacity = capacity * 2;
        float[] bigger = new float[newCapacity * nMels];
        for (int f = firstFrame; f < endFrame; f++) {
            System.arraycopy(ring, slot(f), bigger, (f % newCapacity) * nMels, nMels);
        }
        ring = bigger;
        capacity = newCapacity;
    }
}
