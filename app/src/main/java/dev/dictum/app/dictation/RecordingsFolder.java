package dev.dictum.app.dictation;

import dev.dictum.app.files.OwnerOnly;
import dev.dictum.audio.WavWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The recordings folder: every dictation is written here as a 16 kHz mono WAV before its
 * transcript is awaited, and only the newest {@code keep} are kept. A WAV is written to a
 * {@code .part} file and renamed when complete, so a full disk or a crash never leaves a 0-byte or
 * truncated recording under a real name (and a stale {@code .part} is removed by {@link #prune}).
 */
public final class RecordingsFolder {
    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    private final Path dir;

    public RecordingsFolder(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /**
     * Writes the recording; the name sorts by time ("dictation-20261123-051503-042.wav").
     *
     * @throws IOException when it cannot be written (disk full, no rights); nothing is left behind then
     */
    public Path save(float[] samples16k, Instant startedAt) throws IOException {
        OwnerOnly.createDirectories(dir);
        Path file = dir.resolve("dictation-" + NAME.format(startedAt) + ".wav");
        for (int i = 2; Files.exists(file); i++) {
            file = dir.resolve("dictation-" + NAME.format(startedAt) + "-" + i + ".wav");
        }
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            OwnerOnly.createFile(part);
            WavWriter.write(part, samples16k, 16000, 1, WavWriter.Format.PCM_16);
            Files.move(part, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(part);
            throw e;
        }
        return file;
    }

    /** Why a recording could not be written, in words: "the disk is full" rather than the system's ENOSPC text. */
    public static String reason(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("No space left") || m.contains("not enough space") || m.contains("Disk quota")) {
            return "the disk is full";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "no permission to write in " + dev.dictum.app.files.PathText.quoted(e instanceof
                    java.nio.file.FileSystemException f && f.getFile() != null ? f.getFile() : ".");
        }
        return m;
    }

    /** Deletes all but the newest {@code keep} recordings, never {@code protect} (a failed one awaiting retry). */
    public void prune(int keep, Path protect) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> listed = s.toList();
            for (Path p : listed) {
                if (p.getFileName().toString().matches("dictation-.*\\.wav\\.part")) {
                    Files.deleteIfExists(p); // left by a crash mid-write; never a recording
                }
            }
            List<Path> all = listed.stream().filter(p -> p.getFileName().toString().matches("dictation-.*\\.wav"))
                    .sorted().toList();
            for (int i = 0; i < all.size() - keep; i++) {
                if (!all.get(i).equals(protect)) {
                    Files.deleteIfExists(all.get(i));
                }
            }
        } catch (IOException e) {
            // the folder could not be listed or a file is locked: try again after the next dictation
        }
    }
}
