package dev.dictum.app.models.download;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Hugging Face-like hub on 127.0.0.1 for download tests: {@code /REPO/resolve/REV/PATH} redirects to
 * {@code /cdn/REPO/PATH} with {@code X-Linked-Etag}/{@code X-Linked-Size} (LFS files) or answers itself
 * with the git blob SHA-1 as ETag (small files), as the real hub does. Ranges and If-Range are honoured;
 * faults are injected per file: a dropped connection, a lying Content-Length, a throttle.
 */
public final class LocalHub implements AutoCloseable {

    /** A file the hub serves, with the faults it shows. */
    public static final class Hosted {
        volatile byte[] content;
        volatile String version = "v1";
        /** LFS: redirect with X-Linked-Etag = SHA-256; otherwise served directly with a git blob ETag. */
        volatile boolean lfs = true;
        volatile boolean publishHash = true;
        volatile boolean publishSize = true;
        /** A hash to publish instead of the real one (a corrupted mirror). */
        volatile String publishedSha256;
        /** Close the connection after this many body bytes, on the first {@link #dropTimes} answers. */
        volatile long dropAfter = -1;
        final AtomicInteger dropTimes = new AtomicInteger();
        /** Close every ranged (206) answer after this many bytes. */
        volatile long dropRangedAfter = -1;
        /** Content-Length to announce on full (200) answers instead of the true one. */
        volatile long announcedLength = -1;
        /** Bytes per second, 0 for as fast as possible. */
        public volatile long throttle;

        Hosted(byte[] content) {
            this.content = content;
        }

        void replace(byte[] newContent, String newVersion) {
            content = newContent;
            version = newVersion;
        }
    }

    private final HttpServer server;
    private final Map<String, Hosted> files = new ConcurrentHashMap<>();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final AtomicLong bytesServed = new AtomicLong();
    private final AtomicInteger active = new AtomicInteger();
    final AtomicInteger maxActive = new AtomicInteger();

    public LocalHub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "local-hub");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    public Hosted host(String repo, String path, byte[] content) {
        Hosted h = new Hosted(content);
        files.put(repo + "/" + path, h);
        return h;
    }

    /** The Range headers the server saw for {@code path}, in order ("" for a request without one). */
    List<String> rangesFor(String path) {
        return requests.stream().filter(r -> r.startsWith("GET /cdn/") && r.contains("/" + path + " "))
                .map(r -> r.substring(r.indexOf(" range=") + 7)).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        int now = active.incrementAndGet();
        maxActive.accumulateAndGet(now, Math::max);
        try {
            String path = ex.getRequestURI().getPath();
            String range = ex.getRequestHeaders().getFirst("Range");
            String ifRange = ex.getRequestHeaders().getFirst("If-Range");
            requests.add(ex.getRequestMethod() + " " + path + " range=" + (range == null ? "" : range)
                    + (ifRange == null ? "" : " if-range=" + ifRange));
            int resolve = path.indexOf("/resolve/");
            if (resolve > 0) {
                String repo = path.substring(1, resolve);
                String rest = path.substring(resolve + "/resolve/".length());
                String file = rest.substring(rest.indexOf('/') + 1);
                Hosted h = files.get(repo + "/" + file);
                if (h == null) {
                    ex.getResponseHeaders().add("X-Error-Code", "EntryNotFound");
                    ex.sendResponseHeaders(404, -1);
                    return;
                }
                if (h.lfs) {
                    if (h.publishHash) {
                        ex.getResponseHeaders().add("X-Linked-Etag", "\"" + sha256(h) + "\"");
                    }
                    if (h.publishSize) {
                        ex.getResponseHeaders().add("X-Linked-Size", Long.toString(h.content.length));
                    }
                    ex.getResponseHeaders().add("Location", "/cdn/" + repo + "/" + file);
                    ex.sendResponseHeaders(302, -1);
                    return;
                }
                serve(ex, h, range, ifRange, h.publishHash ? "\"" + gitBlobSha1(h.content) + "\"" : null);
                return;
            }
            if (path.startsWith("/cdn/")) {
                Hosted h = files.get(path.substring("/cdn/".length()));
                if (h == null) {
                    ex.sendResponseHeaders(404, -1);
                    return;
                }
                serve(ex, h, range, ifRange, "\"" + h.version + "\"");
                return;
            }
            ex.sendResponseHeaders(404, -1);
        } finally {
            active.decrementAndGet();
            ex.close();
        }
    }

    private void serve(HttpExchange ex, Hosted h, String range, String ifRange, String etag) throws IOException {
        byte[] content = h.content;
        if (etag != null) {
            ex.getResponseHeaders().add("ETag", etag);
        }
        ex.getResponseHeaders().add("Accept-Ranges", "bytes");
        long first = 0;
        boolean partial = false;
        if (range != null && range.startsWith("bytes=") && range.endsWith("-")
                && (ifRange == null || ifRange.equals(etag))) {
            first = Long.parseLong(range.substring(6, range.length() - 1));
            if (first >= content.length) {
                ex.getResponseHeaders().add("Content-Range", "bytes */" + content.length);
                ex.sendResponseHeaders(416, -1);
                return;
            }
            partial = true;
        }
        long length = content.length - first;
        long announced = length;
        long send = length;
        if (partial) {
            ex.getResponseHeaders().add("Content-Range", "bytes " + first + "-" + (content.length - 1) + "/" + content.length);
        } else if (h.announcedLength >= 0) {
            announced = h.announcedLength;
            send = Math.min(length, announced);
        }
        if (h.dropAfter >= 0 && h.dropTimes.getAndDecrement() > 0) {
            send = Math.min(send, h.dropAfter);
        }
        if (partial && h.dropRangedAfter >= 0) {
            send = Math.min(send, h.dropRangedAfter);
        }
        ex.sendResponseHeaders(partial ? 206 : 200, announced);
        OutputStream out = ex.getResponseBody();
        int chunk = 16 * 1024;
        long start = System.nanoTime();
        long written = 0;
        try {
            while (written < send) {
                int n = (int) Math.min(chunk, send - written);
                out.write(content, (int) (first + written), n);
                out.flush();
                written += n;
                bytesServed.addAndGet(n);
                if (h.throttle > 0) {
                    long due = start + written * 1_000_000_000L / h.throttle;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away (a cancel): nothing to do
        }
        if (written < announced) {
            // Fewer bytes than announced: the JDK server then tears the connection down, which the client
            // sees as a connection dropped mid-file.
            throw new IOException("connection dropped on purpose after " + written + " bytes");
        }
    }

    static String sha256(Hosted h) {
        return h.publishedSha256 != null ? h.publishedSha256 : sha256(h.content);
    }

    static String sha256(byte[] b) {
        return hex("SHA-256", b, null);
    }

    static String sha1(byte[] b) {
        return hex("SHA-1", b, null);
    }

    static String gitBlobSha1(byte[] b) {
        return hex("SHA-1", b, ("blob " + b.length + "\0").getBytes(StandardCharsets.US_ASCII));
    }

    private static String hex(String algorithm, byte[] b, byte[] prefix) {
        try {
            MessageDigest d = MessageDigest.getInstance(algorithm);
            if (prefix != null) {
                d.update(prefix);
            }
            return HexFormat.of().formatHex(d.digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
