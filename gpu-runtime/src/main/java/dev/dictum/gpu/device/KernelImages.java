package dev.dictum.gpu.device;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernels packed as resources by native/ ({@code /dev/dictum/kernels/manifest.json} and
 * {@code /dev/dictum/kernels/<target>/<module>.<ext>}) and the choice of image for a device: on HIP
 * the code object for its gfx target, on CUDA the cubin for its exact sm, else the PTX (JIT).
 */
public final class KernelImages {
    static final String ROOT = "/dev/dictum/kernels/";
    /** CUDA version the PTX/cubins were built with when the manifest does not say (CUDA 13.0). */
    static final int DEFAULT_CUDA_BUILD = 13000;

    private final JsonNode manifest;

    private KernelImages(JsonNode manifest) {
        this.manifest = manifest;
    }

    /** The packed kernels, or an exception saying they are not on the class path. */
    public static KernelImages load() {
        try (InputStream in = KernelImages.class.getResourceAsStream(ROOT + "manifest.json")) {
            if (in == null) {
                throw new GpuException("kernel images", "no " + ROOT + "manifest.json on the class path"
                        + " (the dictum-native jar is missing or was built without kernels)");
            }
            return new KernelImages(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the kernel manifest", e);
        }
    }

    /** Targets the build packed (gfx1010 ..., ptx, sm_80 ...), as the manifest lists them. */
    public List<String> targets() {
        List<String> out = new ArrayList<>();
        manifest.path("amdTargets").forEach(n -> out.add(n.asText()));
        if (manifest.hasNonNull("ptxArch")) {
            out.add("ptx(" + manifest.path("ptxArch").asText() + ")");
        }
        manifest.path("cudaTargets").forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Kernel names of a module, as the manifest lists them (empty if it does not). */
    public List<String> kernelsOf(String module) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : manifest.path("modules")) {
            if (module.equals(m.path("name").asText())) {
                m.path("kernels").forEach(k -> out.add(k.asText()));
            }
        }
        return out;
    }

    /**
     * The CUDA version (1000·major + 10·minor) the NVIDIA images were compiled with: a driver must
     * support at least this version to load them.
     */
    public int cudaBuildVersion() {
        if (manifest.path("cudaVersion").canConvertToInt()) {
            return manifest.path("cudaVersion").asInt();
        }
        Matcher m = Pattern.compile("(?:release |cuda[\" :_-]*|nvcc[\" :_-]*V?)(\\d{2})\\.(\\d)",
                Pattern.CASE_INSENSITIVE).matcher(manifest.toString());
        return m.find() ? Integer.parseInt(m.group(1)) * 1000 + Integer.parseInt(m.group(2)) * 10
                : DEFAULT_CUDA_BUILD;
    }

    /** The image of {@code module} for {@code props} on {@code api}: resource path and bytes. */
    public Image image(String api, DeviceProps props, String module) {
        List<String> tried = new ArrayList<>();
        if (api.equals("hip")) {
            String path = props.arch() + "/" + module + ".hsaco";
            tried.add(path);
            byte[] b = read(path);
            if (b != null) {
                return new Image(path, b);
            }
        } else {
            for (String path : List.of(props.arch() + "/" + module + ".cubin", "ptx/" + module + ".ptx")) {
                tried.add(path);
                byte[] b = read(path);
                if (b != null) {
                    return new Image(path, b);
                }
            }
        }
        throw new GpuException("kernel images", "no code object for " + props.archFull() + " (module " + module
                + ", looked for " + String.join(", ", tried) + "; packed targets: " + String.join(" ", targets())
                + ")");
    }

    private static byte[] read(String path) {
        try (InputStream in = KernelImages.class.getResourceAsStream(ROOT + path)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(ROOT + path, e);
        }
    }

    /** One image: where it came from and its bytes. */
    public record Image(String path, byte[] bytes) {
    }
}
