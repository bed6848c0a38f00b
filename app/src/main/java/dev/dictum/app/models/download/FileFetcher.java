package dev.dictum.app.models.download;

import dev.dictum.app.models.catalog.CatalogFile;
import dev.dictum.app.models.download.DownloadFailure.Reason;
import dev.dictum.app.models.download.HubHeaders.ContentRange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Downloads one file into its {@code .part}, resuming what an earlier attempt left (a {@code Range}
 * request guarded by {@code If-Range}), retrying dropped connections, and verifying the result against
 * the strongest hash available. The part is only ever renamed into place by {@link ModelDownloader}.
 */
final class FileFetcher {

    /** Retry and stall limits. */
    record Options(int maxAttempts, Duration firstBackoff, Duration idleTimeout) {
        static final Options DEFAULTS = new Options(6, Duration.ofMillis(500), Duration.ofSeconds(30));
    }

    /** A part that passed verification. */
    record Fetched(Path part, long size, String sha256, Verification verification) {}

    private static final int BUFFER = 1 << 16;

    private final HttpClient client;
    private final Options options;
    private final PartWriter writer;
    private final TransferControl control;
    private final ProgressMeter meter;

    FileFetcher(HttpClient client, Options options, PartWriter writer, TransferControl control, ProgressMeter meter) {
        this.client = client;
        this.options = options;
        this.writer = writer;
        this.control = control;
        this.meter = meter;
    }

    /**
     * Fetches {@code spec} from {@code uri} into {@code part}; empty when an optional file does not exist
     * on the server.
     */
    Optional<Fetched> fetch(URI uri, CatalogFile spec, Path part) throws DownloadFailure {
        Path stateFile = part.resolveSibling(part.getFileName() + ".json");
        meter.file(spec.path());
        PartState state = PartState.read(stateFile);
        long have = size(part);
        if (state == null || !state.url().equals(uri.toString())) {
            have = restart(part, have);
            state = PartState.fresh(uri.toString());
        }
        meter.alreadyHave(have);
        long expected = spec.approxBytes();
        if (state.total() >= 0) {
            meter.correctTotal(expected, state.total());
            expected = state.total();
        }
        FileDigests digests = null;
        int attempts = 0;
        int failuresWithoutProgress = 0;
        while (true) {
            checkCancelled(spec);
            control.activity();
            attempts++;
            long before = have;
            try {
                if (state.verified() && have == state.total()) {
                    break;
                }
                HttpResponse<InputStream> response = send(uri, have, state);
                int status = response.statusCode();
                HubHeaders hub = HubHeaders.of(response);
                try (InputStream body = response.body()) {
                    if (status == 404 && spec.optional()) {
                        deleteQuietly(part, stateFile);
                        meter.discard(have);
                        meter.correctTotal(expected, 0);
                        return Optional.empty();
                    }
                    if (status == 416) {
                        // Nothing after byte `have`: the part is complete by the server's own account
                        // (even if an earlier Content-Length claimed more; the hash decides below).
                        long real = ContentRange.of(response.headers()).map(ContentRange::total).orElse(-1L);
                        if (real == have) {
                            state = state.withServer(hub, real);
                            writeState(state, stateFile, part);
                            break;
                        }
                        // The file is shorter than our part, or the server states no size: start over.
                        state = PartState.fresh(uri.toString());
                        have = restart(part, have);
                        digests = null;
                        continue;
                    }
                    if (status != 200 && status != 206) {
                        throw statusFailure(spec, status, uri);
                    }
                    long first = 0;
                    long total;
                    if (status == 206) {
                        ContentRange range = ContentRange.of(response.headers()).orElse(null);
                        if (range == null || range.first() != have) {
                            // A range we did not ask for: drop it and fetch the whole file.
                            state = PartState.fresh(uri.toString());
                            have = restart(part, have);
                            continue;
                        }
                        first = have;
                        total = range.total() >= 0 ? range.total() : have + response.headers()
                                .firstValueAsLong("content-length").orElse(-1);
                    } else {
                        if (have > 0) {
                            // 200 to a range request: the file changed (If-Range failed) or ranges are not
                            // supported. Either way the bytes we have are not a prefix we can trust.
                            have = restart(part, have);
                            digests = null;
                        }
                        long length = response.headers().firstValueAsLong("content-length").orElse(-1);
                        total = length;
                    }
                    if (state.sha256() != null && hub.sha256().isPresent() && !hub.sha256().get().equals(state.sha256())) {
                        // The hub now publishes another file under this name: the part is of the old one.
                        state = PartState.fresh(uri.toString());
                        have = restart(part, have);
                        continue;
                    }
                    if (total >= 0 && total != expected) {
                        meter.correctTotal(expected, total);
                        expected = total;
                    }
                    state = state.withServer(hub, total);
                    writeState(state, stateFile, part);
                    if (digests == null || digests.length() != first) {
                        digests = prefixDigests(part, first);
                    }
                    have = copy(body, part, first, digests, spec);
                }
                if (state.total() >= 0 && have < state.total()) {
                    throw new IOException("the connection ended at " + have + " of " + state.total() + " bytes");
                }
                break;
            } catch (DownloadFailure f) {
                throw f;
            } catch (StorageFailure s) {
                throw s.asFailure(part);
            } catch (IOException | InterruptedException e) {
                boolean stalled = control.takeStall();
                checkCancelled(spec);
                have = size(part);
                failuresWithoutProgress = have > before ? 0 : failuresWithoutProgress + 1;
                if (attempts >= options.maxAttempts() * 2 || failuresWithoutProgress >= options.maxAttempts()) {
                    throw new DownloadFailure(Reason.NETWORK, spec.path() + ": "
                            + (stalled ? "no data for " + options.idleTimeout().toSeconds() + " s" : networkReason(e))
                            + " (" + attempts + " attempts)" + (have > 0 ? "; " + mb(have) + " kept, start again to resume"
                            : ""), e);
                }
                backoff(failuresWithoutProgress);
            }
        }
        return Optional.of(verify(spec, part, stateFile, state, have, digests));
    }

