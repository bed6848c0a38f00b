package dev.dictum.app.models.download;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Opens a part file for appending. A seam for tests of a disk that fills mid-download on machines where
 * a small tmpfs cannot be mounted; the product always uses {@link #FILES}.
 */
@FunctionalInterface
interface PartWriter {

    /**
     * {@link FileOutputStream}, not a {@code FileChannel}: a cancel interrupts the downloading thread, and
     * an interruptible channel would be closed by that in the middle of a write.
     */
    PartWriter FILES = (part, append) -> new FileOutputStream(part.toFile(), append);

    OutputStream open(Path part, boolean append) throws IOException;
}
