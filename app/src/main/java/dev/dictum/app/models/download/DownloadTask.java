package dev.dictum.app.models.download;

import dev.dictum.app.models.catalog.CatalogVariant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A running model download: its progress, its result, and a cancel that keeps what was downloaded so
 * that the next start of the same model resumes it.
 */
public final class DownloadTask {

    private final CatalogVariant variant;
    private final CompletableFuture<InstalledModel> result = new CompletableFuture<>();
    private final Supplier<DownloadProgress> progress;
    private volatile TransferControl control;
    private volatile boolean cancelRequested;

    DownloadTask(CatalogVariant variant, Supplier<DownloadProgress> progress) {
        this.variant = variant;
        this.progress = progress;
    }

    public CatalogVariant variant() {
        return variant;
    }

    /** Completes with the installed model, or exceptionally with a {@link DownloadFailure}. */
    public CompletableFuture<InstalledModel> result() {
        return result;
    }

    /** The latest progress snapshot. */
    public DownloadProgress progress() {
        return progress.get();
    }

    /** Stops the download; the bytes so far stay for a resume. Safe to call at any time, more than once. */
    public void cancel() {
        cancelRequested = true;
        TransferControl c = control;
        if (c != null) {
            c.cancel();
        }
    }

    void attach(TransferControl c) {
        control = c;
        if (cancelRequested) {
            c.cancel();
        }
    }

    TransferControl control() {
        return control;
    }

    CompletableFuture<InstalledModel> future() {
        return result;
    }
}
