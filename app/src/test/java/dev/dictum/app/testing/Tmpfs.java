package dev.dictum.app.testing;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;

/** A real small file system for disk-full tests: a tmpfs mounted for the test (root with mount rights, Linux). */
public final class Tmpfs {
    private Tmpfs() {
    }

    /** Mounts a tmpfs of {@code size} ("64k", "2m") on {@code at}; skips the test with the reason when it cannot. */
    public static void mount(Path at, String size, String name) throws Exception {
        assumeThat(System.getProperty("os.name")).as("skipped: tmpfs needs Linux").startsWith("Linux");
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, name, at.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assumeThat(p.waitFor() == 0).as("skipped: cannot mount a tmpfs here (%s)", out).isTrue();
    }

    public static void unmount(Path at) throws Exception {
        new ProcessBuilder("umount", at.toString()).inheritIO().start().waitFor();
    }
}
