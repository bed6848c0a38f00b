package dev.dictum.app.models.download;

import dev.dictum.app.models.catalog.CatalogFile;
import dev.dictum.app.models.catalog.CatalogVariant;
import dev.dictum.app.models.download.DownloadFailure.Reason;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads catalog models from a Hugging Face-style hub into a models folder.
 *
 * <p>Files arrive in {@code MODELS/.dictum-downloads/INSTALL/NAME.part} with a state file beside each,
 * so a cancel, a dropped connection or a restart resumes where it stopped. Only when every file of a
 * model has been verified is the model moved into place with one atomic rename (the ggml file, or the
 * whole folder): a model in the models folder is always complete. Several models may download at
 * once; the same model twice is refused.
 */
public final class ModelDownloader implements AutoCloseable {

    /** The folder under the models folder that holds unfinished downloads; discovery never looks inside. */
    public static final String STAGING = ".dictum-downloads";
    /** The hub Dictum downloads from. */
    public static final URI HUGGING_FACE = URI.create("https://huggingface.co/");

    private static final Logger log = LoggerFactory.getLogger(ModelDownloader.class);
    private static final long FREE_SPACE_MARGIN = 16L << 20;

    private final HttpClient client;
    private final URI hub;
    private final FileFetcher.Options options;
    private final PartWriter writer;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "dictum-download-watchdog");
        t.setDaemon(true);
        return t;
    });
    private final Map<Path, DownloadTask> running = new ConcurrentHashMap<>();

    /** Downloads from the Hugging Face hub. */
    public ModelDownloader() {
        this(defaultClient(), HUGGING_FACE, FileFetcher.Options.DEFAULTS, PartWriter.FILES);
    }

    /** Downloads from {@code hub} (a mirror, or a local test server) with the default client. */
    public ModelDownloader(URI hub) {
        this(defaultClient(), hub, FileFetcher.Options.DEFAULTS, PartWriter.FILES);
    }

    ModelDownloader(HttpClient client, URI hub, FileFetcher.Options options, PartWriter writer) {
        this.client = client;
        this.hub = hub.toString().endsWith("/") ? hub : URI.create(hub + "/");
        this.options = options;
        this.writer = writer;
    }

    static HttpClient defaultClient() {
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(20)).build();
    }

    /** Where {@code variant} is (or will be) installed under {@code modelsDir}. */
    public static Path installPath(CatalogVariant variant, Path modelsDir) {
        return modelsDir.resolve(variant.install());
    }

    /** The folder holding {@code variant}'s unfinished download. */
    public static Path stagingPath(CatalogVariant variant, Path modelsDir) {
        return modelsDir.resolve(STAGING).resolve(variant.install());
    }

    /** Bytes already downloaded toward {@code variant} (what a start would resume from). */
    public static long partialBytes(CatalogVariant variant, Path modelsDir) {
        Path staging = stagingPath(variant, modelsDir);
        if (!Files.isDirectory(staging)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(staging)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".part")).mapToLong(FileFetcher::size).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Deletes an unfinished download of {@code variant}. */
    public void discardPartial(CatalogVariant variant, Path modelsDir) throws IOException {
        if (running.containsKey(installPath(variant, modelsDir).toAbsolutePath().normalize())) {
            throw new DownloadFailure(Reason.CONFLICT, variant.id() + " is downloading; cancel it first");
        }
        deleteTree(stagingPath(variant, modelsDir));
    }

    /**
     * Starts downloading {@code variant} into {@code modelsDir} on a thread of its own. Fails at once
     * when the model is already installed or downloading, or when the disk clearly lacks the space.
     */
    public DownloadTask start(CatalogVariant variant, Path modelsDir, Consumer<DownloadProgress> listener)
            throws DownloadFailure {
        Path target = installPath(variant, modelsDir).toAbsolutePath().normalize();
        if (Files.exists(target)) {
            throw new DownloadFailure(Reason.CONFLICT, variant.id() + " is already installed at " + target);
        }
        Path staging = stagingPath(variant, modelsDir);
        try {
            dev.dictum.app.files.OwnerOnly.createDirectories(staging); // folders Dictum creates are the user's alone
        } catch (IOException e) {
            throw new DownloadFailure(Reason.STORAGE, "cannot create " + staging + ": " + FileFetcher.describe(e), e);
        }
        checkFreeSpace(variant, modelsDir, staging);
        ProgressMeter meter = new ProgressMeter(variant.approxBytes(), listener, System::nanoTime);
        DownloadTask task = new DownloadTask(variant, meter::latest);
        if (running.putIfAbsent(target, task) != null) {
            throw new DownloadFailure(Reason.CONFLICT, variant.id() + " is already downloading");
        }
        Thread worker = Thread.ofPlatform().daemon().name("dictum-download-" + variant.install()).unstarted(() -> {
            InstalledModel installed = null;
            DownloadFailure failure = null;
            try {
                installed = run(variant, modelsDir, staging, target, meter, task);
            } catch (DownloadFailure f) {
                log.info("download of {} stopped: {}", variant.id(), f.getMessage());
                if (!f.resumable() && f.reason() != Reason.CONFLICT) {
                    deleteQuietly(staging);
                }
                failure = f;
            } catch (RuntimeException | Error e) {
                failure = new DownloadFailure(Reason.STORAGE, variant.id() + ": download failed: "
                        + FileFetcher.describe(e), e);
            } finally {
                meter.finish();
                // Out of the running set before anyone hears the result, so a restart is never refused.
                running.remove(target);
            }
            if (failure != null) {
                task.future().completeExceptionally(failure);
            } else {
                task.future().complete(installed);
            }
        });
        task.attach(new TransferControl(worker, options.idleTimeout().toMillis(), scheduler));
        worker.start();
        return task;
    }

    private InstalledModel run(CatalogVariant variant, Path modelsDir, Path staging, Path target, ProgressMeter meter,
                               DownloadTask task) throws DownloadFailure {
        TransferControl control = task.control();
        try {
            FileFetcher fetcher = new FileFetcher(client, options, writer, control, meter);
            Map<String, Verification> checked = new LinkedHashMap<>();
            for (CatalogFile file : variant.files()) {
                URI uri = hub.resolve(variant.repo() + "/resolve/" + variant.revision() + "/" + file.path());
                Path part = staging.resolve(file.path() + ".part");
                Optional<FileFetcher.Fetched> fetched = fetcher.fetch(uri, file, part);
                fetched.ifPresent(f -> checked.put(file.path(), f.verification()));
            }
            if (control.cancelled()) {
                throw new DownloadFailure(Reason.CANCELLED, variant.id() + ": download cancelled; start again to resume");
            }
            install(variant, staging, target);
            log.info("installed {} at {}", variant.id(), target);
            return new InstalledModel(variant, target, checked);
        } finally {
            control.stop();
        }
    }

    /**
     * Moves the verified parts into place: one rename for a ggml file; for a folder, the parts are renamed
     * inside the staging folder (which nothing scans) and the folder is then renamed into place.
     */
    private static void install(CatalogVariant variant, Path staging, Path target) throws DownloadFailure {
        try {
            if (variant.singleFile()) {
                Path part = staging.resolve(variant.files().getFirst().path() + ".part");
                Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
                deleteTree(staging);
                return;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(staging)) {
                for (Path p : files) {
                    String name = p.getFileName().toString();
                    if (name.endsWith(".part.json")) {
                        Files.delete(p);
                    } else if (name.endsWith(".part")) {
                        Files.move(p, p.resolveSibling(name.substring(0, name.length() - ".part".length())),
                                StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            }
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            removeIfEmpty(staging.getParent());
        } catch (IOException e) {
            throw new DownloadFailure(Reason.STORAGE, variant.id() + ": cannot move the download into " + target + ": "
                    + FileFetcher.describe(e), e);
        }
    }

    private static void checkFreeSpace(CatalogVariant variant, Path modelsDir, Path staging) throws DownloadFailure {
        long needed = Math.max(0, variant.approxBytes() - partialBytes(variant, modelsDir));
        long free;
        try {
            free = Files.getFileStore(staging).getUsableSpace();
        } catch (IOException e) {
            log.warn("cannot tell the free space at {}: {}", staging, e.toString());
            return;
        }
        // A margin for the file system's own blocks and the catalog's sizes being approximate.
        long margin = Math.max(1L << 20, needed / 50);
        if (free < needed + margin) {
            deleteQuietly(staging);
            throw new DownloadFailure(Reason.DISK_FULL, variant.id() + " needs about " + FileFetcher.mb(needed)
                    + " but only " + FileFetcher.mb(free) + " is free on the disk of " + modelsDir);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
        removeIfEmpty(dir.getParent());
    }

    /** Removes the staging root once no download is left in it. */
    private static void removeIfEmpty(Path stagingRoot) {
        if (stagingRoot == null || stagingRoot.getFileName() == null
                || !stagingRoot.getFileName().toString().equals(STAGING)) {
            return;
        }
        try (Stream<Path> left = Files.list(stagingRoot)) {
            if (left.findAny().isEmpty()) {
                Files.deleteIfExists(stagingRoot);
            }
        } catch (IOException ignored) {
            // another download may have just created something there: it stays
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException e) {
            log.warn("cannot remove the partial download {}: {}", dir, e.toString());
        }
    }

    @Override
    public void close() {
        running.values().forEach(DownloadTask::cancel);
        scheduler.shutdownNow();
    }
}
