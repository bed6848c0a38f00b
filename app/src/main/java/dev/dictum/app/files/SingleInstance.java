package dev.dictum.app.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * One Dictum per user: an OS file lock on {@code dictum.lock} in the data directory. The OS
 * releases it when the process ends however it ends, so a crash never leaves Dictum "running".
 * A second start that finds the lock taken touches {@code dictum.poke}; the running Dictum
 * watches for that and says on screen that it is already running (a start from a desktop menu
 * has no terminal to read the message in).
 */
public final class SingleInstance implements AutoCloseable {
    private static final String POKE = "dictum.poke";
    private final FileChannel channel;
    private final FileLock lock;
    private final Path dir;
    private volatile WatchService watcher;

    private SingleInstance(FileChannel channel, FileLock lock, Path dir) {
        this.channel = channel;
        this.lock = lock;
        this.dir = dir;
    }

    /** Tells the running Dictum that someone tried to start another (best effort). */
    public static void poke(Path dataDir) {
        try {
            // created owner-only first: the umask would leave it readable by every user (issue 23 item 6)
            Files.writeString(OwnerOnly.createFile(dataDir.resolve(POKE)), Long.toString(System.currentTimeMillis()));
        } catch (IOException e) {
            // the running instance just will not say anything
        }
    }

    /** Calls {@code onPoke} (on a daemon thread) whenever a second start pokes this instance. */
    public void onPoke(Runnable onPoke) throws IOException {
        WatchService w = dir.getFileSystem().newWatchService();
        dir.register(w, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
        watcher = w;
        Thread.ofPlatform().daemon().name("dictum-single-instance").start(() -> {
            try {
                while (true) {
                    WatchKey key = w.take();
                    boolean poked = false;
                    for (WatchEvent<?> e : key.pollEvents()) {
                        poked |= e.context() instanceof Path p && p.toString().equals(POKE);
                    }
                    key.reset();
                    if (poked) {
                        onPoke.run();
                    }
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                // closed at quit
            }
        });
    }

    /** The lock, or null when another Dictum holds it. */
    public static SingleInstance acquire(Path dataDir) throws IOException {
        OwnerOnly.createDirectories(dataDir);
        FileChannel ch = FileChannel.open(OwnerOnly.createFile(dataDir.resolve("dictum.lock")),
                StandardOpenOption.WRITE);
        try {
            FileLock l = ch.tryLock();
            if (l == null) {
                ch.close();
                return null;
            }
            return new SingleInstance(ch, l, dataDir);
        } catch (OverlappingFileLockException e) {
            ch.close();
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        if (watcher != null) {
            watcher.close();
        }
        lock.release();
        channel.close();
    }
}
