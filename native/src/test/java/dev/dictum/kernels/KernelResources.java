package dev.dictum.kernels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The packed kernels as the runtime sees them: class-path resources under /dev/dictum/kernels. */
final class KernelResources {
    static final String ROOT = "/dev/dictum/kernels/";

    final JsonNode manifest;

    KernelResources() {
        manifest = json(bytes("manifest.json"));
    }

    /** Module name → its kernel names, in manifest order. */
    Map<String, List<String>> modules() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (JsonNode mod : manifest.get("modules")) {
            List<String> ks = new ArrayList<>();
            mod.get("kernels").forEach(k -> ks.add(k.asText()));
            m.put(mod.get("name").asText(), ks);
        }
        return m;
    }

    List<String> strings(String field) {
        List<String> out = new ArrayList<>();
        JsonNode n = manifest.get(field);
        if (n.isArray()) {
            n.forEach(e -> out.add(e.asText()));
        } else {
            out.add(n.asText());
        }
        return out;
    }

    /** The bytes of {@code <target>/<module>.<ext>}, or of a path under the root. */
    static byte[] bytes(String path) {
        try (InputStream in = KernelResources.class.getResourceAsStream(ROOT + path)) {
            if (in == null) {
                throw new IllegalStateException("resource " + ROOT + path + " is missing (did build-kernels.sh run?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(byte[] b) {
        try {
            return new ObjectMapper().readTree(b);
        } catch (IOException e) {
            throw new UncheckedIOException("manifest.json is not JSON", e);
        }
    }
}
