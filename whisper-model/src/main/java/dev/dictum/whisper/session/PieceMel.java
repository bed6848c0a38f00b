package dev.dictum.whisper.session;

import dev.dictum.whisper.mel.LogMelStream;
import java.util.Arrays;

/**
 * The raw log-mel frames of a dictation's open piece, kept from one transcription of that piece to
 * the next: every job over the piece (live text, speculation, the run at the release) computed the
 * log-mel of the whole piece from scratch (~0.9 ms per second of audio on the 2-core test machine),
 * though only its last frames depend on audio that came since. A frame depends only on the 400
 * samples around it, so the frames whose samples were all fed are final; a job takes those and
 * computes only the rest (the audio fed since, its tail, the zero padding). The frames are the same
 * bits as from scratch ({@link LogMelStream}'s resumed stream). The session's thread only.
 */
final class PieceMel {
    private final int nMels;
    /** Where the piece starts in the dictation's audio (samples). */
    final int start;
    private final LogMelStream stream;
    private float[] frames = new float[0];
    private int count;
    private int pushed;

    PieceMel(int nMels, int start) {
        this.nMels = nMels;
        this.start = start;
        this.stream = new LogMelStream(nMels, (index, raw) -> {
            if ((count + 1) * nMels > frames.length) {
                frames = Arrays.copyOf(frames, Math.max(frames.length * 2, (count + 1) * nMels * 2));
            }
            System.arraycopy(raw, 0, frames, count * nMels, nMels);
            count++;
        }, 0);
    }

    /** Takes in the piece's audio up to {@code fed} samples ({@code pieceAudio[0..fed)}: audio that was fed, never a tail). */
    void advance(float[] pieceAudio, int fed) {
        if (fed > pushed) {
            stream.push(pieceAudio, pushed, fed - pushed);
            pushed = fed;
        }
    }

    /**
     * The log-mel of a job over this piece: {@code audio} is the piece's audio from its start, of which
     * the first {@code fed} samples were fed (the rest: a pause's announced tail). The frames within
     * those samples come from here, the rest are computed.
     */
    StreamingMelSource source(float[] audio, int fed) {
        advance(audio, fed);
        int keep = Math.min(count, LogMelStream.framesWithin(Math.min(fed, pushed)));
        if (keep < 2) {
            keep = 0; // frames 0 and 1 reflect the start: a resumed stream starts at 0 or from 2
        }
        StreamingMelSource mel = new StreamingMelSource(nMels, keep);
        mel.acceptFrames(frames, keep);
        int from = (int) LogMelStream.firstSampleOf(keep);
        mel.push(audio, from, audio.length - from);
        mel.finish();
        return mel;
    }
}