    private HttpResponse<InputStream> send(URI uri, long have, PartState state) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET().header("Accept-Encoding", "identity")
                .timeout(Duration.ofSeconds(60));
        if (have > 0) {
            request.header("Range", "bytes=" + have + "-");
            if (state.validator() != null) {
                request.header("If-Range", state.validator());
            }
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    private long copy(InputStream body, Path part, long first, FileDigests digests, CatalogFile spec)
            throws IOException {
        byte[] buf = new byte[BUFFER];
        long have = first;
        try (OutputStream out = writer.open(part, first > 0)) {
            for (int n; (n = body.read(buf)) >= 0; ) {
                if (n == 0) {
                    continue;
                }
                try {
                    out.write(buf, 0, n);
                } catch (IOException e) {
                    throw new StorageFailure(e);
                }
                digests.update(buf, 0, n);
                have += n;
                control.activity();
                meter.transferred(n);
                if (control.cancelled()) {
                    break;
                }
            }
        } catch (StorageFailure e) {
            throw e;
        } catch (IOException e) {
            if (isWriteFailure(e)) {
                throw new StorageFailure(e);
            }
            throw e;
        }
        return have;
    }

    private Fetched verify(CatalogFile spec, Path part, Path stateFile, PartState state, long have, FileDigests digests)
            throws DownloadFailure {
        try {
            if (digests == null || digests.length() != have) {
                digests = FileDigests.ofPrefix(part, have);
            }
            if (state.total() >= 0 && have != state.total()) {
                throw fail(part, stateFile, Reason.SIZE, spec.path() + ": received " + have + " bytes, the server announced "
                        + state.total() + "; the download was discarded");
            }
            String sha256 = digests.sha256Hex();
            Verification how = null;
            String expected256 = spec.sha256() != null ? spec.sha256() : state.sha256();
            if (expected256 != null) {
                if (!expected256.equals(sha256)) {
                    throw fail(part, stateFile, Reason.CHECKSUM, spec.path() + ": SHA-256 " + sha256 + " does not match the published "
                            + expected256 + "; the download was discarded");
                }
                how = spec.sha256() != null ? Verification.CATALOG_SHA256 : Verification.HUB_SHA256;
            }
            if (spec.sha1() != null) {
                String sha1 = digests.sha1Hex();
                if (!spec.sha1().equals(sha1)) {
                    throw fail(part, stateFile, Reason.CHECKSUM, spec.path() + ": SHA-1 " + sha1 + " does not match the published "
                            + spec.sha1() + "; the download was discarded");
                }
                how = how == null ? Verification.PUBLISHED_SHA1 : how;
            }
            if (how == null && state.gitBlobSha1() != null) {
                String blob = FileDigests.gitBlobSha1(part);
                if (!state.gitBlobSha1().equals(blob)) {
                    throw fail(part, stateFile, Reason.CHECKSUM, spec.path() + ": git SHA-1 " + blob + " does not match the hub's "
                            + state.gitBlobSha1() + "; the download was discarded");
                }
                how = Verification.HUB_GIT_SHA1;
            }
            if (how == null) {
                // Nothing to hash against: at least refuse a size far from what the model should be.
                long approx = spec.approxBytes();
                if (approx >= (1 << 20) && Math.abs(have - approx) > approx / 8) {
                    throw fail(part, stateFile, Reason.SIZE, spec.path() + ": received " + mb(have) + ", expected about "
                            + mb(approx) + " and no hash was published to check it; the download was discarded");
                }
                how = Verification.SIZE_ONLY;
            }
            state.asVerified().write(stateFile);
            return new Fetched(part, have, sha256, how);
        } catch (DownloadFailure f) {
            throw f;
        } catch (IOException e) {
            throw new DownloadFailure(Reason.STORAGE, spec.path() + ": cannot read back the download: " + describe(e), e);
        }
    }

    private void checkCancelled(CatalogFile spec) throws DownloadFailure {
        if (control.cancelled()) {
            Thread.interrupted();
            throw new DownloadFailure(Reason.CANCELLED, spec.path() + ": download cancelled; start again to resume");
        }
    }

    private long restart(Path part, long have) throws DownloadFailure {
        try {
            Files.deleteIfExists(part);
        } catch (IOException e) {
            throw new DownloadFailure(Reason.STORAGE, "cannot delete " + part + ": " + describe(e), e);
        }
        meter.discard(have);
        return 0;
    }

    private FileDigests prefixDigests(Path part, long bytes) throws IOException {
        return bytes == 0 ? new FileDigests() : FileDigests.ofPrefix(part, bytes);
    }

    private void writeState(PartState state, Path stateFile, Path part) throws DownloadFailure {
        try {
            state.write(stateFile);
        } catch (IOException e) {
            throw new StorageFailure(e).asFailure(part);
        }
    }

    private static DownloadFailure fail(Path part, Path stateFile, Reason reason, String message) {
        deleteQuietly(part, stateFile);
        return new DownloadFailure(reason, message);
    }

    private DownloadFailure statusFailure(CatalogFile spec, int status, URI uri) {
        String why = switch (status) {
            case 401, 403 -> "the hub refuses access (HTTP " + status + "; the repository may need a login)";
            case 404 -> "the hub has no such file (HTTP 404)";
            default -> "the server answered HTTP " + status;
        };
        return new DownloadFailure(Reason.HTTP_STATUS, spec.path() + ": " + why + " at " + uri);
    }

    private void backoff(int failures) throws DownloadFailure {
        long millis = Math.min(5_000, options.firstBackoff().toMillis() << Math.min(failures, 10));
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            if (control.cancelled()) {
                Thread.interrupted();
                throw new DownloadFailure(Reason.CANCELLED, "download cancelled; start again to resume");
            }
            control.takeStall();
        }
    }

