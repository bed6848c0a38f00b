package dev.dictum.app.dictation;

import dev.dictum.audio.AudioInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the {@link CaptureJournal}s a previous run left (it died mid-dictation) and saves each as a
 * recording of the folder, so it can be played and transcribed again; the journal is then deleted.
 * Runs once at start, after the single-instance lock is held (no other run writes journals then).
 */
final class InterruptedRecordings {
    private static final Logger LOG = LoggerFactory.getLogger(InterruptedRecordings.class);
    /** The history row's note. */
    static final String NOTE = "interrupted: Dictum stopped during the dictation";

    /** A recovered recording: its WAV, when it started, and how long it is. */
    record Found(Path wav, Instant startedAt, long durationMillis) {
    }

    private InterruptedRecordings() {
    }

    /** The journals in the folder, oldest first. */
    static List<Path> find(RecordingsFolder folder) {
        try (Stream<Path> s = Files.list(folder.dir())) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(CaptureJournal.PREFIX) && n.endsWith(CaptureJournal.SUFFIX);
            }).sorted().toList();
        } catch (IOException e) {
            return List.of(); // no folder yet: nothing was ever recorded
        }
    }

    /** Saves each of {@code journals} ({@link #find}); a journal without audio is deleted; one that cannot be read or saved stays for the next start. */
    static List<Found> recover(RecordingsFolder folder, List<Path> journals) {
        List<Found> found = new ArrayList<>();
        for (Path j : journals) {
            try {
                sealHeader(j);
                float[] audio = AudioInput.readMono16k(j);
                if (audio.length > 0) {
                    Instant at = startedAt(j);
                    found.add(new Found(folder.save(audio, at), at, Math.round(audio.length / 16.0)));
                }
                Files.delete(j);
                LOG.info("recovered {} ms of an interrupted dictation from {}", Math.round(audio.length / 16.0),
                        j.getFileName());
            } catch (IOException | RuntimeException e) {
                LOG.warn("interrupted dictation {} not recovered: {}", j.getFileName(), e.getMessage());
            }
        }
        return found;
    }

    /**
     * Writes the RIFF and data sizes that the journal's writer would have written at its end, from the
     * file's length (whole 16-bit samples; WavWriter's 44-byte PCM header, sizes at bytes 4 and 40).
     */
    private static void sealHeader(Path journal) throws IOException {
        try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long data = Math.max(0, (ch.size() - 44) & ~1L);
            if (data > 0xFFFF_FFFFL - 36) {
                throw new IOException("journal longer than a WAV can be");
            }
            ByteBuffer size = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            ch.write(size.putInt(0, (int) (36 + data)), 4);
            ch.write(size.clear().putInt(0, (int) data), 40);
        }
    }

    /** The start time from the journal's name ("capture-1764250000123.wav.part", "…-2.wav.part"). */
    private static Instant startedAt(Path journal) throws IOException {
        String n = journal.getFileName().toString();
        String stamp = n.substring(CaptureJournal.PREFIX.length(), n.length() - CaptureJournal.SUFFIX.length());
        int dash = stamp.indexOf('-');
        try {
            return Instant.ofEpochMilli(Long.parseLong(dash < 0 ? stamp : stamp.substring(0, dash)));
        } catch (NumberFormatException e) {
            return Files.getLastModifiedTime(journal).toInstant();
        }
    }
}
