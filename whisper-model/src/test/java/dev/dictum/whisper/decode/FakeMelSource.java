package dev.dictum.whisper.decode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two mel bins of ones; the first value of a window is its seek frame, which the fake model uses
 * as the audio's identity. A streaming source keeps its length unknown until a window reaches the end.
 */
final class FakeMelSource implements MelWindowSource {
    final int frames;
    final boolean streaming;
    boolean endSeen;
    final List<Integer> requested = new ArrayList<>();
    final List<Integer> discarded = new ArrayList<>();

    FakeMelSource(int frames, boolean streaming) {
        this.frames = frames;
        this.streaming = streaming;
    }

    @Override
    public int melBins() {
        return 2;
    }

    @Override
    public int totalFrames() {
        return !streaming || endSeen ? frames : UNKNOWN;
    }

    @Override
    public float[] window(int seekFrame) {
        requested.add(seekFrame);
        if (discarded.stream().anyMatch(d -> seekFrame < d)) {
            throw new IllegalStateException("frame " + seekFrame + " was discarded");
        }
        if (seekFrame + Transcriber.N_FRAMES >= frames) {
            endSeen = true;
        }
        float[] w = new float[2 * Transcriber.N_FRAMES];
        Arrays.fill(w, 1f);
        w[0] = seekFrame;
        return w;
    }

    @Override
    public void discardBefore(int frame) {
        discarded.add(frame);
    }
}
