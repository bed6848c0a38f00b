package dev.dictum.app.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that hold what the user said (recordings, history, logs, settings) are theirs alone:
 * folders 0700 and files 0600 where the file system has POSIX modes (Linux), whatever the umask.
 * On Windows nothing is changed: files under %APPDATA% and %LOCALAPPDATA% inherit the profile's
 * per-user ACLs, which already keep other users out.
 */
public final class OwnerOnly {
    static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private OwnerOnly() {
    }

    /** Like {@link Files#createDirectories}, with every folder it creates (and {@code dir} itself) owner-only. */
    public static Path createDirectories(Path dir) throws IOException {
        if (!posix(dir)) {
            return Files.createDirectories(dir);
        }
        Files.createDirectories(dir, attr(DIR));
        Files.setPosixFilePermissions(dir, DIR);
        return dir;
    }

    /** Creates an empty owner-only file, or makes an existing one owner-only. */
    public static Path createFile(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createDirectories(parent);
        }
        if (!posix(file)) {
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
            return file;
        }
        try {
            Files.createFile(file, attr(FILE));
        } catch (FileAlreadyExistsException e) {
            Files.setPosixFilePermissions(file, FILE);
        }
        return file;
    }

    /**
     * Makes {@code root} and everything under it owner-only (folders 0700, files 0600), for files
     * written by an older version or under a looser umask. Symbolic links are not followed; a file
     * that cannot be changed is skipped (it is reported by the caller's own use of it, if at all).
     */
    public static void tighten(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS) || !posix(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                    set(d, DIR);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                    if (a.isRegularFile()) {
                        set(f, FILE);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // walkFileTree reports per-file failures through visitFileFailed; nothing else is expected
        }
    }

    private static void set(Path p, Set<PosixFilePermission> perms) {
        try {
            Files.setPosixFilePermissions(p, perms);
        } catch (IOException | UnsupportedOperationException e) {
            // not ours (another owner) or a read-only mount: leave it
        }
    }

    private static boolean posix(Path p) {
        Path probe = p.toAbsolutePath();
        while (probe != null && !Files.exists(probe)) {
            probe = probe.getParent();
        }
        try {
            return probe != null && Files.getFileStore(probe).supportsFileAttributeView("posix");
        } catch (IOException e) {
            return false;
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> attr(Set<PosixFilePermission> perms) {
        return PosixFilePermissions.asFileAttribute(perms);
    }
}
