package dev.dictum.whisper.format;

import dev.dictum.gpu.HostTensor;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The canonical tensors of one opened model, checked once against {@link WhisperTensorLayout}:
 * every tensor present, none unknown, every shape right. Lookups check the caller's shape again.
 */
public final class TensorTable {
    private final String file;
    private final Map<String, HostTensor> tensors;

    private TensorTable(String file, Map<String, HostTensor> tensors) {
        this.file = file;
        this.tensors = tensors;
    }

    /**
     * @throws ModelFormatException naming the first missing, unknown or misshapen tensor
     */
    public static TensorTable checked(String file, WhisperDims dims, Map<String, HostTensor> tensors) {
        Map<String, long[]> layout = WhisperTensorLayout.shapes(dims);
        for (var e : layout.entrySet()) {
            HostTensor t = tensors.get(e.getKey());
            if (t == null) {
                throw new ModelFormatException(file + ": missing tensor " + e.getKey());
            }
            if (!Arrays.equals(t.shape(), e.getValue())) {
                throw new ModelFormatException(file + ": tensor " + e.getKey() + " has shape "
                        + Arrays.toString(t.shape()) + ", the model's dimensions need " + Arrays.toString(e.getValue()));
            }
        }
        for (String name : tensors.keySet()) {
            if (!layout.containsKey(name)) {
                throw new ModelFormatException(file + ": unknown tensor " + UntrustedText.quoted(name)
                        + " (not part of a Whisper model with these dimensions)");
            }
        }
        Map<String, HostTensor> ordered = new LinkedHashMap<>();
        layout.keySet().forEach(n -> ordered.put(n, tensors.get(n)));
        return new TensorTable(file, Collections.unmodifiableMap(ordered));
    }

    /** Canonical names in checkpoint order. */
    public Set<String> names() {
        return tensors.keySet();
    }

    public HostTensor get(String name, long... expectedShape) {
        HostTensor t = tensors.get(name);
        if (t == null) {
            throw new ModelFormatException(file + ": missing tensor " + UntrustedText.quoted(name));
        }
        if (!Arrays.equals(t.shape(), expectedShape)) {
            throw new ModelFormatException(file + ": tensor " + name + " has shape " + Arrays.toString(t.shape())
                    + ", expected " + Arrays.toString(expectedShape));
        }
        return t;
    }
}
