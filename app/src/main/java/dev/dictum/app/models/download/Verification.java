package dev.dictum.app.models.download;

/** How a downloaded file was checked, strongest first; the model manager shows it. */
public enum Verification {
    /** SHA-256 equal to the one in Dictum's catalog. */
    CATALOG_SHA256("SHA-256 from Dictum's catalog"),
    /** SHA-256 equal to the one the hub published with the download (LFS object id). */
    HUB_SHA256("SHA-256 published by the hub"),
    /** SHA-1 equal to the one the model's maintainers published (whisper.cpp's list). */
    PUBLISHED_SHA1("SHA-1 published by whisper.cpp"),
    /** Git blob SHA-1 equal to the hub's ETag (small configuration files). */
    HUB_GIT_SHA1("git blob SHA-1 published by the hub"),
    /** No hash was published anywhere: only the size was checked. */
    SIZE_ONLY("size only (no published hash)");

    private final String label;

    Verification(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
