package dev.dictum.whisper.decode;

import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's clip_timestamps turned into [start, end) ranges of mel frames: seconds times 100,
 * rounded half to even as Python's round; no clips means one from 0; an open last clip ends at the
 * end of the audio, {@link #OPEN_END} here because that may not be known yet.
 */
record SeekClips(List<int[]> clips) {
    static final int OPEN_END = Integer.MAX_VALUE;
    static final int FRAMES_PER_SECOND = 100;

    static SeekClips of(double[] clipTimestamps) {
        List<Integer> points = new ArrayList<>();
        for (double ts : clipTimestamps) {
            points.add((int) Math.rint(ts * FRAMES_PER_SECOND));
        }
        if (points.isEmpty()) {
            points.add(0);
        }
        if (points.size() % 2 == 1) {
            points.add(OPEN_END);
        }
        List<int[]> clips = new ArrayList<>();
        for (int i = 0; i < points.size(); i += 2) {
            clips.add(new int[] {points.get(i), points.get(i + 1)});
        }
        return new SeekClips(List.copyOf(clips));
    }
}
