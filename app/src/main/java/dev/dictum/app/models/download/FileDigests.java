package dev.dictum.app.models.download;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 and SHA-1 of a file, fed as its bytes arrive (and from disk for a resumed prefix). */
final class FileDigests {

    private final MessageDigest sha256 = newDigest("SHA-256");
    private final MessageDigest sha1 = newDigest("SHA-1");
    private long length;

    void update(byte[] buf, int off, int len) {
        sha256.update(buf, off, len);
        sha1.update(buf, off, len);
        length += len;
    }

    /** Bytes hashed so far. */
    long length() {
        return length;
    }

    /** Starts over from the first {@code bytes} of {@code file} (a part kept from an earlier attempt). */
    static FileDigests ofPrefix(Path file, long bytes) throws IOException {
        FileDigests d = new FileDigests();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            long left = bytes;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    throw new IOException(file + " is shorter than the " + bytes + " bytes recorded for it");
                }
                d.update(buf, 0, n);
                left -= n;
            }
        }
        return d;
    }

    String sha256Hex() {
        return HexFormat.of().formatHex(clone(sha256).digest());
    }

    String sha1Hex() {
        return HexFormat.of().formatHex(clone(sha1).digest());
    }

    /** The git blob SHA-1 of a file (what the hub states as the ETag of small, non-LFS files). */
    static String gitBlobSha1(Path file) throws IOException {
        MessageDigest d = newDigest("SHA-1");
        d.update(("blob " + Files.size(file) + "\0").getBytes(StandardCharsets.US_ASCII));
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    private static MessageDigest clone(MessageDigest d) {
        try {
            return (MessageDigest) d.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's " + d.getAlgorithm() + " cannot be cloned", e);
        }
    }

    private static MessageDigest newDigest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + algorithm, e);
        }
    }
}
