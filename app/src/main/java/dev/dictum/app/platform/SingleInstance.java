package dev.dictum.app.platform;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One Dictum per user: an OS file lock on {@code dictum.lock} in the data directory. The OS
 * releases it when the process ends however it ends, so a crash never leaves Dictum "running".
 */
public final class SingleInstance implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private SingleInstance(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock, or null when another Dictum holds it. */
    public static SingleInstance acquire(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        FileChannel ch = FileChannel.open(dataDir.resolve("dictum.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        try {
            FileLock l = ch.tryLock();
            if (l == null) {
                ch.close();
                return null;
            }
            return new SingleInstance(ch, l);
        } catch (OverlappingFileLockException e) {
            ch.close();
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
