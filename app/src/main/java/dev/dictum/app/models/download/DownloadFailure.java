package dev.dictum.app.models.download;

import java.io.IOException;

/** Why a model download stopped, with one line for the user. */
public final class DownloadFailure extends IOException {

    /** What went wrong; {@link #resumable()} says whether starting the download again continues it. */
    public enum Reason {
        /** The connection failed or dropped more often than the retries allow. */
        NETWORK(true),
        /** The server answered with an error status (404, 403, 500 …). */
        HTTP_STATUS(true),
        /** The bytes do not hash to the published SHA-256 / SHA-1. */
        CHECKSUM(false),
        /** The server's sizes contradict each other or the file. */
        SIZE(false),
        /** The disk filled up (or would: the free-space check before starting). */
        DISK_FULL(false),
        /** Writing the file failed for another reason (permissions, I/O error). */
        STORAGE(false),
        /** The user cancelled; what was downloaded is kept for a resume. */
        CANCELLED(true),
        /** The same model is already being downloaded, or is already installed. */
        CONFLICT(false);

        private final boolean resumable;

        Reason(boolean resumable) {
            this.resumable = resumable;
        }

        /** True when the partial file is kept and a new start continues from it. */
        public boolean resumable() {
            return resumable;
        }
    }

    private final Reason reason;

    public DownloadFailure(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public DownloadFailure(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    public boolean resumable() {
        return reason.resumable();
    }
}
