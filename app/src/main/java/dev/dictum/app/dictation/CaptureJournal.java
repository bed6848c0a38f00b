package dev.dictum.app.dictation;

import dev.dictum.app.files.OwnerOnly;
import java.io.IOException;
import dev.dictum.audio.WavWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audio of the recording in progress, appended to {@code capture-<epoch ms>.wav.part} (owner-only)
 * as the microphone delivers it, so a dictation survives the process dying before its WAV is saved
 * ({@code kill -9}, a driver fault that takes the JVM down):
 * {@link InterruptedRecordings} turns what is left at the next start into a recording marked
 * "interrupted". Deleted once the recording's WAV is saved (or it was discarded as too short).
 *
 * <p>Write-behind: the capture thread only queues a copy; one writer thread for the whole app appends
 * (no fsync: a killed process loses nothing the kernel has; a power cut may lose the last seconds). At most {@link #MAX_PENDING_BYTES} wait per
 * journal: when the disk is slower than that, chunks are left out of the journal (never out of the
 * recording kept in memory) rather than holding up capture or growing without bound.
 */
final class CaptureJournal {
    private static final Logger LOG = LoggerFactory.getLogger(CaptureJournal.class);
    static final String PREFIX = "capture-";
    static final String SUFFIX = ".wav.part";
    /** 32 s of 16 kHz 16-bit audio. */
    static final long MAX_PENDING_BYTES = 1 << 20;
    private static final ExecutorService WRITER = Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().name("dictum-capture-journal").daemon().unstarted(r));

    private final Path file;
    private final AtomicLong pending = new AtomicLong();
    private WavWriter wav; // guarded by this; null once closed or failed
    private boolean dropped; // guarded by this

    private CaptureJournal(Path file, WavWriter wav) {
        this.file = file;
        this.wav = wav;
    }

    /**
     * Creates the journal of a recording started at {@code startedAt} in {@code dir}.
     *
     * @throws IOException when it cannot be created (the recording goes on without one)
     */
    static CaptureJournal open(Path dir, Instant startedAt) throws IOException {
        OwnerOnly.createDirectories(dir);
        Path file = dir.resolve(PREFIX + startedAt.toEpochMilli() + SUFFIX);
        for (int i = 2; Files.exists(file); i++) {
            file = dir.resolve(PREFIX + startedAt.toEpochMilli() + "-" + i + SUFFIX);
        }
        OwnerOnly.createFile(file);
        try {
            // The header's sizes stay 0 until the end; the WAV reader takes a data chunk that runs to the file's end.
            return new CaptureJournal(file, WavWriter.create(file, 16000, 1, WavWriter.Format.PCM_16));
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** {@link #open}, or null (logged) when the journal cannot be created: the recording goes on in memory. */
    static CaptureJournal openOrNull(Path dir, Instant startedAt) {
        try {
            return open(dir, startedAt);
        } catch (IOException e) {
            LOG.warn("no capture journal for this recording: {}", e.getMessage());
            return null;
        }
    }

    Path file() {
        return file;
    }

    /** Queues the samples for the file; never blocks (called on the capture thread). */
    void append(float[] samples16k) {
        float[] copy = samples16k.clone(); // the capture thread may reuse its array
        long bytes = 2L * copy.length;
        if (pending.addAndGet(bytes) > MAX_PENDING_BYTES) {
            pending.addAndGet(-bytes);
            synchronized (this) {
                if (!dropped) {
                    dropped = true;
                    LOG.warn("capture journal {}: the disk is behind, audio left out of it", file.getFileName());
                }
            }
            return;
        }
        WRITER.execute(() -> write(copy, bytes));
    }

    private synchronized void write(float[] samples, long bytes) {
        pending.addAndGet(-bytes);
        if (wav == null) {
            return;
        }
        try {
            wav.write(samples); // in the kernel's hands once this returns: a killed process loses none of it
        } catch (IOException | RuntimeException e) {
            // Disk full or gone: what is in the file stays recoverable; the WAV is saved from memory as before.
            LOG.warn("capture journal {} stopped: {}", file.getFileName(), e.getMessage());
            closeQuietly();
        }
    }

    /** The recording is saved (or not worth keeping): stops writing and deletes the journal. */
    synchronized void discard() {
        closeQuietly();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("capture journal {} not deleted: {}", file.getFileName(), e.getMessage());
        }
    }

    private void closeQuietly() {
        if (wav != null) {
            try {
                wav.close();
            } catch (IOException e) {
                // nothing more to write to it
            }
            wav = null;
        }
    }
}
