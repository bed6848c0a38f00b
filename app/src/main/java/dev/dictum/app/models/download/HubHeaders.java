package dev.dictum.app.models.download;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a file's HTTP answer (and the redirects before it) tells about the file.
 *
 * <p>The Hugging Face hub answers {@code /resolve/} with a redirect to its CDN that carries
 * {@code X-Linked-Etag} (for LFS files: the SHA-256 of the content) and {@code X-Linked-Size}; when it
 * serves a file itself, its {@code ETag} is that SHA-256 (LFS) or the git blob SHA-1 (small files).
 *
 * @param sha256         the published SHA-256, if any answer stated one
 * @param gitBlobSha1    the git blob SHA-1 (of {@code "blob <size>\0" + content}), for small non-LFS files
 * @param linkedSize     the size the hub states for the file, if it does
 * @param validator      a strong ETag or Last-Modified of the final answer, for {@code If-Range}
 */
record HubHeaders(Optional<String> sha256, Optional<String> gitBlobSha1, OptionalLong linkedSize,
                  Optional<String> validator) {

    private static final Pattern HEX = Pattern.compile("^(?:W/)?\"?([0-9a-fA-F]+)(?:-gzip)?\"?$");

    static HubHeaders of(HttpResponse<?> response) {
        String sha256 = null;
        String blob = null;
        long size = -1;
        // Walk from the final answer back through the redirects; the hub's own headers win.
        for (HttpResponse<?> r = response; r != null; r = r.previousResponse().orElse(null)) {
            HttpHeaders h = r.headers();
            for (String name : new String[] {"x-linked-etag", "etag"}) {
                String hex = hex(h.firstValue(name).orElse(null));
                if (hex != null && hex.length() == 64) {
                    sha256 = hex;
                } else if (hex != null && hex.length() == 40) {
                    blob = hex;
                }
            }
            long linked = h.firstValueAsLong("x-linked-size").orElse(-1);
            if (linked >= 0) {
                size = linked;
            }
        }
        HttpHeaders fin = response.headers();
        String validator = fin.firstValue("etag").filter(e -> !e.startsWith("W/"))
                .or(() -> fin.firstValue("last-modified")).orElse(null);
        return new HubHeaders(Optional.ofNullable(sha256), Optional.ofNullable(blob),
                size >= 0 ? OptionalLong.of(size) : OptionalLong.empty(), Optional.ofNullable(validator));
    }

    private static String hex(String etag) {
        if (etag == null) {
            return null;
        }
        Matcher m = HEX.matcher(etag.trim());
        return m.matches() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    }

    /** The {@code Content-Range} of a 206 or 416 answer: first byte and total size ({@code -1} unknown). */
    record ContentRange(long first, long total) {
        private static final Pattern RANGE = Pattern.compile("bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)");
        private static final Pattern UNSATISFIED = Pattern.compile("bytes\\s+\\*/(\\d+)");

        static Optional<ContentRange> of(HttpHeaders headers) {
            String v = headers.firstValue("content-range").orElse("").trim();
            Matcher m = RANGE.matcher(v);
            if (m.matches()) {
                return Optional.of(new ContentRange(Long.parseLong(m.group(1)),
                        m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3))));
            }
            m = UNSATISFIED.matcher(v);
            return m.matches() ? Optional.of(new ContentRange(-1, Long.parseLong(m.group(1)))) : Optional.empty();
        }
    }
}