    static long size(Path part) {
        try {
            return Files.exists(part) ? Files.size(part) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    static void deleteQuietly(Path... files) {
        for (Path f : files) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException ignored) {
                // best effort: a leftover part is never offered as a model
            }
        }
    }

    static String mb(long bytes) {
        return bytes < 0 ? "an unknown size" : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m.strip());
    }

    /**
     * Why a connection failed, in a user's words: no network, the name not found (DNS), refused, a
     * timeout, a secure connection that failed; the exception's own text only when none applies.
     */
    static String networkReason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return "the server's name could not be looked up (DNS): no network, or no name server answers";
            }
            if (m.contains("network is unreachable") || m.contains("no route to host")) {
                return "no network connection";
            }
            if (t instanceof java.net.ConnectException && m.contains("refused")) {
                return "the server refused the connection";
            }
            if (t instanceof java.net.http.HttpTimeoutException || t instanceof java.net.SocketTimeoutException) {
                return "the server did not answer in time";
            }
            if (t instanceof javax.net.ssl.SSLException) {
                return "a secure connection could not be made (" + t.getMessage() + ")";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                // The HTTP client's ConnectException often has no message at all: say what it means.
                return "could not connect to the server (no network, or nothing answers there)";
            }
        }
        return describe(e);
    }

    static boolean isDiskFull(IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return m.contains("no space left") || m.contains("not enough space") || m.contains("disk quota");
    }

    private static boolean isWriteFailure(IOException e) {
        return isDiskFull(e);
    }

    /** A write to the part failed: the disk, not the network. Never retried. */
    static final class StorageFailure extends IOException {
        StorageFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }

        DownloadFailure asFailure(Path part) {
            IOException cause = (IOException) getCause();
            return isDiskFull(cause)
                    ? new DownloadFailure(Reason.DISK_FULL, "the disk is full: " + part.getFileName() + " stopped after "
                            + mb(size(part)) + "; the partial download was removed", cause)
                    : new DownloadFailure(Reason.STORAGE, "cannot write " + part + ": " + describe(cause), cause);
        }
    }
}
