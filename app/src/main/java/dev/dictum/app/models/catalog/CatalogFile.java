package dev.dictum.app.models.catalog;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One file of a catalog variant.
 *
 * @param path        the file's path in the hub repository (and in the installed folder)
 * @param approxBytes its approximate size: for progress and the free-space check; the server's size rules
 * @param sha1        the SHA-1 a maintainer published for it (whisper.cpp's models/README.md), or null
 * @param sha256      a SHA-256 known in advance, or null (then the hub's published LFS hash is used)
 * @param optional    true when the model works without it (a hub 404 is then skipped)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CatalogFile(String path, long approxBytes, String sha1, String sha256, boolean optional) {

    public CatalogFile {
        if (path == null || path.isBlank() || path.startsWith("/") || path.contains("..") || path.contains("\\")) {
            throw new IllegalArgumentException("catalog file path must be relative and plain: " + path);
        }
        sha1 = lowerHexOrNull(sha1, 40, path);
        sha256 = lowerHexOrNull(sha256, 64, path);
    }

    private static String lowerHexOrNull(String hex, int length, String path) {
        if (hex == null) {
            return null;
        }
        String h = hex.toLowerCase(java.util.Locale.ROOT);
        if (!h.matches("[0-9a-f]{" + length + "}")) {
            throw new IllegalArgumentException("catalog hash for " + path + " is not " + length + " hex digits: " + hex);
        }
        return h;
    }
}
